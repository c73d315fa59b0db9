// Ingest throughput benchmark (issues 2 and 29): backfill replicated real txs from a local chain-sim source into
// embedded chDB through the real ingest path, and report blocks/s, txs/s, events/s, peak RSS and on-disk bytes.
// Run: npx tsx bench/ingest.ts [txs=1000000] [txsPerBlock=100] [kind=evm]
//      npx tsx bench/ingest.ts <blocks> 0 [kind]       a chain of empty blocks
//      npx tsx bench/ingest.ts <blocks> mixed [kind]   90 % empty, 9 % 1–10 txs, 1 % 100–150 txs
//      --floor: also read the chain without decoding or writing first, and print that rate beside ours
// Env: RPC_BATCH (1 = one height at a time), BATCH_BLOCKS, FETCH_CONCURRENCY, RANGED_TX_READS_MAX_HISTORY (as the
// main job's: ranged tx reads only on a chain of at most that many txs, 5,000 by default).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createStore } from '../clickhouse/client.js';
import { migrate } from '../clickhouse/migrate.js';
import { createIngest } from '../ingest/pipeline.js';
import { createChainSource } from '../ingest/source.js';
import { createLogger } from '../platform/log.js';
import { machine } from './machine.js';
import { withMainJobFlags } from './node-flags.js';
import { readFloor } from './read-floor.js';
import { serveReplicatedChain } from './replicated-chain.js';
import { cpuMs, threadCpuDelta, threadCpuMs } from './side-by-side.js';

await withMainJobFlags();

/** CPU (ms) between two samples by thread name, this thread as `main`; names under 1 % of the total go to `other`. */
function cpuByThreadName(
  before: Map<string, { name: string; ms: number }>,
  after: Map<string, { name: string; ms: number }>,
): Map<string, number> {
  const byName = threadCpuDelta(before, after, String(process.pid));
  const total = [...byName.values()].reduce((a, b) => a + b, 0);
  const out = new Map<string, number>();
  for (const [name, ms] of [...byName].sort((a, b) => b[1] - a[1])) {
    const key = ms >= total / 100 ? name : 'other';
    out.set(key, (out.get(key) ?? 0) + ms);
  }
  return out;
}

const count = Number(process.argv[2] ?? 1_000_000);
const perBlock = process.argv[3] ?? '100';
const kind = process.argv[4] ?? 'evm';
const rpcBatch = Number(process.env.RPC_BATCH ?? 10);
const concurrency = Number(process.env.FETCH_CONCURRENCY ?? 16);

const { proc: server, ready } = serveReplicatedChain([String(count), perBlock, kind]);
const chain = await ready;

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-ingest-'));
const store = createStore({ dataDir: path.join(dataDir, 'clickhouse') });
await migrate(store);
const source = createChainSource({
  rpcUrl: chain.rpcUrl,
  restUrl: chain.restUrl,
  evmUrl: chain.vm === 'evm' ? chain.evmUrl : undefined,
  rpcBatch,
  ...(process.env.RANGED_TX_READS_MAX_HISTORY
    ? { rangedTxReadsMaxHistory: Number(process.env.RANGED_TX_READS_MAX_HISTORY) }
    : {}),
});
const ingest = createIngest({
  store,
  source,
  vm: chain.vm,
  log: createLogger({ bench: 'ingest' }),
  batchBlocks: Number(process.env.BATCH_BLOCKS ?? 20_000),
  fetchConcurrency: concurrency,
  richListIntervalMs: 30_000,
  stopAtHeight: chain.blocks,
});

// `--floor`: first read the whole chain as the ingest does, without decoding or writing (bench/read-floor.ts).
const floorBlocksPerS = process.argv.includes('--floor')
  ? await readFloor(source, 1, chain.blocks, concurrency)
  : undefined;

const machineBefore = machine();
const vmHwm = () => Number(/VmHWM:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) * 1024;
const cpu0 = process.cpuUsage();
const sourcePids = server.pid === undefined ? [] : [server.pid];
const sourceCpuMs0 = cpuMs(sourcePids);
const threads0 = threadCpuMs(process.pid);
const t0 = process.hrtime.bigint();
// The rate once warm: from the first sample past a quarter of the chain to the end. A backfill of a year runs for
// hours, so the JIT's and the engine's warm-up of a run of seconds is not what it pays.
let warm: { at: bigint; height: number } | undefined;
const warmTimer = setInterval(() => {
  const h = ingest.indexedHeight();
  if (warm === undefined && h >= chain.blocks / 4 && h < chain.blocks)
    warm = { at: process.hrtime.bigint(), height: h };
}, 100);
await ingest.run();
const tEnd = process.hrtime.bigint();
clearInterval(warmTimer);
const secs = Number(tEnd - t0) / 1e9;
const threadCpu = cpuByThreadName(threads0, threadCpuMs(process.pid));
const warmRate = warm === undefined ? null : (chain.blocks - warm.height) / (Number(tEnd - warm.at) / 1e9);
const cpu = process.cpuUsage(cpu0);
const ingestCpuS = (cpu.user + cpu.system) / 1e6;
const sourceCpuS = (cpuMs(sourcePids) - sourceCpuMs0) / 1000;
const peakRss = vmHwm();

