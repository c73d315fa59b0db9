// The facts store: the one contract between the ingest and storage. The height-keyed tables the ingest writes (and
// the lookup tables their views derive), the ingest checkpoint, crash recovery and rewinds. Inserts into several
// tables are not atomic together, so a crash can leave rows above the checkpoint: `recover()` deletes exactly those
// before the ingest resumes, and `deleteRange()` does the same before any height is re-ingested. Derived state that
// views cannot simply delete by height (the analytics aggregates, the folded NFT state) registers in DERIVED: it is
// marked before a range is deleted and rebuilt after, and may act after each checkpoint.
import { readFileSync } from 'node:fs';
import { analyticsState } from './analytics.js';
import type { Store } from './client.js';
import { listMigrations, splitStatements } from './migrate.js';
import { nftState } from './nft-state.js';

/** Derived state kept by views that a deleted height range leaves stale. */
export interface DerivedState {
  name: string;
  /** Record what facts of heights [from, to] fed, before they are deleted (a marker table survives a crash). */
  markDirty(store: Store, from: number, to: number): Promise<void>;
  /** Rebuild what was marked from the facts that remain, then clear the markers. */
  rebuildDirty(store: Store): Promise<void>;
  /** After each checkpoint (optional). */
  afterCheckpoint?(store: Store): Promise<unknown>;
}

/** Every derived state, in the order they are marked and rebuilt. */
export const DERIVED: readonly DerivedState[] = [analyticsState, nftState];

/** What the ingest writes and recovers through. */
export interface FactsStore {
  /** The last complete height (0: nothing indexed). */
  checkpoint(): Promise<number>;
  /**
   * Insert one batch's rows as insertPlan() orders them, then its checkpoint (the batch's last height), then each
   * derived state's after-checkpoint step. `afterInsert` runs after the inserts of each table with rows (the crash
   * test). `lanesAtOnce` (default true): a stage's lanes at once; false runs them one after another, leaving the
   * cores to whatever else the caller has running (the ingest's next fetch).
   */
  insertBatch(
    rows: Record<string, readonly object[]>,
    checkpoint: number,
    afterInsert?: (table: string) => void,
    lanesAtOnce?: boolean,
  ): Promise<void>;
  /** Remove rows a crash left above the last complete height. */
  recover(): Promise<{ checkpoint: number; deleted: number }>;
  /** Move the last complete height back to `height` (crash-safe; the ingest then writes the heights above again). */
  rewindTo(height: number): Promise<void>;
  /** Block time of a stored height in Unix ns, or null when the height is not stored. */
  blockTimeNs(height: number): Promise<bigint | null>;
}

export function factsStore(store: Store): FactsStore {
  return {
    checkpoint: () => lastCheckpoint(store),
    insertBatch: (rows, checkpoint, afterInsert, lanesAtOnce = true) =>
      insertFacts(store, rows, checkpoint, afterInsert, lanesAtOnce),
    recover: () => recover(store),
    rewindTo: (height) => rewindTo(store, height),
    blockTimeNs: (height) => blockTimeNs(store, height),
  };
}

/** Every statement of the migrations, in order, with its migration's version: read once for the tables below. */
const MIGRATION_STATEMENTS = migrationStatements();

/**
 * Every table holding rows of a height (facts and the lookup tables the views derive from them), in migration
 * order: each `CREATE TABLE` of clickhouse/migrations with a `height UInt64` column, except the checkpoint table
 * and tables a later migration drops.
 */
export const HEIGHT_TABLES: readonly string[] = heightTables();

function migrationStatements(): { version: string; stmt: string }[] {
  return listMigrations().flatMap((m) =>
    splitStatements(readFileSync(m.file, 'utf8')).map((stmt) => ({ version: m.version, stmt })),
  );
}

