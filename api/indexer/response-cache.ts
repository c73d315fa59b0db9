// The response cache, as upstream (docs/indexer.md): a whole 200 body kept under `GET:path?rawquery` as sent, for
// 1 s (lists, status) or 10 s (single objects, avg_blocktime, the rich list), `X-Cache: hit|miss`. Bounded by
// bytes, least recently used out first (a KeyedCache named `response`). Concurrent misses on one key wait for the
// first to finish instead of all asking the engine (no stampede when a hot page expires). Hits are answered by
// the edge (api/http/edge.ts `responseCacheLane`) once the server listens; this middleware answers the requests
// that waited on a computation in flight, and apps that are not behind a listening server (supertest).
import type { Request, RequestHandler, Response } from 'express';
import { servedOf } from '../http/edge.js';
import { KeyedCache, keys } from './read/cache.js';

const TEN_SECONDS = [
  /^\/indexer\/block\/v1\/blocks\/[^/]+$/,
  /^\/indexer\/block\/v1\/avg_blocktime$/,
  /^\/indexer\/tx\/v1\/txs\/(?!by_account$|by_height$)[^/]+$/,
  /^\/indexer\/nft\/v1\/collections\/(?!by_account$|by_name$)[^/]+$/,
  /^\/indexer\/richlist\/v1\/[^/]+$/,
];

export function ttlFor(path: string): number {
  return TEN_SECONDS.some((r) => r.test(path)) ? 10_000 : 1_000;
}

export interface ResponseCache {
  /** The express middleware: serves hits, stores cacheable 200 answers. */
  middleware: RequestHandler;
  /** The fresh body kept for this raw URL (what the edge answers with), if any: its UTF-8 bytes. */
  fresh(url: string): Buffer | undefined;
}

/** Whether a raw URL can have a kept body (what the middleware keeps: /status and the /indexer/ routes). */
const cacheable = (url: string): boolean =>
  url.startsWith('/indexer/') || url === '/status' || url.startsWith('/status?') || url.startsWith('/status/');

export function createResponseCache(maxBytes = 64 * 1024 * 1024): ResponseCache {
  // Kept as the UTF-8 bytes sent, encoded once when stored: a hit writes them as they are (no per-hit encoding or
  // length scan, which grows with the body).
  const bodies = new KeyedCache<Buffer>({ name: 'response', maxBytes, sizeOf: (b) => b.length, order: 'insertion' });
  const inflight = new Map<string, Promise<void>>();

  const serveHit = (url: string, res: Response): boolean => {
    const body = bodies.get(keys.response(url));
    if (body === undefined) return false;
    servedOf(res).edge();
    res.setHeader('X-Cache', 'hit');
    res.type('application/json').send(body);
    return true;
  };
  /** Let the request through to the handlers, keeping its body if it is a cacheable 200. */
  const compute = (url: string, req: Request, res: Response, next: () => void) => {
    res.setHeader('X-Cache', 'miss');
    const send = res.send.bind(res);
    res.send = ((body: unknown) => {
      if (res.statusCode === 200 && typeof body === 'string')
        bodies.set(keys.response(url), Buffer.from(body), ttlFor(req.path));
      return send(body);
    }) as typeof res.send;
    next();
  };

  const middleware: RequestHandler = (req, res, next) => {
    if (req.method !== 'GET' || !(req.path === '/status' || req.path.startsWith('/indexer/'))) return next();
    // An event stream never ends like a page: no kept body, and no waiting on another client's stream. Told apart
    // as express routes it, whatever the case of its path.
    if (req.path.toLowerCase().startsWith('/indexer/stream/')) return next();
    const url = req.originalUrl;
    if (serveHit(url, res)) return;
    const pending = inflight.get(url);
    if (pending) {
      // The same page is being computed: reuse it when it lands, or compute it if it was not cacheable.
      void pending.then(() => {
        if (!serveHit(url, res)) compute(url, req, res, next);
      });
      return;
    }
    let done!: () => void;
    const mine = new Promise<void>((r) => (done = r));
    inflight.set(url, mine);
    const settle = () => {
      if (inflight.get(url) === mine) inflight.delete(url);
      done();
    };
    res.once('finish', settle);
    res.once('close', settle);
    bodies.delete(keys.response(url));
    compute(url, req, res, next);
  };
  return { middleware, fresh: (url) => (cacheable(url) ? bodies.get(keys.response(url)) : undefined) };
}
