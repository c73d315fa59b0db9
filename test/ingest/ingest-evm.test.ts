// End to end: the recorded EVM sample chain ingested into chDB; every derived view checked against the
// sample-chain manifest (which the builder computes from the recorded txs independently of our decoders).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { factsStore, HEIGHT_TABLES } from '../../clickhouse/facts-store.js';
import { latestSnapshot } from '../../clickhouse/queries/richlist.js';
import { normalizeAccount } from '../../chain/address.js';
import type { ExpectedEvmState } from '../../devnet/sample-chains/evm-activity.js';
import { dumpTables, ingestSampleChain, sampleIngest, type IngestedSample } from '../support/sample.js';
import { createLogger } from '../../platform/log.js';

let s: IngestedSample;
beforeAll(async () => {
  s = await ingestSampleChain('evm');
}, 120_000);
afterAll(async () => s?.cleanup());

/** The builder's independent replay of every served Transfer log (devnet/sample-chains/evm-activity.ts). */
function expected(): ExpectedEvmState {
  const e = (s.sample.manifest as { expected?: ExpectedEvmState }).expected;
  if (!e) throw new Error('EVM sample manifest has no expected state');
  return e;
}

describe('EVM sample chain ingest', () => {
  it('stores every block and every tx with its hash, height, signer and message types', async () => {
    const m = s.sample.manifest;
    const [b] = await s.store.rows<{ n: string; max: string }>('SELECT count() AS n, max(height) AS max FROM blocks');
    expect(Number(b!.n)).toBe(m.latestHeight);
    const txs = await s.store.rows<{ hash: string; height: string; signer: string; msg_types: string[]; code: number }>(
      'SELECT hash, height, signer, msg_types, code FROM txs ORDER BY sequence',
    );
    expect(txs).toHaveLength(m.txs.length);
    for (const mt of m.txs) {
      const row = txs.find((t) => t.hash === mt.hash);
      expect(row, mt.hash).toBeDefined();
      expect(Number(row!.height)).toBe(mt.height);
      expect(row!.code).toBe(mt.code);
      expect(row!.msg_types).toEqual(mt.msgTypes.map((x) => x.replace(/^\//, '')));
      if (mt.signer) expect(row!.signer).toBe(mt.signer);
    }
    const [errors] = await s.store.rows<{ n: string }>('SELECT count() AS n FROM ingest_errors');
    expect(Number(errors!.n)).toBe(0);
  });

  it('derives tx-by-hash, txs-by-account (with signer flag) and txs-by-message-type', async () => {
    const mt = s.sample.manifest.txs.find((t) => t.signer && t.code === 0)!;
    const [byHash] = await s.store.rows<{ height: string }>('SELECT height FROM tx_hashes WHERE hash = {h:String}', {
      h: mt.hash,
    });
    expect(Number(byHash!.height)).toBe(mt.height);
    const acct = await s.store.rows<{ is_signer: number }>(
      'SELECT is_signer FROM account_txs WHERE account = {a:String} AND sequence = {q:UInt64}',
      { a: mt.signer, q: mt.height * 1_000_000 + mt.index },
    );
    expect(acct).toEqual([{ is_signer: 1 }]);
    const type = mt.msgTypes[0]!.replace(/^\//, '');
    const expected = s.sample.manifest.txs.filter((t) => t.msgTypes.some((x) => x.replace(/^\//, '') === type)).length;
    const [byType] = await s.store.rows<{ n: string }>(
      'SELECT count() AS n FROM msg_type_txs WHERE msg_type = {t:String}',
      { t: type },
    );
    expect(Number(byType!.n)).toBe(expected);
  });

  it('indexes the ERC20 Transfer logs into the rich list exactly as the recorded logs add up', async () => {
    const { erc20Balances } = expected();
    expect(Object.keys(erc20Balances).length).toBeGreaterThan(0);
    for (const [token, holders] of Object.entries(erc20Balances)) {
      const rows = await s.store.rows<{ account: string; amount: string; rank: string }>(
        'SELECT account, toString(amount) AS amount, rank FROM richlist WHERE token = {t:String} AND snapshot_height = (SELECT max(snapshot_height) FROM richlist_snapshots) ORDER BY rank',
        { t: token.toLowerCase() },
      );
      const positive = Object.entries(holders).filter(([, a]) => BigInt(a) > 0n);
      expect(rows).toHaveLength(positive.length);
      for (const r of rows)
        expect(r.amount, r.account).toBe(
          BigInt(holders[r.account] ?? holders[r.account.toLowerCase()] ?? '0').toString(),
        );
      // ranked by amount desc, ties by account asc
      for (let i = 1; i < rows.length; i++) {
        const a = BigInt(rows[i - 1]!.amount),
          b = BigInt(rows[i]!.amount);
        expect(a > b || (a === b && rows[i - 1]!.account < rows[i]!.account)).toBe(true);
      }
    }
  });

  it('tracks ERC721 ownership through mint, transfer and burn', async () => {
    const { nftOwners, nftBurned } = expected();
    expect(Object.keys(nftOwners).length).toBeGreaterThanOrEqual(2);
    expect(Object.values(nftBurned).flat().length).toBeGreaterThan(0);
    const state = await s.store.rows<{ collection: string; token_id: string; owner: string; burned: number }>(
      `SELECT collection, token_id, argMax(to_owner, (sequence, event_index)) AS owner, argMax(kind = 'burn', (sequence, event_index)) AS burned
       FROM nft_events GROUP BY collection, token_id`,
    );
    for (const [collection, tokens] of Object.entries(nftOwners)) {
      for (const [tokenId, owner] of Object.entries(tokens)) {
        const row = state.find((r) => r.collection === collection.toLowerCase() && r.token_id === tokenId);
        expect(row, `${collection}/${tokenId}`).toBeDefined();
        expect(row!.burned).toBe(0);
        expect(row!.owner, `${collection}/${tokenId}`).toBe(normalizeAccount(owner));
      }
    }
    for (const [collection, ids] of Object.entries(nftBurned)) {
      for (const id of ids) {
        const row = state.find((r) => r.collection === collection.toLowerCase() && r.token_id === id);
        if (nftOwners[collection]?.[id]) continue; // re-minted after the burn
        expect(row?.burned, `${collection}/${id} burned`).toBe(1);
      }
    }
  });

  it('re-ingesting every height leaves exactly the same data', async () => {
    const before = await dumpTables(s.store, HEIGHT_TABLES);
    await s.ingest.reingest(1, s.sample.manifest.latestHeight);
    const after = await dumpTables(s.store, HEIGHT_TABLES);
    for (const t of HEIGHT_TABLES) expect(after[t], t).toBe(before[t]);
    await s.ingest.reingest(3, 5);
    expect(await dumpTables(s.store, HEIGHT_TABLES)).toEqual(before);
  });

  it('a rewind drops the rich-list snapshots built above it, and the ingest builds one again at its tip', async () => {
    const tip = s.sample.manifest.latestHeight;
    const richList = () =>
      s.store.rows(
        `SELECT token, snapshot_height, rank, account, toString(amount) AS amount FROM richlist
         WHERE snapshot_height = (SELECT max(snapshot_height) FROM richlist_snapshots) ORDER BY ALL`,
      );
    expect(await latestSnapshot(s.store)).toBe(tip);
    const before = await richList();
    expect(before.length).toBeGreaterThan(0);
    await factsStore(s.store).rewindTo(tip - 3);
    expect(await latestSnapshot(s.store)).toBeLessThanOrEqual(tip - 3);
    const [above] = await s.store.rows<{ n: string }>(
      'SELECT toString(count()) AS n FROM richlist WHERE snapshot_height > {h:UInt64}',
      { h: tip - 3 },
    );
    expect(above!.n).toBe('0');
    await s.ingest.reingest(tip - 2, tip);
    expect(await latestSnapshot(s.store)).toBe(tip);
    expect(await richList()).toEqual(before);
  });

  it('a rewind keeps the opening balances, never moves the checkpoint forward, and a raised START_HEIGHT leaves no hole', async () => {
    const tip = s.sample.manifest.latestHeight;
    const before = await dumpTables(s.store, [...HEIGHT_TABLES, 'balance_seeds']);
    const seeds = () => s.store.rows('SELECT * FROM balance_seeds ORDER BY ALL');
    const held = await seeds();
    expect(held.length).toBeGreaterThan(0);
    // The seeds are read once, at the start height of an empty store: a rewind used to delete them for good.
    await factsStore(s.store).rewindTo(tip - 3);
    expect(await seeds()).toEqual(held);
    // Above the checkpoint: nothing (it used to write checkpoint tip + 4, claiming heights never indexed).
    await factsStore(s.store).rewindTo(tip + 5);
    expect(await factsStore(s.store).checkpoint()).toBe(tip - 3);
    // A restart with a higher START_HEIGHT goes on from the checkpoint: it used to skip to START_HEIGHT.
    const { source, ingest } = sampleIngest(s.store, s.sample, {
      log: createLogger({ test: 'start-height' }),
      batchBlocks: 7,
      fetchConcurrency: 4,
      pollIntervalMs: 50,
      stopAtHeight: tip,
      startHeight: tip,
    });
    try {
      await ingest.run();
    } finally {
      source.close();
    }
    expect(await factsStore(s.store).checkpoint()).toBe(tip);
    expect(await dumpTables(s.store, [...HEIGHT_TABLES, 'balance_seeds'])).toEqual(before);
  });
});
