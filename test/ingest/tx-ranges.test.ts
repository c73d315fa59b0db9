// Ranged tx reads (ingest/tx-ranges.ts): which heights go together, the query, and the answer split back into
// heights or refused. The answers are built from real minievm devnet txs and tx responses (test/fixtures/SOURCES.md).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../platform/config.js';
import {
  HISTORY_PROBE_PATH,
  indexedTxs,
  planTxReads,
  RANGE_MAX_TXS,
  RANGED_MAX_HISTORY_TXS,
  rangedReadsPay,
  rangedTxsPath,
  splitRanged,
} from '../../ingest/tx-ranges.js';

interface Recorded {
  rest_tx: { tx: Record<string, unknown>; tx_response: Record<string, unknown> };
}
const recorded = ['bank-send', 'evm-call', 'evm-create'].map(
  (n) => JSON.parse(readFileSync(new URL(`../fixtures/minievm-devnet/${n}.json`, import.meta.url), 'utf8')) as Recorded,
);

/** A GetTxsEvent answer holding `perHeight[h]` of the recorded txs at each height h, as the node lists them. */
function answer(perHeight: [number, number][], total?: number) {
  const txs: unknown[] = [];
  const responses: unknown[] = [];
  let k = 0;
  for (const [h, n] of perHeight)
    for (let i = 0; i < n; i++) {
      const r = recorded[k++ % recorded.length]!.rest_tx;
      txs.push(r.tx);
      responses.push({ ...r.tx_response, height: String(h), txhash: hashAt(txs.length - 1) });
    }
  return { txs, tx_responses: responses, pagination: null, total: String(total ?? txs.length) };
}

/** A distinct tx hash for the i-th tx of an answer (uppercase hex, as the node writes them). */
const hashAt = (i: number) => i.toString(16).toUpperCase().padStart(64, 'A');
/** The hashes a block at each height holds: `n` consecutive ones from `first`. */
const blockHashes = (...spans: [first: number, n: number][]) =>
  spans.map(([first, n]) => Array.from({ length: n }, (_, i) => hashAt(first + i)));

describe('planTxReads', () => {
  it('reads runs of heights with txs together while they fit a page, and skips heights without txs', () => {
    expect(planTxReads([10, 11, 12, 13], [1, 0, 3, 2])).toEqual([{ from: 10, to: 13, at: [0, 2, 3] }]);
    expect(planTxReads([5], [4])).toEqual([{ from: 5, to: 5, at: [0] }]);
    expect(planTxReads([5, 6], [0, 0])).toEqual([]);
  });

  it('starts a new read where a page would overflow, and keeps a height of more than a page alone', () => {
    expect(planTxReads([1, 2, 3, 4], [60, 40, 1, 150])).toEqual([
      { from: 1, to: 2, at: [0, 1] },
      { from: 3, to: 3, at: [2] },
      { from: 4, to: 4, at: [3] },
    ]);
    const plan = planTxReads([1, 2, 3], [RANGE_MAX_TXS, 1, 1]);
    expect(plan.map((r) => r.at)).toEqual([[0], [1, 2]]);
  });

  it('never ranges over heights out of order', () => {
    expect(planTxReads([7, 3, 4], [1, 1, 1])).toEqual([
      { from: 7, to: 7, at: [0] },
      { from: 3, to: 4, at: [1, 2] },
    ]);
  });
});

describe('rangedTxsPath', () => {
  it('asks one ascending page of the height range, the query URL-encoded', () => {
    const p = rangedTxsPath(100, 124);
    const u = new URL(p, 'http://node');
    expect(u.pathname).toBe('/cosmos/tx/v1beta1/txs');
    expect(u.searchParams.get('query')).toBe('tx.height>=100 AND tx.height<=124');
    expect(u.searchParams.get('page')).toBe('1');
    expect(u.searchParams.get('limit')).toBe(String(RANGE_MAX_TXS));
    expect(u.searchParams.get('order_by')).toBe('ORDER_BY_ASC');
  });
});

describe('the history probe', () => {
  it('asks one tx of a search over every height, whose total counts every tx the index holds', () => {
    const u = new URL(HISTORY_PROBE_PATH, 'http://node');
    expect(u.pathname).toBe('/cosmos/tx/v1beta1/txs');
    expect(u.searchParams.get('query')).toBe('tx.height>=1');
    expect(u.searchParams.get('limit')).toBe('1');
  });

  it('lets ranged reads run only on a node holding at most the limit, and never on an unreadable total', () => {
    // The real node's answer recorded for heights 1-40 says "13".
    expect(indexedTxs('13')).toBe(13);
    expect(rangedReadsPay(indexedTxs('13'), RANGED_MAX_HISTORY_TXS)).toBe(true);
    expect(rangedReadsPay(indexedTxs(String(RANGED_MAX_HISTORY_TXS)), RANGED_MAX_HISTORY_TXS)).toBe(true);
    expect(rangedReadsPay(indexedTxs(String(RANGED_MAX_HISTORY_TXS + 1)), RANGED_MAX_HISTORY_TXS)).toBe(false);
    for (const bad of [undefined, null, 13, '', '-1', '1e9', '12345678901234567']) {
      expect(indexedTxs(bad), String(bad)).toBeUndefined();
      expect(rangedReadsPay(indexedTxs(bad), RANGED_MAX_HISTORY_TXS), String(bad)).toBe(false);
    }
  });

  it("is the configuration's default", () => {
    expect(loadConfig({}).RANGED_TX_READS_MAX_HISTORY).toBe(RANGED_MAX_HISTORY_TXS);
  });
});

