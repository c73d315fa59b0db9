// Rich-list snapshots held in memory (api/indexer/richlist-memory.ts): the compact encoding and page slicing as
// pure code, then the loader against real chDB, then the route: every page from memory equals the engine's page
// (desc and asc, first, middle, last, beyond the end, count_total off), a newer snapshot replaces the held one,
// and budget 0 / a budget too small keep the engine path.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStore, type Store } from '../../../clickhouse/client.js';
import { migrate } from '../../../clickhouse/migrate.js';
import type { HolderRow } from '../../../clickhouse/queries/richlist.js';
import {
  encodeRows,
  heldBytes,
  holderAt,
  holderPage,
  RichListMemory,
  SnapshotBuilder,
  storeSource,
  type HeldSnapshot,
  type HolderSource,
} from '../../../api/indexer/read/richlist-memory.js';
import { startIndexer, type Running } from './helpers.js';
import { indexerConfig } from '../../support/indexer-config.js';

const MAX_U256 = (2n ** 256n - 1n).toString();

function build(rows: HolderRow[], chunk: number): HeldSnapshot {
  const b = new SnapshotBuilder(rows.length);
  for (let i = 0; i < rows.length; i += chunk) b.add(rows.slice(i, i + chunk));
  return b.finish();
}

/** The reference: the same page cut from a plain array, as holdersPage reads it from rank. */
function naivePage(rows: HolderRow[], desc: boolean, offset: number, limit: number): HolderRow[] {
  if (desc) return rows.slice(offset, offset + limit);
  const hi = rows.length - offset;
  return hi <= 0 ? [] : rows.slice(Math.max(0, hi - limit), hi).reverse();
}

describe('compact snapshot (pure)', () => {
  const rows: HolderRow[] = [
    { account: `0x${'ab'.repeat(20)}`, amount: MAX_U256 },
    { account: `0x${'0'.repeat(40)}`, amount: '1000000000000000000' },
    { account: `0x${'AB'.repeat(20)}`, amount: '77' }, // upper case: kept as text, never re-cased
    { account: 'init1qyqszqgpqyqszqgpqyqszqgpqyqszqgpjnp7du', amount: '5' },
    { account: 'ünïcode', amount: '3' },
    { account: '', amount: '2' },
    { account: `0x${'12'.repeat(19)}`, amount: '1' }, // 38 hex digits: not an address, kept as text
  ];

  it('round-trips every row whatever the chunking, hex addresses in 21 bytes', () => {
    for (const chunk of [1, 2, 3, rows.length]) {
      const h = build(rows, chunk);
      expect(h.holders).toBe(rows.length);
      expect(rows.map((_, i) => holderAt(h, i))).toEqual(rows);
    }
    const { data, ends } = encodeRows(rows.slice(0, 2));
    expect(ends[0]).toBe(1 + 20 + MAX_U256.length);
    expect(data.length).toBe(ends[1]);
    expect(heldBytes(build(rows.slice(0, 2), 2))).toBe(data.length + 3 * 4 + 256); // records, offsets, overhead
  });

  it('cuts pages exactly as a key range on rank, in both directions', () => {
    const many: HolderRow[] = Array.from({ length: 53 }, (_, i) => ({
      account: i % 5 === 0 ? `acct${i}` : `0x${i.toString(16).padStart(40, '0')}`,
      amount: String(1000 - i),
    }));
    const h = build(many, 10);
    for (const desc of [true, false])
      for (const limit of [1, 2, 10, 52, 53, 54, 1001])
        for (const offset of [0, 1, 9, 10, 26, 43, 52, 53, 54, 1_000_000])
          expect(holderPage(h, desc, offset, limit), `${desc} ${offset} ${limit}`).toEqual(
            naivePage(many, desc, offset, limit),
          );
    const empty = build([], 10);
    expect(holderPage(empty, true, 0, 10)).toEqual([]);
    expect(holderPage(empty, false, 0, 10)).toEqual([]);
  });

  it('refuses what it cannot hold exactly', () => {
    expect(() => encodeRows([{ account: 'x'.repeat(128), amount: '1' }])).toThrow(/too long/);
    expect(() => encodeRows([{ account: '0x1', amount: '-1' }])).toThrow(/not a decimal/);
    const b = new SnapshotBuilder(2);
    b.add([{ account: 'a', amount: '1' }]);
    expect(() => b.finish()).toThrow(/incomplete/);
    expect(() => b.add([rows[0]!, rows[1]!])).toThrow(/more rich-list rows/);
  });
});

