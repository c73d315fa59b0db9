// End to end: the recorded Move sample chain ingested into chDB through the real code path.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEIGHT_TABLES } from '../../ingest/writer.js';
import { dumpTables, ingestSampleChain, type IngestedSample } from '../support/sample.js';
import { expectAllTxsStored, expectNftOwners } from '../support/sample-checks.js';

let s: IngestedSample;
beforeAll(async () => {
  s = await ingestSampleChain('move');
}, 120_000);
afterAll(async () => s?.cleanup());

describe('Move sample chain ingest', () => {
  it('stores every block and tx with the manifest hash, height, code, signer and message types', async () => {
    await expectAllTxsStored(s);
  });

  it('derives NFT ownership from the recorded NFT events', async () => {
    const expected = (s.sample.manifest as { expectedNfts?: { collection: string; tokenId: string; owner: string }[] }).expectedNfts ?? [];
    await expectNftOwners(s, expected);
  });

  it('lists collections created before the indexed range, named from the chain (0x1::collection::Collection)', async () => {
    const rows = await s.store.rows<{ collection: string; name: string }>('SELECT collection, name FROM nft_collection_events');
    const byAddr = new Map(rows.map((r) => [r.collection, r.name]));
    // Recorded resource of the collection minted in cosmos/move/nft/nft-mint.json (mock_api fixture).
    expect(byAddr.get('0x0597cd3f37f21f59c771731a31e92ac1214f72b4f8a86541a94b50f0308f4e20')).toBe('Favorite food');
    expect(rows.length).toBe(new Set(rows.map((r) => r.collection)).size);
  });

  it('links txs to accounts and message types', async () => {
    const t = s.sample.manifest.txs.find((x) => x.signer && x.code === 0)!;
    const rows = await s.store.rows<{ is_signer: number }>('SELECT is_signer FROM account_txs WHERE account = {a:String} AND sequence = {q:UInt64}', { a: t.signer, q: t.height * 1_000_000 + t.index });
    expect(rows).toEqual([{ is_signer: 1 }]);
    const [n] = await s.store.rows<{ n: string }>('SELECT count() AS n FROM msg_type_txs WHERE msg_type = {m:String}', { m: t.msgTypes[0]!.replace(/^\//, '') });
    expect(Number(n!.n)).toBeGreaterThan(0);
  });

  it('re-ingesting a range leaves exactly the same data', async () => {
    const before = await dumpTables(s.store, HEIGHT_TABLES);
    await s.ingest.reingest(1, s.sample.manifest.latestHeight);
    expect(await dumpTables(s.store, HEIGHT_TABLES)).toEqual(before);
  });
});
