// The rich list opens with the chain's balances before the first indexed block (genesis allocations), then
// adds the Transfer deltas; zero balances leave the list. Issue 11: on a real devnet the native denom's list
// held only in-block deltas (269000 where the bank balance was 1000000000000000000269000). A node that does not
// answer at the start is waited for: seeds are read only before the first checkpoint.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fromHex, toBech32 } from '@cosmjs/encoding';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStore, type Store } from '../../clickhouse/client.js';
import { migrate } from '../../clickhouse/migrate.js';
import { accountAddress, seedBalances } from '../../ingest/balance-seed.js';
import { createChainSource } from '../../ingest/source.js';
import { createLogger } from '../../platform/log.js';
import type { ExpectedEvmState } from '../../devnet/sample-chains/evm-activity.js';
import { NATIVE_DENOM_CONTRACT, RICH_LIST_TOKEN } from '../../devnet/sample-chains/evm.js';
import { startSampleChain } from '../../devnet/sample-chains/serve.js';
import { grpcError } from '../../devnet/chain-sim/rest.js';
import { sampleIngest } from '../support/sample.js';

const NATIVE_CONTRACT = NATIVE_DENOM_CONTRACT.toLowerCase(); // the umin ERC20 (minievm keeps bank coins in ERC20s)
const GENESIS_ONLY = `0x${'77'.repeat(20)}`; // funded at genesis, never in a Transfer log
const EMPTY = `0x${'78'.repeat(20)}`; // an account with a zero balance
// A 32-byte account (an ICA, a derived account) and its shorthand, its last 20 bytes: minievm keeps the 32-byte
// account's coins as the ERC20 balance of the shorthand (x/evm/keeper/address.go), which auth lists too once it has
// signed. Both answer the same balance; the ledger's Transfer logs name the shorthand.
const LONG = `0x${'a5'.repeat(12)}${'79'.repeat(20)}`;
const SHORT = `0x${'79'.repeat(20)}`;
const bech = (hex: string) => toBech32('init', fromHex(hex.slice(2)));

