// Rich-list balances across the whole uint256 range. ERC20 amounts are uint256: a token minted at uint256's maximum
// (a common "max supply" mint) moves amounts of 2^255 or more, which the ledger's signed 256-bit deltas hold only
// modulo 2^256. Every real balance lies in [0, 2^256), so the ledger's sum read modulo 2^256 is exact; these tests
// hold the snapshot build to that. Real chDB; the Transfer logs go through the ingest's view into the ledger.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { replaceBalanceSeeds } from '../../clickhouse/balance-seeds.js';
import { createStore, type Store } from '../../clickhouse/client.js';
import { migrate } from '../../clickhouse/migrate.js';
import { richListHistory } from '../../clickhouse/queries/analytics.js';
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
