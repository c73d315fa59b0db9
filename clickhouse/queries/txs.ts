// Tx reads. Every list first picks the page's sequences from the narrowest lookup table (txs itself,
// account_txs, msg_type_txs, nft_token_txs), keyset on sequence, then reads the pre-rendered JSON documents
// of just those sequences from tx_documents (4-row granules, migration 210). Documents are served as stored.
import type { Store } from '../client.js';
import { after, dir, type ListWindow } from './keyset.js';
import { SEQUENCE_STRIDE } from '../../chain/sequence.js';

export interface TxDoc {
  sequence: string;
  json: string;
}

/** Sequences of one height: sequence = height * SEQUENCE_STRIDE + index (chain/sequence.ts). */
const SEQ = BigInt(SEQUENCE_STRIDE);

/** First sequence above a height: (height + 1) * 1e6, exact for any height. */
export const sequenceAbove = (height: number): bigint => (BigInt(height) + 1n) * SEQ;

export interface TxListScope {
  /** Message types (without leading '/'), ORed; null = no filter. */
  msgs: string[] | null;
  /** Exclusive upper bound of visible sequences: (indexed tip + 1) * 1e6 (bigint: sequences pass 2^53). */
  maxSequence: bigint;
  /** Keyset cursor (exclusive), or null to use the window's offset. */
  cursor: number | null;
  /**
   * An NFT's txs while it is burned: hidden as upstream's list hides them (absent: REST), or shown (the streams). A
   * token minted again shows them all in REST once more, so a stream that skipped them at the burn would have a gap.
   */
  burned?: 'hidden' | 'shown';
}

type Params = Record<string, unknown>;

interface Picker {
  /** A SELECT returning the page's distinct sequences, ordered and limited. */
  sql: string;
  /** A SELECT of one row: `n`, the number of matching distinct txs as a string. */
  countSql: string;
  params: Params;
}

function window(w: ListWindow, s: TxListScope, params: Params): { keyset: string; limit: string } {
  params.maxSeq = s.maxSequence.toString();
  params.limit = w.limit;
  if (s.cursor !== null) {
    params.cursor = s.cursor;
    return {
      keyset: `AND sequence ${after(w)} {cursor:UInt64}`,
      limit: `ORDER BY sequence ${dir(w)} LIMIT {limit:UInt32}`,
    };
  }
  params.offset = w.offset;
  return { keyset: '', limit: `ORDER BY sequence ${dir(w)} LIMIT {limit:UInt32} OFFSET {offset:UInt32}` };
}

async function count(store: Store, pick: Picker, followUp: boolean): Promise<string> {
  const [r] = await store.rows<{ n: string }>(pick.countSql, pick.params, { followUp });
  return r?.n ?? '0';
}

/**
 * count() of rows matching `filter` that lie below the tip, as (all matching) − (matching at or above the tip):
 * the first term reads no `sequence` column (a plain key-prefix count), the second is an empty key range
 * whenever nothing is half-written.
 */
const belowTip = (table: string, filter: string) =>
  `SELECT toString((SELECT count() FROM ${table}${filter ? ` WHERE ${filter}` : ''}) - (SELECT count() FROM ${table} WHERE ${filter ? `${filter} AND ` : ''}sequence >= {maxSeq:UInt64})) AS n`;

function allTxs(w: ListWindow, s: TxListScope): Picker {
  const params: Params = {};
  const { keyset, limit } = window(w, s, params);
  if (s.msgs === null) {
    return {
      sql: `SELECT sequence FROM txs WHERE sequence < {maxSeq:UInt64} ${keyset} ${limit}`,
      countSql: belowTip('txs', ''),
      params,
    };
  }
  params.types = s.msgs;
  // One type: rows are unique per (msg_type, sequence) and the read follows the sorting key.
  if (s.msgs.length === 1) {
    params.type = s.msgs[0];
    return {
      sql: `SELECT sequence FROM msg_type_txs WHERE msg_type = {type:String} AND sequence < {maxSeq:UInt64} ${keyset} ${limit}`,
      countSql: belowTip('msg_type_txs', 'msg_type = {type:String}'),
      params,
    };
  }
  return {
    sql: `SELECT sequence FROM msg_type_txs WHERE msg_type IN {types:Array(String)} AND sequence < {maxSeq:UInt64} ${keyset} GROUP BY sequence ${limit}`,
    countSql:
      'SELECT toString(uniqExact(sequence)) AS n FROM msg_type_txs WHERE msg_type IN {types:Array(String)} AND sequence < {maxSeq:UInt64}',
    params,
  };
}