const [counts] = await store.rows<{ txs: string; events: string }>(
  "SELECT count() AS txs, sum(JSONLength(json, 'events')) AS events FROM tx_documents",
);
const [disk] = await store.rows<{ bytes: string }>(
  'SELECT sum(bytes_on_disk) AS bytes FROM system.parts WHERE active AND database = currentDatabase()',
);
// Where the bytes are: the largest tables, bytes on disk per tx (or per block for an empty chain).
const byTable = await store.rows<{ table: string; bytes: string }>(
  `SELECT table, sum(bytes_on_disk) AS bytes FROM system.parts WHERE active AND database = currentDatabase()
   GROUP BY table ORDER BY sum(bytes_on_disk) DESC LIMIT 8`,
);
const nTx = Number(counts!.txs);
const result = {
  machine: `${os.cpus().length} cores (${os.cpus()[0]?.model ?? '?'}), ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, load avg at end ${os.loadavg()[0]!.toFixed(1)}`,
  // The calibration loop before and after the run: compare figures only beside it.
  cpu_calibration_ms: [machineBefore.cpuCalibrationMs, machine().cpuCalibrationMs],
  kind,
  layout: perBlock,
  rpc_batch: source.rpcBatch(),
  blocks: chain.blocks,
  txs: nTx,
  events: Number(counts!.events),
  seconds: +secs.toFixed(1),
  blocks_per_s: +(chain.blocks / secs).toFixed(0),
  blocks_per_s_warm: warmRate === null ? null : +warmRate.toFixed(0),
  ...(floorBlocksPerS !== undefined
    ? {
        source_floor_blocks_per_s: +floorBlocksPerS.toFixed(0),
        share_of_floor: +(chain.blocks / secs / floorBlocksPerS).toFixed(2),
      }
    : {}),
  // CPU of every thread of this process (the ingest and the engine) and of the chain source's process, per block.
  // Both share these two cores; a deployment's node runs elsewhere, so what the ingest alone would reach on two
  // cores is 2 s of CPU a second over its own CPU per block.
  ingest_cpu_us_per_block: +((ingestCpuS / chain.blocks) * 1e6).toFixed(0),
  source_cpu_us_per_block: +((sourceCpuS / chain.blocks) * 1e6).toFixed(0),
  // The same CPU by thread: `main` (the ingest's JavaScript), `node` (V8's helpers and libuv's pool, where the
  // engine's binding runs each statement), `MergeMutate` (the engine's background merges), `ThreadPool` (its insert
  // pipelines and views); threads that ended during the run are not counted.
  ingest_cpu_us_per_block_by_thread: Object.fromEntries(
    [...threadCpu].map(([name, ms]) => [name, +((ms / chain.blocks) * 1e3).toFixed(0)]),
  ),
  ingest_alone_blocks_per_s_on_2_cores: +(2 / (ingestCpuS / chain.blocks)).toFixed(0),
  ...(nTx > 0 ? { ingest_cpu_us_per_tx: +((ingestCpuS / nTx) * 1e6).toFixed(0) } : {}),
  txs_per_s: +(nTx / secs).toFixed(0),
  events_per_s: +(Number(counts!.events) / secs).toFixed(0),
  peak_rss_mib: +(peakRss / 2 ** 20).toFixed(0),
  disk_bytes_per_tx: nTx > 0 ? +(Number(disk!.bytes) / nTx).toFixed(0) : null,
  disk_bytes_per_block: +(Number(disk!.bytes) / chain.blocks).toFixed(0),
  disk_bytes_by_table: Object.fromEntries(
    byTable.map((t) => [t.table, +(Number(t.bytes) / (nTx > 0 ? nTx : chain.blocks)).toFixed(0)]),
  ),
  // A year of a rollup (60 M blocks: one every 0.5 s) at the whole run's rate and at the warm one; meaningful for the
  // mixed layout.
  hours_for_60m_blocks: +(60e6 / (chain.blocks / secs) / 3600).toFixed(1),
  hours_for_60m_blocks_warm: warmRate === null ? null : +(60e6 / warmRate / 3600).toFixed(1),
};
console.log(JSON.stringify(result));
source.close();
await store.close();
server.kill('SIGTERM');
rmSync(dataDir, { recursive: true, force: true });
process.exit(0);
