// Rich-list snapshots (EVM rollups): holders of every ERC20 ranked by (amount DESC, account ASC) at one
// height, built inside ClickHouse from the opening balances (balance_seeds) plus the balance_deltas ledger. A snapshot is visible only once it is
// recorded in richlist_snapshots, so a crash mid-build is harmless (its rows are deleted by the next build).
// Written by the ingest; the API reads them through clickhouse/queries/richlist.ts.
import type { Store } from './client.js';
import { BALANCES_AT_SQL, seedHeight } from './balance-seeds.js';
import { recordRichListHistory } from './analytics.js';
import type { DerivedState } from './facts-store.js';

// Each snapshot is its own partition, so replacing one is a metadata-only DROP PARTITION (lightweight DELETEs
// accumulate masks and made every later snapshot slower). Partition ids are our own integer heights.
const DROP_WHERE = { below: '<', at: '=', from: '>=' } as const;

async function dropSnapshots(store: Store, where: keyof typeof DROP_WHERE, height: number): Promise<void> {
  const parts = await store.rows<{ p: string }>(
    `SELECT DISTINCT partition AS p FROM system.parts WHERE database = currentDatabase() AND table = 'richlist' AND active
       AND toUInt64(partition) ${DROP_WHERE[where]} {h:UInt64}`,
    { h: height },
  );
  for (const { p } of parts) {
    if (!/^\d+$/.test(p)) throw new Error(`unexpected richlist partition ${p}`);
    await store.exec(`ALTER TABLE richlist DROP PARTITION ${p}`);
  }
}

/**
 * How long a superseded snapshot stays readable. A reader takes the latest snapshot height from a cache of up to a
 * second (api/indexer/read/richlist.ts) and then reads its pages; dropping the snapshot the moment its successor is
 * recorded would answer those reads with empty pages (and they would be cached).
 */
export const SUPERSEDED_RETAIN_MS = 10_000;

export async function buildRichListSnapshot(
  store: Store,
  height: number,
  retainMs = SUPERSEDED_RETAIN_MS,
): Promise<{ holders: number }> {
  if (!Number.isSafeInteger(height) || height < 0) throw new Error(`invalid snapshot height ${height}`);
  await dropSnapshots(store, 'at', height);
  await store.exec(
    `INSERT INTO richlist (token, snapshot_height, rank, account, amount)
     SELECT token, {h:UInt64}, row_number() OVER (PARTITION BY token ORDER BY amount DESC, account ASC), account, amount
     FROM (${BALANCES_AT_SQL})`,
    { h: height, sh: await seedHeight(store) },
  );
  const [c] = await store.rows<{ c: string }>('SELECT count() AS c FROM richlist WHERE snapshot_height = {h:UInt64}', {
    h: height,
  });
  const holders = Number(c?.c ?? 0);
  await recordRichListHistory(store, height); // analytics: holders over time (docs/analytics.md)
  await store.insert('richlist_snapshots', [{ snapshot_height: height, holders }]);
  // Snapshots below the newest one recorded at least retainMs ago were superseded at least that long ago: no reader
  // still holds their height. The ones after it stay until a later build.
  const [settled] = await store.rows<{ h: string | null }>(
    `SELECT max(snapshot_height) AS h FROM richlist_snapshots
     WHERE snapshot_height <= {h:UInt64} AND built_at <= now64(3) - toIntervalMillisecond({ms:UInt32})`,
    { h: height, ms: retainMs },
  );
  const below = Number(settled?.h ?? 0);
  if (below > 0) await dropSnapshots(store, 'below', below);
  return { holders };
}

/**
 * Snapshots built at heights a deleted range reaches were built from its rows: they go with it, their record first
 * (a crash in between leaves rows without a record, which no reader sees and the next build at that height drops).
 * Nothing is rebuilt here: the ingest's schedule finds no snapshot at its checkpoint when it resumes and builds one
 * (ingest/richlist-schedule.ts `resume`).
 */
export const richListState: DerivedState = {
  name: 'richlist',
  async markDirty(store, from) {
    // History points are written before their snapshot's record: a build cut short between the two left points no
    // snapshot has, above the latest record, and the schedule builds again at another height. Dropped at the
    // recovery every start runs, so a token's last point is never one the distribution beside it contradicts.
    const above = '(SELECT ifNull(max(snapshot_height), 0) FROM richlist_snapshots)';
    const [orphans] = await store.rows<{ n: string }>(
      `SELECT count() AS n FROM stats_richlist_history WHERE snapshot_height > ${above}`,
    );
    if (Number(orphans?.n ?? 0) > 0)
      await store.exec(`DELETE FROM stats_richlist_history WHERE snapshot_height > ${above}`);
    const [n] = await store.rows<{ n: string }>(
      'SELECT count() AS n FROM richlist_snapshots WHERE snapshot_height >= {from:UInt64}',
      { from },
    );
    if (Number(n?.n ?? 0) > 0)
      await store.exec('DELETE FROM richlist_snapshots WHERE snapshot_height >= {from:UInt64}', { from });
    await dropSnapshots(store, 'from', from);
  },
  async rebuildDirty() {},
};
