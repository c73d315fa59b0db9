// Response cache, as upstream (docs/indexer.md): key `GET:path?rawquery` as sent, per-route TTL
// (1 s for lists and status, 10 s for single objects, avg_blocktime and the rich list), `X-Cache: hit|miss`.
// Only 200 answers are kept. Bounded by total bytes, oldest entries evicted first. Concurrent misses on one key
// wait for the first to finish instead of all asking the engine (no stampede when a hot page expires).
// A hit is also served before express (`lane`, api/http/app.ts FastLane): express's per-request work was most
// of a hit's cost.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, RequestHandler, Response } from 'express';

interface Entry {
  body: string;
  expires: number;
}

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
  /**
   * A hit answered before express, with the headers express sends for it plus `corsHeaders` (the app's CORS
   * headers when they do not depend on the request, api/http/cors.ts `staticCorsHeaders`); null hands the request
   * on. A key only exists once the same raw URL went through the whole chain and answered 200.
   */
  lane(corsHeaders: Record<string, string>): (req: IncomingMessage, res: ServerResponse) => string | null;
}

/** Route label of the request metrics for a hit served by the lane. */
export const CACHE_HIT_ROUTE = 'response_cache_hit';

export function responseCache(maxBytes = 64 * 1024 * 1024): RequestHandler {
  return createResponseCache(maxBytes).middleware;
}

export function createResponseCache(maxBytes = 64 * 1024 * 1024): ResponseCache {
  const entries = new Map<string, Entry>();
  const inflight = new Map<string, Promise<void>>();
  let bytes = 0;

  const drop = (key: string) => {
    const e = entries.get(key);
    if (!e) return;
    bytes -= e.body.length;
    entries.delete(key);
  };
  const store = (key: string, body: string, ttl: number) => {
    drop(key);
    entries.set(key, { body, expires: Date.now() + ttl });
    bytes += body.length;
    for (const k of entries.keys()) {
      if (bytes <= maxBytes) break;
      drop(k);
    }
  };
  /** The body kept under `key` while its TTL runs. */
  const fresh = (key: string): string | undefined => {
    const hit = entries.get(key);
    return hit && hit.expires > Date.now() ? hit.body : undefined;
  };
  const serveHit = (key: string, res: Response): boolean => {
    const body = fresh(key);
    if (body === undefined) return false;
    res.setHeader('X-Cache', 'hit');
    res.type('application/json').send(body);
    return true;
  };
  /** Let the request through to the handlers, keeping its body if it is a cacheable 200. */
  const compute = (key: string, req: Request, res: Response, next: () => void) => {
    res.setHeader('X-Cache', 'miss');
    const send = res.send.bind(res);
    res.send = ((body: unknown) => {
      if (res.statusCode === 200 && typeof body === 'string' && body.length <= maxBytes / 16)
        store(key, body, ttlFor(req.path));
      return send(body);
    }) as typeof res.send;
    next();
  };

  const middleware: RequestHandler = (req, res, next) => {
    if (req.method !== 'GET' || !(req.path === '/status' || req.path.startsWith('/indexer/'))) return next();
    const key = `GET:${req.originalUrl}`;
    if (serveHit(key, res)) return;
    const pending = inflight.get(key);
    if (pending) {
      // The same page is being computed: reuse it when it lands, or compute it if it was not cacheable.
      void pending.then(() => {
        if (!serveHit(key, res)) compute(key, req, res, next);
      });
      return;
    }
    let done!: () => void;
    const mine = new Promise<void>((r) => (done = r));
    inflight.set(key, mine);
    const settle = () => {
      if (inflight.get(key) === mine) inflight.delete(key);
      done();
    };
    res.once('finish', settle);
    res.once('close', settle);
    drop(key);
    compute(key, req, res, next);
  };
  const lane =
    (corsHeaders: Record<string, string>) =>
    (req: IncomingMessage, res: ServerResponse): string | null => {
      if (req.method !== 'GET' || req.url === undefined) return null;
      const body = fresh(`GET:${req.url}`);
      if (body === undefined) return null;
      res.writeHead(200, {
        ...corsHeaders,
        'X-Cache': 'hit',
        'Content-Type': 'application/json; charset=utf-8',
        'Content-Length': Buffer.byteLength(body),
      });
      res.end(body);
      return CACHE_HIT_ROUTE;
    };
  return { middleware, lane };
}
