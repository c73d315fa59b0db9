// The indexer's read model: everything between the HTTP handlers and the engine. One factory builds every family
// (txs, evm, blocks, collections, tokens, rich list, analytics), every keyed cache (cache.ts) and every held state
// (held.ts), and clears them all when the indexed height goes down (a rewind), so a new layer cannot forget to.
// Handlers parse a request, call one read, and render its rows; they choose no statement and build no key.
import type { Store } from '../../../clickhouse/client.js';
import { allCollections } from '../../../clickhouse/queries/collections.js';
import type { Served } from '../../http/edge.js';
import { analyticsReads, type AnalyticsReads } from './analytics.js';
import { blockReads, type BlockReads } from './blocks.js';
import { type CacheFactory, KeyedCache, type KeyedCacheOptions, reportHeld } from './cache.js';
import { CollectionMemory } from './collection-memory.js';
import { collectionReads, type CollectionReads } from './collections.js';
import { evmReads, type EvmReads } from './evm.js';
import type { Held } from './held.js';
import { type ChainLookups, createChainLookups } from './lookups.js';
import { ingestProgress, type IngestProgress } from './progress.js';
import { richListReads, type RichListReads } from './richlist.js';
import { RichListMemory, storeSource } from './richlist-memory.js';
import { type StatusFeed, statusFeed } from './status-feed.js';
import { streamReads, type StreamReads } from './streams.js';
import { TokenMemory } from './token-memory.js';
import { tokenReads, tokenSource, type TokenReads } from './tokens.js';
import { txReads, type TxReads } from './txs.js';

export interface ReadModelOptions {
  store: Store;
  /** The rich list (and its snapshot height in the status facts) exists on EVM rollups only. */
  richList: boolean;
  /** The chain id is read from the indexed blocks (not configured). */
  chainIdFromBlocks: boolean;
  /** Cosmos REST endpoint: proposer monikers, denom → ERC20, the chain head for progress. */
  restUrl?: string;
  /** Replace the REST lookups (tests). */
  lookups?: ChainLookups;
  /** Bytes of the cache of final answers, 0 = off; 64 MiB by default. */
  finalCacheBytes?: number;
  /** Use this instance instead (tests inspect it). */
  finalCache?: KeyedCache<unknown>;
  /** Bytes of rich-list snapshots held, 0 = off; 256 MiB by default. */
  richListMemoryBytes?: number;
  richListMemory?: RichListMemory;
  /** Most NFT collections held; 0 = none (tests: the engine path). */
  collectionsHeld?: number;
  /** Most NFT tokens held; 0 = none (tests: the engine path). */
  tokensHeld?: number;
  tokenMemory?: TokenMemory;
}

export interface ReadModel {
  /** Last complete indexed height; no read shows rows above it. */
  tip(): Promise<number>;
  /** The /status facts, held in memory and refreshed in the background (status-feed.ts). */
  status: StatusFeed;
  txs: TxReads;
  evm: EvmReads;
  blocks: BlockReads;
  collections: CollectionReads;
  tokens: TokenReads;
  richList: RichListReads;
  analytics: AnalyticsReads;
  /** The event streams' reads: lists ascending after a position, bounded by a given tip. */
  streams: StreamReads;
  lookups: ChainLookups;
  progress(served: Served): Promise<IngestProgress>;
}

export function createReadModel(opts: ReadModelOptions): ReadModel {
  const { store } = opts;
  const made: KeyedCache<unknown>[] = [];
  const cache: CacheFactory = <V>(o: KeyedCacheOptions<V>) => {
    const c = new KeyedCache<V>(o);
    made.push(c as KeyedCache<unknown>);
    return c;
  };
  const final =
    opts.finalCache ?? new KeyedCache<unknown>({ name: 'final', maxBytes: opts.finalCacheBytes ?? 64 * 2 ** 20 });
  if (!made.includes(final)) made.push(final);
  // Totals are keyed by the tip (or are final), so they stay on even when the cache of final answers is off.
  const totals = cache<string>({
    name: 'totals',
    maxBytes: Math.max(2 ** 20, (opts.finalCacheBytes ?? 64 * 2 ** 20) / 16),
  });
  const collections = new CollectionMemory((max) => allCollections(store, max), opts.collectionsHeld);
  const tokens = opts.tokenMemory ?? new TokenMemory(tokenSource(store), opts.tokensHeld);
  const richList =
    opts.richListMemory ??
    new RichListMemory(storeSource(store), { budgetBytes: opts.richListMemoryBytes ?? 256 * 2 ** 20 });
  // Every cache and held state this model made, forgotten when the status feed sees the indexed height go down.
  const clear = () => {
    for (const c of made) c.clear();
    for (const h of [collections, tokens, richList]) h.clear();
  };
  const status = statusFeed(
    store,
    // internal_tx_height is the indexed height itself (api/indexer/status.ts): no separate read.
    { internalTxs: false, richList: opts.richList, chainId: opts.chainIdFromBlocks },
    { onRewind: clear },
  );
  const tip = status.tip;
  const lookups = opts.lookups ?? createChainLookups(opts.restUrl);
  const held = [status, collections, tokens, richList] as Held<unknown>[];
  for (const h of held) reportHeld(h);
  return {
    tip,
    status,
    txs: txReads({ store, tip, final, totals, tokens }),
    evm: evmReads({ store, tip, totals }),
    blocks: blockReads({ store, tip, final }),
    collections: collectionReads({ store, tip, totals, collections, tokens, cache }),
    tokens: tokenReads({ store, tip, totals, collections, tokens }),
    richList: richListReads({ store, totals, memory: richList, cache }),
    analytics: analyticsReads({ store, cache }),
    streams: streamReads({ store }),
    lookups,
    progress: (served) => ingestProgress({ store, tip }, opts.restUrl, served),
  };
}
