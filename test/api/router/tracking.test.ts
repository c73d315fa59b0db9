// GET /v2/tx/status through the real router app (OpenAPI validation on) over real tracking (chDB, Temporal dev
// server, simnet): the in-memory fast path answers exactly what the validated route answers, never touches
// ClickHouse for a tracked tx, and leaves every error answer to the validator and the handler.
import { createServer, type Server } from 'node:http';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRouterApp } from '../../../api/router/app.js';
import { createTrackingRoutes } from '../../../api/router/tracking/index.js';
import { addEdgeLane, edgeHandler, transferStatusLane } from '../../../api/http/edge.js';
import { loadRouterRegistry } from '../../../routing/registry.js';
import { closeServer, listen } from '../../../api/http/app.js';
import { registry } from '../../../platform/metrics.js';
import { serveRouter, startHarness, terminal, type Harness } from '../../tracking/harness.js';
import { SIM } from '../../../devnet/simnet/index.js';
import { expectRetryAfter } from '../../support/retry-after.js';

let h: Harness;
let server: Server;
let url: string;
beforeAll(async () => {
  h = await startHarness({ simnet: { delays: { recvMs: 1_000, ackMs: 500 } } });
  ({ server, url } = await serveRouter(h));
});
afterAll(async () => {
  if (server) await closeServer(server);
  await h?.close();
});

const get = async (query: string) => {
  const r = await fetch(`${url}/v2/tx/status?${query}`);
  return { status: r.status, type: r.headers.get('content-type'), text: await r.text() };
};

