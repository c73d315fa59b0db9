// The indexer service: express app over a Store, validated by express-openapi-validator from the same
// OpenAPI document it serves at /swagger/doc.json.
import express, { type Express, type RequestHandler } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import type { Store } from '../../clickhouse/client.js';
import type { CommittedItems, HandedLists } from '../../clickhouse/committed-items.js';
import type { AppConfig } from '../../platform/config.js';
import { createServiceApp } from '../http/app.js';
import type { CorsSettings } from '../http/cors.js';
import { addEdgeLane, responseCacheLane } from '../http/edge.js';
import { errorHandler, notFoundHandler } from '../http/errors.js';
import { registerBlocks } from './blocks.js';
import { registerCollections } from './collections.js';
import type { IndexerContext } from './context.js';
import { registerDashboard } from './dashboard.js';
import { registerEvm } from './evm.js';
import { indexerOpenApi } from './openapi.js';
import { validatorWording } from './read/page.js';
import { createReadModel, type ReadModelOptions } from './read/model.js';
import { createResponseCache } from './response-cache.js';
import { registerRichList } from './richlist.js';
import { registerStats } from './analytics.js';
import { registerStatus } from './status.js';
import { registerStreams } from './streams.js';
import { DEFAULT_STREAM_SETTINGS, type StreamSettings } from '../http/stream-admission.js';
import { registerTokens } from './tokens.js';
import { registerTxs } from './txs.js';

/** The read model's own settings (api/indexer/read/model.ts) pass through unchanged. */
type ReadSettings = Pick<
  ReadModelOptions,
  | 'lookups'
  | 'finalCacheBytes'
  | 'finalCache'
  | 'richListMemoryBytes'
  | 'richListMemory'
  | 'collectionsHeld'
  | 'tokensHeld'
  | 'tokenMemory'
>;

export interface IndexerAppOptions extends ReadSettings {
  store: Store;
  config: Pick<AppConfig, 'CHAIN_ID' | 'VM' | 'BECH32_PREFIX' | 'VERSION' | 'COMMIT_HASH' | 'EVM_INTERNAL_TXS'>;
  /** Cosmos REST endpoint for proposer monikers and rich-list denom resolution. */
  chain?: { restUrl?: string };
  /** Validate every response against the OpenAPI document (tests): a drift becomes a 500. */
  validateResponses?: boolean;
  /** Upstream-style response cache (1 s lists, 10 s single objects); on unless false. The `final` cache of the read model is independent of it. */
  responseCache?: boolean;
  /** Router service base URL: the dashboard shows its transfer statistics when set. */
  routerUrl?: string;
  /** Cross-origin access; default: any origin (api/http/cors.ts). */
  cors?: CorsSettings;
  /** Proxies whose X-Forwarded-For names the client (TRUST_PROXY_HOPS). */
  trustProxyHops?: number;
  /**
   * The ingest in this process: subscribe to its "a checkpoint or a snapshot was written" calls, so `/status` and
   * the tip move at once instead of at the status feed's next tick (150 ms).
   */
  onIndexed?: (listener: () => void) => void;
  /**
   * The ingest in this process: its committed heights, on which the event streams advance at once, with the items
   * of the lists asked for by `handLists`.
   */
  onCommitted?: (listener: (height: number, items?: CommittedItems) => void) => void;
  /** The ingest in this process: the lists whose committed items the streams want (those with a stream open). */
  handLists?: (lists: HandedLists) => void;
  /** The event streams' limits (api/indexer/streams.ts); defaults when absent. */
  streams?: Partial<StreamSettings>;
}

/** Routing is non-strict upstream: `/status/` is `/status`. Strip the slash before validation sees the path. */
const trailingSlash: RequestHandler = (req, _res, next) => {
  const q = req.url.indexOf('?');
  const path = q === -1 ? req.url : req.url.slice(0, q);
  // `//` is `/` (an empty path would leave express without a route, and it would answer in HTML).
  if (path.length > 1 && path.endsWith('/'))
    req.url = (path.replace(/\/+$/, '') || '/') + (q === -1 ? '' : req.url.slice(q));
  next();
};

/**
 * An empty filter (`msgs=`, `token_id=`, `collection_addr=`, as form libraries and axios send an empty search
 * box) means no filter, as upstream: drop it before validation, so it is never checked as a value.
 */
const EMPTY_MEANS_ABSENT = ['msgs', 'token_id', 'collection_addr'] as const;
const emptyFilters: RequestHandler = (req, _res, next) => {
  const q = req.query as Record<string, unknown>;
  for (const k of EMPTY_MEANS_ABSENT) {
    const v = q[k];
    if (v === '' || (Array.isArray(v) && v.every((x) => x === ''))) delete q[k];
  }
  next();
};

export function createIndexerApp(opts: IndexerAppOptions): Express {
  const { config } = opts;
  const read = createReadModel({
    ...opts,
    richList: config.VM === 'evm',
    chainIdFromBlocks: config.CHAIN_ID === undefined,
    restUrl: opts.chain?.restUrl,
  });
  opts.onIndexed?.(() => read.status.poke());
  const ctx: IndexerContext = {
    vm: config.VM,
    bech32Prefix: config.BECH32_PREFIX,
    chainId: config.CHAIN_ID,
    version: config.VERSION,
    commitHash: config.COMMIT_HASH,
    evmInternalTxs: config.EVM_INTERNAL_TXS,
    read,
  };
  const app = createServiceApp({
    service: 'indexer',
    openapi: indexerOpenApi,
    cors: opts.cors,
    trustProxyHops: opts.trustProxyHops,
    health: async () => ({ indexed_height: await read.tip() }),
  });
  app.locals.validateResponses = opts.validateResponses === true;
  // The dashboard (HTML, scripts) is not part of the JSON API: served before the slash rule, validator, cache.
  registerDashboard(app, { routerUrl: opts.routerUrl, vm: config.VM });
  app.use(trailingSlash);
  app.use(emptyFilters);
  if (opts.responseCache !== false) {
    const cache = createResponseCache();
    app.use(cache.middleware);
    // Hits are answered before express once the server listens (the same answers: api/http/edge.ts).
    addEdgeLane(app, responseCacheLane(cache.fresh, opts.cors));
  }
  app.use(
    OpenApiValidator.middleware({
      // The validator mutates what it is given; keep the served document pristine.
      apiSpec: structuredClone(indexerOpenApi) as unknown as Parameters<
        typeof OpenApiValidator.middleware
      >[0]['apiSpec'],
      // Unknown query parameters are ignored, as upstream (cache-busters like `_=1700000000`).
      validateRequests: { allowUnknownQueryParameters: true },
      validateResponses: opts.validateResponses === true,
      // Unknown routes fall through to our 404 ("Cannot GET /path"), as upstream.
      ignoreUndocumented: true,
    }),
  );
  const router = express.Router();
  registerStatus(router, ctx);
  registerBlocks(router, ctx);
  registerTxs(router, ctx);
  registerEvm(router, ctx);
  registerCollections(router, ctx);
  registerTokens(router, ctx);
  registerRichList(router, ctx);
  registerStats(router, ctx);
  const streams = registerStreams(router, ctx, { ...DEFAULT_STREAM_SETTINGS, ...opts.streams }, opts.handLists);
  opts.onCommitted?.((height, items) => streams.committed(height, items));
  app.use(router);
  app.use(notFoundHandler());
  app.use(errorHandler('indexer', validatorWording));
  return app;
}
