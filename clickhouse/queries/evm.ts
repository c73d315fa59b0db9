// EVM reads (issue 12): receipts from evm_txs and callTracer rows from evm_internal_txs, for the indexer's
// /indexer/tx/v1/evm-txs and /evm-internal-txs lists. Both page on a `sequence`:
// - an EVM tx's sequence is height * 1e6 + its transactionIndex (the Cosmos txs' scheme, migration 001);
// - an internal tx's sequence is height * 1e6 + its position in the block, counting call-tree rows in
//   (transactionIndex, index) order; a cursor is turned back into that (height, tx_index, idx) triple.
// Every value is bound as a {name:Type} parameter.
import type { Store } from '../client.js';
import { after, dir, type ListWindow } from './keyset.js';

export const EVM_SEQ_PER_HEIGHT = 1_000_000;

export type EvmTxScope =
  | { kind: 'all' }
  | { kind: 'height'; height: number }
  /** `account`: 0x + 40 lowercase hex. `signer`: only txs sent by it (`from`). */
  | { kind: 'account'; account: string; signer: boolean };

export interface EvmTxRow {
  height: string;
  tx_index: string;
  receipt: string;
}

type Params = Record<string, unknown>;

const LOGS = "JSONExtractArrayRaw(receipt, 'logs')";
const LINKED = `positionCaseInsensitive(receipt, {acct40:String}) > 0 AND (
  lower(JSONExtractString(receipt, 'to')) = {acct:String}
  OR lower(JSONExtractString(receipt, 'contractAddress')) = {acct:String}
  OR has(arrayMap(l -> lower(JSONExtractString(l, 'address')), ${LOGS}), {acct:String})
  OR has(arrayFlatten(arrayMap(l -> arrayMap(t -> lower(t), JSONExtract(l, 'topics', 'Array(String)')), ${LOGS})),
         concat('0x000000000000000000000000', {acct40:String})))`;

function evmTxFilter(scope: EvmTxScope, params: Params): string {
  switch (scope.kind) {
    case 'all':
      return '';
    case 'height':
      params.h = scope.height;
      return 'AND height = {h:UInt64}';
    case 'account':
      params.acct = scope.account;
      params.acct40 = scope.account.slice(2);
      // Upstream's EVM edges: from, to, contractAddress, log addresses and address-shaped topics (24 zero
      // bytes then the address). A substring test on the receipt text prunes rows before the JSON is parsed.
      return scope.signer ? 'AND sender = {acct:String}' : `AND (sender = {acct:String} OR (${LINKED}))`;
  }
}

/** One page of receipts (the window's limit already includes the look-ahead row) and the total. */
export async function listEvmTxs(
  store: Store,
  scope: EvmTxScope,
  w: ListWindow,
  tip: number,
  cursor: number | null,
  withTotal: boolean,
): Promise<{ rows: EvmTxRow[]; total: string }> {
  const params: Params = { tip, limit: w.limit };
  const filter = evmTxFilter(scope, params);
  let keyset = '';
  let tail = `LIMIT {limit:UInt32}`;
  if (cursor !== null) {
    params.ch = Math.floor(cursor / EVM_SEQ_PER_HEIGHT);
    params.ci = cursor % EVM_SEQ_PER_HEIGHT;
    keyset = `AND (height, tx_index) ${after(w)} ({ch:UInt64}, {ci:UInt32})`;
  } else {
    params.offset = w.offset;
    tail += ' OFFSET {offset:UInt32}';
  }
  const where = `WHERE height <= {tip:UInt64} ${filter}`;
  const rows = await store.rows<EvmTxRow>(
    `SELECT height, tx_index, receipt FROM evm_txs ${where} ${keyset}
     ORDER BY height ${dir(w)}, tx_index ${dir(w)} ${tail}`,
    params,
  );
  let total = '0';
  if (withTotal) {
    const [c] = await store.rows<{ n: string }>(`SELECT count() AS n FROM evm_txs ${where}`, params);
    total = String(c?.n ?? '0');
  }
  return { rows, total };
}

/** A receipt by its hash (0x + 64 lowercase hex), visible up to the tip. */
export async function evmTxByHash(store: Store, hash: string, tip: number): Promise<EvmTxRow | undefined> {
  const [r] = await store.rows<EvmTxRow>(
    'SELECT height, tx_index, receipt FROM evm_txs WHERE hash = {hash:String} AND height <= {tip:UInt64} LIMIT 1',
    { hash, tip },
  );
  return r;
}

export type InternalTxScope =
  | { kind: 'all' }
  | { kind: 'height'; height: number }
  | { kind: 'account'; account: string }
  | { kind: 'hash'; hash: string };

