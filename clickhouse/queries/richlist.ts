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

/** Holders of `token` in a snapshot (its last rank). A snapshot never changes: callers may keep this. */
export async function holdersTotal(store: Store, token: string, snapshot: number): Promise<number> {
  const [r] = await store.rows<{ total: string }>(
    'SELECT rank AS total FROM richlist WHERE token = {token:String} AND snapshot_height = {h:UInt64} ORDER BY rank DESC LIMIT 1',
    { token, h: snapshot },
  );
  return Number(r?.total ?? 0);
}

/**
 * One page after skipping `offset` holders in the chosen direction (desc = largest first), given the holder
 * count: a key range on rank, no subquery. Ascending pages count from the end, so they need `total`.
 */
export async function holdersPage(
  store: Store,
  token: string,
  snapshot: number,
  desc: boolean,
  offset: number,
  limit: number,
  total: number,
): Promise<HolderPage> {
  const hi = desc ? offset + limit : total - offset;
  const lo = desc ? offset : Math.max(0, hi - limit);
  const rows =
    hi <= lo
      ? []
      : await store.rows<HolderRow>(
          `SELECT account, toString(amount) AS amount FROM richlist
           WHERE token = {token:String} AND snapshot_height = {h:UInt64} AND rank > {lo:UInt64} AND rank <= {hi:UInt64}
           ORDER BY rank ${desc ? 'ASC' : 'DESC'}`,
          { token, h: snapshot, lo, hi },
        );
  return { snapshot, total, rows };
}

/**
 * Holders with `lo < rank <= hi`, in rank order (largest first): how the API loads a whole snapshot into memory
 * in bounded chunks (api/indexer/richlist-memory.ts). A key range on the primary key, like a page.
 */
export async function holdersByRank(
  store: Store,
  token: string,
  snapshot: number,
  lo: number,
  hi: number,
): Promise<HolderRow[]> {
  if (hi <= lo) return [];
  return store.rows<HolderRow>(
    `SELECT account, toString(amount) AS amount FROM richlist
     WHERE token = {token:String} AND snapshot_height = {h:UInt64} AND rank > {lo:UInt64} AND rank <= {hi:UInt64}
     ORDER BY rank ASC`,
    { token, h: snapshot, lo, hi },
  );
}
