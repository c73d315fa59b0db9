// Stand-in for bench/minievm-lag.ts while minitiad cannot be built here: our
// ingest's head-following lag behind the recorded minievm sample chain
// (devnet/sample-chains, served on loopback) producing empty blocks at a fixed
// interval. It measures the follow latency floor (poll + fetch + decode +
// write + /status), not the devnet's tx throughput.
//
//   npx tsx bench/minievm-lag-sample.ts            (INTERVALS=500,200 BLOCKS=40 POLL_MS=100)
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { percentile } from '../devnet/minievm/checks.js';
import { freePort, IngestProcess } from '../devnet/minievm/ingest-process.js';
import { latestHeight, type NodeEndpoints } from '../devnet/minievm/node-client.js';
import { measureStatusLag } from '../devnet/minievm/verify.js';
import { startSampleChain } from '../devnet/sample-chains/serve.js';

const INTERVALS = (process.env.INTERVALS ?? '500,200').split(',').map(Number);
const BLOCKS = Number(process.env.BLOCKS ?? '40');
const POLL_MS = process.env.POLL_MS ?? '100';

const sample = await startSampleChain('evm');
const ep: NodeEndpoints = {
  chainId: sample.chainId,
  cometRpc: sample.rpcUrl,
  rest: sample.restUrl,
  evmRpc: sample.evmUrl ?? '',
};
const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-minievm-sample-'));
const ingest = new IngestProcess({
  endpoints: ep,
  dataDir: dir,
  port: await freePort(),
  pollIntervalMs: Number(POLL_MS),
  extraEnv: { LOG_LEVEL: 'warn' },
});
const rows: string[] = [];
try {
  await ingest.start();
  await ingest.waitForHeight(await latestHeight(ep), 120_000);
  for (const interval of INTERVALS) {
    sample.chain.startProducing(interval);
    const lags = await measureStatusLag(ep, ingest.baseUrl, BLOCKS, {
      pollMs: 20,
      timeoutMs: BLOCKS * interval * 4 + 60_000,
      alive: () => ingest.running,
    });
    sample.chain.stopProducing();
    rows.push(
      `| ${interval} | ${POLL_MS} | ${lags.length} | ${percentile(lags, 50)} | ${percentile(lags, 95)} | ${Math.max(...lags)} |`,
    );
    process.stderr.write(`${rows[rows.length - 1]}\n`);
  }
} finally {
  sample.chain.stopProducing();
  await ingest.stop();
  await sample.stop();
  rmSync(dir, { recursive: true, force: true });
}
console.log('| block interval (ms) | POLL_INTERVAL_MS | blocks | lag p50 (ms) | lag p95 (ms) | lag max (ms) |');
console.log('|---|---|---|---|---|---|');
for (const r of rows) console.log(r);
