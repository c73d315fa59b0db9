// The indexer service: express app over a Store, validated by express-openapi-validator from the same
// OpenAPI document it serves at /swagger/doc.json.
import express, { type ErrorRequestHandler, type Express, type RequestHandler } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import { addFastLane, createServiceApp } from '../http/app.js';
import { type CorsSettings, staticCorsHeaders } from '../http/cors.js';
import { ApiError, errorHandler, notFoundHandler } from '../http/errors.js';
import type { Store } from '../../clickhouse/client.js';
import type { AppConfig } from '../../platform/config.js';
import { createResponseCache } from './cache.js';
import { createChainLookups, type ChainLookups } from './chain.js';
import { CollectionMemory } from './collection-memory.js';
import { allCollections } from '../../clickhouse/queries/collections.js';
import type { IndexerContext } from './context.js';
import { statusFeed } from './status-feed.js';
import { ImmutableCache } from './immutable.js';
import { indexerOpenApi } from './openapi.js';
import { paginationMessages } from './pagination.js';
import { registerStatus } from './status.js';
import { registerBlocks } from './blocks.js';
import { registerTxs } from './txs.js';
import { registerEvm } from './evm.js';
import { registerCollections } from './collections.js';
import { registerTokens, tokenSource } from './tokens.js';
import { TokenMemory } from './token-memory.js';
import { registerRichList } from './richlist.js';
import { RichListMemory, storeSource } from './richlist-memory.js';
import { registerStats } from './stats.js';
import { registerDashboard } from './dashboard.js';

export interface IndexerAppOptions {
  store: Store;
  config: Pick<AppConfig, 'CHAIN_ID' | 'VM' | 'BECH32_PREFIX' | 'VERSION' | 'COMMIT_HASH' | 'EVM_INTERNAL_TXS'>;
  /** Cosmos REST endpoint for proposer monikers and rich-list denom resolution. */
  chain?: { restUrl?: string };
  /** Validate every response against the OpenAPI document (tests): a drift becomes a 500. */
  validateResponses?: boolean;
  /** Replace the REST lookups (tests). */
  lookups?: ChainLookups;
  /** Upstream-style response cache (1 s lists, 10 s single objects); on unless false. */
  responseCache?: boolean;
  /**
   * Bytes of the in-process cache of answers that can no longer change (api/indexer/immutable.ts), 0 = off;
   * 64 MiB by default. Independent of `responseCache`.
   */
  immutableCacheBytes?: number;
  /** Use this instance instead (tests inspect it). */
  immutableCache?: ImmutableCache;
  /**
   * Bytes of rich-list snapshots held in memory (api/indexer/richlist-memory.ts), 0 = off; 256 MiB by default.
   */
  richListMemoryBytes?: number;
  /** Use this instance instead (tests inspect it). */
  richListMemory?: RichListMemory;
  /** Most NFT collections held in memory (api/indexer/collection-memory.ts); 0 = none (tests: the engine path). */
  collectionsHeld?: number;
  /** Most NFT tokens held in memory (api/indexer/token-memory.ts); 0 = none (tests: the engine path). */
  tokensHeld?: number;
  /** Use this instance instead (tests inspect it). */
  tokenMemory?: TokenMemory;
  /** Router service base URL: the dashboard shows its transfer statistics when set. */
  routerUrl?: string;
  /** Cross-origin access; default: any origin (api/http/cors.ts). */
  cors?: CorsSettings;
  /**
   * The ingest in this process: subscribe to its "a checkpoint or a snapshot was written" calls, so `/status` and
   * the tip move at once instead of at the status feed's next tick (150 ms).
   */
  onIndexed?: (listener: () => void) => void;
}

