// Stream delivery benchmark (issue 30): the main job (scripts/main.ts, ROLE=all on chDB) backfills a replicated
// chain at full speed while N clients follow one of its event streams over loopback. Per event: the latency from
// the commit of the batch holding it (the ingest's `ingest.batch_written` log line, written right after the
// batch's checkpoint) to the client's receipt; per run: the backfill's blocks/s, beside the same run with no client.
// The clients are lean (receipt stamped per chunk, only event ids read) and live in this process; the chain source
// and the server each run in their own.
// Run: npx tsx bench/stream-latency.ts [clients=0,1,100,1000] [txs=40000] [txsPerBlock=100] [stream=blocks|txs]
// The runs are interleaved (each client count in turn, `ROUNDS` times, default 2), the calibration beside each.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { freePort, startMainJob } from '../test/support/main-job.js';
import { request } from 'node:http';
import { cpuCalibrationMs, machine } from './machine.js';

const clientCounts = (process.argv[2] ?? '0,1,100,1000').split(',').map(Number);
const txs = Number(process.argv[3] ?? 40_000);
const perBlock = process.argv[4] ?? '100';
const stream = (process.argv[5] ?? 'blocks') as 'blocks' | 'txs';
const rounds = Number(process.env.ROUNDS ?? 2);
const here = path.dirname(new URL(import.meta.url).pathname);

const chainProc = spawn(
  process.execPath,
  ['--import', 'tsx', path.join(here, 'ingest-chain.ts'), String(txs), perBlock, 'evm'],
  {
    stdio: ['ignore', 'pipe', 'inherit'],
  },
);
process.on('exit', () => chainProc.kill('SIGKILL'));
const chain = JSON.parse(
  await new Promise<string>((resolve) => readline.createInterface({ input: chainProc.stdout! }).once('line', resolve)),
) as { rpcUrl: string; restUrl: string; evmUrl: string; chainId: string; blocks: number };

/**
 * A lean stream client: stamps each chunk's arrival and reads only the event ids (a block's cursor holds its height),
 * so 1,000 clients in one process measure the server, not this process's JSON parsing.
 */
interface LeanClient {
  status: number;
  /** [height, receipt time] per event. */
  got: [number, number][];
  ends: number;
  close(): void;
}

function openLean(url: string): Promise<LeanClient> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { accept: 'text/event-stream' } }, (res) => {
      const c: LeanClient = { status: res.statusCode ?? 0, got: [], ends: 0, close: () => req.destroy() };
      res.setEncoding('utf8');
      let rest = '';
      res.on('data', (chunk: string) => {
        const now = Date.now();
        const text = rest + chunk;
        const cut = text.lastIndexOf('\n\n');
        if (cut === -1) {
          rest = text;
          return;
        }
        rest = text.slice(cut + 2);
        for (const block of text.slice(0, cut).split('\n\n')) {
          if (block.includes('event: end')) c.ends++;
          const m = /^id: (.+)$/m.exec(block);
          if (!m || block.includes('event: end')) continue;
          const cursor = JSON.parse(Buffer.from(m[1]!, 'base64').toString()) as { height?: number; sequence?: number };
          c.got.push([cursor.height ?? Math.floor((cursor.sequence ?? 0) / 1e6), now]);
        }
      });
      res.on('error', () => undefined);
      resolve(c);
    });
    req.on('error', reject);
    req.end();
  });
}

interface Batch {
  to: number;
  at: number;
}

function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

async function measure(clients: number) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-stream-'));
  const port = await freePort();
  const batches: Batch[] = [];
  const main = startMainJob({ ...chain, vm: 'evm' }, dataDir, port, {
    INGEST_STOP_AT_HEIGHT: String(chain.blocks),
    LOG_LEVEL: 'debug', // the ingest's batch_written lines carry the commit times
    STREAMS_MAX: String(Math.max(2000, clients + 10)),
    STREAMS_PER_CLIENT: String(Math.max(20, clients + 10)),
  });
  const job = main.child;
  readline.createInterface({ input: job.stdout! }).on('line', (line) => {
    if (!line.includes('"ingest.batch_written"')) return;
    const e = JSON.parse(line) as { ts: string; to: number };
    batches.push({ to: e.to, at: Date.parse(e.ts) });
  });
  await main.up();
  const url = `${main.base}/indexer/stream/v1/${stream}`;
  const conns: LeanClient[] = [];
  for (let i = 0; i < clients; i++) conns.push(await openLean(url));
  if (conns.some((c) => c.status !== 200)) throw new Error('a stream was refused');
  const connectedAt = Date.now();
  // A scrape resets the server's event-loop delay histogram: the one at the end covers the run from here.
  await (await fetch(`${main.base}/metrics`)).text();
  while (batches.length === 0 || batches[batches.length - 1]!.to < chain.blocks) {
    if (job.exitCode !== null) throw new Error('main job exited');
    await new Promise((r) => setTimeout(r, 50));
  }
  // the last events
  await new Promise((r) => setTimeout(r, 1500));
  // Clients connect while the backfill runs; events of batches committed before the last one connected are a
  // catch-up, not a push, and are left out.
  const latencies: number[] = [];
  let missed = 0;
  for (const c of conns) {
    for (const [h, at] of c.got) {
      const batch = batches.find((b) => b.to >= h);
      if (!batch || batch.at < connectedAt) continue; // committed before every client was connected: a catch-up
      latencies.push(at - batch.at);
    }
    missed += c.ends;
    c.close();
  }
  latencies.sort((a, b) => a - b);
  const first = batches[0]!;
  const last = batches[batches.length - 1]!;
  const blocksPerS = ((last.to - first.to) / (last.at - first.at)) * 1000;
  // The server's own share: the time to offer one tip advance to every live client (indexer_stream_fanout_seconds).
  const metricsText = await (await fetch(`${main.base}/metrics`)).text();
  const metric = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(metricsText)?.[1] ?? Number.NaN);
  const fanouts = metric('indexer_stream_fanout_seconds_count');
  const fanoutMeanMs = fanouts > 0 ? (metric('indexer_stream_fanout_seconds_sum') / fanouts) * 1000 : Number.NaN;
  await main.kill();
  rmSync(dataDir, { recursive: true, force: true });
  return {
    clients,
    stream,
    events: latencies.length,
    p50_ms: quantile(latencies, 0.5),
    p99_ms: quantile(latencies, 0.99),
    max_ms: latencies.at(-1) ?? Number.NaN,
    ended_by_server: missed,
    batches: batches.length,
    backfill_blocks_per_s: Math.round(blocksPerS),
    server_fanout_mean_ms: Math.round(fanoutMeanMs * 10) / 10,
    // How long the server's event loop was held between turns since the clients connected (prom-client's default
    // metrics: perf_hooks.monitorEventLoopDelay, reset by each scrape): a fan-out can wait that long.
    server_loop_delay_p99_ms: Math.round(metric('nodejs_eventloop_lag_p99_seconds') * 1000),
    server_loop_delay_max_ms: Math.round(metric('nodejs_eventloop_lag_max_seconds') * 1000),
  };
}

console.log(
  JSON.stringify({ bench: 'stream-latency', chain: { txs, perBlock, blocks: chain.blocks }, machine: machine() }),
);
for (let r = 0; r < rounds; r++) {
  for (const n of clientCounts) {
    const calibration = cpuCalibrationMs();
    const result = await measure(n);
    console.log(JSON.stringify({ round: r + 1, ...result, cpuCalibrationMs: calibration }));
  }
}
chainProc.kill('SIGKILL');
process.exit(0);
