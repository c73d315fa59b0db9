// Maintenance of the analytics aggregates (clickhouse/migrations/2xx_analytics*.sql). The materialized views
// keep them current at ingest; this module rebuilds them from the raw facts, which stay the source of truth:
//  - after a height range is deleted (crash recovery, re-ingest) the aggregates of every day from the first
//    deleted block on are dropped and recomputed from the facts still present (the re-ingest then adds the
//    rest through the views again). A marker row in stats_dirty survives a crash in between.
//  - rebuildStats() recomputes everything (tests compare it with what the views maintained).
// The rebuild runs each view's own SELECT (read from the migration), so views and rebuild cannot drift.
import { readFileSync } from 'node:fs';
import type { Store } from './client.js';
import type { DerivedState } from './facts-store.js';
import { BALANCES_AT_SQL, seedHeight } from './balance-seeds.js';
import { listMigrations, splitStatements } from './migrate.js';
import { INDEXED_HEIGHT_SQL } from './queries/status.js';

/** The analytics migrations, in order: a view declared again in a later one replaces its earlier definition. */
export const ANALYTICS_MIGRATIONS = listMigrations()
  .filter((m) => /^2\d\d_analytics/.test(m.version))
  .map((m) => m.file);

export interface StatsView {
  view: string;
  target: string;
  source: string;
  select: string;
}

let views: StatsView[] | null = null;