// --- real chDB ---

const TOKEN_A = `0x${'a1'.repeat(20)}`;
const TOKEN_B = `0x${'b2'.repeat(20)}`;
const TOKEN_C = `0x${'c3'.repeat(20)}`;
const N_A = 250;

let dir: string;
let store: Store;

/** A snapshot as the ingest leaves it: ranks 1..n by (amount DESC, account ASC), equal amounts in runs of 7. */
async function snapshot(token: string, height: number, n: number, seed: string): Promise<void> {
  await store.exec(
    `INSERT INTO richlist (token, snapshot_height, rank, account, amount)
     SELECT {t:String}, {h:UInt64}, row_number() OVER (ORDER BY amount DESC, account ASC), account, amount
     FROM (SELECT concat('0x', lower(hex(substring(SHA256(concat({seed:String}, toString(number))), 1, 20)))) AS account,
                  if(number = 0, toUInt256({max:String}),
                     intDiv(toUInt256('1000000000000000000000000'), toUInt256(intDiv(number, 7) + 1))) AS amount
           FROM numbers({n:UInt64}))`,
    { t: token, h: height, n, seed, max: MAX_U256 },
  );
}
const record = (height: number, holders: number) =>
  store.insert('richlist_snapshots', [{ snapshot_height: height, holders }]);

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'indexer-richlist-memory-'));
  store = createStore({ dataDir: dir });
  await migrate(store);
  await snapshot(TOKEN_A, 100, N_A, 'a');
  await snapshot(TOKEN_B, 100, 120, 'b');
  await snapshot(TOKEN_C, 100, 90, 'c');
  await record(100, N_A + 120 + 90);
});
afterAll(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('loading a snapshot (chDB)', () => {
  it('loads in chunks, holds exactly the engine rows, and evicts the least recently used token for another', async () => {
    const source = storeSource(store);
    let calls = 0;
    const counted: HolderSource = {
      ...source,
      range: (...a) => {
        calls++;
        return source.range(...a);
      },
    };
    const probe = new RichListMemory(counted, { budgetBytes: 2 ** 30, chunkRows: 64 });
    expect(probe.page(TOKEN_A, 100, true, 0, 10)).toBeNull(); // not held yet: the engine answers
    await probe.idle();
    expect(calls).toBe(Math.ceil(N_A / 64));
    expect(probe.status(TOKEN_A)).toEqual({ snapshot: 100, state: 'held' });
    const all = await source.range(TOKEN_A, 100, 0, N_A);
    expect(probe.page(TOKEN_A, 100, true, 0, N_A + 1)).toEqual({ snapshot: 100, total: N_A, rows: all });
    expect(all[0]!.amount).toBe(MAX_U256);
    const sizeA = probe.bytes();
    probe.page(TOKEN_B, 100, true, 0, 1);
    await probe.idle();
    const sizeB = probe.bytes() - sizeA;
    probe.page(TOKEN_C, 100, true, 0, 1);
    await probe.idle();
    const sizeC = probe.bytes() - sizeA - sizeB;
    expect(sizeB).toBeGreaterThan(sizeC);

    // Room for A and B, not for C as well: touching A then loading C pushes out B (least recently used).
    const lru = new RichListMemory(source, { budgetBytes: sizeA + sizeB, chunkRows: 64 });
    lru.page(TOKEN_A, 100, true, 0, 1);
    lru.page(TOKEN_B, 100, true, 0, 1);
    await lru.idle();
    expect(lru.bytes()).toBe(sizeA + sizeB);
    expect(lru.page(TOKEN_A, 100, true, 0, 1)).not.toBeNull();
    lru.page(TOKEN_C, 100, true, 0, 1);
    await lru.idle();
    expect(lru.status(TOKEN_B)).toBeNull();
    expect(lru.status(TOKEN_A)?.state).toBe('held');
    expect(lru.status(TOKEN_C)?.state).toBe('held');
    expect(lru.bytes()).toBe(sizeA + sizeC);
    expect(lru.bytes()).toBeLessThanOrEqual(lru.budgetBytes);

    // Larger than the whole budget: never held, not retried for that snapshot; 0: off entirely.
    const small = new RichListMemory(source, { budgetBytes: sizeA - 1, chunkRows: 64 });
    expect(small.page(TOKEN_A, 100, true, 0, 1)).toBeNull();
    await small.idle();
    expect(small.status(TOKEN_A)?.state).toBe('too_large');
    expect(small.page(TOKEN_A, 100, true, 0, 1)).toBeNull();
    await small.idle();
    expect(small.bytes()).toBe(0);
    const off = new RichListMemory(source, { budgetBytes: 0 });
    expect(off.page(TOKEN_A, 100, true, 0, 1)).toBeNull();
    expect(off.status(TOKEN_A)).toBeNull();
  });

  it('never serves a failed or short load; retries it later', async () => {
    const source = storeSource(store);
    let fail: 'throw' | 'short' | null = 'throw';
    const flaky: HolderSource = {
      ...source,
      range: async (t, h, lo, hi) => {
        if (lo >= 64 && fail === 'throw') throw new Error('engine gone');
        const rows = await source.range(t, h, lo, hi);
        return lo >= 64 && fail === 'short' ? rows.slice(1) : rows;
      },
    };
    const m = new RichListMemory(flaky, { budgetBytes: 2 ** 30, chunkRows: 64, retryMs: 0 });
    m.page(TOKEN_A, 100, true, 0, 1);
    await m.idle();
    expect(m.status(TOKEN_A)?.state).toBe('failed');
    expect(m.bytes()).toBe(0);
    fail = 'short'; // a snapshot dropped under the load returns fewer rows than ranks asked for
    expect(m.page(TOKEN_A, 100, true, 0, 1)).toBeNull(); // retry queued
    await m.idle();
    expect(m.status(TOKEN_A)?.state).toBe('failed');
    fail = null;
    expect(m.page(TOKEN_A, 100, true, 0, 1)).toBeNull();
    await m.idle();
    expect(m.status(TOKEN_A)?.state).toBe('held');
    expect(m.page(TOKEN_A, 100, false, 0, 2)?.rows).toEqual((await source.range(TOKEN_A, 100, N_A - 2, N_A)).reverse());
  });
});

describe('rich-list route from memory (chDB)', () => {
  const config = indexerConfig('evm', 'rl-1');
  let engine: Running;
  let held: Running;
  let tiny: Running;
  let memory: RichListMemory;
  let tinyMemory: RichListMemory;

  beforeAll(async () => {
    memory = new RichListMemory(storeSource(store), { budgetBytes: 2 ** 20, chunkRows: 64 });
    tinyMemory = new RichListMemory(storeSource(store), { budgetBytes: 4096, chunkRows: 64 });
    engine = await startIndexer({ store, config, responseCache: false, richListMemoryBytes: 0 });
    held = await startIndexer({ store, config, responseCache: false, richListMemory: memory });
    tiny = await startIndexer({ store, config, responseCache: false, richListMemory: tinyMemory });
  });
  afterAll(async () => {
    await engine?.close();
    await held?.close();
    await tiny?.close();
  });

  const urls = (n: number) => {
    const out: string[] = [];
    for (const reverse of [true, false])
      for (const limit of [1, 7, 100, 1000])
        for (const offset of [0, 1, Math.floor(n / 2), n - limit, n - 1, n, n + 5, 1_000_000])
          for (const count of [true, false])
            if (offset >= 0)
              out.push(
                `/indexer/richlist/v1/${TOKEN_A}?pagination.limit=${limit}&pagination.offset=${offset}` +
                  `&pagination.reverse=${reverse}&pagination.count_total=${count}`,
              );
    out.push(`/indexer/richlist/v1/${TOKEN_A}`); // defaults: limit 100, desc
    out.push(
      `/indexer/richlist/v1/${TOKEN_A}?pagination.limit=50&pagination.key=${Buffer.from('200').toString('base64')}`,
    );
    return out;
  };

  const sameAsEngine = async (n: number) => {
    for (const u of urls(n)) {
      const [a, b] = await Promise.all([engine.get(u), held.get(u)]);
      expect(a.status, u).toBe(200);
      expect(b, u).toEqual(a);
    }
  };

  it('serves every page exactly as the engine, once the snapshot is held', async () => {
    expect((await held.get(`/indexer/richlist/v1/${TOKEN_A}?pagination.limit=3`)).status).toBe(200); // starts the load
    await memory.idle();
    expect(memory.status(TOKEN_A)).toEqual({ snapshot: 100, state: 'held' });
    await sameAsEngine(N_A);
    const last = await held.get(`/indexer/richlist/v1/${TOKEN_A}?pagination.limit=100&pagination.offset=200`);
    expect(last.body.holders).toHaveLength(50);
    expect(last.body.pagination).toEqual({
      previous_key: Buffer.from('100').toString('base64'),
      next_key: null,
      total: String(N_A),
    });
    const more = await held.get(`/indexer/richlist/v1/${TOKEN_A}?pagination.limit=100&pagination.offset=100`);
    expect(more.body.pagination.next_key).toBe(Buffer.from('200').toString('base64'));
  });

  it('answers from memory alone once held (the engine rows of a held token deleted)', async () => {
    await held.get(`/indexer/richlist/v1/${TOKEN_C}?pagination.limit=1`);
    await memory.idle();
    const before = await held.get(`/indexer/richlist/v1/${TOKEN_C}?pagination.limit=1000&pagination.reverse=false`);
    expect(before.body.holders).toHaveLength(90);
    await store.exec('DELETE FROM richlist WHERE token = {t:String}', { t: TOKEN_C });
    expect(
      (await engine.get(`/indexer/richlist/v1/${TOKEN_C}?pagination.limit=5&pagination.offset=7`)).body.holders,
    ).toEqual([]);
    const after = await held.get(`/indexer/richlist/v1/${TOKEN_C}?pagination.limit=1000&pagination.reverse=false`);
    expect(after.body).toEqual(before.body);
  });

  it('keeps the engine path with budget 0 or a budget too small for the snapshot', async () => {
    for (const u of urls(N_A).slice(0, 40)) {
      const [a, b] = await Promise.all([engine.get(u), tiny.get(u)]);
      expect(b, u).toEqual(a);
    }
    await tinyMemory.idle();
    expect(tinyMemory.status(TOKEN_A)).toEqual({ snapshot: 100, state: 'too_large' });
    expect(tinyMemory.bytes()).toBe(0);
  });

  it('a newer snapshot replaces the held one: engine pages until it is loaded, then memory again', async () => {
    const heldBefore = memory.bytes();
    await snapshot(TOKEN_A, 200, 300, 'a2');
    await record(200, 300);
    await new Promise((r) => setTimeout(r, 1100)); // the route re-reads the latest snapshot at most once a second
    const first = await held.get(`/indexer/richlist/v1/${TOKEN_A}?pagination.limit=5`);
    expect(first.body.pagination.total).toBe('300');
    expect(first.body).toEqual((await engine.get(`/indexer/richlist/v1/${TOKEN_A}?pagination.limit=5`)).body);
    await memory.idle();
    expect(memory.status(TOKEN_A)).toEqual({ snapshot: 200, state: 'held' });
    expect(memory.bytes()).toBeGreaterThan(heldBefore); // 300 holders replaced 250, the old copy is gone
    expect(memory.bytes()).toBeLessThan(heldBefore * 2);
    await sameAsEngine(300);
  });
});