function heightTables(): string[] {
  const out: string[] = [];
  for (const { stmt } of MIGRATION_STATEMENTS) {
    const dropped = /^DROP TABLE IF EXISTS (\w+)$/.exec(stmt)?.[1];
    if (dropped && out.includes(dropped)) out.splice(out.indexOf(dropped), 1);
    const t = /^CREATE TABLE IF NOT EXISTS (\w+)\s*\(/.exec(stmt)?.[1];
    if (t && t !== 'ingest_checkpoints' && /^\s*height\s+UInt64\b/m.test(stmt)) out.push(t);
  }
  return out;
}

/**
 * How one batch's tables are inserted: stages in turn, each stage's lanes at once, each lane's tables in turn.
 * Stage one holds every written table but `txs`; `txs` is stage two alone (a tx is never visible before its block
 * and its document). Tables whose views read each other's rows (the collection events and the EVM contracts:
 * whichever comes second finds the first) share a lane, in migration order; every other table is a lane of its own,
 * since its views read only the rows being inserted. Lanes at once: a live block's inserts are a handful of
 * statements of a few ms of fixed engine cost each, and the engine runs statements of different sessions in
 * parallel (docs/decisions/025-inserts-in-parallel.md).
 */
export function insertPlan(written: readonly string[]): string[][][] {
  const unknown = written.filter((t) => !HEIGHT_TABLES.includes(t));
  if (unknown.length) throw new Error(`not a height-keyed table of the migrations: ${unknown.join(', ')}`);
  const first = HEIGHT_TABLES.filter((t) => written.includes(t) && t !== 'txs');
  // Lanes: the tables linked by VIEW_READS, each lane in migration order (`first` is).
  const lanes: string[][] = [];
  for (const t of first) {
    const linked = lanes.filter((lane) => lane.some((u) => VIEW_READS.get(u)?.has(t)));
    const lane = [...linked.flat(), t].sort((a, b) => first.indexOf(a) - first.indexOf(b));
    for (const l of linked) lanes.splice(lanes.indexOf(l), 1);
    lanes.push(lane);
  }
  return written.includes('txs') ? [lanes, [['txs']]] : [lanes];
}

/**
 * For each height table, the height tables it must not be inserted at once with (symmetric). A view reads, besides
 * the rows being inserted, every table its text names; so every height table a view's text names is linked with
 * every other one it names, and with the tables whose views fill a table it names (its own target too, when it reads
 * it: it then sees what the other views filling it wrote). Read from the migrations, so a new view that reads
 * another table links it without an edit here; a view statement this cannot read is refused.
 */
const VIEW_READS: ReadonlyMap<string, ReadonlySet<string>> = viewReads();

function viewReads(): Map<string, Set<string>> {
  const views = new Map<string, { target: string; text: string }>();
  for (const { version, stmt } of MIGRATION_STATEMENTS) {
    const dropped = /^DROP VIEW IF EXISTS (\w+)$/.exec(stmt)?.[1];
    if (dropped) views.delete(dropped);
    if (!/^CREATE MATERIALIZED VIEW/i.test(stmt)) continue;
    const mv = /^CREATE MATERIALIZED VIEW IF NOT EXISTS (\w+) TO (\w+) AS\s+SELECT\s/.exec(stmt);
    if (!mv) throw new Error(`${version}: a view statement insertPlan cannot read: ${stmt.slice(0, 80)}`);
    views.set(mv[1]!, { target: mv[2]!, text: stmt.slice(mv[0].length) });
  }
  const names = (text: string, among: Iterable<string>) =>
    [...among].filter((t) => new RegExp(`\\b${t}\\b`).test(text));
  const targets = new Set([...views.values()].map((v) => v.target));
  const out = new Map<string, Set<string>>();
  for (const v of views.values()) {
    const linked = new Set(names(v.text, HEIGHT_TABLES));
    for (const target of names(v.text, targets))
      for (const w of views.values())
        if (w.target === target) for (const t of names(w.text, HEIGHT_TABLES)) linked.add(t);
    // A lone table is linked with nothing: its views read only the rows being inserted.
    if (linked.size < 2) continue;
    for (const a of linked) for (const b of linked) if (a !== b) out.set(a, (out.get(a) ?? new Set()).add(b));
  }
  return out;
}

async function lastCheckpoint(store: Store): Promise<number> {
  const [row] = await store.rows<{ h: string }>('SELECT max(height) AS h FROM ingest_checkpoints');
  return Number(row?.h ?? 0);
}

/** Delete every row of heights [from, to], rebuilding the derived state they fed. Returns the rows deleted. */
export async function deleteRange(store: Store, from: number, to: number): Promise<number> {
  for (const d of DERIVED) await d.markDirty(store, from, to);
  let deleted = 0;
  for (const table of HEIGHT_TABLES) {
    const [c] = await store.rows<{ c: string }>(
      `SELECT count() AS c FROM ${table} WHERE height BETWEEN {from:UInt64} AND {to:UInt64}`,
      { from, to },
    );
    if (Number(c?.c ?? 0) === 0) continue;
    deleted += Number(c!.c);
    await store.exec(`DELETE FROM ${table} WHERE height BETWEEN {from:UInt64} AND {to:UInt64}`, { from, to });
  }
  for (const d of DERIVED) await d.rebuildDirty(store);
  return deleted;
}

/**
 * Move the last complete height back to `height`: checkpoints above it are deleted first, so a crash at any
 * point afterwards is handled by recover(), which then deletes the data above it. The normal ingest loop then
 * writes those heights again. This is how a range is re-ingested without ever leaving a hole.
 */
async function rewindTo(store: Store, height: number): Promise<void> {
  await store.exec('DELETE FROM ingest_checkpoints WHERE height > {h:UInt64}', { h: height });
  if (height > 0 && (await lastCheckpoint(store)) < height) await store.insert('ingest_checkpoints', [{ height }]);
  await recover(store);
}

/** Remove rows a crash left above the last complete height. Returns that height. */
async function recover(store: Store): Promise<{ checkpoint: number; deleted: number }> {
  const checkpoint = await lastCheckpoint(store);
  const deleted = await deleteRange(store, checkpoint + 1, Number.MAX_SAFE_INTEGER);
  return { checkpoint, deleted };
}

// Views of one insert run in parallel; Replacing targets skip the merge-on-insert pass (readers never rely on it).
// For the cluster DDL: no insert dedup (a block re-inserted after recovery deleted it must land again) and
// synchronous Distributed inserts (a checkpoint must never be visible before its facts).
const INSERT_SETTINGS = {
  parallel_view_processing: 1,
  optimize_on_insert: 0,
  insert_deduplicate: 0,
  distributed_foreground_insert: 1,
};

// The tables whose rows carry a multi-KB JSON document (the tx document, the EVM receipt, each served as stored), and
// its column: JSON.stringify's text of an object, handed to the store as JSON text (clickhouse/row-lines.ts).
const DOCUMENT_COLUMNS: Record<string, readonly string[]> = { tx_documents: ['json'], evm_txs: ['receipt'] };

async function insertFacts(
  store: Store,
  rows: Record<string, readonly object[]>,
  checkpoint: number,
  afterInsert: ((table: string) => void) | undefined,
  lanesAtOnce: boolean,
): Promise<void> {
  const insertTable = async (table: string) => {
    const list = rows[table]!;
    // chDB inlines an insert's whole body into one statement: keep each statement small to bound memory.
    const documents = DOCUMENT_COLUMNS[table];
    const chunk = documents ? 2000 : 20_000;
    for (let i = 0; i < list.length; i += chunk)
      await store.insert(table, list.slice(i, i + chunk), INSERT_SETTINGS, documents);
    afterInsert?.(table);
  };
  // A table with no rows in this batch is no statement and no crash point.
  const plan = insertPlan(Object.keys(rows))
    .map((lanes) => lanes.map((lane) => lane.filter((t) => rows[t]!.length > 0)).filter((lane) => lane.length > 0))
    .filter((lanes) => lanes.length > 0);
  for (const lanes of plan)
    if (lanesAtOnce)
      await settleAll(
        lanes.map(async (lane) => {
          for (const table of lane) await insertTable(table);
        }),
      );
    else for (const table of lanes.flat()) await insertTable(table);
  await store.insert('ingest_checkpoints', [{ height: checkpoint }]);
  for (const d of DERIVED) await d.afterCheckpoint?.(store);
}

/**
 * Waits for every lane, then fails with the first failed lane's error (in lane order). Not fail-fast: the failure
 * reaches the caller (the ingest's retry, recover(), a shutdown closing the store) only once no insert of the batch
 * is still running. The checkpoint follows only a batch whose lanes all succeeded.
 */
async function settleAll(lanes: readonly Promise<void>[]): Promise<void> {
  const failed = (await Promise.allSettled(lanes)).find((r) => r.status === 'rejected');
  if (failed) throw (failed as PromiseRejectedResult).reason;
}

async function blockTimeNs(store: Store, height: number): Promise<bigint | null> {
  const [r] = await store.rows<{ ns: string }>(
    'SELECT toString(toUnixTimestamp64Nano(time)) AS ns FROM blocks WHERE height = {h:UInt64}',
    { h: height },
  );
  return r ? BigInt(r.ns) : null;
}
