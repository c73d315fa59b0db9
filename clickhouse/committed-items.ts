// A committed batch's items, handed by the ingest to the event streams of the API in the same process, in the shape
// the streams' read statements return them (clickhouse/queries/blocks.ts `listBlocks`, clickhouse/queries/txs.ts
// `pickTxDocs`): a tip advance then takes its new items from memory instead of reading back what was just written
// (docs/streams.md, decision 020). The filtered lists get the batch's filter keys instead: a list whose key the
// batch does not hold has no new item, and skips its read (decision 021).
import type { BlockRow } from './queries/blocks.js';
import type { TxDoc } from './queries/txs.js';

/** Which lists have a live stream (the ingest builds only those). */
export interface HandedLists {
  blocks: boolean;
  txs: boolean;
  /** The filter keys of the batch (a filtered tx list has a stream open). */
  keys: boolean;
}

export const NO_HANDED_LISTS: HandedLists = { blocks: false, txs: false, keys: false };

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
  /**
   * Every filter key of the rows inserted for those heights (`filterKeys`): a superset of what the filtered lists'
   * statements match there, so a list whose key is absent has no item in these heights.
   */
  keys?: ReadonlySet<string>;
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

/** The txs table's row as the ingest inserts it: the fields the filtered lists' views derive their keys from. */
export interface TxKeysRow {
  /** Every account the tx touched (account_txs: one row each; `is_signer` marks the signer among them). */
  accounts: readonly string[];
  /** msg_type_txs: one row per distinct type; account_txs keeps them for its `msgs` filter. */
  msg_types: readonly string[];
}

/** The nft_events table's row as the ingest inserts it: nft_token_txs keys its rows by these two. */
export interface NftKeysRow {
  collection: string;
  token_id: string;
}

/** A filter key: an account of account_txs (clickhouse/migrations/002, the value the view stores, compared as is). */
export const accountKey = (account: string) => `a:${account}`;
/** A filter key: a message type of msg_type_txs. */
export const msgTypeKey = (type: string) => `m:${type}`;
/** A filter key: one NFT of nft_token_txs (a collection address holds no newline). */
export const nftKey = (collection: string, tokenId: string) => `n:${collection}\n${tokenId}`;

/**
 * Every filter key of a batch's rows, once each: the accounts and message types of its txs, and the NFTs of its NFT
 * events and of the NFT txs it writes directly. Invariant: every row the ingest inserts into account_txs, msg_type_txs or nft_token_txs for these heights
 * (their views read exactly these rows) has its key here.
 */
export function filterKeys(rows: {
  txs: readonly TxKeysRow[];
  nft_events: readonly NftKeysRow[];
  /** Rows written to nft_token_txs directly (a Move tx touching an NFT's object without an NFT event of it). */
  nft_token_txs?: readonly NftKeysRow[];
}): ReadonlySet<string> {
  const keys = new Set<string>();
  for (const t of rows.txs) {
    for (const a of t.accounts) keys.add(accountKey(a));
    for (const m of t.msg_types) keys.add(msgTypeKey(m));
  }
  for (const e of rows.nft_events) keys.add(nftKey(e.collection, e.token_id));
  for (const e of rows.nft_token_txs ?? []) keys.add(nftKey(e.collection, e.token_id));
  return keys; // a Set crosses to the APIs' thread as one (structured clone)
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
  rows: {
    blocks: readonly BlockInsertRow[];
    tx_documents: readonly TxDocumentInsertRow[];
    txs: readonly TxKeysRow[];
    nft_events: readonly NftKeysRow[];
    nft_token_txs?: readonly NftKeysRow[];
  },
  from: number,
  to: number,
  lists: HandedLists,
): CommittedItems | undefined {
  if (!lists.blocks && !lists.txs && !lists.keys) return undefined;
  return {
    from,
    to,
    ...(lists.blocks ? { blocks: rows.blocks.map(blockRowOf) } : {}),
    // The rows are in block order and, within a block, in tx order: ascending sequence.
    ...(lists.txs ? { txs: rows.tx_documents.map((d) => ({ sequence: String(d.sequence), json: d.json })) } : {}),
    ...(lists.keys ? { keys: filterKeys(rows) } : {}),
  };
}
