// NFT collections, read from the maintained per-collection state (clickhouse/migrations/300_nft_state.sql): one
// GROUP BY over the collection's state rows instead of a fold of its events. A collection's height/time/creator come
// from its first collection event (creation or first sight; an EVM collection's height/time and creator are its
// contract's deployment and that tx's signer when indexed), name/origin_name from the latest non-empty value. `nfts.length` is the live token
// count: mints minus burns of the collection's events.
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

/** One row per listed collection (≥1 collection event) of the state rows matching `where`. */
const SUMMARY = (where: string) => `
SELECT collection, max(name_v).2 AS name, max(origin_v).2 AS origin_name, min(creator_v).2 AS creator,
       min(contract_v) AS c, min(first_v) AS f,
       if(c.2 > 0, c.2, f.2) AS height, if(c.2 > 0, c.3, f.3) AS time, if(c.2 > 0, c.1, 0) AS deploy_seq,
       toString(greatest(sum(nfts), 0)) AS length
FROM nft_collection_state ${where}
GROUP BY collection HAVING sum(events) > 0`;

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

const COLUMNS = 'collection, name, origin_name, creator, height, time, length, toString(deploy_seq) AS deploy_seq';

/**
 * An EVM collection whose deployment is indexed was created by that tx's signer (upstream: the signer of the first
 * tx touching the address), not by whoever signed its first Transfer (a public mint is signed by its minter). Read
 * for the page's rows only, by the txs table's key.
 */
async function withDeployers(store: Store, rows: (CollectionRow & { deploy_seq: string })[]): Promise<CollectionRow[]> {
  // A deployment's signer never changes: kept per store, so the list the API reloads at every tip asks only for the
  // collections deployed since.
  let signers = deployers.get(store);
  if (!signers || signers.size > MAX_DEPLOYERS) deployers.set(store, (signers = new Map()));
  const seqs = [...new Set(rows.map((r) => r.deploy_seq).filter((q) => q !== '0' && !signers!.has(q)))];
  if (seqs.length > 0)
    for (const t of await store.rows<{ s: string; signer: string }>(
      'SELECT toString(sequence) AS s, signer FROM txs WHERE sequence IN {seqs:Array(UInt64)}',
      { seqs: seqs.map(BigInt) },
    ))
      signers.set(t.s, t.signer);
  return rows.map(({ deploy_seq, ...r }) => ({ ...r, creator: signers!.get(deploy_seq) || r.creator }));
}

/** Deployment signers by their tx's sequence, per store (at most MAX_DEPLOYERS, then read again). */
const deployers = new WeakMap<Store, Map<string, string>>();
const MAX_DEPLOYERS = 100_000;

export interface CollectionPage {
  rows: CollectionRow[];
  /** The list's total, when asked (null when the page is empty: see countCollections). */
  total: string | null;
  /** With a cursor: rows up to and including the cursor in the list's direction (null when the page is empty). */
  through: number | null;
}

/**
 * A page ordered by (height, collection), keyset on that pair or offset, in one statement: the total and the
 * cursor's position ride along as window counts over the whole list when asked.
 */
export async function listCollections(
  store: Store,
  scope: CollectionScope,
  w: ListWindow,
  cursor: { height: number; collection: string } | null,
  withTotal = false,
): Promise<CollectionPage> {
  const params: Params = { limit: w.limit };
  const where = scopeWhere(scope, params);
  const extra: string[] = [];
  if (withTotal) extra.push('toString(count() OVER ()) AS total');
  let keyset = '';
  if (cursor) {
    Object.assign(params, { ch: cursor.height, cc: cursor.collection });
    keyset = `WHERE (height, collection) ${after(w)} ({ch:UInt64}, {cc:String})`;
    extra.push(`countIf((height, collection) ${w.desc ? '>=' : '<='} ({ch:UInt64}, {cc:String})) OVER () AS through`);
  } else params.offset = w.offset;
  const inner = extra.length ? `SELECT *, ${extra.join(', ')} FROM (${SUMMARY(where)})` : SUMMARY(where);
  const rows = await store.rows<CollectionRow & { deploy_seq: string; total?: string; through?: string }>(
    `SELECT ${COLUMNS}${withTotal ? ', total' : ''}${cursor ? ', through' : ''} FROM (${inner}) ${keyset}
     ORDER BY height ${dir(w)}, collection ${dir(w)} LIMIT {limit:UInt32} ${cursor ? '' : 'OFFSET {offset:UInt32}'}`,
    params,
  );
  const first = rows[0];
  return {
    rows: await withDeployers(
      store,
      rows.map(({ total: _t, through: _th, ...r }) => r),
    ),
    total: withTotal && first ? (first.total ?? null) : null,
    through: cursor && first ? Number(first.through ?? 0) : null,
  };
}

export async function countCollections(store: Store, scope: CollectionScope): Promise<string> {
  const params: Params = {};
  const where = scopeWhere(scope, params);
  const [r] = await store.rows<{ n: string }>(`SELECT toString(count()) AS n FROM (${SUMMARY(where)})`, params);
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
  const page = await listCollections(
    store,
    { kind: 'addrs', addrs },
    { desc: true, limit: addrs.length, offset: 0 },
    null,
  );
  return page.rows;
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

/** Every collection in list order ((height, collection) ascending), or null when there are more than `max`. */
export async function allCollections(store: Store, max: number): Promise<CollectionRow[] | null> {
  const rows = await store.rows<CollectionRow & { deploy_seq: string }>(
    `SELECT ${COLUMNS} FROM (${SUMMARY('')}) ORDER BY height, collection LIMIT {max:UInt32}`,
    { max: max + 1 },
  );
  return rows.length > max ? null : withDeployers(store, rows);
}

/** Collections an account holds ≥1 NFT in. */
export async function ownedCollections(store: Store, owner: string): Promise<string[]> {
  const rows = await store.rows<{ collection: string }>(OWNED, { owner });
  return rows.map((r) => r.collection);
}

/** Names of the given collections only (what a token row shows): one query, no NFT counts. */
export async function collectionLabels(
  store: Store,
  addrs: string[],
): Promise<Map<string, { name: string; origin_name: string }>> {
  if (addrs.length === 0) return new Map();
  const rows = await store.rows<{ collection: string; name: string; origin_name: string }>(
    `SELECT collection, max(name_v).2 AS name, max(origin_v).2 AS origin_name FROM nft_collection_state
     WHERE collection IN {addrs:Array(String)} GROUP BY collection`,
    { addrs },
  );
  return new Map(rows.map((r) => [r.collection, { name: r.name, origin_name: r.origin_name }]));
}
