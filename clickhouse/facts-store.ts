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
import { richListState } from './richlist-snapshots.js';

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
export const DERIVED: readonly DerivedState[] = [analyticsState, nftState, richListState];

/** What the ingest writes and recovers through. */
export interface FactsStore {
  /** The last complete height (0: nothing indexed). */
  checkpoint(): Promise<number>;
  /**
   * Insert one batch's rows table by table in insertOrder(), then its checkpoint (the batch's last height), then
   * each derived state's after-checkpoint step. `afterInsert` runs after each table's inserts (the crash test).
   */
  insertBatch(
    rows: Record<string, readonly object[]>,
    checkpoint: number,
    afterInsert?: (table: string) => void,
  ): Promise<void>;
  /** Remove rows a crash left above the last complete height. */
  recover(): Promise<{ checkpoint: number; deleted: number }>;
  /** Move the last complete height back to `height` (crash-safe; the ingest then writes the heights above again). */
  rewindTo(height: number): Promise<void>;
  /** Block time of a stored height in Unix ns, or null when the height is not stored. */
  blockTimeNs(height: number): Promise<bigint | null>;
  /**
   * The merge pace of the height tables now (see MergePace): null when they disagree (a process killed while it
   * changed them); always 'head' on a ClickHouse server.
   */
  mergePace(): Promise<MergePace | null>;
  /** Set the merge pace of every height table (embedded engine only: a server's merge policy is its operator's). */
  setMergePace(pace: MergePace): Promise<void>;
}

/**
 * How eagerly the engine merges the height tables' parts. 'head': its default. 'bulk', while a backfill is far
 * behind the node's head: merges wait for about BULK_MERGE_BASE parts of a similar size instead of 5, so each row is
 * rewritten fewer times on its way into a large part (the engine's `merge_selector_base`, its write amplification).
 * A backfill's inserts make parts many times a second, and rewriting them is a large share of its CPU; at the head
 * the default keeps the count of parts a read opens low.
 */
export type MergePace = 'bulk' | 'head';
export const BULK_MERGE_BASE = 30;

export function factsStore(store: Store): FactsStore {
  return {
    checkpoint: () => lastCheckpoint(store),
    insertBatch: (rows, checkpoint, afterInsert) => insertFacts(store, rows, checkpoint, afterInsert),
    recover: () => recover(store),
    rewindTo: (height) => rewindTo(store, height),
    blockTimeNs: (height) => blockTimeNs(store, height),
    mergePace: () => mergePace(store),
    setMergePace: (pace) => setMergePace(store, pace),
  };
}

async function mergePace(store: Store): Promise<MergePace | null> {
  if (store.kind !== 'chdb') return 'head';
  const [row] = await store.rows<{ bulk: string; set: string }>(
    `SELECT countIf(extract(create_table_query, 'merge_selector_base = ([0-9]+)') = {base:String}) AS bulk,
            countIf(position(create_table_query, 'merge_selector_base') > 0) AS set
     FROM system.tables WHERE database = currentDatabase() AND name IN {tables:Array(String)}`,
    { tables: HEIGHT_TABLES, base: String(BULK_MERGE_BASE) },
  );
  if (Number(row?.bulk ?? 0) === HEIGHT_TABLES.length) return 'bulk';
  return Number(row?.set ?? 0) === 0 ? 'head' : null;
}

async function setMergePace(store: Store, pace: MergePace): Promise<void> {
  if (store.kind !== 'chdb') return;
  const change =
    pace === 'bulk' ? `MODIFY SETTING merge_selector_base = ${BULK_MERGE_BASE}` : 'RESET SETTING merge_selector_base';
  for (const table of HEIGHT_TABLES) await store.exec(`ALTER TABLE ${table} ${change}`);
}

/**
 * Tables with a `height` column whose rows are not facts of that height: the checkpoints, and the opening balances
 * read from the node once, at the start height of an empty store (their height is the one they were read at). A
 * rewind must not delete them: nothing seeds them again.
 */
const NOT_HEIGHT_KEYED = ['ingest_checkpoints', 'balance_seeds'];

/**
 * Every table holding rows of a height (facts and the lookup tables the views derive from them), in migration
 * order: each `CREATE TABLE` of clickhouse/migrations with a `height UInt64` column, except the checkpoint table,
 * tables a later migration drops, and NOT_HEIGHT_KEYED.
 */
export const HEIGHT_TABLES: readonly string[] = heightTables();

function heightTables(): string[] {
  const out: string[] = [];
  for (const m of listMigrations())
    for (const stmt of splitStatements(readFileSync(m.file, 'utf8'))) {
      const dropped = /^DROP TABLE IF EXISTS (\w+)$/.exec(stmt)?.[1];
      if (dropped && out.includes(dropped)) out.splice(out.indexOf(dropped), 1);
      const t = /^CREATE TABLE IF NOT EXISTS (\w+)\s*\(/.exec(stmt)?.[1];
      if (t && !NOT_HEIGHT_KEYED.includes(t) && /^\s*height\s+UInt64\b/m.test(stmt)) out.push(t);
    }
  return out;
}

/**
 * Insert order of the tables the ingest writes: migration order (parents before the tables their views fill),
 * except `txs`, last among facts, so a tx is never visible before its block and its document.
 */
export function insertOrder(written: readonly string[]): string[] {
  const order = HEIGHT_TABLES.filter((t) => written.includes(t) && t !== 'txs');
  const unknown = written.filter((t) => !HEIGHT_TABLES.includes(t));
  if (unknown.length) throw new Error(`not a height-keyed table of the migrations: ${unknown.join(', ')}`);
  return written.includes('txs') ? [...order, 'txs'] : order;
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
  // Never forward: a checkpoint above the last complete height would claim the heights between were indexed.
  if (height >= (await lastCheckpoint(store))) return;
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
  afterInsert?: (table: string) => void,
): Promise<void> {
  for (const table of insertOrder(Object.keys(rows))) {
    const list = rows[table]!;
    // chDB inlines an insert's whole body into one statement: keep each statement small to bound memory.
    const documents = DOCUMENT_COLUMNS[table];
    const chunk = documents ? 2000 : 20_000;
    for (let i = 0; i < list.length; i += chunk)
      await store.insert(table, list.slice(i, i + chunk), INSERT_SETTINGS, documents);
    afterInsert?.(table);
  }
  await store.insert('ingest_checkpoints', [{ height: checkpoint }]);
  for (const d of DERIVED) await d.afterCheckpoint?.(store);
}

async function blockTimeNs(store: Store, height: number): Promise<bigint | null> {
  const [r] = await store.rows<{ ns: string }>(
    'SELECT toString(toUnixTimestamp64Nano(time)) AS ns FROM blocks WHERE height = {h:UInt64}',
    { h: height },
  );
  return r ? BigInt(r.ns) : null;
}