describe('GET /v2/tx/status on the router app', () => {
  it('answers STATE_SUBMITTED right after registration and follows the transfer to the end from memory', async () => {
    const tx = h.simnet.ibcTransfer({ from: SIM.l1, channel: 'channel-1' });
    const tracked = await fetch(`${url}/v2/tx/track`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ chain_id: tx.chainId, tx_hash: tx.txHash }),
    });
    expect(tracked.status).toBe(200);
    const selects = h.tracking.projection.stats.selects;
    const q = `chain_id=${tx.chainId}&tx_hash=${tx.txHash}`;
    const first = await get(q);
    expect(first.status).toBe(200);
    expect(first.type).toMatch(/^application\/json/);
    expect(JSON.parse(first.text).state).toBe('STATE_SUBMITTED');
    const states: string[] = [];
    const end = Date.now() + 30_000;
    let body: Record<string, unknown> = {};
    while (Date.now() < end) {
      const r = await get(q);
      expect(r.status).toBe(200);
      body = JSON.parse(r.text);
      if (states.at(-1) !== body.state) states.push(body.state as string);
      if (terminal(body)) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(body.state).toBe('STATE_COMPLETED_SUCCESS');
    expect(states[0]).toBe('STATE_SUBMITTED');
    // Every status answer came from memory: no ClickHouse read for this tx after its registration.
    expect(h.tracking.projection.stats.selects).toBe(selects);
    // Same bytes as the validated route (the harness app has no fast path) and as a lowercase hash.
    expect((await get(`chain_id=${tx.chainId}&tx_hash=${tx.txHash.toLowerCase()}`)).text).toBe(JSON.stringify(body));
    const slow = await fetch(`${h.url}/v2/tx/status?${q}`);
    expect(await slow.text()).toBe(JSON.stringify(body));
  }, 60_000);

  it('errors are unchanged: unknown or repeated parameters, bad hashes, unregistered txs', async () => {
    const tx = h.simnet.deposit({ l2: SIM.move });
    expect((await h.track(tx.chainId, tx.txHash)).status).toBe(200);
    const q = `chain_id=${tx.chainId}&tx_hash=${tx.txHash}`;
    expect((await get(q)).status).toBe(200);
    // The tx is in memory, yet these are the validator's 400s, as without the fast path.
    const extra = await get(`${q}&foo=1`);
    expect(extra.status).toBe(400);
    expect(JSON.parse(extra.text)).toMatchObject({ code: 3 });
    const repeated = await get(`${q}&chain_id=${tx.chainId}`);
    expect(repeated.status).toBe(400);
    const tooLong = await get(`chain_id=${tx.chainId}&tx_hash=${'A'.repeat(131)}`);
    expect(tooLong.status).toBe(400);
    expect(JSON.parse(tooLong.text).message).toMatch(/^tx_hash: /);
    const missing = await get(`chain_id=${tx.chainId}`);
    expect(missing.status).toBe(400);
    expect(JSON.parse(missing.text).message).toMatch(/^tx_hash: /);
    const malformed = await get(`chain_id=${tx.chainId}&tx_hash=xyz`);
    expect(malformed.status).toBe(400);
    expect(JSON.parse(malformed.text)).toMatchObject({ code: 3 });
    const unknown = await get(`chain_id=${tx.chainId}&tx_hash=${'CD'.repeat(32)}`);
    expect({ status: unknown.status, body: JSON.parse(unknown.text) }).toEqual({
      status: 404,
      body: { code: 5, message: 'tx not found', details: [] },
    });
    const otherChain = await get(`chain_id=nochain-1&tx_hash=${tx.txHash}`);
    expect(otherChain.status).toBe(404);
  }, 60_000);

  it('answers from the fast lane before express exactly as express does, and counts it in the metrics', async () => {
    const tx = h.simnet.deposit({ l2: SIM.move });
    expect((await h.track(tx.chainId, tx.txHash)).status).toBe(200);
    const app = createRouterApp({
      registry: loadRouterRegistry({ ROUTER_NETWORK: 'mainnet' }),
      tracking: createTrackingRoutes(h.tracking.service),
    });
    // The same app without the lane: a plain node server over express.
    const plain = createServer(app).listen(0, '127.0.0.1');
    await new Promise((r) => plain.once('listening', r));
    const viaLane = await listen(app, 0);
    const base = (s: Server) => `http://127.0.0.1:${(s.address() as { port: number }).port}`;
    const q = `/v2/tx/status?chain_id=${tx.chainId}&tx_hash=${tx.txHash}`;
    const served = async () =>
      Number(
        (await registry.getSingleMetricAsString('http_requests_total'))
          .split('\n')
          .find((l) => l.includes('service="router"') && l.includes('route="/v2/tx/status"') && l.includes('"200"'))
          ?.split(' ')
          .at(-1) ?? 0,
      );
    try {
      const before = await served();
      const [a, b] = await Promise.all([fetch(`${base(viaLane)}${q}`), fetch(`${base(plain)}${q}`)]);
      const headers = (r: Response) =>
        Object.fromEntries(
          [...r.headers].filter(([k]) => !['date', 'connection', 'keep-alive', 'x-served-by'].includes(k)).sort(),
        );
      expect(headers(a)).toEqual(headers(b));
      expect([a.headers.get('x-served-by'), b.headers.get('x-served-by')]).toEqual(['edge', 'held:transfers']);
      expect(headers(a)['access-control-allow-origin']).toBe('*');
      expect(await a.text()).toBe(await b.text());
      expect(await served()).toBe(before + 2);
      // HEAD and a different path spelling go on to express, which still answers them.
      expect((await fetch(`${base(viaLane)}${q}`, { method: 'HEAD' })).status).toBe(200);
      expect((await fetch(`${base(viaLane)}${q.replace('/status?', '/status/?')}`)).status).toBe(200);
    } finally {
      await closeServer(viaLane);
      await closeServer(plain);
    }
  }, 60_000);

  it('answers at the edge with the CORS headers of the request origin when they depend on it', async () => {
    const tx = h.simnet.deposit({ l2: SIM.move });
    expect((await h.track(tx.chainId, tx.txHash)).status).toBe(200);
    const app = createRouterApp({
      registry: loadRouterRegistry({ ROUTER_NETWORK: 'mainnet' }),
      tracking: createTrackingRoutes(h.tracking.service),
      cors: { enabled: true, origins: ['https://scan.example.com'], methods: ['GET'], headers: ['*'], maxAge: 0 },
    });
    const s = await listen(app, 0);
    try {
      const r = await fetch(
        `http://127.0.0.1:${(s.address() as { port: number }).port}/v2/tx/status?chain_id=${tx.chainId}&tx_hash=${tx.txHash}`,
        { headers: { origin: 'https://scan.example.com' } },
      );
      expect(r.status).toBe(200);
      expect(r.headers.get('access-control-allow-origin')).toBe('https://scan.example.com');
      expect(r.headers.get('vary')).toMatch(/Origin/);
      expect(r.headers.get('x-served-by')).toBe('edge');
    } finally {
      await closeServer(s);
    }
  }, 60_000);

  it('the lane answers only a GET of exactly the two parameters with the tx in memory, and hands on the rest', async () => {
    const tx = h.simnet.deposit({ l2: SIM.move });
    expect((await h.track(tx.chainId, tx.txHash)).status).toBe(200);
    // A server with only the lane in front of an app that answers 599, which marks "handed on".
    const app = express();
    app.set('service', 'router');
    app.use((_req, res) => {
      res.status(599).end();
    });
    addEdgeLane(app, transferStatusLane(h.tracking.service.cachedStatusJson!.bind(h.tracking.service)));
    const s = createServer(edgeHandler(app)).listen(0, '127.0.0.1');
    await new Promise((r) => s.once('listening', r));
    const at = (path: string, method = 'GET') =>
      fetch(`http://127.0.0.1:${(s.address() as { port: number }).port}${path}`, { method }).then((r) => r.status);
    const q = `chain_id=${tx.chainId}&tx_hash=${tx.txHash}`;
    try {
      expect(await at(`/v2/tx/status?${q}`)).toBe(200);
      expect(await at(`/v2/tx/status?tx_hash=${tx.txHash.toLowerCase()}&chain_id=${tx.chainId}`)).toBe(200);
      for (const handedOn of [
        `/v2/tx/status?${q}&foo=1`,
        `/v2/tx/status?${q}&chain_id=${tx.chainId}`,
        `/v2/tx/status?chain_id=${tx.chainId}`,
        `/v2/tx/status?chain_id=${tx.chainId}&tx_hash[]=${tx.txHash}`,
        `/v2/tx/status?chain_id=${tx.chainId}&tx_hash=xyz`,
        `/v2/tx/status?chain_id=${tx.chainId}&tx_hash=${'CD'.repeat(32)}`,
        `/v2/tx/status?chain_id=bad%20chain&tx_hash=${tx.txHash}`,
        `/v2/tx/status/?${q}`,
        `/v2/tx/STATUS?${q}`,
        // Values the validator refuses or reads otherwise: an unencoded `+` (read as a space, then trimmed here),
        // and escapes. The lane answered `+`-wrapped hashes with 200 while express refused them with 400.
        `/v2/tx/status?chain_id=${tx.chainId}&tx_hash=+${tx.txHash}+`,
        `/v2/tx/status?chain_id=${tx.chainId}&tx_hash=%20${tx.txHash}`,
        `/v2/tx/status?chain_id=${tx.chainId}&tx_hash=${tx.txHash.slice(0, 2)}%${tx.txHash.charCodeAt(2).toString(16)}${tx.txHash.slice(3)}`,
      ])
        expect([handedOn, await at(handedOn)]).toEqual([handedOn, 599]);
      expect(await at(`/v2/tx/status?${q}`, 'HEAD')).toBe(599);
    } finally {
      await closeServer(s);
    }
  }, 60_000);
});

describe('POST /v2/tx/track per-client limit', () => {
  it('registers within the burst, then answers a JSON 429 with Retry-After and registers nothing', async () => {
    const { server: s, url: base } = await serveRouter(h, { clientLimits: { perMinute: 2, burst: 3 } });
    try {
      const hashes = ['A1', 'A2', 'A3', 'A4'].map((p) => p.repeat(32));
      const answers = [];
      const started = Date.now();
      for (const tx_hash of hashes)
        answers.push(
          await fetch(`${base}/v2/tx/track`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ chain_id: SIM.l1, tx_hash }),
          }),
        );
      expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 429]);
      // 2 a minute: a token every 30 s.
      const retryAfter = expectRetryAfter(answers[3]!.headers.get('retry-after'), 30, started);
      expect(answers[3]!.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await answers[3]!.json()).toMatchObject({ code: 8, details: [], retry_after_seconds: retryAfter });
      // The refused hash was never registered; the others were.
      expect(await h.tracking.service.latestStatusJson(SIM.l1, hashes[3]!)).toBeNull();
      expect(await h.tracking.service.latestStatusJson(SIM.l1, hashes[0]!)).not.toBeNull();
    } finally {
      await closeServer(s);
    }
  });
});
