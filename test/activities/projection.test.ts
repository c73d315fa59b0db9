// The projection against real chDB: batching, retry de-duplication, newest-version reads.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStore, type Store } from '../../clickhouse/client.js';
import { migrate } from '../../clickhouse/migrate.js';
import { TrackingProjection } from '../../activities/projection.js';
import { statusDocument } from '../../workflows/status.js';

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
});
