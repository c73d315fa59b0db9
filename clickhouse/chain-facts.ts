// Chain facts in ClickHouse: the height-keyed tables the ingest writes (and the lookup tables their views
// derive), the ingest checkpoint, and crash recovery. Inserts into several tables are not atomic together, so a
// crash can leave rows above the checkpoint: `recover()` deletes exactly those before the ingest resumes, and
// `deleteRange()` does the same before any height is re-ingested.
import { readFileSync } from 'node:fs';
import type { Store } from './client.js';
import { listMigrations, splitStatements } from './migrate.js';
import { markNftStateDirty, refoldDirtyNftState } from './nft-state.js';
import { markStatsDirty, rebuildDirtyStats, sealNewAccounts } from './stats.js';

/**
 * Every table holding rows of a height (facts and the lookup tables the views derive from them), in migration
 * order: each `CREATE TABLE` of clickhouse/migrations with a `height UInt64` column, except the checkpoint table
 * and tables a later migration drops.
 */
export const HEIGHT_TABLES: readonly string[] = heightTables();

function heightTables(): string[] {
  const out: string[] = [];
  for (const m of listMigrations())
    for (const stmt of splitStatements(readFileSync(m.file, 'utf8'))) {
      const dropped = /^DROP TABLE IF EXISTS (\w+)$/.exec(stmt)?.[1];
      if (dropped && out.includes(dropped)) out.splice(out.indexOf(dropped), 1);
      const t = /^CREATE TABLE IF NOT EXISTS (\w+)\s*\(/.exec(stmt)?.[1];
      if (t && t !== 'ingest_checkpoints' && /^\s*height\s+UInt64\b/m.test(stmt)) out.push(t);
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

export async function lastCheckpoint(store: Store): Promise<number> {
  const [row] = await store.rows<{ h: string }>('SELECT max(height) AS h FROM ingest_checkpoints');
  return Number(row?.h ?? 0);
}

export async function deleteRange(store: Store, from: number, to: number): Promise<number> {
  // The analytics aggregates of the affected days are rebuilt from the facts that remain (clickhouse/stats.ts).
  await markStatsDirty(store, from, to);
  // So is the current NFT state of every token and collection the range touched (clickhouse/nft-state.ts).
  await markNftStateDirty(store, from, to);
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
  await rebuildDirtyStats(store);
  await refoldDirtyNftState(store);
  return deleted;
}

/**
 * Move the last complete height back to `height`: checkpoints above it are deleted first, so a crash at any
 * point afterwards is handled by recover(), which then deletes the data above it. The normal ingest loop then
 * writes those heights again. This is how a range is re-ingested without ever leaving a hole.
 */
export async function rewindTo(store: Store, height: number): Promise<void> {
  await store.exec('DELETE FROM ingest_checkpoints WHERE height > {h:UInt64}', { h: height });
  if (height > 0 && (await lastCheckpoint(store)) < height) await store.insert('ingest_checkpoints', [{ height }]);
  await recover(store);
}

/** Remove rows a crash left above the last complete height. Returns that height. */
export async function recover(store: Store): Promise<{ checkpoint: number; deleted: number }> {
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

/**
 * Insert one batch's rows table by table in insertOrder(), then its checkpoint (the batch's last height).
 * `afterInsert` runs after each table's inserts (fault injection: the crash test).
 */
export async function insertFacts(
  store: Store,
  rows: Record<string, readonly object[]>,
  checkpoint: number,
  afterInsert?: (table: string) => void,
): Promise<void> {
  for (const table of insertOrder(Object.keys(rows))) {
    const list = rows[table]!;
    // chDB inlines an insert's whole body into one statement: keep each statement small to bound memory.
    const chunk = table === 'tx_documents' || table === 'evm_txs' ? 2000 : 20_000;
    for (let i = 0; i < list.length; i += chunk) await store.insert(table, list.slice(i, i + chunk), INSERT_SETTINGS);
    afterInsert?.(table);
  }
  await store.insert('ingest_checkpoints', [{ height: checkpoint }]);
  // Minutes the batch completed: their new-account counts never change again (clickhouse/stats.ts).
  await sealNewAccounts(store);
}

/** Block time of a stored height in Unix ns, or null when the height is not stored. */
export async function blockTimeNs(store: Store, height: number): Promise<bigint | null> {
  const [r] = await store.rows<{ ns: string }>(
    'SELECT toString(toUnixTimestamp64Nano(time)) AS ns FROM blocks WHERE height = {h:UInt64}',
    { h: height },
  );
  return r ? BigInt(r.ns) : null;
}

/** Move object address → the NFT our own mints recorded for it (nft_objects). */
export function nftObjects(
  store: Store,
  objects: readonly string[],
): Promise<{ object_addr: string; collection: string; token_id: string }[]> {
  return store.rows<{ object_addr: string; collection: string; token_id: string }>(
    'SELECT object_addr, any(collection) AS collection, any(token_id) AS token_id FROM nft_objects WHERE object_addr IN {a:Array(String)} GROUP BY object_addr',
    { a: [...objects] },
  );
}

/** Which of these collections already have a stored creation/mutation event. */
export async function storedCollections(store: Store, collections: readonly string[]): Promise<string[]> {
  const rows = await store.rows<{ collection: string }>(
    'SELECT DISTINCT collection FROM nft_collection_events WHERE collection IN {c:Array(String)}',
    { c: [...collections] },
  );
  return rows.map((r) => r.collection);
}

/** Last stored owner of each (collection, token id) from its mint/transfer/burn events; absent = no history. */
export function lastNftOwners(
  store: Store,
  keys: readonly (readonly [collection: string, tokenId: string])[],
): Promise<{ collection: string; token_id: string; owner: string }[]> {
  return store.rows<{ collection: string; token_id: string; owner: string }>(
    `SELECT collection, token_id, argMax(to_owner, (sequence, event_index)) AS owner FROM nft_events
       WHERE collection IN {c:Array(String)} AND (collection, token_id) IN (SELECT arrayJoin(arrayZip({c:Array(String)}, {t:Array(String)})))
         AND kind IN ('mint', 'transfer', 'burn') GROUP BY collection, token_id`,
    { c: keys.map((k) => k[0]), t: keys.map((k) => k[1]) },
  );
}
