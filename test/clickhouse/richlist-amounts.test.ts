// Rich-list balances across the whole uint256 range. ERC20 amounts are uint256: a token minted at uint256's maximum
// (a common "max supply" mint) moves amounts of 2^255 or more, which one signed 256-bit delta cannot hold, so the
// ledger writes them in parts (migration 112). A balance of 2^255 or more must be listed at its exact amount, and a
// deficit (an account whose opening balance the ledger lacks) must not be listed at all: its wrapped sum would read
// as a huge holder. Real chDB; the Transfer logs go through the ingest's view into the ledger.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { replaceBalanceSeeds, seedRows } from '../../clickhouse/balance-seeds.js';
import { createStore, type Store } from '../../clickhouse/client.js';
import { migrate, migrationsDir } from '../../clickhouse/migrate.js';
import { distribution, richListHistory } from '../../clickhouse/queries/analytics.js';
import { holdersPage, holdersTotal } from '../../clickhouse/queries/richlist.js';
import { buildRichListSnapshot } from '../../clickhouse/richlist-snapshots.js';

const TRANSFER = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
const MAX = 2n ** 256n - 1n;
const ZERO = `0x${'0'.repeat(40)}`;
const account = (n: number) => `0x${String(n).padStart(40, '0')}`;
const topic = (addr: string) => `0x${'0'.repeat(24)}${addr.slice(2)}`;

