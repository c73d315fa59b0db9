// NFT collections. A collection's facts fold its nft_collection_events rows: height/time/creator from the
// first row (creation or first sight; an EVM collection's height/time is its contract's deployment when indexed), name/origin_name from the latest non-empty value. `nfts.length` is the
// live token count: mints minus burns of the collection's events.
import type { Store } from '../client.js';
import { after, dir, type ListWindow } from './keyset.js';

export interface CollectionRow {
  collection: string;
  name: string;
  origin_name: string;
  creator: string;
  height: string;
  time: string;
  length: string;
}

const SUMMARY = (where: string) => `
SELECT s.collection AS collection, s.name AS name, s.origin_name AS origin_name, s.creator AS creator,
       if(c.c_height > 0, c.c_height, s.s_height) AS height,
       if(c.c_height > 0, c.c_time, s.s_time) AS time
FROM (
  SELECT collection,
         argMaxIf(name, sequence, name != '') AS name,
         argMaxIf(origin_name, sequence, origin_name != '') AS origin_name,
         argMinIf(creator, sequence, creator != '') AS creator,
         argMin(height, sequence) AS s_height,
         argMin(time, sequence) AS s_time
  FROM nft_collection_events ${where}
  GROUP BY collection
) AS s
LEFT JOIN (
  -- EVM collections: the contract's deployment (minievm contract_created), when it is indexed
  SELECT address, min(height) AS c_height, argMin(time, sequence) AS c_time
  FROM evm_contracts WHERE address IN (SELECT collection FROM nft_collection_events ${where})
  GROUP BY address
) AS c ON c.address = s.collection`;

/** Collections an account holds ≥1 NFT in, from the ownership ledger. */
const OWNED = `SELECT DISTINCT collection FROM (
  SELECT collection, token_id FROM nft_holdings WHERE owner = {owner:String}
  GROUP BY collection, token_id HAVING sum(delta) > 0)`;

type Params = Record<string, unknown>;

export type CollectionScope = { kind: 'all' } | { kind: 'owner'; owner: string } | { kind: 'addrs'; addrs: string[] };

function scopeWhere(s: CollectionScope, params: Params): string {
  if (s.kind === 'owner') {
    params.owner = s.owner;
    return `WHERE collection IN (${OWNED})`;
  }
  if (s.kind === 'addrs') {
    params.addrs = s.addrs;
    return 'WHERE collection IN {addrs:Array(String)}';
  }
  return '';
}

async function withLengths(store: Store, rows: Omit<CollectionRow, 'length'>[]): Promise<CollectionRow[]> {
  if (rows.length === 0) return [];
  const counts = await store.rows<{ collection: string; n: string }>(
    `SELECT collection, toString(greatest(countIf(kind = 'mint') - countIf(kind = 'burn'), 0)) AS n
     FROM nft_events WHERE collection IN {addrs:Array(String)} GROUP BY collection`,
    { addrs: rows.map((r) => r.collection) },
  );
  const byAddr = new Map(counts.map((c) => [c.collection, c.n]));
  return rows.map((r) => ({ ...r, length: byAddr.get(r.collection) ?? '0' }));
}

/** A page ordered by (height, collection), keyset on that pair or offset. */
export async function listCollections(
  store: Store,
  scope: CollectionScope,
  w: ListWindow,
  cursor: { height: number; collection: string } | null,
): Promise<CollectionRow[]> {
  const params: Params = { limit: w.limit };
  const where = scopeWhere(scope, params);
  let keyset = '';
  if (cursor) {
    Object.assign(params, { ch: cursor.height, cc: cursor.collection });
    keyset = `WHERE (height, collection) ${after(w)} ({ch:UInt64}, {cc:String})`;
  } else params.offset = w.offset;
  const rows = await store.rows<Omit<CollectionRow, 'length'>>(
    `SELECT collection, name, origin_name, creator, height, time FROM (${SUMMARY(where)}) ${keyset}
     ORDER BY height ${dir(w)}, collection ${dir(w)} LIMIT {limit:UInt32} ${cursor ? '' : 'OFFSET {offset:UInt32}'}`,
    params,
  );
  return withLengths(store, rows);
}

export async function countCollections(store: Store, scope: CollectionScope): Promise<string> {
  const params: Params = {};
  const where = scopeWhere(scope, params);
  const [r] = await store.rows<{ n: string }>(
    `SELECT toString(uniqExact(collection)) AS n FROM nft_collection_events ${where}`,
    params,
  );
  return r?.n ?? '0';
}

/**
 * How many rows of the list come up to and including the cursor in its direction: the offset of the page
 * that continues after it (for `previous_key` on pages reached by cursor).
 */
export async function countCollectionsThrough(
  store: Store,
  scope: CollectionScope,
  desc: boolean,
  cursor: { height: number; collection: string },
): Promise<number> {
  const params: Params = { ch: cursor.height, cc: cursor.collection };
  const where = scopeWhere(scope, params);
  const [r] = await store.rows<{ n: string }>(
    `SELECT count() AS n FROM (${SUMMARY(where)}) WHERE (height, collection) ${desc ? '>=' : '<='} ({ch:UInt64}, {cc:String})`,
    params,
  );
  return Number(r?.n ?? 0);
}

export async function collectionsByAddr(store: Store, addrs: string[]): Promise<CollectionRow[]> {
  if (addrs.length === 0) return [];
  return listCollections(store, { kind: 'addrs', addrs }, { desc: true, limit: addrs.length, offset: 0 }, null);
}

/** Names of the given collections only (what a token row shows): one query, no NFT counts. */
export async function collectionLabels(
  store: Store,
  addrs: string[],
): Promise<Map<string, { name: string; origin_name: string }>> {
  if (addrs.length === 0) return new Map();
  const rows = await store.rows<{ collection: string; name: string; origin_name: string }>(
    `SELECT collection, argMaxIf(name, sequence, name != '') AS name, argMaxIf(origin_name, sequence, origin_name != '') AS origin_name
     FROM nft_collection_events WHERE collection IN {addrs:Array(String)} GROUP BY collection`,
    { addrs },
  );
  return new Map(rows.map((r) => [r.collection, { name: r.name, origin_name: r.origin_name }]));
}

/** Every collection's name, origin name, height: the in-memory list behind /collections/by_name. */
export async function collectionNames(
  store: Store,
): Promise<{ collection: string; name: string; origin_name: string; height: number }[]> {
  const rows = await store.rows<{ collection: string; name: string; origin_name: string; height: string }>(
    `SELECT collection, name, origin_name, height FROM (${SUMMARY('')}) ORDER BY height, collection LIMIT 1000000`,
  );
  return rows.map((r) => ({ ...r, height: Number(r.height) }));
}