/** Routing is non-strict upstream: `/status/` is `/status`. Strip the slash before validation sees the path. */
const trailingSlash: RequestHandler = (req, _res, next) => {
  const q = req.url.indexOf('?');
  const path = q === -1 ? req.url : req.url.slice(0, q);
  if (path.length > 1 && path.endsWith('/')) req.url = path.replace(/\/+$/, '') + (q === -1 ? '' : req.url.slice(q));
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

/** Validator errors on the pagination range and order_by keep the upstream wording (docs/indexer.md). */
const paginationWording: ErrorRequestHandler = (err, req, _res, next) => {
  const first = (err as { errors?: { path?: string }[] })?.errors?.[0]?.path ?? '';
  const status = (err as { status?: number })?.status;
  if (status === 400 && /order_by$/.test(first))
    return next(
      new ApiError(400, `invalid order_by value '${String(req.query.order_by)}', must be one of: token_id, height`),
    );
  if (status === 400 && /pagination\.limit$/.test(first)) return next(new ApiError(400, paginationMessages.limit));
  if (status === 400 && /pagination\.offset$/.test(first) && /minimum|>=/.test(String((err as Error).message)))
    return next(new ApiError(400, paginationMessages.offset));
  next(err);
};

export function createIndexerApp(opts: IndexerAppOptions): Express {
  const { config } = opts;
  const immutable = opts.immutableCache ?? new ImmutableCache(opts.immutableCacheBytes ?? 64 * 2 ** 20);
  // Totals are keyed by the tip (or are final), so they stay on even when the cache of answers is off.
  const totals = new ImmutableCache(Math.max(2 ** 20, immutable.maxBytes / 16));
  const collections = new CollectionMemory((max) => allCollections(opts.store, max), opts.collectionsHeld);
  const tokens = opts.tokenMemory ?? new TokenMemory(tokenSource(opts.store), opts.tokensHeld);
  const richList =
    opts.richListMemory ??
    new RichListMemory(storeSource(opts.store), { budgetBytes: opts.richListMemoryBytes ?? 256 * 2 ** 20 });
  const feed = statusFeed(
    opts.store,
    {
      internalTxs: false, // internal_tx_height is the indexed height (api/indexer/status.ts)
      richList: config.VM === 'evm',
      chainId: config.CHAIN_ID === undefined,
    },
    {
      onRewind: () => {
        immutable.clear();
        totals.clear();
        collections.clear();
        tokens.clear();
        richList.clear();
      },
    },
  );
  opts.onIndexed?.(() => feed.poke());
  const ctx: IndexerContext = {
    store: opts.store,
    vm: config.VM,
    bech32Prefix: config.BECH32_PREFIX,
    chainId: config.CHAIN_ID,
    version: config.VERSION,
    commitHash: config.COMMIT_HASH,
    evmInternalTxs: config.EVM_INTERNAL_TXS,
    chain: opts.lookups ?? createChainLookups(opts.chain?.restUrl),
    tip: feed.tip,
    statusFacts: feed.facts,
    immutable,
    totals,
    collections,
    tokens,
  };
  const app = createServiceApp({
    service: 'indexer',
    openapi: indexerOpenApi,
    cors: opts.cors,
    health: async () => ({ indexed_height: await ctx.tip() }),
  });
  app.locals.validateResponses = opts.validateResponses === true;
  // The dashboard (HTML, scripts) is not part of the JSON API: served before the slash rule, validator, cache.
  registerDashboard(app, { routerUrl: opts.routerUrl, vm: config.VM });
  app.use(trailingSlash);
  app.use(emptyFilters);
  if (opts.responseCache !== false) {
    const cache = createResponseCache();
    app.use(cache.middleware);
    // Hits are also answered before express once the server listens (same answers; api/http/app.ts FastLane).
    const cors = staticCorsHeaders(opts.cors);
    if (cors) addFastLane(app, cache.lane(cors));
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
  registerRichList(router, ctx, richList);
  registerStats(router, ctx, { restUrl: opts.chain?.restUrl });
  app.use(router);
  app.use(notFoundHandler());
  app.use(paginationWording);
  app.use(errorHandler('indexer'));
  return app;
}
