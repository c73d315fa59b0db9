// Tracking benchmark (issue 5): sustained registration rate, N concurrent in-flight transfers to completion,
// status latency at 32 connections, detection latency, and the standalone worker's CPU / memory.
//   npx tsx bench/tracking.ts [--transfers 1000] [--rate 100] [--poll-ms 1000]
//   npx tsx bench/tracking.ts --withdrawals [--transfers 1000] [--finalization-s 240]   (issue 27)
// The second form tracks N OPinit withdrawals only, all sitting in their finalization wait at once (every one
// covered by an output, its durable timer set for claimable_at): the chain worker's CPU and memory during the wait,
// status p50/p99 at 32 connections meanwhile, then the claims (the simnet claims each one as it becomes claimable).
// Processes (all on loopback): this one = the main job (router app with the tracking routes, projection worker,
// embedded chDB, Temporal dev server child); the chain worker (tracking/worker-main.ts, a child process started
// by startTracking as `npm start` does since issue 14); the simnet chains + relayer (devnet/simnet/main.ts
// --control); autocannon.
// The end prints the machine, the load average, status p50/p99 quiet and in flight, and per status phase the CPU
// of each process and the main job's event-loop delay.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Store } from '../clickhouse/client.js';
import { createRouterApp } from '../api/router/app.js';
import { createTrackingRoutes } from '../api/router/tracking/index.js';
import { loadRouterRegistry } from '../routing/registry.js';
import { closeServer, listen } from '../api/http/app.js';
import type { Tracking } from '../tracking/index.js';
import { SIM, type SentTx } from '../devnet/simnet/index.js';
import { cpuCalibrationMs } from './machine.js';
import { procSample, startBenchTracking, startSimnet } from './simnet-process.js';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name: string, def: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : def;
};
const N = arg('transfers', 1000);
const POLL_MS = arg('poll-ms', 1000);
const RATE = arg('rate', 100);
const WITHDRAWALS = process.argv.includes('--withdrawals');
const FINALIZATION_S = arg('finalization-s', 240);
const TERMINAL = new Set(['STATE_COMPLETED_SUCCESS', 'STATE_COMPLETED_ERROR', 'STATE_ABANDONED']);

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const load1 = () => +loadavg()[0]!.toFixed(2);

/**
 * While `run` lasts: the main job's event-loop delay (p50/p99/max ms, timer lateness at 1 ms resolution), chDB
 * statements of the projection, and the CPU (% of one core) of each process of the set-up, to see where a status
 * request's time goes (the 2 cores are shared by all of them).
 */
async function measured<T>(
  projection: { stats: { inserts: number; selects: number; flushes: number; flushMs: number } },
  pids: Record<string, number | undefined>,
  run: () => Promise<T>,
): Promise<{
  result: T;
  eventLoopDelayMs: Record<string, number>;
  chdb: Record<string, number>;
  cpuPct: Record<string, number>;
  gcMs: Record<string, number>;
  load: string;
}> {
  const h = monitorEventLoopDelay({ resolution: 1 });
  const gcs: number[] = [];
  const gcObs = new PerformanceObserver((l) => {
    for (const e of l.getEntries()) gcs.push(e.duration);
  });
  gcObs.observe({ entryTypes: ['gc'] });
  const s0 = { ...projection.stats };
  const l0 = load1();
  const cpu = () =>
    Object.fromEntries(
      Object.entries(pids).map(([k, pid]) => {
        try {
          return [k, pid ? procSample(pid).cpuS : Number.NaN];
        } catch {
          return [k, Number.NaN];
        }
      }),
    );
  const c0 = cpu();
  const t0 = performance.now();
  h.enable();
  const result = await run();
  h.disable();
  gcObs.disconnect();
  const c1 = cpu();
  const secs = (performance.now() - t0) / 1000;
  const ms = (ns: number) => +Math.max(0, ns / 1e6 - 1).toFixed(1);
  return {
    result,
    eventLoopDelayMs: { p50: ms(h.percentile(50)), p99: ms(h.percentile(99)), max: ms(h.max) },
    gcMs: {
      pauses: gcs.length,
      total: Math.round(gcs.reduce((a, b) => a + b, 0)),
      max: +Math.max(0, ...gcs).toFixed(1),
    },
    cpuPct: Object.fromEntries(
      Object.keys(pids).map((k) => [k, Math.round((100 * ((c1[k] ?? 0) - (c0[k] ?? 0))) / secs)]),
    ),
    chdb: {
      inserts: projection.stats.inserts - s0.inserts,
      selects: projection.stats.selects - s0.selects,
      flushMs: projection.stats.flushMs - s0.flushMs,
    },
    load: `${l0} → ${load1()}`,
  };
}

