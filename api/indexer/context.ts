// What every indexer handler needs: the store, chain settings, REST lookups, and the indexed tip.
import type { Request, RequestHandler, Response } from 'express';
import type { Store } from '../../clickhouse/client.js';
import { indexedHeight } from '../../clickhouse/queries/status.js';
import type { ChainLookups } from './chain.js';
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
  /** Last complete indexed height; reads never show rows above it (a block being written is invisible). */
  tip(): Promise<number>;
}

/** The tip is read at most every `ttlMs` (one query shared by all concurrent requests). */
export function tipCache(store: Store, ttlMs = 200): () => Promise<number> {
  let value: Promise<number> | null = null;
  let at = 0;
  return () => {
    const now = Date.now();
    if (!value || now - at > ttlMs) {
      at = now;
      const next = indexedHeight(store);
      value = next;
      next.catch(() => {
        if (value === next) value = null; // do not cache a failure
      });
    }
    return value;
  };
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
