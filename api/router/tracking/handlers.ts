// HTTP handlers of POST /v2/tx/track and GET /v2/tx/status. Status never touches Temporal or the chains:
// it reads the latest row of the ClickHouse projection, so it answers while workers are down.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, RequestHandler, Response, Router } from 'express';
import { ApiError, Grpc, badRequest, notFound } from '../../http/errors.js';
import { normaliseTxHash } from '../../../chain/hash.js';
import type { TrackingService } from './service.js';

const CHAIN_ID = /^[A-Za-z0-9._-]{1,64}$/;
const TERMINAL = new Set(['STATE_COMPLETED_SUCCESS', 'STATE_COMPLETED_ERROR', 'STATE_ABANDONED']);
const invalidTx = (reason: string) => new ApiError(400, 'tx is invalid on chain', Grpc.INVALID_ARGUMENT, { reason });

function stringParam(v: unknown, name: string, max: number): string {
  if (typeof v !== 'string' || v.length === 0) throw badRequest(`${name}: is required`);
  if (v.length > max) throw badRequest(`${name}: must be at most ${max} characters`);
  return v;
}

type CachedStatus = (chainId: string, txHash: string) => string | undefined;

/** The stored answer for a query of exactly `chain_id` and `tx_hash`, both plain well-formed strings, if in memory. */
function cachedAnswer(cached: CachedStatus, params: number, chainId: unknown, rawHash: unknown): string | undefined {
  if (params !== 2 || typeof chainId !== 'string' || typeof rawHash !== 'string') return undefined;
  if (rawHash.length === 0 || rawHash.length > 130 || !CHAIN_ID.test(chainId)) return undefined;
  const txHash = normaliseTxHash(rawHash);
  return txHash ? cached(chainId, txHash) : undefined;
}

/**
 * GET /v2/tx/status answered before request validation when that cannot change the answer: exactly the two
 * documented query parameters, both plain strings within the documented lengths, a well-formed hash and the
 * document in memory. Anything else (errors, unknown txs, cache misses) goes on to the validated route, so
 * every error answer is the validator's or the handler's as before. Validation (express-openapi-validator) is
 * about a third of the CPU of a status request; this route is the one polled by every client.
 */
export function statusFastPath(service: TrackingService): RequestHandler {
  const cached = service.cachedStatusJson?.bind(service);
  return (req, res, next) => {
    if (!cached) return next();
    const q = req.query as Record<string, unknown>;
    let n = 0;
    for (const _ in q) n++;
    const json = cachedAnswer(cached, n, q.chain_id, q.tx_hash);
    if (json === undefined) return next();
    res.type('application/json').send(json);
  };
}

const STATUS_PREFIX = '/v2/tx/status?';

/**
 * The same answers as `statusFastPath`, before express (api/http/app.ts `FastLane`): express's per-request work
 * is most of a status request's CPU, and every client polls this route. It answers only a GET of exactly this
 * path with the two parameters once each, under CORS headers that do not depend on the request
 * (`corsHeaders`, null = never answer here); everything else, HEAD and errors included, goes on to express.
 * Headers are those express sends for the same answer.
 */
export function statusFastLane(
  service: TrackingService,
  corsHeaders: Record<string, string> | null,
): ((req: IncomingMessage, res: ServerResponse) => string | null) | undefined {
  const cached = service.cachedStatusJson?.bind(service);
  if (!cached || corsHeaders === null) return undefined;
  return (req, res) => {
    const url = req.url;
    if (req.method !== 'GET' || url === undefined || !url.startsWith(STATUS_PREFIX)) return null;
    const q = new URLSearchParams(url.slice(STATUS_PREFIX.length));
    let n = 0;
    for (const _ of q.keys()) n++;
    const chainId = q.getAll('chain_id');
    const rawHash = q.getAll('tx_hash');
    if (chainId.length !== 1 || rawHash.length !== 1) return null;
    const json = cachedAnswer(cached, n, chainId[0], rawHash[0]);
    if (json === undefined) return null;
    res.writeHead(200, {
      ...corsHeaders,
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(json),
    });
    res.end(json);
    return '/v2/tx/status';
  };
}

export function mountTrackingHandlers(router: Router, service: TrackingService): void {
  router.post('/v2/tx/track', async (req: Request, res: Response, next) => {
    try {
      const body = (req.body ?? {}) as Record<string, unknown>;
      const chainId = stringParam(body.chain_id, 'chain_id', 64);
      const rawHash = stringParam(body.tx_hash, 'tx_hash', 130);
      const txHash = normaliseTxHash(rawHash);
      if (!txHash) throw invalidTx('tx_hash must be 64 hex characters, optionally 0x-prefixed');
      const chain = CHAIN_ID.test(chainId) ? service.chain(chainId) : undefined;
      if (!chain) throw notFound('chain ID not supported');
      if (txHash.startsWith('0x') && !chain.hasEvm)
        throw invalidTx(`${chainId} has no EVM transactions; send the Cosmos tx hash`);
      const now = Date.now();
      // The registration row is the durable record (status answers STATE_SUBMITTED from it at once); the
      // workflow start follows asynchronously and is idempotent, so a retried track is harmless.
      const reg = await service.register(chainId, txHash, now);
      if (reg.error?.type === 'STATUS_ERROR_TRANSACTION_EXECUTION') throw invalidTx(reg.error.message);
      if (!TERMINAL.has(reg.state)) service.startWorkflow(chainId, txHash, now);
      res.json({ tx_hash: txHash, explorer_link: chain.explorerLink(txHash) });
    } catch (e) {
      next(e);
    }
  });

  router.get('/v2/tx/claim_msgs', async (req: Request, res: Response, next) => {
    try {
      const chainId = stringParam(req.query.chain_id, 'chain_id', 64);
      const txHash = normaliseTxHash(stringParam(req.query.tx_hash, 'tx_hash', 130));
      if (!txHash) throw badRequest('tx_hash: must be 64 hex characters, optionally 0x-prefixed');
      const signer =
        req.query.signer_address === undefined
          ? undefined
          : stringParam(req.query.signer_address, 'signer_address', 128);
      if (!CHAIN_ID.test(chainId) || !service.claimMessages) throw notFound('tx not found');
      res.json(await service.claimMessages(chainId, txHash, signer));
    } catch (e) {
      next(e);
    }
  });

  router.get('/v2/tx/status', async (req: Request, res: Response, next) => {
    try {
      const chainId = stringParam(req.query.chain_id, 'chain_id', 64);
      const rawHash = stringParam(req.query.tx_hash, 'tx_hash', 130);
      const txHash = normaliseTxHash(rawHash);
      if (!txHash) throw badRequest('tx_hash: must be 64 hex characters, optionally 0x-prefixed');
      if (!CHAIN_ID.test(chainId)) throw notFound('tx not found');
      const latest = await service.latestStatusJson(chainId, txHash);
      if (latest === null) throw notFound('tx not found');
      res.type('application/json').send(latest);
    } catch (e) {
      next(e);
    }
  });
}
