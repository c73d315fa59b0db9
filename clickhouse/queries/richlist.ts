// Rich list: holders of one ERC20 at the latest completed snapshot, ranked by (amount DESC, account ASC)
// by the ingest. rank is 1..holders without gaps, so an offset is a key range on rank in either direction.
import type { Store } from '../client.js';

export interface HolderRow {
  account: string;
  amount: string;
}

export async function latestSnapshot(store: Store): Promise<number> {
  const [r] = await store.rows<{ h: string }>('SELECT snapshot_height AS h FROM richlist_snapshots ORDER BY snapshot_height DESC LIMIT 1');
  return r ? Number(r.h) : 0;
}

export async function holderCount(store: Store, token: string, snapshot: number): Promise<number> {
  const [r] = await store.rows<{ n: string }>(
    'SELECT rank AS n FROM richlist WHERE token = {token:String} AND snapshot_height = {h:UInt64} ORDER BY rank DESC LIMIT 1',
    { token, h: snapshot },
  );
  return r ? Number(r.n) : 0;
}

/** Holders after skipping `offset` in the chosen direction (desc = largest first). */
export async function holders(store: Store, token: string, snapshot: number, desc: boolean, offset: number, limit: number, total: number): Promise<HolderRow[]> {
  if (desc) {
    return store.rows<HolderRow>(
      `SELECT account, toString(amount) AS amount FROM richlist
       WHERE token = {token:String} AND snapshot_height = {h:UInt64} AND rank > {offset:UInt64}
       ORDER BY rank LIMIT {limit:UInt32}`,
      { token, h: snapshot, offset, limit },
    );
  }
  const top = total - offset;
  if (top < 1) return [];
  return store.rows<HolderRow>(
    `SELECT account, toString(amount) AS amount FROM richlist
     WHERE token = {token:String} AND snapshot_height = {h:UInt64} AND rank <= {top:UInt64}
     ORDER BY rank DESC LIMIT {limit:UInt32}`,
    { token, h: snapshot, top, limit },
  );
}
