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

/** One row of transfer_parties: an account (its key, chain/address.ts accountKey) in a transfer, as sender or receiver. */
export interface TransferPartyRow {
  address: string;
  chain_id: string;
  tx_hash: string;
  role: 'sender' | 'receiver';
}

export async function insertTransferParties(store: Store, rows: readonly TransferPartyRow[]): Promise<void> {
  await store.insert('transfer_parties', [...rows]);
}

/** A transfer in an account's history: when it was registered, its latest state, the account's roles in it. */
export interface HistoryRow {
  chain_id: string;
  tx_hash: string;
  /** Registration time, Unix ms (as a decimal string). */
  at: string;
  state: string;
  status: string;
}

/** Where a history page starts: after this transfer, in the list's order (newest first). */
export interface HistoryCursor {
  atMs: number;
  chainId: string;
  txHash: string;
}

/**
 * The transfers an account took part in (GLOBAL IN: both tables are Distributed on a cluster, and a plain IN of one
 * in the other is refused there), newest registration first (then chain id and hash, descending), keyset
 * after `cursor`, at most `limit`, each with its latest state.
 */
export function transfersOf(
  store: Store,
  address: string,
  limit: number,
  cursor: HistoryCursor | null,
): Promise<HistoryRow[]> {
  return store.rows<HistoryRow>(
    `SELECT chain_id, tx_hash, toString(toUnixTimestamp64Milli(min(recorded_at))) AS at,
            argMax(state, version) AS state, argMax(status, version) AS status
       FROM transfer_events
      WHERE (chain_id, tx_hash) GLOBAL IN (SELECT chain_id, tx_hash FROM transfer_parties WHERE address = {address:String})
      GROUP BY chain_id, tx_hash
     HAVING {first:UInt8} = 1
         OR (toUnixTimestamp64Milli(min(recorded_at)), chain_id, tx_hash) < ({atMs:Int64}, {chainId:String}, {txHash:String})
      ORDER BY min(recorded_at) DESC, chain_id DESC, tx_hash DESC
      LIMIT {limit:UInt32}`,
    {
      address,
      limit,
      first: cursor === null ? 1 : 0,
      atMs: cursor?.atMs ?? 0,
      chainId: cursor?.chainId ?? '',
      txHash: cursor?.txHash ?? '',
    },
  );
}

/** The roles of an account in these transfers, by `chain_id|tx_hash`. */
export async function rolesOf(
  store: Store,
  address: string,
  txHashes: readonly string[],
): Promise<Map<string, string[]>> {
  if (txHashes.length === 0) return new Map();
  const rows = await store.rows<{ k: string; roles: string[] }>(
    `SELECT concat(chain_id, '|', tx_hash) AS k, arraySort(groupUniqArray(toString(role))) AS roles FROM transfer_parties
      WHERE address = {address:String} AND tx_hash IN {hs:Array(String)} GROUP BY chain_id, tx_hash`,
    { address, hs: [...txHashes] },
  );
  return new Map(rows.map((r) => [r.k, r.roles]));
}

/** One row of transfer_webhooks: the URL a transfer's state changes are POSTed to. */
export interface TransferWebhookRow {
  chain_id: string;
  tx_hash: string;
  url: string;
  /** 'YYYY-MM-DD hh:mm:ss.sss' UTC. */
  registered_at: string;
}

export async function insertTransferWebhooks(store: Store, rows: readonly TransferWebhookRow[]): Promise<void> {
  await store.insert('transfer_webhooks', [...rows]);
}

/** The webhook of each of these transfers that has one (the first registered), by `chain_id|tx_hash`. */
export async function webhooksOf(
  store: Store,
  keys: readonly { chainId: string; txHash: string }[],
): Promise<Map<string, string>> {
  if (keys.length === 0) return new Map();
  const rows = await store.rows<{ k: string; url: string }>(
    `SELECT concat(chain_id, '|', tx_hash) AS k, argMin(url, registered_at) AS url FROM transfer_webhooks
      WHERE tx_hash IN {hs:Array(String)} GROUP BY chain_id, tx_hash`,
    { hs: keys.map((k) => k.txHash) },
  );
  const wanted = new Set(keys.map((k) => `${k.chainId}|${k.txHash}`));
  return new Map(rows.filter((r) => wanted.has(r.k)).map((r) => [r.k, r.url]));
}
