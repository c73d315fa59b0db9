// The REST txs of a sparse history read from a REAL minievm node two ways (issue 29, decision 017): a request per
// height (`/cosmos/tx/v1beta1/txs/block/{h}`, what the ingest did before) against ranged tx searches
// (`/cosmos/tx/v1beta1/txs?query=tx.height>=a AND tx.height<=b`, ingest/tx-ranges.ts), over the same heights in the
// same groups (ingest/fetch.ts `readGroups`, 25 heights) with the same groups in flight. chain-sim is not the judge
// here: the node's own cost of a search (its tx index, and a block read per tx for the timestamps) is part of it.
// Starts a devnet, lets it accumulate TXS ERC20 transfers from SENDERS senders with INFLIGHT unconfirmed each (one
// and one make about a tx a block), then reads the heights with txs ROUNDS times each way, interleaved, printing
// wall time, this process's CPU, the node's CPU, bytes read, and the calibration loop beside each.
//   bash devnet/minievm/build.sh && npx tsx bench/node-tx-reads.ts     (TXS=3000 SENDERS=1 INFLIGHT=1 ROUNDS=3)
// NODE_HOME=<dir> keeps the chain: a later run with the same NODE_HOME measures at once.
import os from 'node:os';
import { accumulateTransfers } from '../devnet/minievm/accumulate.js';
import { latestHeight, txCount, txSearchAll } from '../devnet/minievm/node-client.js';
import { heightsPerGroup, readGroups } from '../ingest/fetch.js';
import { planTxReads, rangedTxsPath, splitRanged } from '../ingest/tx-ranges.js';
import { hashesByHeight, startHistoryNode } from './history-node.js';
import { machine } from './machine.js';

const TXS = Number(process.env.TXS ?? 3_000);
const SENDERS = Number(process.env.SENDERS ?? 1);
const WINDOW = Number(process.env.INFLIGHT ?? 1);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
/** Groups in flight: the ingest's pool (FETCH_CONCURRENCY 16 / 4). */
const IN_FLIGHT = 4;

const node = await startHistoryNode('node-tx-reads', SENDERS);
const { devnet } = node;

try {
  if ((await txCount(devnet.ep)) < TXS) await accumulateTransfers(devnet.ep, TXS, { senders: SENDERS, window: WINDOW });
  const head = await latestHeight(devnet.ep);
  const txs = await txSearchAll(devnet.ep, head);
  const hashes = hashesByHeight(txs);
  const counts = new Map([...hashes].map(([h, list]) => [h, list.length]));
  const heights = [...counts.keys()].sort((a, b) => a - b);
  const metas = new Map(heights.map((h) => [h, { numTxs: counts.get(h)! }]));
  const groups = readGroups(heights, metas, heightsPerGroup(10));
  const get = (p: string) => node.get(p, 60_000);

  const ways = {
    'per height': async (g: number[]) => {
      let bytes = 0;
      await Promise.all(
        g.map(async (h) => {
          const text = await get(`/cosmos/tx/v1beta1/txs/block/${h}?pagination.limit=100&pagination.offset=0`);
          bytes += text.length;
          const n = (JSON.parse(text) as { txs: unknown[] }).txs.length;
          if (n !== counts.get(h)) throw new Error(`height ${h}: ${n} txs, ${counts.get(h)} expected`);
        }),
      );
      return bytes;
    },
    ranged: async (g: number[]) => {
      let bytes = 0;
      await Promise.all(
        planTxReads(
          g,
          g.map((h) => counts.get(h)!),
        ).map(async (r) => {
          const text = await get(rangedTxsPath(r.from, r.to));
          bytes += text.length;
          const at = r.at.map((i) => g[i]!);
          const got = splitRanged(
            JSON.parse(text),
            at,
            at.map((h) => hashes.get(h)!),
          );
          if (typeof got === 'string') throw new Error(`${r.from}..${r.to}: ${got}`);
        }),
      );
      return bytes;
    },
  };
  console.log(
    `# ${txs.length} txs in ${heights.length} heights (of ${head}), ${groups.length} groups of up to ${heightsPerGroup(10)} heights, ${IN_FLIGHT} in flight; ${os.cpus()[0]?.model ?? '?'}`,
  );
  console.log('| round | way | wall ms | our CPU ms | node CPU ms | requests | MB read | cal. ms |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (let round = 1; round <= ROUNDS; round++) {
    const order = round % 2 === 1 ? (['per height', 'ranged'] as const) : (['ranged', 'per height'] as const);
    for (const way of order) {
      const cal = machine().cpuCalibrationMs;
      const requests =
        way === 'ranged'
          ? groups.reduce(
              (n, g) =>
                n +
                planTxReads(
                  g,
                  g.map((h) => counts.get(h)!),
                ).length,
              0,
            )
          : heights.length;
      const c0 = process.cpuUsage();
      const n0 = node.nodeCpuMs();
      const t0 = performance.now();
      let bytes = 0;
      let next = 0;
      await Promise.all(
        Array.from({ length: IN_FLIGHT }, async () => {
          while (next < groups.length) bytes += await ways[way](groups[next++]!);
        }),
      );
      const wall = performance.now() - t0;
      const cpu = process.cpuUsage(c0);
      console.log(
        `| ${round} | ${way} | ${wall.toFixed(0)} | ${((cpu.user + cpu.system) / 1000).toFixed(0)} | ${(node.nodeCpuMs() - n0).toFixed(0)} | ${requests} | ${(bytes / 1e6).toFixed(1)} | ${cal} |`,
      );
    }
  }
} finally {
  node.close();
}
