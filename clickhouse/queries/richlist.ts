// Rich list: holders of one ERC20 at the latest completed snapshot, ranked by (amount DESC, account ASC)
// by the ingest. rank is 1..holders without gaps, so an offset is a key range on rank in either direction.
import type { Store } from '../client.js';

export interface HolderRow {
  account: string;
  amount: string;
}

export interface HolderPage {
  /** 0 when no snapshot exists yet. */
  snapshot: number;
  total: number;
  rows: HolderRow[];
}

export async function latestSnapshot(store: Store): Promise<number> {
  const [r] = await store.rows<{ h: string }>(
    'SELECT snapshot_height AS h FROM richlist_snapshots ORDER BY snapshot_height DESC LIMIT 1',
  );
  return r ? Number(r.h) : 0;
}

/**
 * One page after skipping `offset` holders in the chosen direction (desc = largest first), with the holder
 * count, in ONE engine call: the snapshot and count are scalar subqueries, then a key-range read on rank.
 */
export async function holdersPage(
  store: Store,
  token: string,
  snapshot: number,
  desc: boolean,
  offset: number,
  limit: number,
): Promise<HolderPage> {
  const total = `(SELECT rank FROM richlist WHERE token = {token:String} AND snapshot_height = {h:UInt64} ORDER BY rank DESC LIMIT 1)`;
  const range = desc
    ? 'rank > {offset:UInt64} ORDER BY rank'
    : `rank <= toInt64(ifNull(${total}, 0)) - {offset:UInt64} ORDER BY rank DESC`;
  const params = { token, h: snapshot, offset, limit };
  const rows = await store.rows<HolderRow & { total: string | null }>(
    `SELECT account, toString(amount) AS amount, ${total} AS total FROM richlist
     WHERE token = {token:String} AND snapshot_height = {h:UInt64} AND ${range} LIMIT {limit:UInt32}`,
    params,
  );
  let n = rows[0]?.total;
  if (n === undefined) {
    const [r] = await store.rows<{ total: string | null }>(`SELECT ${total} AS total`, { token, h: snapshot });
    n = r?.total ?? null;
  }
  return { snapshot, total: Number(n ?? 0), rows: rows.map((r) => ({ account: r.account, amount: r.amount })) };
}
