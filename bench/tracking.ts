// Tracking benchmark (issue 5): registration throughput, N concurrent in-flight transfers to completion,
// status latency at 32 connections, detection latency, and the standalone worker's CPU / memory.
//   npx tsx bench/tracking.ts [--transfers 1000] [--poll-ms 1000]
// Everything runs on loopback: simnet chains + relayer, API, chDB and the Temporal dev server in this
// process / its child; the chain worker is a separate process (tracking/worker-main.ts) so its CPU and RSS
// are measured alone.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startHarness, terminal, type Harness } from '../test/tracking/harness.js';
import { createRouterApp } from '../api/router/app.js';
import { loadRouterRegistry } from '../routing/registry.js';
import { closeServer, listen } from '../api/http/app.js';
import { SIM, type SentTx } from '../devnet/simnet/index.js';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name: string, def: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : def;
};
const N = arg('transfers', 1000);
const POLL_MS = arg('poll-ms', 1000);

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** CPU seconds (utime + stime) and RSS of a pid from /proc. */
function procSample(pid: number): { cpuS: number; rssMb: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  const ticks = Number(stat[11]) + Number(stat[12]);
  const rssPages = Number(stat[21]);
  return { cpuS: ticks / 100, rssMb: (rssPages * 4096) / 1e6 };
}

/** autocannon in its own process (it would otherwise share the API's event loop), rotating over `paths`. */
function cannon(url: string, paths: string[], seconds: number): Promise<{ rps: number; p50Ms: number; p99Ms: number; non2xx: number; errors: number }> {
  const script = `const ac = require('autocannon'); const paths = JSON.parse(process.env.PATHS); let i = 0;
ac({ url: process.env.URL, connections: 32, duration: Number(process.env.SECS), requests: [{ method: 'GET', setupRequest: (r) => ({ ...r, path: paths[i++ % paths.length] }) }] })
  .then((r) => { process.stdout.write(JSON.stringify({ rps: Math.round(r.requests.average), p50Ms: r.latency.p50, p99Ms: r.latency.p99, non2xx: r.non2xx, errors: r.errors })); });`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', script], { cwd: repo, env: { ...process.env, URL: url, PATHS: JSON.stringify(paths), SECS: String(seconds) }, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
    child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`autocannon exited ${code}`))));
  });
}

async function startWorker(h: Harness): Promise<ChildProcess> {
  const chainsFile = path.join(h.dataDir, 'chains.json');
  writeFileSync(chainsFile, JSON.stringify(h.simnet.chainInfos()));
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(repo, 'tracking/worker-main.ts')], {
    cwd: repo, env: { ...process.env, TEMPORAL_ADDRESS: h.tracking.address, TRACKING_CHAINS_FILE: chainsFile, LOG_LEVEL: 'warn' }, stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('tracking.worker.ready')) resolve();
    });
    child.once('exit', (c) => reject(new Error(`worker exited ${c}`)));
  });
  return child;
}