function accountTxs(w: ListWindow, s: TxListScope, account: string, isSigner: boolean): Picker {
  const params: Params = { account };
  const { keyset, limit } = window(w, s, params);
  let match = 'account = {account:String}';
  if (isSigner) match += ' AND is_signer = 1';
  if (s.msgs !== null) {
    params.types = s.msgs;
    match += ' AND hasAny(msg_types, {types:Array(String)})';
  }
  const filter = `${match} AND sequence < {maxSeq:UInt64}`;
  // One row per (account, sequence): the ingest writes each tx's accounts once and its crash recovery deletes
  // by height, so no GROUP BY is needed and the read follows the (account, sequence) sorting key. The count is one
  // key range with the tip's bound (not `belowTip`): one account's rows are few, and a statement without subqueries
  // plans in about half the time (in process, random accounts: 1.8-2x the counts per second; the hot account with
  // 100 k txs: within 0.3 ms of `belowTip`).
  return {
    sql: `SELECT sequence FROM account_txs WHERE ${filter} ${keyset} ${limit}`,
    countSql: `SELECT toString(count()) AS n FROM account_txs WHERE ${filter}`,
    params,
  };
}

function heightTxs(w: ListWindow, s: TxListScope, height: number): Picker {
  const params: Params = { lo: (BigInt(height) * SEQ).toString(), hi: ((BigInt(height) + 1n) * SEQ).toString() };
  const { keyset, limit } = window(w, s, params);
  let filter = 'sequence >= {lo:UInt64} AND sequence < {hi:UInt64} AND sequence < {maxSeq:UInt64}';
  if (s.msgs !== null) {
    params.types = s.msgs;
    filter += ' AND hasAny(msg_types, {types:Array(String)})';
  }
  return {
    sql: `SELECT sequence FROM txs WHERE ${filter} ${keyset} ${limit}`,
    countSql: `SELECT toString(count()) AS n FROM txs WHERE ${filter}`,
    params,
  };
}

function nftTxs(w: ListWindow, s: TxListScope, collection: string, tokenId: string): Picker {
  const params: Params = { collection, tokenId };
  const { keyset, limit } = window(w, s, params);
  // A missing or burned NFT has no txs to show (§7.3): its current state rides along as a constant condition.
  const live = `(SELECT count() > 0 AND max(burned_v).3 = 0 FROM nft_token_state
                 WHERE collection = {collection:String} AND token_id = {tokenId:String})`;
  const filter = `collection = {collection:String} AND token_id = {tokenId:String} AND sequence < {maxSeq:UInt64}${
    s.burned === 'shown' ? '' : ` AND ${live}`
  }`;
  return {
    sql: `SELECT sequence FROM nft_token_txs WHERE ${filter} ${keyset} GROUP BY sequence ${limit}`,
    countSql: `SELECT toString(uniqExact(sequence)) AS n FROM nft_token_txs WHERE ${filter}`,
    params,
  };
}

export type TxList =
  | { kind: 'all' }
  | { kind: 'account'; account: string; isSigner: boolean }
  | { kind: 'height'; height: number }
  | { kind: 'nft'; collection: string; tokenId: string };

function picker(list: TxList, w: ListWindow, s: TxListScope): Picker {
  switch (list.kind) {
    case 'all':
      return allTxs(w, s);
    case 'account':
      return accountTxs(w, s, list.account, list.isSigner);
    case 'height':
      return heightTxs(w, s, list.height);
    case 'nft':
      return nftTxs(w, s, list.collection, list.tokenId);
  }
}

/**
 * The list's total when a page without a cursor shows where the list ends: a page that does not fill its window
 * holds the last rows, after `offset` others (an empty first page: an empty list). null when it must be counted
 * (a cursor, a full page, or an empty page past an offset).
 */
export function pageTotal(w: ListWindow, s: TxListScope, shown: number): string | null {
  if (s.cursor !== null || shown >= w.limit) return null;
  if (shown === 0 && w.offset > 0) return null;
  return String(w.offset + shown);
}

/**
 * The list's total if asked ('0' if not): from the page itself when it ends the list (most accounts' lists fit their
 * first page), else counted.
 */
async function totalFor(
  store: Store,
  pick: Picker,
  w: ListWindow,
  s: TxListScope,
  shown: number,
  withTotal: boolean,
): Promise<string> {
  if (!withTotal) return '0';
  return pageTotal(w, s, shown) ?? (await count(store, pick, true)); // after the page's statement
}

/** One document per sequence (a re-ingested height may leave two until the ReplacingMergeTree merges them). */
function firstDocs(rows: readonly TxDoc[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const r of rows) if (!out.has(r.sequence)) out.set(r.sequence, r.json);
  return out;
}

/**
 * The sequences of one page (window.limit should include the look-ahead row) and, if asked, the list's total
 * (`totalFor`).
 */
