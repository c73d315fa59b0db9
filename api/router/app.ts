// The router service app: route, msgs and op-hook (issue 4) plus the tracking routes (issue 5) when given.
// One OpenAPI document drives both /swagger/doc.json and request validation.
import express, { type Express } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import { createServiceApp } from '../http/app.js';
import type { CorsSettings } from '../http/cors.js';
import { addEdgeLane, transferStatusLane } from '../http/edge.js';
import { errorHandler, notFoundHandler } from '../http/errors.js';
import { createQuoteProvider, type LzQuoteProvider } from '../../routing/lz-quote.js';
import type { Registry } from '../../routing/registry.js';
import { z } from 'zod';
import { ConfigError, type AppConfig } from '../../platform/config.js';
import { ClientLimiter, clientLimit, type ClientLimitSettings } from '../http/client-limit.js';
import { BalanceUnavailable, type BalanceReader } from '../../routing/balances.js';
import { createBalanceReader } from '../../routing/balance-reader.js';
import {
  assetsBetweenChainsEndpoint,
  assetsEndpoint,
  assetsFromSourceEndpoint,
  balancesEndpoint,
  bridgesEndpoint,
  chainsEndpoint,
  ibcOriginAssetsEndpoint,
  msgsDirectEndpoint,
  msgsEndpoint,
  opHookEndpoint,
  recommendAssetsEndpoint,
  routeEndpoint,
  submitEndpoint,
  venuesEndpoint,
} from './handlers/fungible.js';
import { routerOpenapi } from './openapi.js';
import type { TrackingRoutes } from './tracking/index.js';
import type { Store } from '../../clickhouse/client.js';
import { mountTransferStats, transferStatsPaths, transferStatsSchemas } from './transfer-stats.js';

export interface RouterAppOptions {
  registry: Registry;
  tracking?: TrackingRoutes;
  /** LayerZero quoteSend provider; defaults to ethers over the source chain's JSON-RPC with a 15 s cache. */
  quoteProvider?: LzQuoteProvider;
  /** The store holding the tracking projection: serves GET /v2/stats/transfers when given. */
  store?: Store;
  /** Cross-origin access; default: any origin (api/http/cors.ts). */
  cors?: CorsSettings;
  /** Proxies whose X-Forwarded-For names the client (TRUST_PROXY_HOPS). */
  trustProxyHops?: number;
  /** Per-client limits on track registrations and balance reads; default 120 a minute, burst 60. */
  clientLimits?: ClientLimitSettings;
  /** Where POST /v2/info/balances reads; default: nowhere (every chain answers "no REST endpoint"). */
  balances?: BalanceReader;
}

/** The balance reader of a deployment: ROUTER_REST_URLS first, then (if allowed) the registry's REST endpoints. */
export function balanceReaderFor(
  registry: Registry,
  opts: { restUrls?: Record<string, string>; fromRegistry: boolean },
): BalanceReader {
  return createBalanceReader({
    restUrl: (chainId) =>
      opts.restUrls?.[chainId] ?? (opts.fromRegistry ? registry.chains.get(chainId)?.rest : undefined),
  });
}

type RouterConfig = Pick<
  AppConfig,
  'ROUTER_CLIENT_WRITES_PER_MINUTE' | 'ROUTER_CLIENT_WRITE_BURST' | 'ROUTER_REST_URLS' | 'ROUTER_BALANCES_FROM_REGISTRY'
>;

/** The router options the validated configuration decides (platform/config.ts ROUTER_*). */
export function routerOptionsFromConfig(
  c: RouterConfig,
  registry: Registry,
): Pick<RouterAppOptions, 'clientLimits' | 'balances'> {
  let restUrls: Record<string, string> | undefined;
  if (c.ROUTER_REST_URLS) {
    let value: unknown;
    try {
      value = JSON.parse(c.ROUTER_REST_URLS);
    } catch {
      value = undefined;
    }
    const parsed = z.record(z.string().url()).safeParse(value);
    if (!parsed.success) throw new ConfigError('config: ROUTER_REST_URLS must be a JSON object chain id → URL');
    restUrls = parsed.data;
  }
  return {
    clientLimits: { perMinute: c.ROUTER_CLIENT_WRITES_PER_MINUTE, burst: c.ROUTER_CLIENT_WRITE_BURST },
    balances: balanceReaderFor(registry, { restUrls, fromRegistry: c.ROUTER_BALANCES_FROM_REGISTRY }),
  };
}