async function main(): Promise<void> {
  const h = await startHarness({
    runChainWorker: false,
    timings: { pollIntervalMs: POLL_MS, pollWindowMs: 20_000, sourceTimeoutMs: 300_000, ibcStallMs: 600_000, depositStallMs: 600_000, lzStallMs: 600_000 },
    // Deliveries spread over 10-20 s so all N transfers are in flight at once.
    simnet: { delays: { recvMs: 10_000, ackMs: 5_000, depositMs: 12_000, lzMs: 12_000 } },
  });
  const worker = await startWorker(h);
  // The real router app (OpenAPI validation, metrics middleware) with the tracking routes mounted.
  const routerServer = await listen(createRouterApp({ registry: loadRouterRegistry({ ROUTER_NETWORK: 'mainnet' }), tracking: h.tracking.routes }), 0);
  const api = `http://127.0.0.1:${(routerServer.address() as { port: number }).port}`;
  const track = async (chainId: string, txHash: string) => {
    const r = await fetch(`${api}/v2/tx/track`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ chain_id: chainId, tx_hash: txHash }) });
    return { status: r.status, body: (await r.json()) as Record<string, unknown> };
  };
  const status = async (chainId: string, txHash: string) => {
    const r = await fetch(`${api}/v2/tx/status?chain_id=${chainId}&tx_hash=${txHash}`);
    return { status: r.status, body: (await r.json()) as Record<string, any> };
  };
  const report: Record<string, unknown> = { transfers: N, pollIntervalMs: POLL_MS, cpus: (await import('node:os')).cpus().length };
  try {
    // Inclusion wall-clock time of every tx, to measure detection latency.
    const includedAt = new Map<string, number>();
    for (const c of h.simnet.chains.values()) c.onBlock((b) => {
      for (const t of b.txs) {
        includedAt.set(t.hash, Date.now());
        for (const r of t.evm?.receipts ?? []) includedAt.set(r.transactionHash.toLowerCase(), Date.now());
      }
    });

    // ---- 1. registration throughput: N distinct txs, 32 concurrent clients ----
    const txs: SentTx[] = [];
    for (let i = 0; i < N; i++) {
      const k = i % 4;
      txs.push(k === 0 ? h.simnet.deposit({ l2: SIM.move }) : k === 1 ? h.simnet.lzSend() : h.simnet.ibcTransfer({ from: SIM.l1, channel: k === 2 ? 'channel-1' : 'channel-2' }));
    }
    const w0 = procSample(worker.pid!);
    const lat: number[] = [];
    let retries = 0;
    let next = 0;
    const t0 = Date.now();
    await Promise.all(Array.from({ length: 32 }, async () => {
      while (next < txs.length) {
        const tx = txs[next++]!;
        const s = performance.now();
        // Clients retry track (Skip: 10 × 1 s); a reset socket or a 503 counts as a retry here too.
        for (let attempt = 1; ; attempt++) {
          const r = await track(tx.chainId, tx.txHash).catch((e: Error) => ({ status: 0, body: { error: e.message } }));
          if (r.status === 200) break;
          retries++;
          if (attempt >= 10) throw new Error(`track ${r.status} ${JSON.stringify(r.body)}`);
          await sleep(200);
        }
        lat.push(performance.now() - s);
      }
    }));
    const regS = (Date.now() - t0) / 1000;
    await h.tracking.starter.drained();
    const startS = (Date.now() - t0) / 1000;
    report.registration = {
      requests: N, seconds: regS, perSecond: Math.round(N / regS), p50Ms: +pct(lat, 50).toFixed(1), p99Ms: +pct(lat, 99).toFixed(1), retries,
      allWorkflowsStartedAfterS: startS, workflowStartsPerSecond: Math.round(N / startS), startRetries: h.tracking.starter.stats.failures,
    };
    console.log('registration', report.registration);

    // ---- 2. status latency at 32 connections while the N transfers are in flight ----
    const paths = txs.slice(0, 200).map((t) => `/v2/tx/status?chain_id=${t.chainId}&tx_hash=${t.txHash}`);
    report.statusUnderLoad = await cannon(api, paths, 10);
    console.log('status (32 conns, transfers in flight)', report.statusUnderLoad);

    // ---- 3. all N in-flight transfers to completion; worker CPU / memory ----
    const peak = { rssMb: 0 };
    const sampler = setInterval(() => (peak.rssMb = Math.max(peak.rssMb, procSample(worker.pid!).rssMb)), 500);
    const done = new Map<string, { state: string; at: number }>();
    const end = Date.now() + 600_000;
    while (done.size < N && Date.now() < end) {
      const open = txs.filter((t) => !done.has(t.txHash)).map((t) => t.txHash);
      const rows = await h.store.rows<{ tx_hash: string; state: string }>(
        `SELECT tx_hash, argMax(state, version) AS state FROM transfer_events WHERE tx_hash IN {hs:Array(String)} GROUP BY tx_hash`, { hs: open });
      for (const r of rows) if (terminal(r)) done.set(r.tx_hash, { state: r.state, at: Date.now() });
      await sleep(1_000);
    }
    clearInterval(sampler);
    const w1 = procSample(worker.pid!);
    const completeS = (Date.now() - t0) / 1000;
    const byState: Record<string, number> = {};
    for (const d of done.values()) byState[d.state] = (byState[d.state] ?? 0) + 1;
    report.inFlight = { transfers: N, completed: done.size, byState, secondsFromFirstTrackToAllTerminal: completeS };
    report.worker = { cpuSeconds: +(w1.cpuS - w0.cpuS).toFixed(1), avgCpuPct: +((100 * (w1.cpuS - w0.cpuS)) / completeS).toFixed(1), peakRssMb: +peak.rssMb.toFixed(0) };
    console.log('in-flight', report.inFlight, 'worker', report.worker);

    // ---- 4. detection latency: final destination event → status terminal (fresh transfers, quiet system) ----
    const det: number[] = [];
    const fresh = Array.from({ length: 20 }, (_, i) => (i % 2 ? h.simnet.deposit({ l2: SIM.evm }) : h.simnet.ibcTransfer({ from: SIM.l1, channel: 'channel-1' })));
    h.simnet.relayer.delays.recvMs = 500;
    for (const tx of fresh) await track(tx.chainId, tx.txHash);
    await Promise.all(fresh.map(async (tx) => {
      const seenAt = await (async () => {
        for (;;) {
          const r = await status(tx.chainId, tx.txHash);
          if (terminal(r.body)) return { at: Date.now(), body: r.body };
          await sleep(20);
        }
      })();
      const hop = seenAt.body.transfer_sequence[0];
      const last = hop.ibc_transfer?.packet_txs.acknowledge_tx ?? hop.op_init_transfer?.txs.receive_tx;
      const inc = includedAt.get(last.tx_hash);
      if (inc) det.push(seenAt.at - inc);
    }));
    report.detectionLatency = { samples: det.length, p50Ms: pct(det, 50), maxMs: Math.max(...det), budgetMs: POLL_MS + 1000 };
    console.log('detection latency', report.detectionLatency);

    // ---- 5. status latency on a quiet system ----
    report.statusQuiet = await cannon(api, paths, 10);
    console.log('status (32 conns, quiet)', report.statusQuiet);
    report.projectionStatements = h.tracking.projection.stats;
    console.log(JSON.stringify(report, null, 2));
  } finally {
    worker.kill('SIGTERM');
    await closeServer(routerServer);
    await h.close();
  }
}

main().then(() => process.exit(0), (e) => {
  console.error(e);
  process.exit(1);
});
