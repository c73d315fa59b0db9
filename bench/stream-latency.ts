// Stream delivery benchmark (issue 30): the main job (scripts/main.ts, ROLE=all on chDB) backfills a replicated
// chain at full speed while N clients follow one of its event streams over loopback. Per event: the latency from
// the commit of the batch holding it (the ingest's `ingest.batch_written` log line, written right after the
// batch's checkpoint) to the client's receipt; per run: the backfill's blocks/s, beside the same run with no client.
// The clients are lean (receipt stamped per chunk, only event ids read) and live in this process; the chain source
// and the server each run in their own.
// Run: npx tsx bench/stream-latency.ts [clients=0,1,100,1000] [txs=40000] [txsPerBlock=100] [stream=blocks|txs|accounts]
// `accounts`: each client follows a different account's tx stream (a wallet following its own), accounts no tx of
// the chain touches, so every event-free tip advance shows what a filtered list costs the server (its reads).
// The runs are interleaved (each client count in turn, `ROUNDS` times, default 2), the calibration beside each.
// INGEST_MODES=thread,main also interleaves the ingest on its own thread (INGEST_THREAD, the default) with the ingest
// on the APIs' thread; `thread:N` runs the thread at nice N (INGEST_THREAD_NICE), `thread` at the configured one.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import readline from 'node:readline';
import { freePort, startMainJob } from '../test/support/main-job.js';
import net from 'node:net';
import { cpuCalibrationMs, machine } from './machine.js';
import { serveReplicatedChain } from './replicated-chain.js';

const clientCounts = (process.argv[2] ?? '0,1,100,1000').split(',').map(Number);
const txs = Number(process.argv[3] ?? 40_000);
const perBlock = process.argv[4] ?? '100';
const stream = (process.argv[5] ?? 'blocks') as 'blocks' | 'txs' | 'accounts';
const rounds = Number(process.env.ROUNDS ?? 2);
const ingestModes = (process.env.INGEST_MODES ?? 'thread').split(',');

const { proc: chainProc, ready } = serveReplicatedChain([String(txs), perBlock, 'evm']);
const chain = await ready;

/**
 * A lean stream client: stamps each chunk's arrival and keeps it whole; the events are split and their ids (a
 * block's cursor holds its height) read after the run, so 1,000 clients in one process measure the server, not
 * this process's parsing (which, done on arrival, delayed the stamps of the sockets read after it).
 */
interface LeanClient {
  status: number;
  /** [chunk, receipt time] in arrival order. */
  chunks: [Buffer, number][];
  close(): void;
}

function openLean(url: string): Promise<LeanClient> {
  // A raw socket, not node's HTTP client: its parser and stream events cost each of the 1,000 sockets tens of µs per
  // chunk in this one process, and that queueing showed as server latency. The bytes are kept as they come (chunked
  // framing included) and read after the run.
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const chunks: [Buffer, number][] = [];
    let answered = false;
    const socket = net.connect(Number(u.port), u.hostname, () => {
      socket.setNoDelay(true);
      socket.write(`GET ${u.pathname}${u.search} HTTP/1.1\r\nHost: ${u.host}\r\nAccept: text/event-stream\r\n\r\n`);
    });
    socket.on('data', (chunk: Buffer) => {
      chunks.push([chunk, Date.now()]);
      if (answered) return;
      answered = true;
      const status = /^HTTP\/1\.1 (\d{3})/.exec(chunk.toString('latin1', 0, 16));
      resolve({ status: Number(status?.[1] ?? 0), chunks, close: () => socket.destroy() });
    });
    socket.on('error', (e) => (answered ? undefined : reject(e)));
  });
}

/**
 * A client's events as [height, receipt time of the chunk that completed it], and how many `end` events. The bytes
 * are the raw response: the headers and each chunk's size line end up before the next event's `id:` line, which is
 * matched on a line of its own (no event spans two pieces of the chunked framing: the server writes whole frames).
 */
function eventsOf(c: LeanClient): { got: [number, number][]; ends: number } {
  const got: [number, number][] = [];
  let ends = 0;
  let rest = '';
  for (const [chunk, at] of c.chunks) {
    const text = rest + chunk.toString('latin1');
    const cut = text.lastIndexOf('\n\n');
    if (cut === -1) {
      rest = text;
      continue;
    }
    rest = text.slice(cut + 2);
    for (const block of text.slice(0, cut).split('\n\n')) {
      if (block.includes('event: end')) {
        ends++;
        continue;
      }
      const m = /^id: (.+)$/m.exec(block);
      if (!m) continue;
      const cursor = JSON.parse(Buffer.from(m[1]!, 'base64').toString()) as { height?: number; sequence?: number };
      got.push([cursor.height ?? Math.floor((cursor.sequence ?? 0) / 1e6), at]);
    }
  }
  return { got, ends };
}