/** autocannon in its own process, rotating over `paths`. */
function cannon(
  url: string,
  paths: string[],
  seconds: number,
  rate = 0,
): Promise<{ rps: number; p50Ms: number; p99Ms: number; non2xx: number; errors: number }> {
  const script = `const ac = require('autocannon'); const paths = JSON.parse(process.env.PATHS); let i = 0;
ac({ url: process.env.URL, connections: 32, duration: Number(process.env.SECS), ...(Number(process.env.RATE) ? { overallRate: Number(process.env.RATE) } : {}), requests: [{ method: 'GET', setupRequest: (r) => ({ ...r, path: paths[i++ % paths.length] }) }] })
  .then((r) => { process.stdout.write(JSON.stringify({ rps: Math.round(r.requests.average), p50Ms: r.latency.p50, p99Ms: r.latency.p99, non2xx: r.non2xx, errors: r.errors })); });`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', script], {
      cwd: repo,
      env: { ...process.env, URL: url, PATHS: JSON.stringify(paths), SECS: String(seconds), RATE: String(rate) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
    child.once('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`autocannon exited ${code}`)),
    );
  });
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tracking-bench-'));
  const sim = await startSimnet(FINALIZATION_S);
  // Deliveries 10-20 s after the send, so all N transfers are in flight at once; withdrawals: an output 5 s after
  // each, then the finalization wait, and the claim 2 s after it ends.
  await sim.call(
    'setDelays',
    WITHDRAWALS
      ? { outputMs: 5_000, claimMs: 2_000 }
      : { recvMs: 10_000, ackMs: 5_000, depositMs: 12_000, lzMs: 12_000 },
  );
  // The chain worker as `npm start` runs it: a child process (tracking/worker-main.ts) of this main job.
  const { store, tracking } = await startBenchTracking({
    dataDir,
    chains: sim.chains,
    bench: 'tracking',
    pollIntervalMs: POLL_MS,
  });
  const workerPid = () => tracking.chainWorker!.pid!;
  const server = await listen(
    createRouterApp({
      registry: loadRouterRegistry({ ROUTER_NETWORK: 'mainnet' }),
      tracking: createTrackingRoutes(tracking.service),
      // The load stands for many wallets; from one loopback address the per-client limit would answer 429.
      clientLimits: { perMinute: 0, burst: 0 },
    }),
    0,
  );
  const api = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const track = async (tx: SentTx) => {
    const r = await fetch(`${api}/v2/tx/track`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ chain_id: tx.chainId, tx_hash: tx.txHash }),
    });
    await r.arrayBuffer();
    return r.status;
  };
  const status = async (tx: SentTx) =>
    (await (await fetch(`${api}/v2/tx/status?chain_id=${tx.chainId}&tx_hash=${tx.txHash}`)).json()) as Record<
      string,
      any
    >;
  const machine = `${cpus().length} × ${cpus()[0]?.model.trim()}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
  // CPU per process during the status phases (autocannon is a child of its own; not listed).
  const pids = {
    mainJob: process.pid,
    chainWorker: workerPid(),
    temporalDevServer: tracking.devServer?.process.pid,
    simnet: sim.child.pid,
  };
  const report: Record<string, unknown> = { transfers: N, pollIntervalMs: POLL_MS, machine, loadAtStart: load1() };
  console.log(`machine: ${machine}; load average (1 min) at start ${load1()}`);
  try {
    const ctx: BenchContext = { sim, store, tracking, api, track, status, pids, workerPid, report, machine };
    if (WITHDRAWALS) {
      await withdrawalsInFlight(ctx);
      return;
    }
    // ---- 1. registration: open loop at RATE track requests/s over N distinct txs ----
    const txs: SentTx[] = [];
    for (let i = 0; i < N; i++) {
      const k = i % 4;
      const op =
        k === 0
          ? ['deposit', { l2: SIM.move }]
          : k === 1
            ? ['lzSend', {}]
            : ['ibcTransfer', { from: SIM.l1, channel: k === 2 ? 'channel-1' : 'channel-2' }];
      txs.push((await sim.call(op[0] as string, op[1] as object)) as SentTx);
    }
    const w0 = procSample(workerPid());
    const { t0, latMs: lat, retries, requestSeconds: regS, startedSeconds: startS } = await registerAll(ctx, txs);
    report.registration = {
      offeredPerSecond: RATE,
      requests: N,
      seconds: regS,
      achievedPerSecond: Math.round(N / regS),
      p50Ms: +pct(lat, 50).toFixed(1),
      p99Ms: +pct(lat, 99).toFixed(1),
      retries,
      allWorkflowsStartedAfterS: startS,
      workflowStartsPerSecond: Math.round(N / startS),
    };
    console.log('registration', report.registration);

    // ---- 2. status at 32 connections while the N transfers are in flight ----
    const paths = txs.slice(0, 200).map((t) => `/v2/tx/status?chain_id=${t.chainId}&tx_hash=${t.txHash}`);
    const inFlightStatus = await measured(tracking.projection, pids, () => cannon(api, paths, 10));
    report.statusUnderLoad = {
      ...inFlightStatus.result,
      eventLoopDelayMs: inFlightStatus.eventLoopDelayMs,
      chdb: inFlightStatus.chdb,
      cpuPct: inFlightStatus.cpuPct,
      gcMs: inFlightStatus.gcMs,
      load: inFlightStatus.load,
    };
    console.log('status (32 conns, transfers in flight)', report.statusUnderLoad);

    // ---- 3. all N in flight to completion; worker CPU / memory ----
    const peak = { rssMb: 0 };
    const sampler = setInterval(() => (peak.rssMb = Math.max(peak.rssMb, procSample(workerPid()).rssMb)), 500);
    const done = await untilTerminal(store, txs, Date.now() + 600_000);
    clearInterval(sampler);
    const w1 = procSample(workerPid());
    const completeS = (Date.now() - t0) / 1000;
    const byState: Record<string, number> = {};
    for (const st of done.values()) byState[st] = (byState[st] ?? 0) + 1;
    report.inFlight = { transfers: N, completed: done.size, byState, secondsFromFirstTrackToAllTerminal: completeS };
    report.worker = {
      cpuSeconds: +(w1.cpuS - w0.cpuS).toFixed(1),
      avgCpuPct: +((100 * (w1.cpuS - w0.cpuS)) / completeS).toFixed(1),
      peakRssMb: +peak.rssMb.toFixed(0),
    };
    console.log('in-flight', report.inFlight, 'worker', report.worker);

    // ---- 4. detection latency: final destination event included → status terminal (quiet system) ----
    await sim.call('setDelays', { recvMs: 500, ackMs: 500, depositMs: 500 });
    const fresh: SentTx[] = [];
    for (let i = 0; i < 20; i++)
      fresh.push(
        (await sim.call(
          i % 2 ? 'deposit' : 'ibcTransfer',
          i % 2 ? { l2: SIM.evm } : { from: SIM.l1, channel: 'channel-1' },
        )) as SentTx,
      );
    for (const tx of fresh) await track(tx);
    const det: number[] = [];
    await Promise.all(
      fresh.map(async (tx) => {
        for (;;) {
          const b = await status(tx);
          if (TERMINAL.has(b.state)) {
            const at = Date.now();
            const hop = b.transfer_sequence[0];
            const last = hop.ibc_transfer?.packet_txs.acknowledge_tx ?? hop.op_init_transfer?.txs.receive_tx;
            const inc = sim.includedAt.get(last.tx_hash);
            if (inc) det.push(at - inc);
            if (inc && process.env.BENCH_DEBUG) {
              const h = await tracking.client.client.workflow
                .getHandle(`transfer:${tx.chainId}:${tx.txHash}`)
                .fetchHistory();
              const ev = (h.events ?? [])
                .slice(-14)
                .map(
                  (e) =>
                    `${String(e.eventType).replace('EVENT_TYPE_', '')}@${Number(e.eventTime!.seconds) * 1000 + Math.round(e.eventTime!.nanos! / 1e6) - inc}`,
                );
              console.log('detect', hop.ibc_transfer ? 'ibc' : 'deposit', at - inc, ev.join(' '));
            }
            return;
          }
          // 100 ms: fine enough to resolve a 2 s budget without the measuring clients loading the API themselves.
          await sleep(100);
        }
      }),
    );
    report.detectionLatency = {
      samples: det.length,
      p50Ms: pct(det, 50),
      maxMs: Math.max(...det),
      budgetMs: POLL_MS + 1000,
    };
    console.log('detection latency', report.detectionLatency);

    // ---- 5. status at 32 connections on a quiet system ----
    const quietStatus = await measured(tracking.projection, pids, () => cannon(api, paths, 10));
    report.statusQuiet = {
      ...quietStatus.result,
      eventLoopDelayMs: quietStatus.eventLoopDelayMs,
      chdb: quietStatus.chdb,
      cpuPct: quietStatus.cpuPct,
      gcMs: quietStatus.gcMs,
      load: quietStatus.load,
    };
    console.log('status (32 conns, quiet)', report.statusQuiet);
    report.projection = tracking.projection.stats;
    report.loadAtEnd = load1();
    console.log(JSON.stringify(report, null, 2));
    const q = report.statusQuiet as { p50Ms: number; p99Ms: number; rps: number };
    const f = report.statusUnderLoad as { p50Ms: number; p99Ms: number; rps: number };
    const d = report.detectionLatency as { p50Ms: number; maxMs: number; budgetMs: number };
    console.log(
      [
        '',
        `machine: ${machine}`,
        `load average (1 min): ${report.loadAtStart} at start → ${report.loadAtEnd} at end`,
        `status p50 / p99 (32 conns): quiet ${q.p50Ms} / ${q.p99Ms} ms (${q.rps} req/s); ` +
          `in flight ${f.p50Ms} / ${f.p99Ms} ms (${f.rps} req/s); target p99 < 20 ms`,
        `  in flight: CPU % of a core ${JSON.stringify((report.statusUnderLoad as { cpuPct: object }).cpuPct)}, ` +
          `main event-loop delay ${JSON.stringify((report.statusUnderLoad as { eventLoopDelayMs: object }).eventLoopDelayMs)} ms, ` +
          `GC ${JSON.stringify((report.statusUnderLoad as { gcMs: object }).gcMs)} ms`,
        `detection p50 / max: ${d.p50Ms} / ${d.maxMs} ms (budget ${d.budgetMs} ms)`,
      ].join('\n'),
    );
  } finally {
    sim.child.kill('SIGTERM');
    await closeServer(server);
    await tracking.stop();
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

interface BenchContext {
  sim: Awaited<ReturnType<typeof startSimnet>>;
  store: Store;
  tracking: Tracking;
  api: string;
  track: (tx: SentTx) => Promise<number>;
  status: (tx: SentTx) => Promise<Record<string, any>>;
  pids: Record<string, number | undefined>;
  workerPid: () => number;
  report: Record<string, unknown>;
  machine: string;
}

/**
 * Track `txs`, RATE registrations a second (an open loop), each retried as clients do (Skip: 10 × 1 s); then wait
 * until every workflow has started. Times from the first registration; latencies per request, retries included.
 */
async function registerAll(
  c: BenchContext,
  txs: SentTx[],
): Promise<{ t0: number; requestSeconds: number; startedSeconds: number; retries: number; latMs: number[] }> {
  const t0 = Date.now();
  const latMs: number[] = [];
  let retries = 0;
  await Promise.all(
    txs.map(async (tx, i) => {
      await sleep(Math.max(0, t0 + (i * 1000) / RATE - Date.now()));
      const s = performance.now();
      for (let attempt = 1; ; attempt++) {
        const st = await c.track(tx).catch(() => 0);
        if (st === 200) break;
        retries++;
        if (attempt >= 10) throw new Error(`track failed with ${st}`);
        await sleep(200);
      }
      latMs.push(performance.now() - s);
    }),
  );
  const requestSeconds = (Date.now() - t0) / 1000;
  await c.tracking.starter.drained();
  return { t0, requestSeconds, startedSeconds: (Date.now() - t0) / 1000, retries, latMs };
}

/** Polls the projection until every one of `txs` is terminal (or `deadline`, epoch ms); tx hash → final state. */
async function untilTerminal(store: Store, txs: SentTx[], deadline: number): Promise<Map<string, string>> {
  const done = new Map<string, string>();
  while (done.size < txs.length && Date.now() < deadline) {
    const open = txs.filter((t) => !done.has(t.txHash)).map((t) => t.txHash);
    const rows = await store.rows<{ tx_hash: string; state: string }>(
      `SELECT tx_hash, argMax(state, version) AS state FROM transfer_events WHERE tx_hash IN {hs:Array(String)} GROUP BY tx_hash`,
      { hs: open },
    );
    for (const r of rows) if (TERMINAL.has(r.state)) done.set(r.tx_hash, r.state);
    await sleep(1_000);
  }
  return done;
}

/** CPU seconds and RSS (MB) of every process of the set-up. */
const sampleAll = (pids: Record<string, number | undefined>) =>
  Object.fromEntries(Object.entries(pids).map(([k, pid]) => [k, pid ? procSample(pid) : { cpuS: NaN, rssMb: NaN }]));

/**
 * Issue 27: N withdrawals through their finalization wait at once. Waits until every one is covered by an output
 * (phase `output_proposed`, its durable timer set for claimable_at), then measures a 30 s window of the wait (CPU %
 * of a core and RSS per process), status at 32 connections over all N, and finally the claims to completion.
 */
async function withdrawalsInFlight(c: BenchContext): Promise<void> {
  const calibrationStartMs = cpuCalibrationMs();
  const idle = sampleAll(c.pids);
  const txs: SentTx[] = [];
  for (let i = 0; i < N; i++) txs.push((await c.sim.call('withdraw', { l2: i % 2 ? SIM.evm : SIM.move })) as SentTx);
  const { t0, startedSeconds, retries } = await registerAll(c, txs);
  const registration = { seconds: startedSeconds, retries };
  console.log('registration', registration);

  // Every withdrawal covered and waiting: read back through the API, 50 requests at a time.
  const phases = async () => {
    const counts: Record<string, number> = {};
    let firstClaimableMs = Number.POSITIVE_INFINITY;
    for (let i = 0; i < txs.length; i += 50)
      await Promise.all(
        txs.slice(i, i + 50).map(async (tx) => {
          const op = (await c.status(tx)).transfer_sequence?.[0]?.op_init_transfer;
          const phase = String(op?.phase ?? 'none');
          counts[phase] = (counts[phase] ?? 0) + 1;
          if (op?.claimable_at) firstClaimableMs = Math.min(firstClaimableMs, Date.parse(op.claimable_at));
        }),
      );
    return { counts, firstClaimableMs };
  };
  let p = await phases();
  while ((p.counts.output_proposed ?? 0) < N) {
    if (Date.now() - t0 > (FINALIZATION_S * 1000) / 2)
      throw new Error(`not all withdrawals waiting by half the finalization period: ${JSON.stringify(p.counts)}`);
    await sleep(2_000);
    p = await phases();
  }
  const coveredAfterS = (Date.now() - t0) / 1000;
  console.log(`all ${N} covered by an output and waiting after ${coveredAfterS} s`, p.counts);

  // 30 s of the wait, nothing asked of the API.
  const w0 = sampleAll(c.pids);
  const peakRss: Record<string, number> = {};
  const peak = setInterval(() => {
    for (const [k, v] of Object.entries(sampleAll(c.pids))) peakRss[k] = Math.max(peakRss[k] ?? 0, v.rssMb);
  }, 1_000);
  await sleep(30_000);
  const w1 = sampleAll(c.pids);
  const wait = Object.fromEntries(
    Object.keys(c.pids).map((k) => [
      k,
      {
        cpuPct: +((100 * (w1[k]!.cpuS - w0[k]!.cpuS)) / 30).toFixed(1),
        rssMb: Math.round(w1[k]!.rssMb),
        rssIdleMb: Math.round(idle[k]!.rssMb),
      },
    ]),
  );
  console.log('the wait (30 s): CPU % of a core, RSS now and before the withdrawals', wait);

  // Status at 32 connections over all N during the wait.
  const paths = txs.map((t) => `/v2/tx/status?chain_id=${t.chainId}&tx_hash=${t.txHash}`);
  const st = await measured(c.tracking.projection, c.pids, () => cannon(c.api, paths, 10));
  const stillWaiting = Date.now() < p.firstClaimableMs;
  console.log('status (32 conns, all waiting)', st.result, 'cpu', st.cpuPct, 'still in the wait:', stillWaiting);
  if (!stillWaiting) throw new Error('the finalization period ended during the measurement: raise --finalization-s');

  // The claims: all terminal.
  const done = await untilTerminal(c.store, txs, Date.now() + FINALIZATION_S * 1000 + 600_000);
  clearInterval(peak);
  const all = sampleAll(c.pids);
  const byState: Record<string, number> = {};
  for (const v of done.values()) byState[v] = (byState[v] ?? 0) + 1;
  const calibrationEndMs = cpuCalibrationMs();
  const totalS = (Date.now() - t0) / 1000;
  Object.assign(c.report, {
    scenario: 'withdrawals',
    finalizationS: FINALIZATION_S,
    registration,
    coveredAfterS,
    wait,
    peakRssMb: Object.fromEntries(Object.entries(peakRss).map(([k, v]) => [k, Math.round(v)])),
    statusDuringWait: { ...st.result, cpuPct: st.cpuPct, eventLoopDelayMs: st.eventLoopDelayMs, load: st.load },
    completion: { completed: done.size, byState, secondsFromFirstTrack: totalS },
    cpuSecondsWholeRun: Object.fromEntries(
      Object.keys(c.pids).map((k) => [k, +(all[k]!.cpuS - idle[k]!.cpuS).toFixed(1)]),
    ),
    cpuCalibrationMs: { start: calibrationStartMs, end: calibrationEndMs },
  });
  console.log(JSON.stringify(c.report, null, 2));
  console.log(
    [
      '',
      `machine: ${c.machine}; CPU calibration loop ${calibrationStartMs} ms at start, ${calibrationEndMs} ms at end`,
      `${N} withdrawals, finalization ${FINALIZATION_S} s: all covered and waiting ${coveredAfterS} s after the first track`,
      `the wait: chain worker ${wait.chainWorker!.cpuPct} % of a core, RSS ${wait.chainWorker!.rssMb} MB ` +
        `(${wait.chainWorker!.rssIdleMb} MB before); main job ${wait.mainJob!.cpuPct} %, RSS ${wait.mainJob!.rssMb} MB ` +
        `(${wait.mainJob!.rssIdleMb} MB); Temporal dev server ${wait.temporalDevServer!.cpuPct} %, RSS ${wait.temporalDevServer!.rssMb} MB`,
      `status p50 / p99 (32 conns, all ${N} waiting): ${st.result.p50Ms} / ${st.result.p99Ms} ms (${st.result.rps} req/s, non-2xx ${st.result.non2xx})`,
      `completed ${done.size}/${N} ${JSON.stringify(byState)} ${totalS} s after the first track`,
    ].join('\n'),
  );
  if (done.size < N) throw new Error(`only ${done.size} of ${N} withdrawals completed`);
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
