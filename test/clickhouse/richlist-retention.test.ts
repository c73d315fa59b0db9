// The holder history of the distribution endpoint is bounded: a snapshot every 2 s at the head made it grow by
// 43,200 points a day, all read by every request.
// Rich-list snapshots stay readable for a while after a newer one is recorded (clickhouse/richlist-snapshots.ts
// SUPERSEDED_RETAIN_MS). The API takes the latest snapshot height from a cache of up to a second, then reads its
// pages: dropping a snapshot the moment its successor was recorded answered those reads with empty pages (and a
// holder count of 0, kept for good). Real chDB; the ledger rows as the ingest's views write them.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createStore, type Store } from '../../clickhouse/client.js';
import { migrate } from '../../clickhouse/migrate.js';
import { rebuildRichListHistory } from '../../clickhouse/analytics.js';
import { distribution, MAX_HISTORY_POINTS, richListHistory } from '../../clickhouse/queries/analytics.js';
import { holdersPage, holdersTotal, latestSnapshot } from '../../clickhouse/queries/richlist.js';
import { buildRichListSnapshot } from '../../clickhouse/richlist-snapshots.js';
import { factsStore } from '../../clickhouse/facts-store.js';

const TOKEN = `0x${'c0'.repeat(20)}`;
const account = (n: number) => `0x${String(n).padStart(40, '0')}`;