/** The analytics views as declared in the migration (the rich-list history has none: recordRichListHistory). */
export function statsViews(): StatsView[] {
  if (views) return views;
  const byName = new Map<string, StatsView>();
  for (const file of ANALYTICS_MIGRATIONS)
    for (const stmt of splitStatements(readFileSync(file, 'utf8'))) {
      const m = /^CREATE MATERIALIZED VIEW IF NOT EXISTS (\w+) TO (\w+) AS\s+([\s\S]+)$/.exec(stmt);
      if (!m) continue;
      const select = m[3]!;
      const source = /\bFROM\s+(\w+)/.exec(select.replace(/FROM\s*\(/g, 'FROM_SUBQUERY ('))?.[1];
      if (!source) throw new Error(`${m[1]}: no source table`);
      byName.delete(m[1]!); // keep declaration order: a redefinition moves to its new place
      byName.set(m[1]!, { view: m[1]!, target: m[2]!, source, select });
    }
  views = [...byName.values()];
  return views;
}

/** Column holding each aggregate's time (rows at or after a day are what a rebuild from that day replaces). */
const timeColumn = (target: string) => (target === 'stats_account_first_seen' ? 'first_seen' : 'bucket');

const DAY = 86_400;

/**
 * Record that the facts of heights [from, to] are about to be deleted: the first day they touch must be
 * rebuilt. Call before deleting; call rebuildDirtyStats() after.
 */
export async function markStatsDirty(store: Store, from: number, to: number): Promise<void> {
  const [r] = await store.rows<{ t: number | null }>(
    `SELECT least(
       (SELECT ifNull(toUInt32(minOrNull(time)), 4294967295) FROM blocks WHERE height BETWEEN {from:UInt64} AND {to:UInt64}),
       (SELECT ifNull(toUInt32(minOrNull(time)), 4294967295) FROM txs WHERE height BETWEEN {from:UInt64} AND {to:UInt64}),
       (SELECT ifNull(toUInt32(minOrNull(time)), 4294967295) FROM nft_events WHERE height BETWEEN {from:UInt64} AND {to:UInt64})
     ) AS t`,
    { from, to },
  );
  // A rich-list snapshot at or above `from` summed balances that are being deleted: the ingest builds the
  // snapshot again after the re-ingest, and its view adds the history point again.
  const [hist] = await store.rows<{ n: string }>(
    'SELECT count() AS n FROM stats_richlist_history WHERE snapshot_height >= {from:UInt64}',
    { from },
  );
  if (Number(hist?.n ?? 0) > 0)
    await store.exec('DELETE FROM stats_richlist_history WHERE snapshot_height >= {from:UInt64}', { from });
  const t = Number(r?.t ?? 4294967295);
  if (t >= 4294967295) return; // nothing of that range was written
  await store.insert('stats_dirty', [{ from_day: Math.floor(t / DAY) * DAY }]);
}

/** Rebuild the aggregates from the earliest dirty day on, then clear the markers. */
export async function rebuildDirtyStats(store: Store): Promise<void> {
  const [r] = await store.rows<{ d: number | null; n: string }>(
    'SELECT toUInt32(min(from_day)) AS d, count() AS n FROM stats_dirty',
  );
  if (!r || Number(r.n) === 0) return;
  await rebuildStats(store, Number(r.d));
  await store.exec('TRUNCATE TABLE stats_dirty');
}

/**
 * Recompute every analytics aggregate from the facts, from UTC day `fromDay` (unix seconds) on; 0 = all.
 * Rows of the aggregates at or after that day are deleted first.
 */
export async function rebuildStats(store: Store, fromDay = 0): Promise<void> {
  // From the start: every fact. From a day: the facts from its first block on (blocks are written first, so a fact
  // of that day or later has its block); none when no block is that late.
  let fromHeight: number | null = 0;
  if (fromDay !== 0) {
    const [h] = await store.rows<{ h: string | null }>(
      'SELECT minOrNull(height) AS h FROM blocks WHERE time >= toDateTime({d:UInt32})',
      { d: fromDay },
    );
    fromHeight = h?.h === null || h?.h === undefined ? null : Number(h.h);
  }
  await unsealNewAccounts(store, fromDay);
  for (const v of statsViews()) {
    if (fromDay === 0) await store.exec(`TRUNCATE TABLE ${v.target}`);
    else
      await store.exec(`DELETE FROM ${v.target} WHERE ${timeColumn(v.target)} >= toDateTime({d:UInt32})`, {
        d: fromDay,
      });
    if (fromHeight === null) continue;
    const select = v.select.replace(
      new RegExp(`\\bFROM\\s+${v.source}\\b`),
      `FROM (SELECT * FROM ${v.source} WHERE height >= {h:UInt64}) AS ${v.source}`,
    );
    await store.exec(`INSERT INTO ${v.target} ${select}`, { h: fromHeight });
  }
  await sealNewAccounts(store);
  if (fromDay === 0) await rebuildRichListHistory(store);
}

const MINUTE = 60;

/** Every minute before the seal is counted in stats_new_accounts (0 when nothing is sealed yet). */
export const NEW_ACCOUNTS_SEAL = '(SELECT toUInt32(argMax(sealed_to, at)) FROM stats_new_accounts_sealed)';

/**
 * First-seen times of the accounts first seen in [lo, hi) (SQL expressions in unix seconds). Only accounts with a
 * row in the range are grouped (a key lookup each), so the cost follows the range, not the number of accounts.
 */
export const firstSeenIn = (lo: string, hi: string) =>
  `SELECT min(first_seen) AS f FROM stats_account_first_seen
   WHERE account_hash IN (SELECT account_hash FROM stats_account_first_seen
                          WHERE first_seen >= toDateTime(${lo}) AND first_seen < toDateTime(${hi}))
   GROUP BY account_hash HAVING f >= toDateTime(${lo}) AND f < toDateTime(${hi})`;

/**
 * Seal the new-account counts of every minute whose blocks are all indexed (before the minute of the last
 * checkpointed block: block times only grow, so such a minute never changes). Runs after each batch; a crash
 * between the counts and the seal row only writes the same counts again. Returns the seal.
 */
export async function sealNewAccounts(store: Store): Promise<number> {
  // The tip's time is the checkpoint block's own (block times only grow), read by key: a max() over every block at
  // or below the checkpoint read the whole blocks table after each batch (about 100 ms of CPU at 5 M blocks, at every
  // block once the ingest follows the head; decision 024).
  const [r] = await store.rows<{ w: number; tip: number }>(
    `SELECT ${NEW_ACCOUNTS_SEAL} AS w,
            (SELECT toUInt32(time) FROM blocks
             WHERE height = ${INDEXED_HEIGHT_SQL} LIMIT 1) AS tip`,
  );
  const w = Number(r?.w ?? 0);
  const to = Math.floor(Number(r?.tip ?? 0) / MINUTE) * MINUTE;
  if (to <= w) return w;
  await store.exec(
    `INSERT INTO stats_new_accounts (bucket, n)
     SELECT toDateTime(intDiv(toUnixTimestamp(f), ${MINUTE}) * ${MINUTE}, 'UTC') AS bucket, count() AS n
     FROM (${firstSeenIn('{lo:UInt32}', '{hi:UInt32}')}) GROUP BY bucket`,
    { lo: w, hi: to },
  );
  await store.exec('INSERT INTO stats_new_accounts_sealed (sealed_to) SELECT toDateTime({t:UInt32})', { t: to });
  return to;
}

/** Forget the sealed new-account counts from `fromDay` on (0 = all); sealNewAccounts() counts them again. */
async function unsealNewAccounts(store: Store, fromDay: number): Promise<void> {
  if (fromDay === 0) {
    await store.exec('TRUNCATE TABLE stats_new_accounts');
    await store.exec('TRUNCATE TABLE stats_new_accounts_sealed');
    return;
  }
  await store.exec(
    `INSERT INTO stats_new_accounts_sealed (sealed_to) SELECT toDateTime(least({d:UInt32}, ${NEW_ACCOUNTS_SEAL}))`,
    { d: fromDay },
  );
  await store.exec('DELETE FROM stats_new_accounts WHERE bucket >= toDateTime({d:UInt32})', { d: fromDay });
}

const INSERT_HISTORY = 'INSERT INTO stats_richlist_history (token, snapshot_height, holders, supply)';

/**
 * The 0 points at `{h:UInt64}`, as a SELECT: one for each token that had holders at the point before (`prev`: the
 * height, an expression), or has a point at `h` already (a snapshot built again), and has no holders at `h` now
 * (`holdersAt`: a subquery of those tokens). A token's history ends where its list does, once, rather than at its
 * last holder.
 */
const zeroPoints = (prev: string, holdersAt: string) => `
  SELECT DISTINCT token, {h:UInt64}, toUInt64(0), toUInt256(0) FROM stats_richlist_history
  WHERE ((snapshot_height = ${prev} AND holders > 0) OR snapshot_height = {h:UInt64})
    AND token NOT IN (${holdersAt})`;

/**
 * Holders and supply per token of the snapshot at `height` (called by the snapshot build, after its rows), and the
 * 0 points of the tokens it no longer holds, in one statement (at the head this runs with every snapshot).
 */
export async function recordRichListHistory(store: Store, height: number): Promise<void> {
  await store.exec(
    `${INSERT_HISTORY}
     SELECT token, {h:UInt64}, count(), sum(amount) FROM richlist WHERE snapshot_height = {h:UInt64} GROUP BY token
     UNION ALL ${zeroPoints(
       '(SELECT max(snapshot_height) FROM richlist_snapshots WHERE snapshot_height < {h:UInt64})',
       'SELECT DISTINCT token FROM richlist WHERE snapshot_height = {h:UInt64}',
     )}`,
    { h: height },
  );
}

/**
 * Holders and supply per token at each recorded rich-list snapshot height, from the opening balances and the
 * balance ledger, exactly as the snapshot build counts them (BALANCES_AT_SQL).
 */
export async function rebuildRichListHistory(store: Store): Promise<void> {
  await store.exec('TRUNCATE TABLE stats_richlist_history');
  const heights = await store.rows<{ h: string }>(
    'SELECT DISTINCT snapshot_height AS h FROM richlist_snapshots ORDER BY h',
  );
  const sh = await seedHeight(store);
  let prev = 0;
  for (const { h } of heights) {
    await store.exec(
      `${INSERT_HISTORY}
       SELECT token, {h:UInt64}, count(), sum(amount) FROM (${BALANCES_AT_SQL})
       GROUP BY token`,
      { h: Number(h), sh },
    );
    // After the points just written: the tokens with holders at `h` are read from them.
    await store.exec(
      `${INSERT_HISTORY} ${zeroPoints(
        '{prev:UInt64}',
        'SELECT token FROM stats_richlist_history WHERE snapshot_height = {h:UInt64} AND holders > 0',
      )}`,
      { h: Number(h), prev },
    );
    prev = Number(h);
  }
}

/**
 * The analytics aggregates as derived state of the facts store (clickhouse/facts-store.ts): the days a deleted
 * range touched are rebuilt; after each checkpoint the minutes it completed are sealed.
 */
export const analyticsState: DerivedState = {
  name: 'analytics',
  markDirty: markStatsDirty,
  rebuildDirty: rebuildDirtyStats,
  afterCheckpoint: sealNewAccounts,
};