export interface InternalTxRow {
  height: string;
  hash: string;
  idx: string;
  parent_index: string;
  type: string;
  from_addr: string;
  to_addr: string;
  value: string;
  gas: string;
  gas_used: string;
  input: string;
  output: string;
  tx_index: string;
}

function internalFilter(scope: InternalTxScope, params: Params): string {
  switch (scope.kind) {
    case 'all':
      return '';
    case 'height':
      params.h = scope.height;
      return 'AND i.height = {h:UInt64}';
    case 'account':
      params.acct = scope.account;
      return 'AND (i.from_addr = {acct:String} OR i.to_addr = {acct:String})';
    case 'hash':
      params.hash = scope.hash;
      return 'AND i.hash = {hash:String}';
  }
}

// Internal rows with the transactionIndex of their tx (a row whose receipt is missing sorts first in its block).
const JOINED = `
  SELECT i.height AS height, i.hash AS hash, i.idx AS idx, i.parent_index AS parent_index, i.type AS type,
         i.from_addr AS from_addr, i.to_addr AS to_addr, i.value AS value, i.gas AS gas, i.gas_used AS gas_used,
         i.input AS input, i.output AS output, e.tx_index AS tx_index
  FROM evm_internal_txs AS i
  LEFT JOIN (SELECT height, hash, tx_index FROM evm_txs WHERE height <= {tip:UInt64}) AS e
    ON e.height = i.height AND e.hash = i.hash`;

/** The (tx_index, idx) at a position of a block, for decoding a cursor. */
async function positionAt(
  store: Store,
  height: number,
  position: number,
  tip: number,
): Promise<{ tx_index: string; idx: string } | undefined> {
  const [r] = await store.rows<{ tx_index: string; idx: string }>(
    `SELECT tx_index, idx FROM (${JOINED} WHERE i.height = {h:UInt64})
     ORDER BY tx_index, idx LIMIT 1 OFFSET {pos:UInt32}`,
    { h: height, pos: position, tip },
  );
  return r;
}

/** The position of a row inside its block ((tx_index, idx) order): the low part of its sequence. */
export async function internalPosition(store: Store, row: InternalTxRow, tip: number): Promise<number> {
  const [r] = await store.rows<{ n: string }>(
    `SELECT count() AS n FROM (${JOINED} WHERE i.height = {h:UInt64})
     WHERE (tx_index, idx) < ({ti:UInt32}, {idx:UInt32})`,
    { h: Number(row.height), ti: Number(row.tx_index), idx: Number(row.idx), tip },
  );
  return Number(r?.n ?? 0);
}

export async function listInternalTxs(
  store: Store,
  scope: InternalTxScope,
  w: ListWindow,
  tip: number,
  cursor: number | null,
  withTotal: boolean,
): Promise<{ rows: InternalTxRow[]; total: string }> {
  const params: Params = { tip, limit: w.limit };
  const filter = internalFilter(scope, params);
  let keyset = '';
  let tail = 'LIMIT {limit:UInt32}';
  if (cursor !== null) {
    const h = Math.floor(cursor / EVM_SEQ_PER_HEIGHT);
    const at = await positionAt(store, h, cursor % EVM_SEQ_PER_HEIGHT, tip);
    params.ch = h;
    // a position past the block's last row sorts after every row of the block, in either direction
    params.cti = at ? Number(at.tx_index) : 4294967295;
    params.cidx = at ? Number(at.idx) : 4294967295;
    keyset = `AND (height, tx_index, idx) ${after(w)} ({ch:UInt64}, {cti:UInt32}, {cidx:UInt32})`;
  } else {
    params.offset = w.offset;
    tail += ' OFFSET {offset:UInt32}';
  }
  const inner = `${JOINED} WHERE i.height <= {tip:UInt64} ${filter}`;
  const d = dir(w);
  const rows = await store.rows<InternalTxRow>(
    `SELECT * FROM (${inner}) WHERE 1 ${keyset} ORDER BY height ${d}, tx_index ${d}, idx ${d} ${tail}`,
    params,
  );
  let total = '0';
  if (withTotal) {
    const [c] = await store.rows<{ n: string }>(
      `SELECT count() AS n FROM evm_internal_txs AS i WHERE i.height <= {tip:UInt64} ${filter}`,
      params,
    );
    total = String(c?.n ?? '0');
  }
  return { rows, total };
}

/** Whether an EVM tx of this hash is indexed (the internal-tx lookup by hash answers 404 otherwise). */
export async function evmTxExists(store: Store, hash: string, tip: number): Promise<boolean> {
  const [r] = await store.rows<{ n: string }>(
    'SELECT count() AS n FROM evm_txs WHERE hash = {hash:String} AND height <= {tip:UInt64}',
    { hash, tip },
  );
  return Number(r?.n ?? 0) > 0;
}
