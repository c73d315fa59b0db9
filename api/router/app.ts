// The router service app: route, msgs and op-hook (issue 4) plus the tracking routes (issue 5) when given.
// One OpenAPI document drives both /swagger/doc.json and request validation.
import express, { type Express } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import { addFastLane, createServiceApp } from '../http/app.js';
import { type CorsSettings, staticCorsHeaders } from '../http/cors.js';
import { errorHandler, notFoundHandler } from '../http/errors.js';
import { createQuoteProvider, type LzQuoteProvider } from '../../routing/lz-quote.js';
import type { Registry } from '../../routing/registry.js';
import { assetsEndpoint, chainsEndpoint, msgsEndpoint, opHookEndpoint, routeEndpoint } from './handlers/fungible.js';
import { routerOpenapi } from './openapi.js';
import type { TrackingRoutes } from './tracking/index.js';
import type { Store } from '../../clickhouse/client.js';
import { mountTransferStats, transferStatsPaths, transferStatsSchemas } from './stats.js';

export { loadRouterRegistry } from '../../routing/registry.js';

export interface RouterAppOptions {
  registry: Registry;
  tracking?: TrackingRoutes;
  /** LayerZero quoteSend provider; defaults to ethers over the source chain's JSON-RPC with a 15 s cache. */
  quoteProvider?: LzQuoteProvider;
  /** The store holding the tracking projection: serves GET /v2/stats/transfers when given. */
  store?: Store;
  /** Cross-origin access; default: any origin (api/http/cors.ts). */
  cors?: CorsSettings;
}

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
    health: async () => ({ network: opts.registry.network, chains: opts.registry.chains.size }),
  });
  // The status of a tx in memory is answered before validation (same answer, a third of the CPU).
  opts.tracking?.mountBeforeValidation?.(app);
  // …and, once the server listens, before express itself (same answers; express is most of a status request's CPU).
  const lane = opts.tracking?.fastLane?.(staticCorsHeaders(opts.cors));
  if (lane) addFastLane(app, lane);
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
  const router = express.Router();
  router.post('/v2/fungible/route', routeEndpoint(deps));
  router.post('/v2/fungible/msgs', msgsEndpoint(deps));
  router.post('/op-hook', opHookEndpoint(deps));
  router.get('/v2/info/chains', chainsEndpoint(deps));
  router.get('/v2/fungible/assets', assetsEndpoint(deps));
  opts.tracking?.mount(router);
  if (opts.store) mountTransferStats(router, opts.store);
  app.use(router);
  app.use(notFoundHandler());
  app.use(errorHandler('router'));
  return app;
}
