// Maintenance of the current NFT state tables (clickhouse/migrations/300_nft_state.sql). Their materialized views
// keep them current at ingest; the facts (nft_events, nft_collection_events, evm_contracts) stay the source of
// truth. When a height range is deleted (crash recovery, re-ingest), every token and collection that range touched
// is recorded in nft_state_dirty first, and after the facts are deleted its state is dropped and folded again from
// the facts that remain (the re-ingest then adds the rest through the views). The marker rows survive a crash in
// between, and every step can run again. The refold runs each view's own SELECT (read from the migration), so
// views and refold cannot drift.
import { readFileSync } from 'node:fs';
import type { Store } from './client.js';
import type { DerivedState } from './facts-store.js';
import { listMigrations, splitStatements } from './migrate.js';

export interface NftStateView {
  view: string;
  target: 'nft_token_state' | 'nft_collection_state';
  source: string;
  select: string;
}

let views: NftStateView[] | null = null;

/** The NFT state views as the migration declares them. */
export function nftStateViews(): NftStateView[] {
  if (views) return views;
  const out: NftStateView[] = [];
  for (const m of listMigrations().filter((x) => /_nft_state$/.test(x.version)))
    for (const stmt of splitStatements(readFileSync(m.file, 'utf8'))) {
      const v =
        /^CREATE MATERIALIZED VIEW IF NOT EXISTS (\w+) TO (nft_token_state|nft_collection_state) AS\s+([\s\S]+)$/.exec(
          stmt,
        );
      if (!v) continue;
      const source = /\bFROM\s+(\w+)/.exec(v[3]!)?.[1];
      if (!source) throw new Error(`${v[1]}: no source table`);
      out.push({ view: v[1]!, target: v[2] as NftStateView['target'], source, select: v[3]! });
    }
  views = out;
  return views;
}

/** A view's SELECT over only the source rows matching `filter` (the first FROM of the source, its alias kept). */
function restricted(v: NftStateView, filter: string): string {
  return v.select.replace(
    new RegExp(`\\bFROM\\s+${v.source}\\b(\\s+AS\\s+\\w+)?`),
    (_m, alias: string | undefined) => `FROM (SELECT * FROM ${v.source} WHERE ${filter})${alias ?? ` AS ${v.source}`}`,
  );
}

const DIRTY_TOKENS = "SELECT collection, token_id FROM nft_state_dirty WHERE kind = 'token'";
const DIRTY_COLLECTIONS = "SELECT collection FROM nft_state_dirty WHERE kind = 'collection'";

/**
 * Record the tokens and collections whose state includes facts of heights [from, to], before those facts are
 * deleted: from the facts themselves and from the state rows (a view's rows may have landed without their facts
 * when a crash cut an insert short). Call before deleting; call refoldDirtyNftState() after.
 */
export async function markNftStateDirty(store: Store, from: number, to: number): Promise<void> {
  const range = 'BETWEEN {from:UInt64} AND {to:UInt64}';
  await store.exec(
    `INSERT INTO nft_state_dirty (kind, collection, token_id)
     SELECT DISTINCT kind, collection, token_id FROM (
       SELECT 'token' AS kind, collection, token_id FROM nft_events WHERE height ${range}
       UNION ALL SELECT 'token', collection, token_id FROM nft_token_state WHERE last_height ${range}
       UNION ALL SELECT 'collection', collection, '' FROM nft_events WHERE height ${range}
       UNION ALL SELECT 'collection', collection, '' FROM nft_collection_events WHERE height ${range}
       UNION ALL SELECT 'collection', address, '' FROM evm_contracts WHERE height ${range}
       UNION ALL SELECT 'collection', collection, '' FROM nft_collection_state WHERE last_height ${range})`,
    { from, to },
  );
}

/** Drop and refold the state of every recorded key from the facts, then clear the markers. */
export async function refoldDirtyNftState(store: Store): Promise<void> {
  const [r] = await store.rows<{ n: string }>('SELECT count() AS n FROM nft_state_dirty');
  if (Number(r?.n ?? 0) === 0) return;
  await store.exec(`DELETE FROM nft_token_state WHERE (collection, token_id) IN (${DIRTY_TOKENS})`);
  await store.exec(`DELETE FROM nft_collection_state WHERE collection IN (${DIRTY_COLLECTIONS})`);
  for (const v of nftStateViews()) {
    const key = v.source === 'evm_contracts' ? 'address' : 'collection';
    const filter =
      v.target === 'nft_token_state'
        ? `(collection, token_id) IN (${DIRTY_TOKENS})`
        : `${key} IN (${DIRTY_COLLECTIONS})`;
    await store.exec(`INSERT INTO ${v.target} ${restricted(v, filter)}`);
  }
  await store.exec('TRUNCATE TABLE nft_state_dirty');
}

/** Recompute both state tables from all the facts (tests compare it with what the views maintained). */
export async function rebuildNftState(store: Store): Promise<void> {
  await store.exec('TRUNCATE TABLE nft_token_state');
  await store.exec('TRUNCATE TABLE nft_collection_state');
  for (const v of nftStateViews()) await store.exec(`INSERT INTO ${v.target} ${v.select}`);
}

/** The folded NFT state as derived state of the facts store (clickhouse/facts-store.ts). */
export const nftState: DerivedState = {
  name: 'nft_state',
  markDirty: markNftStateDirty,
  rebuildDirty: refoldDirtyNftState,
};