const noBalances: BalanceReader = (chainId) =>
  Promise.reject(new BalanceUnavailable(`${chainId}: no REST endpoint is configured for balances`));

export function createRouterApp(opts: RouterAppOptions): Express {
  const openapi = routerOpenapi(
    { ...opts.tracking?.openapiPaths, ...(opts.store ? transferStatsPaths : {}) },
    { ...opts.tracking?.openapiSchemas, ...(opts.store ? transferStatsSchemas : {}) },
  );
  const app = createServiceApp({
    service: 'router',
    openapi,
    bodyLimit: '64kb',
    cors: opts.cors,
    trustProxyHops: opts.trustProxyHops,
    health: async () => ({ network: opts.registry.network, chains: opts.registry.chains.size }),
  });
  // A status held in memory is answered before express once the server listens (the same answers: api/http/edge.ts).
  const cached = opts.tracking?.cachedStatus;
  if (cached) addEdgeLane(app, transferStatusLane(cached, opts.cors));
  app.use(
    OpenApiValidator.middleware({
      // The validator mutates the spec it is given; keep the served document pristine.
      apiSpec: structuredClone(openapi) as never,
      validateRequests: { allowUnknownQueryParameters: false, coerceTypes: false },
      validateResponses: false,
      ignoreUndocumented: true,
      validateSecurity: false,
    }),
  );
  const deps = { registry: opts.registry, quote: opts.quoteProvider ?? createQuoteProvider() };
  const limits = opts.clientLimits ?? { perMinute: 120, burst: 60 };
  const router = express.Router();
  router.post('/v2/fungible/route', routeEndpoint(deps));
  router.post('/v2/fungible/msgs', msgsEndpoint(deps));
  router.post('/v2/fungible/msgs_direct', msgsDirectEndpoint(deps));
  router.post('/op-hook', opHookEndpoint(deps));
  router.get('/v2/info/chains', chainsEndpoint(deps));
  router.get('/v2/info/bridges', bridgesEndpoint());
  router.get('/v2/fungible/venues', venuesEndpoint());
  router.post(
    '/v2/info/balances',
    clientLimit('balance', new ClientLimiter(limits)),
    balancesEndpoint(deps, opts.balances ?? noBalances),
  );
  router.get('/v2/fungible/assets', assetsEndpoint(deps));
  router.post('/v2/fungible/assets_from_source', assetsFromSourceEndpoint(deps));
  router.get('/v2/fungible/assets_between_chains', assetsBetweenChainsEndpoint(deps));
  router.post('/v2/fungible/assets_between_chains', assetsBetweenChainsEndpoint(deps));
  router.post('/v2/fungible/recommend_assets', recommendAssetsEndpoint(deps));
  router.post('/v2/fungible/ibc_origin_assets', ibcOriginAssetsEndpoint(deps));
  router.post('/v2/tx/submit', submitEndpoint());
  // Registrations are unauthenticated writes: each client has its own bucket, taken before the handler runs.
  if (opts.tracking) router.post('/v2/tx/track', clientLimit('track', new ClientLimiter(limits)));
  // A claim reads the executor: each client has its own bucket, so nobody drives our calls to it.
  if (opts.tracking) router.get('/v2/tx/claim_msgs', clientLimit('claim_msgs', new ClientLimiter(limits)));
  opts.tracking?.mount(router);
  if (opts.store) mountTransferStats(router, opts.store);
  app.use(router);
  app.use(notFoundHandler());
  app.use(errorHandler('router'));
  return app;
}