export async function pickTxPage(
  store: Store,
  list: TxList,
  w: ListWindow,
  s: TxListScope,
  withTotal: boolean,
): Promise<{ sequences: string[]; total: string }> {
  const pick = picker(list, w, s);
  const rows = await store.rows<{ sequence: string }>(pick.sql, pick.params);
  const sequences = rows.map((r) => r.sequence);
  return { sequences, total: await totalFor(store, pick, w, s, sequences.length, withTotal) };
}

/**
 * `pickTxPage` and `txDocsBySequence` in one statement: the page's documents (one per sequence, in the page's order)
 * and, if asked, the total. For a page whose documents are unlikely to be cached (a list first asked at a tip, a page
 * after a new cursor): one engine call instead of two (the documents' `IN` set is the picked page, so the read
 * still follows their sorting key).
 */
export async function pickTxDocs(
  store: Store,
  list: TxList,
  w: ListWindow,
  s: TxListScope,
  withTotal: boolean,
): Promise<{ docs: TxDoc[]; total: string }> {
  const pick = picker(list, w, s);
  const rows = await store.rows<TxDoc>(
    `SELECT sequence, json FROM tx_documents WHERE sequence IN (${pick.sql})`,
    pick.params,
  );
  const bySequence = firstDocs(rows);
  const ordered = [...bySequence.keys()].map(BigInt).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  if (w.desc) ordered.reverse();
  const docs = ordered.map((q) => {
    const sequence = q.toString();
    return { sequence, json: bySequence.get(sequence) as string };
  });
  return { docs, total: await totalFor(store, pick, w, s, docs.length, withTotal) };
}

/**
 * Every tx of one NFT below `maxSequence` (exclusive), ascending, or null when there are more than `max`. Bounded: a
 * batch's rows are written before its checkpoint, so rows above the indexed tip may already be there.
 */
export async function nftTxSequences(
  store: Store,
  collection: string,
  tokenId: string,
  max: number,
  maxSequence: bigint,
): Promise<string[] | null> {
  const rows = await store.rows<{ sequence: string }>(
    `SELECT DISTINCT sequence FROM nft_token_txs WHERE collection = {collection:String} AND token_id = {tokenId:String}
       AND sequence < {maxSeq:UInt64}
     ORDER BY sequence LIMIT {limit:UInt32}`,
    { collection, tokenId, limit: max + 1, maxSeq: maxSequence.toString() },
  );
  return rows.length > max ? null : rows.map((r) => r.sequence);
}

/** The list's total alone (pages kept in memory still need a fresh total). */
export async function countTxs(store: Store, list: TxList, s: TxListScope): Promise<string> {
  return count(store, picker(list, { desc: true, limit: 1, offset: 0 }, { ...s, cursor: null }), false);
}

/**
 * The stored documents of the given sequences (picked by `pickTxPage`, so below the tip), by sequence. No ORDER BY
 * or LIMIT BY in the engine: the caller orders by its page and takes one document per sequence. `followUp`: the
 * request's picker ran on the engine just before (ReadOptions).
 */
export async function txDocsBySequence(
  store: Store,
  sequences: readonly string[],
  followUp: boolean,
): Promise<Map<string, string>> {
  if (sequences.length === 0) return new Map();
  const rows = await store.rows<TxDoc>(
    'SELECT sequence, json FROM tx_documents WHERE sequence IN {s:Array(UInt64)}',
    { s: sequences.map((x) => BigInt(x)) },
    { followUp },
  );
  return firstDocs(rows);
}

/** One page of tx documents in the list's order (window.limit should include the look-ahead row) and the total. */
export async function listTxDocs(
  store: Store,
  list: TxList,
  w: ListWindow,
  s: TxListScope,
  withTotal: boolean,
): Promise<{ docs: TxDoc[]; total: string }> {
  const { sequences, total } = await pickTxPage(store, list, w, s, withTotal);
  const byseq = await txDocsBySequence(store, sequences, true);
  return { docs: sequences.flatMap((q) => (byseq.has(q) ? [{ sequence: q, json: byseq.get(q)! }] : [])), total };
}

/** The stored document of a tx by its uppercase hex hash. */
export async function txDocByHash(store: Store, hash: string, maxSequence: bigint): Promise<string | undefined> {
  const rows = await store.rows<{ json: string }>(
    `SELECT json FROM tx_documents WHERE sequence IN (SELECT sequence FROM tx_hashes WHERE hash = {hash:String} AND sequence < {maxSeq:UInt64})
     LIMIT 1`,
    { hash, maxSeq: maxSequence.toString() },
  );
  return rows[0]?.json;
}