describe('splitRanged', () => {
  it('splits a real node answer into its heights, and refuses it for heights it does not cover', () => {
    const real = JSON.parse(
      readFileSync(new URL('../fixtures/minievm-devnet-rest/tx-search-range.json', import.meta.url), 'utf8'),
    ) as { answer: { txs: unknown[]; tx_responses: { txhash: string }[]; total: string } };
    // The hashes of the txs blocks 28 and 29 held when the answer was recorded (12 and 1).
    const hashes = real.answer.tx_responses.map((r) => r.txhash);
    const blocks = [hashes.slice(0, 12), hashes.slice(12)];
    const out = splitRanged(real.answer, [28, 29], blocks);
    expect(Array.isArray(out) && out.map((txs) => txs.length)).toEqual([12, 1]);
    expect(Array.isArray(out) && out[1]![0]).toBe(real.answer.txs[12]);
    expect(splitRanged(real.answer, [28], [blocks[0]!])).toMatch(/total 13, 12 expected/);
    // The same txs, in the same order, as the node's own answer for the block.
    const byBlock = JSON.parse(
      readFileSync(new URL('../fixtures/minievm-devnet-rest/txs-by-block.json', import.meta.url), 'utf8'),
    ) as { answer: { txs: unknown[] } };
    expect(Array.isArray(out) && out[0]).toEqual(byBlock.answer.txs);
    // The node's hashes compare whatever their case; block 28's txs in another order are refused.
    const lower = {
      ...real.answer,
      tx_responses: real.answer.tx_responses.map((r) => ({ ...r, txhash: r.txhash.toLowerCase() })),
    };
    expect(Array.isArray(splitRanged(lower, [28, 29], blocks))).toBe(true);
    const swapped = [blocks[0]![1]!, blocks[0]![0]!, ...blocks[0]!.slice(2)];
    expect(splitRanged(real.answer, [28, 29], [swapped, blocks[1]!])).toMatch(
      /tx 0 at height 28 is .*, its block holds/,
    );
  });

  it('gives each height its txs, in the node order', () => {
    const body = answer([
      [52, 2],
      [54, 1],
    ]);
    const out = splitRanged(body, [52, 54], blockHashes([0, 2], [2, 1]));
    expect(out).toEqual([[body.txs[0], body.txs[1]], [body.txs[2]]]);
  });

  it('refuses an answer missing a tx (a lagging index), with extra txs, or with another total', () => {
    expect(splitRanged(answer([[52, 1]]), [52, 54], blockHashes([0, 1], [1, 1]))).toMatch(/total 1, 2 expected/);
    expect(splitRanged(answer([[52, 2]], 2), [52], blockHashes([0, 1]))).toMatch(/total 2, 1 expected/);
    expect(splitRanged(answer([[52, 1]], 5), [52], blockHashes([0, 1]))).toMatch(/total 5/);
    expect(
      splitRanged(
        answer([
          [52, 1],
          [53, 1],
        ]),
        [52, 54],
        blockHashes([0, 1], [1, 1]),
      ),
    ).toMatch(/height 53, outside/);
    expect(
      splitRanged(
        answer([
          [52, 2],
          [54, 0],
        ]),
        [52, 54],
        blockHashes([0, 1], [1, 1]),
      ),
    ).toMatch(/more txs at height 52 than its block holds/);
  });

  it("refuses txs that are not the block's (an index still holding a replaced block's txs)", () => {
    // The right count at each height, but the second tx of height 52 is another one.
    const blocks = blockHashes([0, 2], [2, 1]);
    blocks[0]![1] = hashAt(99);
    expect(
      splitRanged(
        answer([
          [52, 2],
          [54, 1],
        ]),
        [52, 54],
        blocks,
      ),
    ).toMatch(/tx 1 at height 52 is A+1, its block holds A+63/);
  });

  it('refuses an answer that is not a tx search answer', () => {
    expect(splitRanged({ txs: [], total: '0' }, [1], [[]])).toMatch(/no txs or tx_responses/);
    const body = answer([[52, 1]]);
    expect(splitRanged({ ...body, tx_responses: [] }, [52], blockHashes([0, 1]))).toMatch(/1 txs and 0 responses/);
  });
});
