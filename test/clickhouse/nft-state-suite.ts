// The maintained NFT state (clickhouse/migrations/300_nft_state.sql, clickhouse/nft-state.ts) over a recorded
// sample chain, checked against the per-request folds of the raw facts the API used before it (written out here,
// independent of the state tables): after the ingest, after a full rebuild, after a re-ingest of a height range,
// after a deleted range (crash recovery), and with a state row whose facts never landed.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { deleteRange } from '../../clickhouse/facts-store.js';
import { rebuildNftState } from '../../clickhouse/nft-state.js';
import { allCollections } from '../../clickhouse/queries/collections.js';
import { ingestSampleChain, type IngestedSample, type SampleKind } from '../support/sample.js';

const ORD = '(sequence, event_index)';
/** Live tokens folded from nft_events (the former per-request fold). */
const TOKENS_FROM_FACTS = `
SELECT collection, token_id, owner, uri, object_addr, height, time FROM (
  SELECT collection, token_id,
         argMaxIf(to_owner, ${ORD}, kind IN ('mint', 'transfer')) AS owner,
         argMaxIf(kind, ${ORD}, kind != 'mutate') AS state,
         argMaxIf(uri, ${ORD}, uri != '') AS uri,
         argMaxIf(object_addr, ${ORD}, object_addr != '') AS object_addr,
         max(height) AS height, argMax(time, ${ORD}) AS time
  FROM nft_events GROUP BY collection, token_id HAVING state != 'burn')
ORDER BY collection, token_id`;
const TOKENS_FROM_STATE = `
SELECT collection, token_id, max(owner_v).3 AS owner, max(uri_v).3 AS uri, max(object_v).3 AS object_addr,
       max(last_height) AS height, max(time_v).3 AS time
FROM nft_token_state GROUP BY collection, token_id HAVING max(burned_v).3 = 0 ORDER BY collection, token_id`;
/**
 * Collections folded from their events, contracts and NFT events (the former per-request fold); an EVM collection
 * whose deployment is indexed was created by that tx's signer.
 */
const COLLECTIONS_FROM_FACTS = `
SELECT s.collection AS collection, s.name AS name, s.origin_name AS origin_name,
       if(c.c_height > 0 AND ifNull(t.signer, '') != '', t.signer, s.creator) AS creator,
       toString(if(c.c_height > 0, c.c_height, s.s_height)) AS height,
       if(c.c_height > 0, c.c_time, s.s_time) AS time, toString(greatest(ifNull(n.n, 0), 0)) AS length
FROM (
  SELECT collection, argMaxIf(name, sequence, name != '') AS name,
         argMaxIf(origin_name, sequence, origin_name != '') AS origin_name,
         argMinIf(creator, sequence, creator != '') AS creator,
         argMin(height, sequence) AS s_height, argMin(time, sequence) AS s_time
  FROM nft_collection_events GROUP BY collection) AS s
LEFT JOIN (SELECT address, min(height) AS c_height, argMin(time, sequence) AS c_time, min(sequence) AS c_seq
           FROM evm_contracts GROUP BY address) AS c
  ON c.address = s.collection
LEFT JOIN (SELECT sequence, signer FROM txs) AS t ON t.sequence = c.c_seq
LEFT JOIN (SELECT collection, toInt64(countIf(kind = 'mint')) - toInt64(countIf(kind = 'burn')) AS n FROM nft_events GROUP BY collection) AS n
  ON n.collection = s.collection
ORDER BY toUInt64(height), collection
SETTINGS join_use_nulls = 1`;

export function nftStateSuite(kind: SampleKind): void {
  let s: IngestedSample;
  let last: number;

  beforeAll(async () => {
    s = await ingestSampleChain(kind);
    last = s.sample.manifest.latestHeight;
  }, 180_000);
  afterAll(async () => {
    await s?.cleanup();
  });

  const state = async () => ({
    tokens: await s.store.rows(TOKENS_FROM_STATE),
    collections: await allCollections(s.store, 1_000_000),
  });
  const facts = async () => ({
    tokens: await s.store.rows(TOKENS_FROM_FACTS),
    collections: await s.store.rows(COLLECTIONS_FROM_FACTS),
  });
  const dirty = async () =>
    Number((await s.store.rows<{ n: string }>('SELECT count() AS n FROM nft_state_dirty'))[0]!.n);

  it('the views keep the state equal to the fold of the facts, and a full rebuild gives the same', async () => {
    const want = await facts();
    expect(want.tokens.length).toBeGreaterThan(0);
    expect(want.collections.length).toBeGreaterThan(0);
    expect(await state()).toEqual(want);
    await rebuildNftState(s.store);
    expect(await state()).toEqual(want);
  });

  it('a re-ingested range is not counted twice', async () => {
    const want = await facts();
    await s.ingest.reingest(Math.floor(last / 2), last);
    expect(await facts()).toEqual(want);
    expect(await state()).toEqual(want);
    expect(await dirty()).toBe(0);
  });

  it('a deleted range (crash recovery) leaves the state of the facts that remain, stray state rows included', async () => {
    // A state row whose facts never landed (a crash between a view's insert and its source's): dropped too.
    const [t] = await s.store.rows<{ collection: string; token_id: string }>(
      'SELECT collection, token_id FROM nft_token_state LIMIT 1',
    );
    await s.store.exec(
      `INSERT INTO nft_token_state (collection, token_id, owner_v, burned_v, last_height)
       VALUES ({c:String}, {t:String}, (18446744073709551615, 0, 'stray'), (18446744073709551615, 0, 1), {h:UInt64})`,
      { c: t!.collection, t: t!.token_id, h: last + 5 },
    );
    await s.store.exec(
      `INSERT INTO nft_collection_state (collection, events, nfts, last_height) VALUES ('stray', 1, 5, {h:UInt64})`,
      { h: last + 5 },
    );
    const before = await facts();
    // From the median mint on: about half of the tokens disappear.
    const [m] = await s.store.rows<{ h: string }>(
      "SELECT toString(quantileExactLow(0.5)(height)) AS h FROM nft_events WHERE kind = 'mint'",
    );
    await deleteRange(s.store, Number(m!.h), Number.MAX_SAFE_INTEGER);
    const want = await facts();
    expect(want).not.toEqual(before);
    expect(await state()).toEqual(want);
    expect(await dirty()).toBe(0);
  });
}
