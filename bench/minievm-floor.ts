// Backfill from a real minievm node against the node's own floor (issue 29). Starts a devnet with a short block
// interval, lets it make BLOCKS blocks (default 100,000; empty ones, as most of a rollup's are), restarts it
// without empty blocks so its head stands still, then on the same quiet node: (1) the floor, the ingest's reads of
// the whole range with no decode and no write (bench/read-floor.ts), (2) our ingest of the range into a fresh
// embedded chDB, the real pipeline in this process. Prints both rates, their ratio and the calibration loop.
//   bash devnet/minievm/build.sh && npx tsx bench/minievm-floor.ts       (BLOCKS=100000 BLOCK_INTERVAL=5ms)
// The node's sequencer proposes at most every 50 ms (minitia's CometBFT fork, `proposeInterval`), so 100,000 blocks
// take ~85 minutes to make. NODE_HOME=<dir> keeps the chain there: `--build-only` makes (or extends) it to BLOCKS
// and stops, which can run while the machine does other work; a later run with the same NODE_HOME finds the
// blocks made and measures at once, on a quiet machine.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createStore } from '../clickhouse/client.js';
import { migrate } from '../clickhouse/migrate.js';
import { startDevnet } from '../devnet/minievm/devnet-process.js';
import { latestHeight, sleep } from '../devnet/minievm/node-client.js';
import { createIngest } from '../ingest/pipeline.js';
import { createChainSource } from '../ingest/source.js';
import { createLogger } from '../platform/log.js';
import { machine } from './machine.js';
import { withMainJobFlags } from './node-flags.js';
import { readFloor } from './read-floor.js';

await withMainJobFlags();

const BLOCKS = Number(process.env.BLOCKS ?? 100_000);
const INTERVAL = process.env.BLOCK_INTERVAL ?? '5ms';
const CONCURRENCY = Number(process.env.FETCH_CONCURRENCY ?? 16);
const BUILD_ONLY = process.argv.includes('--build-only');
if (BUILD_ONLY && !process.env.NODE_HOME) throw new Error('--build-only keeps the chain in NODE_HOME: set it');
const tmp = mkdtempSync(path.join(os.tmpdir(), 'minievm-floor-'));
const home = process.env.NODE_HOME ? path.resolve(process.env.NODE_HOME) : path.join(tmp, 'node');
const log = createLogger({ bench: 'minievm-floor' });

const made = existsSync(path.join(home, 'config', 'genesis.json'));
let devnet = await startDevnet(home, {
  TIMEOUT_COMMIT: '1ms',
  BLOCK_INTERVAL: INTERVAL,
  ...(made ? { RESUME: '1' } : {}),
});
try {
  const t0 = Date.now();
  for (let h = await latestHeight(devnet.ep); h < BLOCKS; h = await latestHeight(devnet.ep)) {
    await sleep(5000);
    process.stderr.write(`[minievm-floor] height ${h} of ${BLOCKS} after ${Math.round((Date.now() - t0) / 1000)} s\n`);
  }
  devnet.stop();
  if (BUILD_ONLY) {
    rmSync(tmp, { recursive: true, force: true });
    process.exit(0);
  }
  devnet = await startDevnet(home, { RESUME: '1', EMPTY_BLOCKS: 'false', TIMEOUT_COMMIT: '1ms' });
  const head = await latestHeight(devnet.ep);
  const source = createChainSource({
    rpcUrl: devnet.ep.cometRpc,
    restUrl: devnet.ep.rest,
    evmUrl: devnet.ep.evmRpc,
    rpcBatch: Number(process.env.RPC_BATCH ?? 10),
  });
  const cal0 = machine().cpuCalibrationMs;
  const floor = await readFloor(source, 1, head, CONCURRENCY);
  const cal1 = machine().cpuCalibrationMs;
  const store = createStore({ dataDir: path.join(tmp, 'clickhouse') });
  await migrate(store);
  const ingest = createIngest({
    store,
    source,
    vm: 'evm',
    log,
    fetchConcurrency: CONCURRENCY,
    stopAtHeight: head,
    richListIntervalMs: 30_000,
  });
  const t1 = process.hrtime.bigint();
  await ingest.run();
  const secs = Number(process.hrtime.bigint() - t1) / 1e9;
  const ours = head / secs;
  console.log(
    JSON.stringify({
      machine: `${os.cpus().length} cores (${os.cpus()[0]?.model ?? '?'}), load avg at end ${os.loadavg()[0]!.toFixed(1)}`,
      cpu_calibration_ms: [cal0, cal1, machine().cpuCalibrationMs],
      node: 'minievm v1.2.18',
      blocks: head,
      rpc_batch: source.rpcBatch(),
      floor_blocks_per_s: +floor.toFixed(0),
      ours_blocks_per_s: +ours.toFixed(0),
      ours_share_of_floor: +(ours / floor).toFixed(2),
    }),
  );
  source.close();
  await store.close();
} finally {
  devnet.stop();
  rmSync(tmp, { recursive: true, force: true });
}
process.exit(0);
