// What every indexer handler needs: the chain settings and the read model (api/indexer/read/model.ts).
import type { Request, RequestHandler, Response } from 'express';
import { type Served, servedOf } from '../http/edge.js';
import type { ReadModel } from './read/model.js';
import type { Vm } from './params.js';

export interface IndexerContext {
  vm: Vm | undefined;
  bech32Prefix: string;
  chainId: string | undefined;
  version: string;
  commitHash: string;
  evmInternalTxs: boolean;
  /** Every read of indexed data: caches, held state and statements live behind it. */
  read: ReadModel;
}

/**
 * A handler with the request's `Served` tracker (api/http/served.ts). Express 4 does not catch rejected promises:
 * route them to the error handler.
 */
export const handle =
  (fn: (req: Request, res: Response, served: Served) => Promise<void>): RequestHandler =>
  (req, res, next) => {
    fn(req, res, servedOf(res)).catch(next);
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
