// The ingest suite shared by the Move and Wasm sample chains (one file per chain: chDB binds one data
// directory per process, and vitest runs each file in its own process).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEIGHT_TABLES } from '../../clickhouse/facts-store.js';
import { dumpTables, ingestSampleChain, type IngestedSample, type SampleKind } from './sample.js';
import { expectAllTxsStored, expectNftOwners } from './sample-checks.js';

export function describeSampleChainIngest(kind: SampleKind, extra?: (get: () => IngestedSample) => void): void {
  let s: IngestedSample;
  beforeAll(async () => {
    s = await ingestSampleChain(kind);
  }, 120_000);
  afterAll(async () => s?.cleanup());

  describe(`${kind} sample chain ingest`, () => {
    it('stores every block and tx with the manifest hash, height, code, signer and message types', async () => {
      await expectAllTxsStored(s);
    });

    it('derives NFT ownership from the recorded NFT events', async () => {
      const expected =
        (s.sample.manifest as { expectedNfts?: { collection: string; tokenId: string; owner: string }[] })
          .expectedNfts ?? [];
      await expectNftOwners(s, expected);
    });

    it('links txs to accounts and message types', async () => {
      const t = s.sample.manifest.txs.find((x) => x.signer && x.code === 0)!;
      const rows = await s.store.rows<{ is_signer: number }>(
        'SELECT is_signer FROM account_txs WHERE account = {a:String} AND sequence = {q:UInt64}',
        { a: t.signer, q: t.height * 1_000_000 + t.index },
      );
      expect(rows).toEqual([{ is_signer: 1 }]);
      const [n] = await s.store.rows<{ n: string }>(
        'SELECT count() AS n FROM msg_type_txs WHERE msg_type = {m:String}',
        { m: t.msgTypes[0]!.replace(/^\//, '') },
      );
      expect(Number(n!.n)).toBeGreaterThan(0);
    });

    extra?.(() => s);

    it('re-ingesting a range leaves exactly the same data', async () => {
      const before = await dumpTables(s.store, HEIGHT_TABLES);
      await s.ingest.reingest(1, s.sample.manifest.latestHeight);
      expect(await dumpTables(s.store, HEIGHT_TABLES)).toEqual(before);
    });
  });
}
