// What every indexer handler needs: the store, chain settings, REST lookups, and the indexed tip.
import type { Request, RequestHandler, Response } from 'express';
import type { Store } from '../../clickhouse/client.js';
import type { StatusFacts } from '../../clickhouse/queries/status.js';
import type { ChainLookups } from './chain.js';
import type { CollectionMemory } from './collection-memory.js';
import type { ImmutableCache } from './immutable.js';
import type { TokenMemory } from './token-memory.js';
import type { Vm } from './params.js';

export interface IndexerContext {
  store: Store;
  vm: Vm | undefined;
  bech32Prefix: string;
  chainId: string | undefined;
  version: string;
  commitHash: string;
  evmInternalTxs: boolean;
  chain: ChainLookups;
  /**
   * Last complete indexed height; reads never show rows above it (a block being written is invisible). Kept in
   * memory by the status feed (api/indexer/status-feed.ts): at most ~150 ms old while the API is in use.
   */
  tip(): Promise<number>;
  /** The /status facts, from the same in-memory feed as the tip. */
  statusFacts(): Promise<StatusFacts>;
  /** Answers that can no longer change (api/indexer/immutable.ts). */
  immutable: ImmutableCache;
  /** List totals, keyed by list and tip (a total changes with every block that adds to the list). */
  totals: ImmutableCache;
  /** Every NFT collection's summary at the tip, held in memory (api/indexer/collection-memory.ts). */
  collections: CollectionMemory;
  /** Every live NFT token at the tip, held in memory and updated by deltas (api/indexer/token-memory.ts). */
  tokens: TokenMemory;
}

/** Express 4 does not catch rejected promises: route them to the error handler. */
export const handle =
  (fn: (req: Request, res: Response) => Promise<void>): RequestHandler =>
  (req, res, next) => {
    fn(req, res).catch(next);
  };

/**
 * Send a JSON body that was assembled as text (tx documents are spliced in as stored, never re-parsed).
 * When the app validates responses (tests), parse it and go through res.json so the validator sees it.
 */
export function sendJson(res: Response, body: string): void {
  if (res.app.locals.validateResponses) {
    res.json(JSON.parse(body));
    return;
  }
  res.type('application/json').send(body);
}

export const str = (v: unknown): string => (typeof v === 'string' ? v : String(v ?? ''));
