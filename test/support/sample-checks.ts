// Assertions shared by the per-VM sample-chain ingest tests: every served tx is stored with its manifest
// values, and NFT ownership matches the manifest's expectations.
import { fromBech32, toHex } from '@cosmjs/encoding';
import { expect } from 'vitest';
import { normalizeAccount } from '../../chain/address.js';
import type { IngestedSample } from './sample.js';

export async function expectAllTxsStored(s: IngestedSample): Promise<void> {
  const m = s.sample.manifest;
  const [b] = await s.store.rows<{ n: string }>('SELECT count() AS n FROM blocks');
  expect(Number(b!.n)).toBe(m.latestHeight);
  const rows = await s.store.rows<{ hash: string; height: string; code: number; signer: string; msg_types: string[] }>(
    'SELECT hash, height, code, signer, msg_types FROM txs',
  );
  expect(rows).toHaveLength(m.txs.length);
  const byHash = new Map(rows.map((r) => [r.hash, r]));
  for (const t of m.txs) {
    const r = byHash.get(t.hash);
    expect(r, `${t.file} ${t.export}`).toBeDefined();
    expect(Number(r!.height)).toBe(t.height);
    expect(r!.code).toBe(t.code);
    expect(r!.msg_types).toEqual(t.msgTypes.map((x) => x.replace(/^\//, '')));
    if (t.signer) expect(r!.signer, `${t.file} ${t.export}`).toBe(t.signer);
  }
  const errors = await s.store.rows('SELECT * FROM ingest_errors');
  expect(errors).toEqual([]);
}

/** Collection as the indexer stores it: Move 32-byte object hex, CW721 contract bytes as hex. */
export function collectionKey(c: string): string {
  if (c.startsWith('0x')) return `0x${c.slice(2).toLowerCase().padStart(64, '0')}`;
  return `0x${toHex(fromBech32(c).data)}`;
}

export async function expectNftOwners(
  s: IngestedSample,
  expected: { collection: string; tokenId: string; owner: string }[],
): Promise<void> {
  expect(expected.length).toBeGreaterThan(0);
  const state = await s.store.rows<{ collection: string; token_id: string; owner: string; burned: number }>(
    `SELECT collection, token_id, argMax(to_owner, (sequence, event_index)) AS owner, argMax(kind = 'burn', (sequence, event_index)) AS burned
     FROM nft_events WHERE kind != 'mutate' GROUP BY collection, token_id`,
  );
  for (const e of expected) {
    const row = state.find((r) => r.collection === collectionKey(e.collection) && r.token_id === e.tokenId);
    expect(row, `${e.collection}/${e.tokenId}`).toBeDefined();
    expect(row!.burned).toBe(0);
    expect(row!.owner, `${e.collection}/${e.tokenId}`).toBe(normalizeAccount(e.owner));
    // The ownership ledger nets to exactly one holder: the current owner (a holder from before the indexed
    // range can net to -1, which is why owning means sum > 0).
    const holders = await s.store.rows<{ owner: string; n: string }>(
      'SELECT owner, toString(sum(delta)) AS n FROM nft_holdings WHERE collection = {c:String} AND token_id = {t:String} GROUP BY owner HAVING sum(delta) > 0',
      { c: collectionKey(e.collection), t: e.tokenId },
    );
    expect(holders, `${e.collection}/${e.tokenId} ledger`).toEqual([{ owner: normalizeAccount(e.owner), n: '1' }]);
  }
}
