// Migration 113 on a real embedded store seeded before migration 112: an opening balance of 2^255 or more went into
// balance_seeds' Int256 column wrapped (negative), which the rich list now reads as a deficit. The migration writes
// such seeds again as parts below 2^255 (as seedRows does since), so the holder is listed at its exact balance.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createStore, type Store } from '../../clickhouse/client.js';
import { listMigrations, migrate } from '../../clickhouse/migrate.js';
import { holdersPage, holdersTotal } from '../../clickhouse/queries/richlist.js';
import { buildRichListSnapshot } from '../../clickhouse/richlist-snapshots.js';

let dir: string;
let store: Store;
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'balance-seed-migration-'));
  store = createStore({ dataDir: path.join(dir, 'db') });
});
afterAll(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

const account = (n: number) => `0x${String(n).padStart(40, '0')}`;

it('writes again the seeds stored wrapped before migration 112, keeps the others, and runs again to the same rows', async () => {
  const before = path.join(dir, 'migrations-before');
  mkdirSync(before);
  for (const m of listMigrations().filter((m) => m.version < '112'))
    copyFileSync(m.file, path.join(before, path.basename(m.file)));
  await migrate(store, before);
  const token = `0x${'f8'.repeat(20)}`;
  const big = 2n ** 255n + 7n;
  await store.insert('balance_seeds', [
    { token, account: account(1), amount: String(big), height: 4 },
    { token, account: account(2), amount: '100', height: 4 },
  ]);
  expect(await migrate(store)).toEqual(expect.arrayContaining(['112_balance_delta_parts', '113_balance_seed_parts']));
  const seeds = async () =>
    (
      await store.rows<{ account: string; amount: string }>(
        'SELECT account, toString(amount) AS amount FROM balance_seeds ORDER BY account, amount',
      )
    ).map((r) => [r.account, r.amount]);
  const once = await seeds();
  expect(once.filter(([a]) => a === account(1)).reduce((sum, [, v]) => sum + BigInt(v!), 0n)).toBe(big);
  for (const [, v] of once) expect(BigInt(v!) > 0n && BigInt(v!) < 2n ** 255n).toBe(true);
  await buildRichListSnapshot(store, 5);
  const total = await holdersTotal(store, token, 5);
  expect(
    (await holdersPage(store, token, 5, true, 0, 10, total)).rows.map((r) => [r.account, String(r.amount)]),
  ).toEqual([
    [account(1), String(big)],
    [account(2), '100'],
  ]);
  // Its statements again (a crash before it was recorded): the same rows.
  await store.exec(
    "ALTER TABLE schema_migrations DELETE WHERE version = '113_balance_seed_parts' SETTINGS mutations_sync = 1",
  );
  expect(await migrate(store)).toEqual(['113_balance_seed_parts']);
  expect(await seeds()).toEqual(once);
});
