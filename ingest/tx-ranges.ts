// Reading the REST txs of several heights with one ranged tx query instead of a request per height. The node's
// `GET /cosmos/tx/v1beta1/txs?query=tx.height>=a AND tx.height<=b` (GetTxsEvent) answers from its tx index what
// `/cosmos/tx/v1beta1/txs/block/{h}` answers a height at a time, without repeating each block. On a sparse chain
// that is one request for a group of heights instead of one each (decision 017). Pure: which heights go together,
// the query's path, and its answer split back into heights, or why it cannot be trusted.
import type { RestTx } from './decode/tx.js';

/** CometBFT's tx_search answers at most 100 txs a page (it clamps `per_page`): a range is read only if it fits one. */
export const RANGE_MAX_TXS = 100;

/** One read of a group's txs: the positions (into the group's heights) it covers, from..to inclusive. */
export interface TxRead {
  from: number;
  to: number;
  at: number[];
}

/**
 * The reads of `heights` (with `counts[i]` txs each; ascending heights are expected): runs of heights with txs whose
 * txs fit one page become one ranged read, every other height with txs its own. Heights without txs are not read.
 */
export function planTxReads(heights: readonly number[], counts: readonly number[]): TxRead[] {
  const out: TxRead[] = [];
  let run: TxRead | undefined;
  let txs = 0;
  for (let i = 0; i < heights.length; i++) {
    const n = counts[i] ?? 0;
    if (n <= 0) continue;
    const h = heights[i]!;
    if (run && h > run.to && txs + n <= RANGE_MAX_TXS) {
      run.to = h;
      run.at.push(i);
      txs += n;
      continue;
    }
    run = { from: h, to: h, at: [i] };
    txs = n;
    out.push(run);
  }
  return out;
}

/**
 * Most txs a node may hold in its tx index for ranged reads to pay (RANGED_TX_READS_MAX_HISTORY's default). CometBFT
 * v0.38's kv indexer answers a tx.height range by walking every tx.height key it holds, one per tx ever indexed: on
 * a real minievm node a search cost 8 ms of its CPU at 2,233 txs held and 53 ms at 30,072 (about 1.6 ms more per
 * 1,000), against about 0.8 ms for a one-tx height read on its own. A search over 25 such heights stops paying near
 * 10,000 txs held; the default keeps a margin (bench/tx-search-history.ts, decision 017).
 */
export const RANGED_MAX_HISTORY_TXS = 5_000;

/** The probe of how many txs the node's index holds: a search over every height, one tx a page (`total` counts all). */
export const HISTORY_PROBE_PATH = `/cosmos/tx/v1beta1/txs?query=${encodeURIComponent('tx.height>=1')}&page=1&limit=1`;

/** The txs the node's index holds, from the history probe's `total` (a string of digits); undefined when unreadable. */
export function indexedTxs(total: unknown): number | undefined {
  const n = typeof total === 'string' && /^\d{1,16}$/.test(total) ? Number(total) : Number.NaN;
  return Number.isSafeInteger(n) ? n : undefined;
}

/** Whether ranged reads pay on a node whose index holds `held` txs (indexedTxs); never when that is unknown. */
export function rangedReadsPay(held: number | undefined, maxHistory: number): boolean {
  return held !== undefined && held <= maxHistory;
}

/** The ranged query's path and query string (a single page, ascending). */
export function rangedTxsPath(from: number, to: number): string {
  const query = encodeURIComponent(`tx.height>=${from} AND tx.height<=${to}`);
  return `/cosmos/tx/v1beta1/txs?query=${query}&page=1&limit=${RANGE_MAX_TXS}&order_by=ORDER_BY_ASC`;
}

export interface RangedAnswer {
  txs?: unknown;
  tx_responses?: unknown;
  total?: unknown;
}

/**
 * The answer's txs by height, in the order of `heights`, or why it is not exactly those heights' txs: the caller then
 * reads each height on its own. `hashes[k]` are the hashes of the txs of `heights[k]` in its block, in block order
 * (uppercase hex). The answer must hold exactly those txs, in that order, and nothing else, and `total` must be their
 * count. A node whose index lags its blocks (it indexes after commit), lacks old heights, has txs in the range beyond
 * the ones asked for, or still holds a replaced block's txs (after a rollback) is never trusted with a partial answer.
 */
export function splitRanged(
  body: RangedAnswer,
  heights: readonly number[],
  hashes: readonly (readonly string[])[],
): RestTx[][] | string {
  const { txs, tx_responses: responses } = body;
  if (!Array.isArray(txs) || !Array.isArray(responses)) return 'no txs or tx_responses array';
  const expected = hashes.reduce((a, b) => a + b.length, 0);
  if (String(body.total) !== String(expected)) return `total ${String(body.total)}, ${expected} expected`;
  if (txs.length !== expected || responses.length !== expected)
    return `${txs.length} txs and ${responses.length} responses, ${expected} expected`;
  const index = new Map<number, number>(heights.map((h, k) => [h, k]));
  const out: RestTx[][] = heights.map(() => []);
  for (let i = 0; i < txs.length; i++) {
    const r = responses[i] as { height?: unknown; txhash?: unknown } | null;
    const h = Number(r?.height);
    const k = index.get(h);
    if (k === undefined) return `a tx at height ${String(h)}, outside the heights asked`;
    const at = out[k]!.length;
    const want = hashes[k]![at];
    if (want === undefined) return `more txs at height ${h} than its block holds`;
    if (typeof r?.txhash !== 'string' || r.txhash.toUpperCase() !== want)
      return `tx ${at} at height ${h} is ${String(r?.txhash)}, its block holds ${want}`;
    out[k]!.push(txs[i] as RestTx);
  }
  for (let k = 0; k < heights.length; k++)
    if (out[k]!.length !== hashes[k]!.length)
      return `${out[k]!.length} txs at height ${heights[k]}, ${hashes[k]!.length} expected`;
  return out;
}
