// Transfer events (clickhouse/migrations/100_transfer_events.sql): the append-only versions of each tracked
// transfer's status document; version 0 is the registration. Written by the projection activity
// (activities/projection.ts), read by the status endpoint through it and by the workflow starter's reconcile.
import type { Store } from './client.js';

/** One row of transfer_events. */
export interface TransferEventRow {
  chain_id: string;
  tx_hash: string;
  version: number;
  event_id: string;
  phase: string;
  state: string;
  status: string;
  doc: string;
  recorded_at: string;
}

/** `chain_id|tx_hash|version` of every stored version of these tx hashes. */
export async function storedVersionKeys(store: Store, txHashes: readonly string[]): Promise<Set<string>> {
  const rows = await store.rows<{ k: string }>(
    `SELECT concat(chain_id, '|', tx_hash, '|', toString(version)) AS k FROM transfer_events WHERE tx_hash IN {hs:Array(String)}`,
    { hs: [...txHashes] },
  );
  return new Set(rows.map((r) => r.k));
}

export async function insertTransferEvents(store: Store, rows: readonly TransferEventRow[]): Promise<void> {
  await store.insert('transfer_events', [...rows]);
}

/** The latest version (and its document JSON) of every transfer of these tx hashes. */
export function latestTransferDocs(
  store: Store,
  txHashes: readonly string[],
): Promise<{ chain_id: string; tx_hash: string; v: number; d: string }[]> {
  return store.rows<{ chain_id: string; tx_hash: string; v: number; d: string }>(
    `SELECT chain_id, tx_hash, max(version) AS v, argMax(doc, version) AS d FROM transfer_events
     WHERE tx_hash IN {hs:Array(String)} GROUP BY chain_id, tx_hash`,
    { hs: [...txHashes] },
  );
}

/** Registered transfers whose latest state is not terminal, with their registration time (Unix ms). */
export function unfinishedTransfers(store: Store): Promise<{ chain_id: string; tx_hash: string; at: string }[]> {
  return store.rows<{ chain_id: string; tx_hash: string; at: string }>(
    `SELECT chain_id, tx_hash, toUnixTimestamp64Milli(min(recorded_at)) AS at FROM transfer_events
       GROUP BY chain_id, tx_hash
       HAVING argMax(state, version) NOT IN ('STATE_COMPLETED_SUCCESS', 'STATE_COMPLETED_ERROR', 'STATE_ABANDONED')`,
  );
}