let dir: string;
let store: Store;
let sample: Awaited<ReturnType<typeof startSampleChain>>;
let holder: string;
let holderDelta: bigint;
const seen: string[] = [];
/** The bank balances the node serves at the seed height, by bech32 address. */
let balances: Record<string, { denom: string; amount: string }[]>;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'balance-seed-'));
  sample = await startSampleChain('evm');
  const expected = (sample.manifest as { expected?: ExpectedEvmState }).expected!;
  [holder, holderDelta] = Object.entries(expected.erc20Balances[RICH_LIST_TOKEN]!).map(
    ([k, v]) => [k, BigInt(v)] as [string, bigint],
  )[0]!;
  // The chain's state at the seed height: three accounts over two pages (a module account among them).
  const accounts = [
    { '@type': '/cosmos.auth.v1beta1.BaseAccount', address: bech(holder), account_number: '1' },
    { '@type': '/cosmos.auth.v1beta1.ModuleAccount', base_account: { address: bech(GENESIS_ONLY) }, name: 'x' },
    { '@type': '/cosmos.auth.v1beta1.BaseAccount', address: bech(EMPTY), account_number: '3' },
    { '@type': '/cosmos.auth.v1beta1.BaseAccount', address: bech(LONG), account_number: '4' },
    {
      '@type': '/minievm.evm.v1.ShorthandAccount',
      base_account: { address: bech(SHORT), account_number: '4' },
      original_address: bech(LONG),
    },
  ];
  // Ahead of the sample chain's own auth/bank state (first: true): this test's accounts exercise the parsing.
  sample.server.registerGet(
    '/cosmos/auth/v1beta1/accounts',
    (_m, q) => {
      seen.push('accounts');
      const page = q.get('pagination.key') === 'Mg==' ? 1 : 0;
      return {
        accounts: page === 0 ? accounts.slice(0, 2) : accounts.slice(2),
        pagination: { next_key: page === 0 ? 'Mg==' : null, total: '0' },
      };
    },
    { first: true },
  );
  balances = {
    [bech(holder)]: [
      { denom: `evm/${RICH_LIST_TOKEN.slice(2).toUpperCase()}`, amount: '1000' },
      { denom: 'umin', amount: '5' },
    ],
    [bech(GENESIS_ONLY)]: [{ denom: 'umin', amount: '1000000000000000000000000' }],
    [bech(EMPTY)]: [{ denom: 'umin', amount: '0' }],
    [bech(LONG)]: [{ denom: 'umin', amount: '42' }],
    [bech(SHORT)]: [{ denom: 'umin', amount: '42' }],
  };
  sample.server.registerGet(
    /^\/cosmos\/bank\/v1beta1\/balances\/(init1[0-9a-z]+)$/,
    (m) => ({ balances: balances[m[1]!] ?? [], pagination: { next_key: null, total: '0' } }),
    { first: true },
  );
  store = createStore({ dataDir: dir });
  await migrate(store);
  const { source, ingest } = sampleIngest(store, sample, {
    log: createLogger({ test: 'balance-seed' }),
    batchBlocks: 7,
    pollIntervalMs: 20,
    stopAtHeight: sample.manifest.latestHeight,
  });
  await ingest.run();
  source.close();
}, 120_000);
afterAll(async () => {
  await sample?.stop();
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

const list = (token: string) =>
  store.rows<{ account: string; amount: string }>(
    `SELECT account, toString(amount) AS amount FROM richlist
     WHERE token = {t:String} AND snapshot_height = (SELECT max(snapshot_height) FROM richlist_snapshots) ORDER BY rank`,
    { t: token },
  );

describe('rich list opening balances', () => {
  it('finds the address of every kind of auth account', () => {
    expect(accountAddress({ address: 'init1a' })).toBe('init1a');
    expect(accountAddress({ base_account: { address: 'init1b' } })).toBe('init1b');
    expect(accountAddress({ base_vesting_account: { base_account: { address: 'init1c' } } })).toBe('init1c');
    expect(accountAddress({ name: 'x' })).toBeNull();
  });

  it('a genesis-only holder of the native denom is listed with its bank balance; zero balances are not', async () => {
    expect(seen.length).toBeGreaterThanOrEqual(2); // both account pages were read
    const native = await list(NATIVE_CONTRACT);
    // The 32-byte account's coins once, under its shorthand: not twice, and not under a 64-hex account the ledger
    // never names.
    expect(native).toEqual([
      { account: GENESIS_ONLY, amount: '1000000000000000000000000' },
      { account: SHORT, amount: '42' },
      { account: holder, amount: '5' },
    ]);
    expect(native.some((h) => h.account === EMPTY)).toBe(false);
  });

  it('an ERC20 holder is its opening balance plus every delta', async () => {
    const rows = await list(RICH_LIST_TOKEN);
    expect(rows.find((r) => r.account === holder)?.amount).toBe((holderDelta + 1000n).toString());
    const [seeds] = await store.rows<{ n: string; h: string }>(
      'SELECT count() AS n, max(height) AS h FROM balance_seeds',
    );
    expect(seeds).toEqual({ n: '4', h: '1' });
  });

  it('waits for a node that does not answer instead of opening without seeds, until stopped', async () => {
    const seedRows = () =>
      store.rows('SELECT account, token, toString(amount) AS amount, height FROM balance_seeds ORDER BY ALL');
    const before = await seedRows();
    const warned: string[] = [];
    const log = { ...createLogger({ test: 'balance-seed' }), warn: (event: string) => void warned.push(event) };
    const source = createChainSource({ rpcUrl: sample.rpcUrl, restUrl: sample.restUrl, evmUrl: sample.evmUrl });
    // Down for more than one round of retries (8), then back: the same seeds as before.
    sample.server.faults.unansweredRest = 12;
    await seedBalances(store, source, 1, log, 'init', { retryBaseMs: 5 });
    expect(warned).toContain('ingest.balance_seed_waiting');
    expect(await seedRows()).toEqual(before);
    // Down for good: waited for until the ingest stops, then refused.
    sample.server.faults.unansweredRest = 1_000_000;
    let stopped = false;
    setTimeout(() => (stopped = true), 300);
    await expect(
      seedBalances(store, source, 1, log, 'init', { retryBaseMs: 5, isStopped: () => stopped }),
    ).rejects.toThrow();
    sample.server.faults.clear();
    source.close();
    expect(await seedRows()).toEqual(before);
  });
  it('leaves out a denom the node says has no contract (a warning) and one whose lookup keeps failing (an error naming it)', async () => {
    const seedRows = () =>
      store.rows('SELECT account, token, toString(amount) AS amount, height FROM balance_seeds ORDER BY ALL');
    const before = await seedRows();
    expect(before.length).toBeGreaterThan(0);
    const held = balances[bech(holder)]!;
    balances[bech(holder)] = [...held, { denom: 'ufail', amount: '7' }, { denom: 'unone', amount: '9' }];
    // minievm answers NotFound (HTTP 404, gRPC code 5) for a denom without a contract; 'ufail' gets an Internal error
    // (HTTP 500) every time.
    sample.server.registerGet(
      /^\/minievm\/evm\/v1\/contracts\/by_denom$/,
      (_m, q) =>
        q.get('denom') === 'ufail'
          ? grpcError(500, 13, 'internal')
          : q.get('denom') === 'unone'
            ? grpcError(404, 5, 'collections: not found')
            : undefined,
      { first: true },
    );
    const events: { level: string; event: string; fields?: Record<string, unknown> }[] = [];
    const log = {
      ...createLogger({ test: 'balance-seed' }),
      warn: (event: string, fields?: Record<string, unknown>) => void events.push({ level: 'warn', event, fields }),
      error: (event: string, fields?: Record<string, unknown>) => void events.push({ level: 'error', event, fields }),
    };
    const source = createChainSource({ rpcUrl: sample.rpcUrl, restUrl: sample.restUrl, evmUrl: sample.evmUrl });
    try {
      await seedBalances(store, source, 1, log, 'init', { retryBaseMs: 5 });
    } finally {
      source.close();
      balances[bech(holder)] = held;
    }
    expect(events.filter((e) => e.level === 'error')).toEqual([
      {
        level: 'error',
        event: 'ingest.balance_seed_lookup_failed',
        fields: expect.objectContaining({ height: 1, denom: 'ufail' }),
      },
    ]);
    expect(events.filter((e) => e.event === 'ingest.balance_seed_no_contract').map((e) => e.fields?.denom)).toEqual([
      'unone',
    ]);
    // Every other balance is seeded as before.
    expect(await seedRows()).toEqual(before);
  });
});