let dir: string;
let store: Store;
beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'richlist-retention-'));
  store = createStore({ dataDir: dir });
  await migrate(store);
});
afterAll(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

const delta = (n: number, amount: number, height: number) => ({
  token: TOKEN,
  account: account(n),
  delta: String(amount),
  height,
  sequence: height * 10 + n,
});
const accounts = async (snapshot: number) =>
  (await holdersPage(store, TOKEN, snapshot, true, 0, 10, await holdersTotal(store, TOKEN, snapshot))).rows.map(
    (r) => r.account,
  );

it('keeps a superseded snapshot readable for the retention time, then drops it at a later build', async () => {
  await store.insert('balance_deltas', [delta(1, 100, 1), delta(2, 50, 1)]);
  await buildRichListSnapshot(store, 1);
  expect(await accounts(1)).toEqual([account(1), account(2)]);

  // A reader that took height 1 as the latest a moment ago still reads its pages after height 2 is recorded.
  await store.insert('balance_deltas', [delta(3, 70, 2)]);
  await buildRichListSnapshot(store, 2);
  expect(await latestSnapshot(store)).toBe(2);
  expect(await accounts(1)).toEqual([account(1), account(2)]);
  expect(await holdersTotal(store, TOKEN, 1)).toBe(2);
  expect(await accounts(2)).toEqual([account(1), account(3), account(2)]);

  // Once superseded for longer than the retention (0 here), a later build drops them.
  await buildRichListSnapshot(store, 3, 0);
  expect(await accounts(1)).toEqual([]);
  expect(await accounts(2)).toEqual([]);
  expect(await accounts(3)).toEqual([account(1), account(3), account(2)]);
});

it("bounds a token's holder history to MAX_HISTORY_POINTS, evenly spaced back from the latest snapshot", async () => {
  const token = `0x${'d1'.repeat(20)}`;
  const n = 2_500;
  await store.insert(
    'stats_richlist_history',
    Array.from({ length: n }, (_, i) => ({ token, snapshot_height: 10 + 2 * i, holders: i + 1, supply: String(i) })),
  );
  const all = await richListHistory(store, token, 10 + 2 * (n - 1));
  expect(all.length).toBeLessThanOrEqual(MAX_HISTORY_POINTS);
  expect(all.length).toBe(Math.ceil(n / Math.ceil(n / MAX_HISTORY_POINTS)));
  expect(all.at(-1)).toMatchObject({ snapshot_height: 10 + 2 * (n - 1), holders: n, time: null });
  const steps = new Set(all.slice(1).map((p, i) => p.snapshot_height - all[i]!.snapshot_height));
  expect([...steps]).toEqual([2 * Math.ceil(n / MAX_HISTORY_POINTS)]);
  // Up to the bound, every snapshot.
  const few = await richListHistory(store, token, 10 + 2 * 99);
  expect(few.map((p) => p.snapshot_height)).toEqual(Array.from({ length: 100 }, (_, i) => 10 + 2 * i));
});

it('drops the history points of a build cut short before its record, so they never outlive the balances', async () => {
  const token = `0x${'f4'.repeat(20)}`;
  const points = async () => (await richListHistory(store, token, 10_000)).map((p) => [p.snapshot_height, p.holders]);
  await buildRichListSnapshot(store, 301);
  await store.insert('balance_deltas', [{ ...delta(1, 9, 302), token }]);
  // The build at 302 writes its history points, then the process dies before the snapshot's record.
  const dying = new Proxy(store, {
    get(target, key, receiver) {
      if (key === 'insert')
        return async (table: string, rows: object[], ...rest: unknown[]) => {
          if (table === 'richlist_snapshots') throw new Error('killed');
          return (target.insert as (...a: unknown[]) => Promise<void>)(table, rows, ...rest);
        };
      return Reflect.get(target, key, receiver);
    },
  });
  await expect(buildRichListSnapshot(dying, 302)).rejects.toThrow('killed');
  expect(await points()).toEqual([[302, 1]]);
  // The restart's recovery (nothing above the checkpoint to delete).
  await store.insert('ingest_checkpoints', [{ height: 302 }]);
  expect((await factsStore(store).recover()).deleted).toBe(0);
  expect(await points()).toEqual([]);
  // The token is gone before the next snapshot, which the schedule builds at another height.
  await store.insert('balance_deltas', [{ ...delta(1, -9, 303), token }]);
  await buildRichListSnapshot(store, 303);
  expect(await latestSnapshot(store)).toBe(303);
  expect(await points()).toEqual([]); // no snapshot ever saw a holder of it
  expect((await distribution(store, token, 303)).holders).toBe(0);
});

it("ends a token's holder history with one 0 point when its last holder goes, in the build and in the rebuild", async () => {
  const token = `0x${'e2'.repeat(20)}`;
  const other = `0x${'e3'.repeat(20)}`;
  const row = (t: string, n: number, amount: number, height: number) => ({ ...delta(n, amount, height), token: t });
  const points = async (t: string) =>
    (await richListHistory(store, t, 1_000)).map((p) => [p.snapshot_height, p.holders, p.supply]);
  await store.insert('balance_deltas', [row(token, 1, 7, 101), row(other, 2, 5, 101)]);
  await buildRichListSnapshot(store, 101);
  await store.insert('balance_deltas', [row(token, 1, -7, 102)]); // burned
  await buildRichListSnapshot(store, 102);
  await store.insert('balance_deltas', [row(other, 3, 1, 103)]);
  await buildRichListSnapshot(store, 103);
  const built = [
    [101, 1, '7'],
    [102, 0, '0'],
  ];
  expect(await points(token)).toEqual(built);
  expect((await distribution(store, token, 103)).holders).toBe(0);
  expect(await points(other)).toEqual([
    [101, 1, '5'],
    [102, 1, '5'],
    [103, 2, '6'],
  ]);
  // A snapshot built again at 102 (after a rewind) whose token has holders again replaces the 0 point.
  await store.insert('balance_deltas', [row(token, 4, 2, 102)]);
  await buildRichListSnapshot(store, 102);
  expect((await points(token)).slice(0, 2)).toEqual([
    [101, 1, '7'],
    [102, 1, '2'],
  ]);
  await store.exec('DELETE FROM balance_deltas WHERE token = {t:String} AND account = {a:String}', {
    t: token,
    a: account(4),
  });
  await buildRichListSnapshot(store, 102);
  await rebuildRichListHistory(store);
  expect(await points(token)).toEqual(built);
});
