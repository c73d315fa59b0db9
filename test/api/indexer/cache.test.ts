// The upstream-style response cache on a real express server on loopback: per-URL hits, TTLs by route,
// only 200s kept, and one computation for many concurrent misses of the same page.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeServer, createServiceApp, listen } from '../../../api/http/app.js';
import { addEdgeLane, responseCacheLane } from '../../../api/http/edge.js';
import { createResponseCache, ttlFor } from '../../../api/indexer/response-cache.js';

let server: Server;
let base = '';
const calls = new Map<string, number>();

beforeAll(async () => {
  const app = express();
  app.use(createResponseCache().middleware);
  app.get('/indexer/tx/v1/txs', (req, res) => {
    calls.set(req.originalUrl, (calls.get(req.originalUrl) ?? 0) + 1);
    setTimeout(() => res.json({ n: calls.get(req.originalUrl) }), 50);
  });
  app.get('/indexer/block/v1/blocks/:h', (req, res) => {
    calls.set(req.originalUrl, (calls.get(req.originalUrl) ?? 0) + 1);
    if (req.params.h === '0') res.status(400).json({ code: 400, message: 'bad' });
    else res.json({ h: req.params.h });
  });
  server = await listen(app, 0);
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => closeServer(server));

describe('response cache', () => {
  it('computes a page once for 20 concurrent requests and serves the rest as hits', async () => {
    const res = await Promise.all(
      Array.from({ length: 20 }, () => fetch(`${base}/indexer/tx/v1/txs?pagination.limit=5`)),
    );
    const bodies = await Promise.all(res.map((r) => r.json()));
    expect(calls.get('/indexer/tx/v1/txs?pagination.limit=5')).toBe(1);
    expect(bodies.every((b) => JSON.stringify(b) === '{"n":1}')).toBe(true);
    expect(res.map((r) => r.headers.get('x-cache')).sort()).toEqual([...Array(19).fill('hit'), 'miss']);
    // the raw query is the key: reordering parameters is another page
    await fetch(`${base}/indexer/tx/v1/txs?pagination.reverse=true&pagination.limit=5`);
    expect(calls.get('/indexer/tx/v1/txs?pagination.reverse=true&pagination.limit=5')).toBe(1);
  });

  it('expires list pages after 1 s and never keeps errors', async () => {
    await fetch(`${base}/indexer/tx/v1/txs?x=1`);
    await new Promise((r) => setTimeout(r, 1100));
    const again = await fetch(`${base}/indexer/tx/v1/txs?x=1`);
    expect(again.headers.get('x-cache')).toBe('miss');
    expect(calls.get('/indexer/tx/v1/txs?x=1')).toBe(2);
    for (let i = 0; i < 3; i++) expect((await fetch(`${base}/indexer/block/v1/blocks/0`)).status).toBe(400);
    expect(calls.get('/indexer/block/v1/blocks/0')).toBe(3);
  });

  it('gives single objects and the rich list 10 s, lists and status 1 s', () => {
    expect(ttlFor('/indexer/block/v1/blocks/5')).toBe(10_000);
    expect(ttlFor('/indexer/tx/v1/txs/ABCD')).toBe(10_000);
    expect(ttlFor('/indexer/tx/v1/txs/by_account')).toBe(1_000);
    expect(ttlFor('/indexer/richlist/v1/uinit')).toBe(10_000);
    expect(ttlFor('/indexer/nft/v1/collections/0xab')).toBe(10_000);
    expect(ttlFor('/indexer/nft/v1/collections/by_name')).toBe(1_000);
    expect(ttlFor('/indexer/tx/v1/txs')).toBe(1_000);
    expect(ttlFor('/status')).toBe(1_000);
  });

  it('serves hits before express with the headers express sends, and hands misses on', async () => {
    // The real service scaffolding (CORS for any origin, metrics, no ETag, no x-powered-by).
    const app = createServiceApp({ service: 'indexer', openapi: {} });
    let reachedExpress = 0;
    app.use((_req, _res, next) => {
      reachedExpress++;
      next();
    });
    const cache = createResponseCache();
    app.use(cache.middleware);
    app.get('/indexer/tx/v1/txs/:hash', (req, res) => res.json({ hash: req.params.hash }));
    addEdgeLane(app, responseCacheLane(cache.fresh));
    const viaLane = await listen(app, 0);
    const plain = createServer(app).listen(0, '127.0.0.1');
    await new Promise((r) => plain.once('listening', r));
    const url = (s: Server, p: string) => `http://127.0.0.1:${(s.address() as AddressInfo).port}${p}`;
    const headers = (r: Response) =>
      Object.fromEntries([...r.headers].filter(([k]) => !['date', 'connection', 'keep-alive'].includes(k)).sort());
    try {
      const miss = await fetch(url(viaLane, '/indexer/tx/v1/txs/AB?x=1'));
      expect(miss.headers.get('x-cache')).toBe('miss');
      expect(reachedExpress).toBe(1);
      const laneHit = await fetch(url(viaLane, '/indexer/tx/v1/txs/AB?x=1'));
      expect(reachedExpress).toBe(1); // answered before express
      const expressHit = await fetch(url(plain, '/indexer/tx/v1/txs/AB?x=1'));
      expect(reachedExpress).toBe(2);
      expect(expressHit.headers.get('x-cache')).toBe('hit');
      expect(headers(laneHit)).toEqual(headers(expressHit));
      expect(laneHit.headers.get('x-served-by')).toBe('edge');
      expect(laneHit.headers.get('access-control-allow-origin')).toBe('*');
      expect(await laneHit.text()).toBe(await expressHit.text());
      // another raw URL, a HEAD and a POST go on to express
      await fetch(url(viaLane, '/indexer/tx/v1/txs/AB?x=2'));
      await fetch(url(viaLane, '/indexer/tx/v1/txs/AB?x=1'), { method: 'HEAD' });
      expect(reachedExpress).toBe(4);
    } finally {
      await closeServer(viaLane);
      await closeServer(plain);
    }
  });
});
