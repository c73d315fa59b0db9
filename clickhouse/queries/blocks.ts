// Block rows: by height, height-keyset lists, and the timestamps of the latest blocks for avg_blocktime.
import type { Store } from '../client.js';
import { after, dir, type ListWindow } from './keyset.js';

export interface BlockRow {
  chain_id: string;
  height: string;
  hash: string;
  block_time_ms: string;
  time: string;
  gas_used: string;
  gas_wanted: string;
  tx_count_s: string;
  total_fee: string;
  proposer: string;
}

// UInt64 columns arrive as JSON strings (output_format_json_quote_64bit_integers); never alias over a
// column that WHERE/ORDER BY use (a ClickHouse alias shadows the column).
const COLUMNS =
  'chain_id, height, hash, block_time_ms, time, gas_used, gas_wanted, toString(tx_count) AS tx_count_s, total_fee, proposer';

export async function blockByHeight(store: Store, height: number, tip: number): Promise<BlockRow | undefined> {
  const rows = await store.rows<BlockRow>(
    `SELECT ${COLUMNS} FROM blocks WHERE height = {h:UInt64} AND height <= {tip:UInt64} LIMIT 1`,
    { h: height, tip },
  );
  return rows[0];
}

/** Blocks up to the indexed tip, keyset on height (cursor) or offset. */
export async function listBlocks(store: Store, w: ListWindow, cursor: number | null, tip: number): Promise<BlockRow[]> {
  const keyset = cursor === null ? '' : `AND height ${after(w)} {cursor:UInt64}`;
  return store.rows<BlockRow>(
    `SELECT ${COLUMNS} FROM blocks WHERE height <= {tip:UInt64} ${keyset}
     ORDER BY height ${dir(w)} LIMIT {limit:UInt32} ${cursor === null ? 'OFFSET {offset:UInt32}' : ''}`,
    cursor === null ? { tip, limit: w.limit, offset: w.offset } : { tip, cursor, limit: w.limit },
  );
}

/** Block times (ns since epoch, as decimal strings) of the latest `n` blocks, newest first. */
export async function latestBlockTimes(store: Store, n: number, tip: number): Promise<string[]> {
  const rows = await store.rows<{ ns: string }>(
    'SELECT toString(toUnixTimestamp64Nano(time)) AS ns FROM blocks WHERE height <= {tip:UInt64} ORDER BY height DESC LIMIT {n:UInt32}',
    { tip, n },
  );
  return rows.map((r) => r.ns);
}
