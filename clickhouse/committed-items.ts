// A committed batch's items, handed by the ingest to the event streams of the API in the same process, in the shape
// the streams' read statements return them (clickhouse/queries/blocks.ts `listBlocks`, clickhouse/queries/txs.ts
// `pickTxDocs`): a tip advance then takes its new items from memory instead of reading back what was just written
// (docs/streams.md, decision 020). Only the unfiltered lists are handed; a filtered list always reads.
import type { BlockRow } from './queries/blocks.js';
import type { TxDoc } from './queries/txs.js';

/** Which lists have a live stream (the ingest builds only those). */
export interface HandedLists {
  blocks: boolean;
  txs: boolean;
}

export const NO_HANDED_LISTS: HandedLists = { blocks: false, txs: false };

/**
 * Every item of heights `from`..`to` of the lists asked for, ascending. Invariant: a list present here holds every
 * item of those heights (its blocks, or its txs in sequence order), exactly as the engine returns them once the
 * batch is committed.
 */
export interface CommittedItems {
  from: number;
  to: number;
  blocks?: BlockRow[];
  txs?: TxDoc[];
}

/** The blocks table's row as the ingest inserts it (ingest/rows.ts). */
export interface BlockInsertRow {
  height: number;
  hash: string;
  chain_id: string;
  /** DateTime64(9) as ClickHouse reads it: `YYYY-MM-DD hh:mm:ss.nnnnnnnnn` (UTC). */
  time: string;
  block_time_ms: number;
  proposer: string;
  gas_used: string;
  gas_wanted: string;
  tx_count: number;
  total_fee: string;
}

/** The tx_documents table's row as the ingest inserts it. */
export interface TxDocumentInsertRow {
  sequence: number;
  height: number;
  json: string;
}

/**
 * A block as `listBlocks` returns it: 64-bit integers as decimal strings (output_format_json_quote_64bit_integers),
 * `tx_count` as its `toString` alias, the time as the store's sessions print a DateTime64(9) (date_time_output_format
 * 'iso', clickhouse/client.ts): `YYYY-MM-DDThh:mm:ss.nnnnnnnnnZ`.
 */
export function blockRowOf(r: BlockInsertRow): BlockRow {
  return {
    chain_id: r.chain_id,
    height: String(r.height),
    hash: r.hash,
    block_time_ms: String(r.block_time_ms),
    time: `${r.time.replace(' ', 'T')}Z`,
    gas_used: r.gas_used,
    gas_wanted: r.gas_wanted,
    tx_count_s: String(r.tx_count),
    total_fee: r.total_fee,
    proposer: r.proposer,
  };
}

/** A batch's items of the lists asked for, from the rows just inserted; undefined when none is asked for. */
export function committedItems(
  rows: { blocks: readonly BlockInsertRow[]; tx_documents: readonly TxDocumentInsertRow[] },
  from: number,
  to: number,
  lists: HandedLists,
): CommittedItems | undefined {
  if (!lists.blocks && !lists.txs) return undefined;
  return {
    from,
    to,
    ...(lists.blocks ? { blocks: rows.blocks.map(blockRowOf) } : {}),
    // The rows are in block order and, within a block, in tx order: ascending sequence.
    ...(lists.txs ? { txs: rows.tx_documents.map((d) => ({ sequence: String(d.sequence), json: d.json })) } : {}),
  };
}
