// The projection against real chDB: batching, retry de-duplication, newest-version reads.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStore, type Store } from '../../clickhouse/client.js';
import { migrate } from '../../clickhouse/migrate.js';
import { TrackingProjection } from '../../activities/projection.js';
import { statusDocument } from '../../workflows/status.js';
import { unfinishedTransfers } from '../../clickhouse/transfer-events.js';

let dir: string;
let store: Store;
beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'projection-test-'));
  store = createStore({ dataDir: path.join(dir, 'clickhouse') });
  await migrate(store);
});
afterAll(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

const hash = (i: number) => i.toString(16).toUpperCase().padStart(64, '0');
const doc = (phase: 'tracking' | 'finished') =>
  statusDocument({ chainId: 'c-1', txHash: 'x', phase, hops: [], version: 1 });

describe('TrackingProjection', () => {
  it('registers once, answers unknown txs with null, and serves the newest version', async () => {
    const p = new TrackingProjection(store, { ttlMs: 0 });
    expect(await p.latest('c-1', hash(1))).toBeNull();
    const [a, b] = await Promise.all([p.register('c-1', hash(1), 1_000), p.register('c-1', hash(1), 2_000)]);
    expect(a.version).toBe(0);
    expect(b.version).toBe(0);
    await p.append('c-1', hash(1), 2, 'finished', doc('finished'), 3_000);
    await p.append('c-1', hash(1), 1, 'tracking', doc('tracking'), 2_500); // late, older version
    const latest = await p.latest('c-1', hash(1));
    expect(latest?.version).toBe(2);
    expect(JSON.parse(latest!.json).state).toBe('STATE_COMPLETED_SUCCESS');
  });

  it('a retried write (same key) never adds a second row, also across batches and instances', async () => {
    const p1 = new TrackingProjection(store);
    const p2 = new TrackingProjection(store);
    await Promise.all(
      Array.from({ length: 5 }, () => p1.append('c-1', hash(2), 1, 'tracking', doc('tracking'), 5_000)),
    );
    await p2.append('c-1', hash(2), 1, 'tracking', doc('tracking'), 5_000);
    const [r] = await store.rows<{ n: string }>(`SELECT count() AS n FROM transfer_events WHERE tx_hash = {h:String}`, {
      h: hash(2),
    });
    expect(r!.n).toBe('1');
  });

  it("writes 200 transfers' webhooks, parties and versions in few statements, parties and URLs stored exactly", async () => {
    const p = new TrackingProjection(store);
    const hs = Array.from({ length: 200 }, (_, i) => hash(3000 + i));
    await Promise.all(hs.map((h) => p.register('c-5', h, 1_000)));
    const before = { ...p.stats };
    // Registered here: attaching asks ClickHouse nothing; the first URL wins, a second one is a conflict.
    const attached = await Promise.all(hs.map((h, i) => p.attachWebhook('c-5', h, `https://hook.example/${i}`, 2_000)));
    expect(attached.every((a) => a.conflict === undefined && a.already === undefined)).toBe(true);
    // The same URL again: no conflict, and `already` (the request that stored it handed it to the workflow).
    expect(await p.attachWebhook('c-5', hs[0]!, 'https://hook.example/0', 2_500)).toEqual({ already: true });
    expect(await p.attachWebhook('c-5', hs[0]!, 'https://other.example/', 2_500)).toEqual({
      conflict: 'https://hook.example/0',
    });
    const parties = { sender: `0x${'22'.repeat(20)}`, receiver: `0x${'11'.repeat(20)}` };
    await Promise.all(
      hs.map((h) =>
        Promise.all([p.recordParties('c-5', h, parties), p.append('c-5', h, 1, 'tracking', doc('tracking'), 3_000)]),
      ),
    );
    expect(p.stats.selects - before.selects).toBe(0);
    expect(p.stats.inserts - before.inserts).toBeLessThan(30);
    const [w] = await store.rows<{ n: string; u: string }>(
      `SELECT count() AS n, uniqExact(tx_hash, url) AS u FROM transfer_webhooks WHERE chain_id = 'c-5'`,
    );
    expect(w).toEqual({ n: '200', u: '200' });
    const [q] = await store.rows<{ n: string }>(`SELECT count() AS n FROM transfer_parties WHERE chain_id = 'c-5'`);
    expect(q!.n).toBe('400');
    // Two attaches of one new transfer at once, with different URLs: the first claims it, the second is refused,
    // and only the first is stored.
    const late = hash(3999);
    await p.register('c-5', late, 1_000);
    const [one, two] = await Promise.all([
      p.attachWebhook('c-5', late, 'https://first.example/', 2_000),
      p.attachWebhook('c-5', late, 'https://second.example/', 2_000),
    ]);
    expect([one, two]).toEqual([{}, { conflict: 'https://first.example/' }]);
    const urls = await store.rows<{ url: string }>(`SELECT url FROM transfer_webhooks WHERE tx_hash = {h:String}`, {
      h: late,
    });
    expect(urls).toEqual([{ url: 'https://first.example/' }]);
    // Another instance (a restart) has no memory of them: it reads the stored URL, and still refuses another.
    const fresh = new TrackingProjection(store);
    expect(await fresh.attachWebhook('c-5', hs[1]!, 'https://other.example/', 4_000)).toEqual({
      conflict: 'https://hook.example/1',
    });
    expect(await fresh.attachWebhook('c-5', hs[2]!, 'https://hook.example/2', 4_000)).toEqual({ already: true });
  });

  it('coalesces concurrent reads and writes into few statements', async () => {
    const p = new TrackingProjection(store);
    await Promise.all(Array.from({ length: 200 }, (_, i) => p.register('c-1', hash(1000 + i), 1_000)));
    expect(p.stats.inserts).toBeLessThan(20);
    expect(p.stats.selects).toBeLessThan(40);
    const [r] = await store.rows<{ n: string }>(
      `SELECT count() AS n FROM transfer_events WHERE tx_hash IN {hs:Array(String)}`,
      { hs: Array.from({ length: 200 }, (_, i) => hash(1000 + i)) },
    );
    expect(r!.n).toBe('200');
  });

  it('sole writer (embedded chDB): cached documents never expire, a hit issues no statement', async () => {
    const p = new TrackingProjection(store, { ttlMs: 1 });
    await p.register('c-1', hash(3), 1_000);
    await p.append('c-1', hash(3), 1, 'tracking', doc('tracking'), 2_000);
    await new Promise((r) => setTimeout(r, 20)); // well past the TTL
    const selects = p.stats.selects;
    for (let i = 0; i < 100; i++) expect((await p.latest('c-1', hash(3)))?.version).toBe(1);
    expect(p.peek('c-1', hash(3))?.doc.state).toBe('STATE_PENDING');
    expect(p.stats.selects).toBe(selects);
    // Never-registered answers do expire (bounded), so they are asked again.
    expect(await p.latest('c-1', hash(4))).toBeNull();
    await new Promise((r) => setTimeout(r, 20));
    expect(p.peek('c-1', hash(4))).toBeUndefined();
  });

  it('the cache is bounded and a restart repopulates it from ClickHouse on miss; nothing lost, nothing doubled', async () => {
    const p = new TrackingProjection(store, { maxEntries: 10 });
    const ids = Array.from({ length: 40 }, (_, i) => hash(5000 + i));
    await Promise.all(ids.map((h) => p.register('c-2', h, 1_000)));
    // Evicted keys are loaded again (one coalesced SELECT), not lost.
    expect(p.peek('c-2', ids[0]!)).toBeUndefined();
    expect((await p.latest('c-2', ids[0]!))?.doc.state).toBe('STATE_SUBMITTED');
    // "Restart": a new projection over a reopened store starts with an empty map.
    const dataDir = path.join(dir, 'clickhouse');
    await store.close();
    store = createStore({ dataDir });
    const q = new TrackingProjection(store);
    expect(q.peek('c-2', ids[1]!)).toBeUndefined();
    const docs = await Promise.all(ids.map((h) => q.latest('c-2', h)));
    expect(docs.every((d) => d?.version === 0 && d.doc.state === 'STATE_SUBMITTED')).toBe(true);
    expect(q.stats.selects).toBeLessThanOrEqual(3);
    expect(q.peek('c-2', ids[1]!)?.version).toBe(0);
    // A retried registration after the restart adds no row; reconcile() still sees every registration.
    await Promise.all(ids.map((h) => q.register('c-2', h, 9_000)));
    const [r] = await store.rows<{ n: string }>(
      `SELECT count() AS n FROM transfer_events WHERE tx_hash IN {hs:Array(String)}`,
      { hs: ids },
    );
    expect(r!.n).toBe('40');
    const open = new Set((await unfinishedTransfers(store)).filter((u) => u.chain_id === 'c-2').map((u) => u.tx_hash));
    expect(ids.every((h) => open.has(h))).toBe(true);
  });

  it('shared writers: an expired document is answered at once and reloaded in the background', async () => {
    // A TTL of a second: the register → append → first peek below must fit in it even on a loaded machine (with
    // 50 ms, a slow append let the first peek find the document stale already and schedule the reload early).
    const reader = new TrackingProjection(store, { soleWriter: false, ttlMs: 1_000, maxStaleMs: 10_000 });
    const other = new TrackingProjection(store, { soleWriter: false }); // another process writing
    await reader.register('c-3', hash(6), 1_000);
    await other.append('c-3', hash(6), 1, 'finished', doc('finished'), 2_000);
    expect(reader.peek('c-3', hash(6))?.version).toBe(0); // fresh: not reloaded yet
    await new Promise((r) => setTimeout(r, 1_100));
    expect(reader.peek('c-3', hash(6))?.version).toBe(0); // stale, answered, reload scheduled
    expect(reader.stats.staleHits).toBe(1);
    const end = Date.now() + 5_000;
    while (reader.peek('c-3', hash(6))?.version !== 1 && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
    expect(reader.peek('c-3', hash(6))?.doc.state).toBe('STATE_COMPLETED_SUCCESS');
  });

  it('shared writers: a document older than maxStaleMs waits for the reload', async () => {
    const reader = new TrackingProjection(store, { soleWriter: false, ttlMs: 10, maxStaleMs: 30 });
    const other = new TrackingProjection(store, { soleWriter: false });
    await reader.register('c-3', hash(7), 1_000);
    await other.append('c-3', hash(7), 1, 'finished', doc('finished'), 2_000);
    await new Promise((r) => setTimeout(r, 50));
    expect(reader.peek('c-3', hash(7))).toBeUndefined();
    expect((await reader.latest('c-3', hash(7)))?.version).toBe(1);
  });
});
