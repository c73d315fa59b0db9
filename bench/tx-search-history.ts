// What a ranged tx search costs a REAL minievm node as its history grows (issue 29, decision 017's open limit).
// CometBFT v0.38's kv indexer answers `tx.height>=a AND tx.height<=b` by walking every `tx.height` key it holds, one
// per tx ever indexed, so a search's cost should grow with the history while a block's own read
// (`/cosmos/tx/v1beta1/txs/block/{h}`) should not. At each history size in STEPS (txs the node holds) this reads
// SAMPLES ranges of two heights with txs, one request at a time: the ranged search (ingest/tx-ranges.ts) and the two
// per-height reads it replaces (in parallel, as the ingest's fallback does), with the node's CPU for each and the
// calibration loop beside each step. The ingest counts a search slower than 1 s against ranged reads, and
// RANGED_TX_READS=false turns them off.
//   bash devnet/minievm/build.sh && npx tsx bench/tx-search-history.ts     (STEPS=2000,10000,30000 SENDERS=8
//   INFLIGHT=8 SAMPLES=20)
// NODE_HOME=<dir> keeps the chain: a later run with the same NODE_HOME continues from what it holds.
import os from 'node:os';
import { accumulateTransfers } from '../devnet/minievm/accumulate.js';
import { latestHeight, txCount, txSearchAll } from '../devnet/minievm/node-client.js';
import { rangedTxsPath, splitRanged } from '../ingest/tx-ranges.js';
import { hashesByHeight, startHistoryNode } from './history-node.js';
import { machine } from './machine.js';

const STEPS = (process.env.STEPS ?? '2000,10000,30000').split(',').map(Number);
const SENDERS = Number(process.env.SENDERS ?? 8);
const WINDOW = Number(process.env.INFLIGHT ?? 8);
const SAMPLES = Number(process.env.SAMPLES ?? 20);
if (STEPS.some((n) => !(n >= 10 && n <= 10_000_000)) || !(SAMPLES >= 1 && SAMPLES <= 1000)) {
  console.error('usage: STEPS=n,n,… (10..10,000,000 txs) SAMPLES=1..1000 npx tsx bench/tx-search-history.ts');
  process.exit(2);
}

const node = await startHistoryNode('tx-search-history', SENDERS);
const { devnet } = node;
const get = (p: string) => node.get(p, 120_000);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

try {
  console.log(`# minievm devnet, ${SENDERS} senders, ${WINDOW} unconfirmed each; ${os.cpus()[0]?.model ?? '?'}`);
  console.log(
    '| txs held | heights | search p50 / max ms | node CPU a search ms | two per-height reads p50 / max ms | node CPU ms | cal. ms |',
  );
  console.log('|---|---|---|---|---|---|---|');
  for (const target of STEPS) {
    if ((await txCount(devnet.ep)) < target)
      await accumulateTransfers(devnet.ep, target, { senders: SENDERS, window: WINDOW });
    const head = await latestHeight(devnet.ep);
    const txs = await txSearchAll(devnet.ep, head);
    const byHeight = hashesByHeight(txs);
    const heights = [...byHeight.keys()].sort((a, b) => a - b);
    // Pairs of consecutive heights with txs whose txs fit one page, spread over the whole history.
    const pairs: [number, number][] = [];
    for (let k = 0; k < SAMPLES; k++) {
      const i = Math.floor(((heights.length - 2) * k) / Math.max(1, SAMPLES - 1));
      const a = heights[i]!;
      const b = heights[i + 1]!;
      if (byHeight.get(a)!.length + byHeight.get(b)!.length <= 100) pairs.push([a, b]);
    }
    const cal = machine().cpuCalibrationMs;
    const search: number[] = [];
    const single: number[] = [];
    let searchCpu = 0;
    let singleCpu = 0;
    for (const [a, b] of pairs) {
      let n0 = node.nodeCpuMs();
      let t0 = performance.now();
      const got = splitRanged(JSON.parse(await get(rangedTxsPath(a, b))), [a, b], [byHeight.get(a)!, byHeight.get(b)!]);
      search.push(performance.now() - t0);
      searchCpu += node.nodeCpuMs() - n0;
      if (typeof got === 'string') throw new Error(`${a}..${b}: ${got}`);
      n0 = node.nodeCpuMs();
      t0 = performance.now();
      await Promise.all([a, b].map((h) => get(`/cosmos/tx/v1beta1/txs/block/${h}?pagination.limit=100`)));
      single.push(performance.now() - t0);
      singleCpu += node.nodeCpuMs() - n0;
    }
    console.log(
      `| ${txs.length} | ${head} | ${median(search).toFixed(0)} / ${Math.max(...search).toFixed(0)} | ${(searchCpu / pairs.length).toFixed(0)} | ${median(single).toFixed(0)} / ${Math.max(...single).toFixed(0)} | ${(singleCpu / pairs.length).toFixed(0)} | ${cal} |`,
    );
  }
} finally {
  node.close();
}