interface Batch {
  to: number;
  at: number;
}

function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

async function measure(clients: number, ingestMode: string) {
  const [where, nice] = ingestMode.split(':');
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-stream-'));
  const port = await freePort();
  const batches: Batch[] = [];
  const main = startMainJob({ ...chain, vm: 'evm' }, dataDir, port, {
    INGEST_STOP_AT_HEIGHT: String(chain.blocks),
    LOG_LEVEL: 'debug', // the ingest's batch_written lines carry the commit times
    INGEST_THREAD: String(where === 'thread'),
    ...(nice === undefined ? {} : { INGEST_THREAD_NICE: nice }),
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
  const urlOf = (i: number) =>
    stream === 'accounts'
      ? `${main.base}/indexer/stream/v1/txs/by_account/0x${(0xbe00000000 + i).toString(16).padStart(40, '0')}`
      : `${main.base}/indexer/stream/v1/${stream}`;
  const conns: LeanClient[] = [];
  for (let i = 0; i < clients; i++) conns.push(await openLean(urlOf(i)));
  if (conns.some((c) => c.status !== 200)) throw new Error('a stream was refused');
  const connectedAt = Date.now();
  const clientsCpu = process.cpuUsage(); // this process is the clients only (the chain and the server run apart)
  // The clients' own event-loop delay: a stamp waits that long when this process, not the server, is behind.
  const clientsLoop = monitorEventLoopDelay({ resolution: 5 });
  clientsLoop.enable();
  // A REST reader beside the streams: the first page of blocks, one request at a time every 25 ms, as a
  // dashboard's poll would be. Its latency shows what the backfill costs every other request of the server.
  const probes: number[] = [];
  let probing = true;
  const probe = (async () => {
    while (probing) {
      const t = performance.now();
      const res = await fetch(`${main.base}/indexer/block/v1/blocks?pagination.limit=10`);
      await res.text();
      if (res.ok) probes.push(performance.now() - t);
      await new Promise((r) => setTimeout(r, 25));
    }
  })();
  // A scrape resets the server's event-loop delay histogram: the one at the end covers the run from here.
  await (await fetch(`${main.base}/metrics`)).text();
  while (batches.length === 0 || batches[batches.length - 1]!.to < chain.blocks) {
    if (job.exitCode !== null) throw new Error('main job exited');
    await new Promise((r) => setTimeout(r, 50));
  }
  // the last events
  await new Promise((r) => setTimeout(r, 1500));
  probing = false;
  await probe;
  // The server's own share: the time to offer one tip advance to every live client (indexer_stream_fanout_seconds).
  // Read before the clients' events are parsed: that takes seconds on a long chain, past the server's keep-alive
  // timeout, and a pooled connection it is closing meanwhile fails the request.
  const metricsText = await (await fetch(`${main.base}/metrics`)).text();
  probes.sort((a, b) => a - b);
  if (process.env.BATCH_DETAIL)
    console.error(
      metricsText
        .split('\n')
        .filter((l) => /^(nodejs_gc_duration_seconds|indexer_stream_(fanout|read)_seconds_bucket)/.test(l))
        .join('\n'),
    );
  const cpu = process.cpuUsage(clientsCpu);
  clientsLoop.disable();
  const clientsCpuMs = Math.round((cpu.user + cpu.system) / 1000);
  const windowMs = Date.now() - connectedAt;
  // Clients connect while the backfill runs; events of batches committed before the last one connected are a
  // catch-up, not a push, and are left out.
  const latencies: number[] = [];
  // Per batch, the earliest receipt by any client: the server's part, before the clients' process spreads the rest.
  const firstByBatch = new Map<number, number>();
  // Per batch, every receipt (BATCH_DETAIL=1 prints the slowest batches: is the tail a few batches or every one?).
  const byBatch = new Map<number, number[]>();
  let missed = 0;
  for (const c of conns) {
    c.close();
    const { got, ends } = eventsOf(c);
    for (const [h, at] of got) {
      const batch = batches.find((b) => b.to >= h);
      if (!batch || batch.at < connectedAt) continue; // committed before every client was connected: a catch-up
      latencies.push(at - batch.at);
      if (process.env.BATCH_DETAIL) {
        const l = byBatch.get(batch.to) ?? [];
        l.push(at - batch.at);
        byBatch.set(batch.to, l);
      }
      firstByBatch.set(batch.to, Math.min(firstByBatch.get(batch.to) ?? Number.POSITIVE_INFINITY, at - batch.at));
    }
    missed += ends;
  }
  latencies.sort((a, b) => a - b);
  if (process.env.BATCH_DETAIL) {
    const rows = [...byBatch].map(([to, l]) => {
      l.sort((a, b) => a - b);
      return { to, first: l[0], p50: quantile(l, 0.5), max: l.at(-1), n: l.length };
    });
    rows.sort((a, b) => (b.p50 ?? 0) - (a.p50 ?? 0));
    console.error(JSON.stringify({ clients, slowest_batches: rows.slice(0, 8) }));
  }
  const firsts = [...firstByBatch.values()].sort((a, b) => a - b);
  const first = batches[0]!;
  const last = batches[batches.length - 1]!;
  const blocksPerS = ((last.to - first.to) / (last.at - first.at)) * 1000;
  // The same rate over the batches committed once every client was connected (their catch-ups are over): the
  // backfill's pace while the clients follow it.
  const following = batches.filter((b) => b.at >= connectedAt);
  const followingPerS =
    following.length > 1
      ? ((following.at(-1)!.to - following[0]!.to) / (following.at(-1)!.at - following[0]!.at)) * 1000
      : Number.NaN;
  const metric = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(metricsText)?.[1] ?? Number.NaN);
  const fanouts = metric('indexer_stream_fanout_seconds_count');
  const fanoutMeanMs = fanouts > 0 ? (metric('indexer_stream_fanout_seconds_sum') / fanouts) * 1000 : Number.NaN;
  const reads = metric('indexer_stream_read_seconds_count');
  const txReads = (from: string) =>
    Number(
      new RegExp(`^indexer_stream_reads_total\\{list="tx",from="${from}"\\} (\\S+)$`, 'm').exec(metricsText)?.[1] ?? 0,
    );
  const readMeanMs = reads > 0 ? (metric('indexer_stream_read_seconds_sum') / reads) * 1000 : Number.NaN;
  await main.kill();
  rmSync(dataDir, { recursive: true, force: true });
  return {
    clients,
    ingest: ingestMode,
    stream,
    events: latencies.length,
    p50_ms: quantile(latencies, 0.5),
    p99_ms: quantile(latencies, 0.99),
    max_ms: latencies.at(-1) ?? Number.NaN,
    first_receipt_p50_ms: quantile(firsts, 0.5),
    // The clients' own CPU over the run, on the same two cores as the server and the backfill.
    clients_cpu_share: Math.round((clientsCpuMs / windowMs) * 100) / 100,
    first_receipt_max_ms: firsts.at(-1) ?? Number.NaN,
    clients_loop_delay_p99_ms: Math.round(clientsLoop.percentile(99) / 1e6),
    ended_by_server: missed,
    batches: batches.length,
    rest_probe_p50_ms: Math.round(quantile(probes, 0.5) * 10) / 10,
    rest_probe_p99_ms: Math.round(quantile(probes, 0.99) * 10) / 10,
    backfill_blocks_per_s: Math.round(blocksPerS * 10) / 10,
    backfill_blocks_per_s_following: Math.round(followingPerS * 10) / 10,
    server_fanout_mean_ms: Math.round(fanoutMeanMs * 10) / 10,
    // The reads before it: a tip advance's new items, from the engine (its statements queue behind the ingest's).
    server_read_mean_ms: Math.round(readMeanMs * 10) / 10,
    // Tx list reads by where they came from: the engine (a statement), the committed items, or none (skipped).
    tx_reads: { engine: txReads('engine'), committed: txReads('committed'), skipped: txReads('skipped') },
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
  for (const mode of ingestModes)
    for (const n of clientCounts) {
      const calibration = cpuCalibrationMs();
      const result = await measure(n, mode);
      console.log(JSON.stringify({ round: r + 1, ...result, cpuCalibrationMs: calibration }));
    }
}
chainProc.kill('SIGKILL');
process.exit(0);