let dir: string;
let store: Store;
beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'richlist-amounts-'));
  store = createStore({ dataDir: dir });
  await migrate(store);
});
afterAll(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

let seq = 0;
/** One ERC20 Transfer log as the ingest writes it (evm_logs), at `height`. */
const transfer = (token: string, from: string, to: string, amount: bigint, height: number) => ({
  height,
  sequence: ++seq,
  log_index: 0,
  address: token,
  topic0: TRANSFER,
  topic1: topic(from),
  topic2: topic(to),
  topic3: '',
  topics: 3,
  data: `0x${amount.toString(16).padStart(64, '0')}`,
});

const holders = async (token: string, height: number) => {
  const total = await holdersTotal(store, token, height);
  return (await holdersPage(store, token, height, true, 0, 10, total)).rows.map((r) => [r.account, String(r.amount)]);
};

it('ranks a max-supply mint and the transfers out of it at their exact uint256 balances', async () => {
  const token = `0x${'a1'.repeat(20)}`;
  await store.insert('evm_logs', [
    transfer(token, ZERO, account(1), MAX, 1),
    transfer(token, account(1), account(2), 10n, 2),
    transfer(token, account(1), account(3), 2n ** 255n, 2),
    // In and out again: a zero balance is no holder.
    transfer(token, account(2), account(4), 4n, 3),
    transfer(token, account(4), account(2), 4n, 3),
  ]);
  await buildRichListSnapshot(store, 3);
  expect(await holders(token, 3)).toEqual([
    [account(3), String(2n ** 255n)],
    [account(1), String(MAX - 10n - 2n ** 255n)],
    [account(2), '10'],
  ]);
  const [point] = (await richListHistory(store, token, 3)).slice(-1);
  expect(point).toMatchObject({ snapshot_height: 3, holders: 3, supply: String(MAX) });
});

it('opens the list from seeded balances of 2^255 or more', async () => {
  const token = `0x${'b2'.repeat(20)}`;
  await replaceBalanceSeeds(store, [
    { token, account: account(5), amount: String(2n ** 255n + 7n), height: 4 },
    { token, account: account(6), amount: String(MAX - 2n ** 255n - 7n), height: 4 },
  ]);
  await store.insert('evm_logs', [transfer(token, account(5), account(7), 7n, 5)]);
  await buildRichListSnapshot(store, 5);
  expect(await holders(token, 5)).toEqual([
    [account(5), String(2n ** 255n)],
    [account(6), String(MAX - 2n ** 255n - 7n)],
    [account(7), '7'],
  ]);
});

it('lists no account whose ledger sum is a deficit, small or huge, and keeps shares within [0, 1]', async () => {
  // Seeds know accounts 8 and 9; account 10's opening balance is missing (not in the auth listing, or its denom's
  // lookup failed), and it sends.
  const seeded = `0x${'c3'.repeat(20)}`;
  await replaceBalanceSeeds(store, [
    { token: seeded, account: account(8), amount: '1000', height: 6 },
    { token: seeded, account: account(9), amount: '500', height: 6 },
  ]);
  // An unseeded token (an ERC20 deployed before the first indexed block): account 11 sends what it had before.
  const unseeded = `0x${'d4'.repeat(20)}`;
  await store.insert('evm_logs', [
    transfer(seeded, account(10), account(8), 40n, 7),
    transfer(seeded, ZERO, account(9), 60n, 7),
    transfer(unseeded, account(11), account(12), 5n, 7),
    transfer(unseeded, account(11), account(13), MAX - 5n, 7),
  ]);
  await buildRichListSnapshot(store, 7);
  expect(await holders(seeded, 7)).toEqual([
    [account(8), '1040'],
    [account(9), '560'],
  ]);
  expect(await holders(unseeded, 7)).toEqual([
    [account(13), String(MAX - 5n)],
    [account(12), '5'],
  ]);
  const d = await distribution(store, seeded, 7);
  expect(d).toMatchObject({ holders: 2, supply: '1600' });
  for (const share of [d.top1_share, d.top10_share, d.gini]) {
    expect(share).toBeGreaterThanOrEqual(0);
    expect(share).toBeLessThanOrEqual(1);
  }
});

it('writes an amount of 2^255 or more as parts below 2^255 that sum to it, seeds and ledger alike', async () => {
  const parts = seedRows([{ token: 't', account: 'a', amount: String(MAX), height: 1 }]).map((r) => BigInt(r.amount));
  expect(parts).toHaveLength(3);
  expect(parts.reduce((a, b) => a + b)).toBe(MAX);
  for (const p of parts) expect(p < 2n ** 255n).toBe(true);
  expect(seedRows([{ token: 't', account: 'a', amount: String(2n ** 255n - 1n), height: 1 }])).toHaveLength(1);

  const token = `0x${'e5'.repeat(20)}`;
  await store.insert('evm_logs', [transfer(token, ZERO, account(14), MAX, 8)]);
  const rows = await store.rows<{ delta: string }>(
    'SELECT toString(delta) AS delta FROM balance_deltas WHERE token = {token:String} ORDER BY delta',
    { token },
  );
  expect(rows.map((r) => BigInt(r.delta)).reduce((a, b) => a + b)).toBe(MAX);
  for (const r of rows) expect(BigInt(r.delta) > 0n && BigInt(r.delta) < 2n ** 255n).toBe(true);
});

it('migration 112 writes again the ledger rows the earlier view wrapped, and nothing else', async () => {
  const token = `0x${'f6'.repeat(20)}`;
  const other = `0x${'f7'.repeat(20)}`;
  // As the view before migration 112 wrote them: one row a side, the amount reinterpreted as an Int256 (2^256 − 1
  // reads as −1), beside a small transfer of the same tx and one of another token.
  const logs = [
    transfer(token, ZERO, account(15), MAX, 9),
    transfer(token, account(15), account(16), 3n, 9),
    transfer(other, ZERO, account(17), 9n, 9),
  ];
  logs[1]!.sequence = logs[0]!.sequence;
  await store.exec('DROP VIEW balance_deltas_mv');
  await store.insert('evm_logs', logs);
  await store.insert('balance_deltas', [
    { token, account: account(15), delta: '-1', height: 9, sequence: logs[0]!.sequence },
    { token, account: account(15), delta: '-3', height: 9, sequence: logs[0]!.sequence },
    { token, account: account(16), delta: '3', height: 9, sequence: logs[0]!.sequence },
    { token: other, account: account(17), delta: '9', height: 9, sequence: logs[2]!.sequence },
  ]);
  await store.exec(
    "ALTER TABLE schema_migrations DELETE WHERE version = '112_balance_delta_parts' SETTINGS mutations_sync = 1",
  );
  expect(await migrate(store, migrationsDir)).toEqual(['112_balance_delta_parts']);
  await buildRichListSnapshot(store, 9);
  expect(await holders(token, 9)).toEqual([
    [account(15), String(MAX - 3n)],
    [account(16), '3'],
  ]);
  expect(await holders(other, 9)).toEqual([[account(17), '9']]);
  // The view is back: a later log goes through it.
  await store.insert('evm_logs', [transfer(other, account(17), account(18), 4n, 10)]);
  await buildRichListSnapshot(store, 10);
  expect(await holders(other, 10)).toEqual([
    [account(17), '5'],
    [account(18), '4'],
  ]);
});
