// The main job's CPU with no request on a still chain: after it has indexed a small chain-sim chain, its process's
// CPU is sampled per thread (from /proc) for a while. That work is inside every request's share of CPU, so it is
// what an idle deployment costs and what a side-by-side's CPU per request carries.
// Run: npx tsx bench/idle-cpu.ts [seconds=20] [blocks=300] [KEY=VALUE ...] (the main job's extra settings);
// SETTLE_S (30) is the wait after the last block is indexed; LOAD_PATH=/indexer/... samples under load instead
// (`{height}` in it: a random height of the chain in each request, as bench/rollytics.ts's block by height).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, startMainJob } from '../test/support/main-job.js';
import { cpuCalibrationMs, machine } from './machine.js';
import { serveReplicatedChain } from './replicated-chain.js';
import { threadCpuDelta, threadCpuMs } from './side-by-side.js';
// @ts-expect-error -- autocannon ships no types; the slice we use is typed below
import autocannonUntyped from 'autocannon';

const autocannon = autocannonUntyped as (opts: Record<string, unknown>) => Promise<{
  requests: { total: number };
  non2xx: number;
  errors: number;
}>;

const seconds = Number(process.argv[2] ?? 20);
const blocks = Number(process.argv[3] ?? 300);
const extra = Object.fromEntries(process.argv.slice(4).map((kv) => kv.split('=', 2) as [string, string]));
const { proc: chainProc, ready } = serveReplicatedChain([String(blocks), '1', 'evm']);
const chain = await ready;

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-idle-'));
const port = await freePort();
const job = startMainJob({ ...chain, vm: 'evm' }, dataDir, port, extra);
await job.up();
for (;;) {
  const s = (await (await fetch(`${job.base}/status`)).json()) as { height?: number };
  if ((s.height ?? 0) >= chain.blocks) break;
  await new Promise((r) => setTimeout(r, 200));
}
// The last batch's merges and the rich list settle, and V8's memory reducer runs its major GCs (they come 5-25 s after
// the backfill's allocations stop): SETTLE_S, default 30.
await new Promise((r) => setTimeout(r, Number(process.env.SETTLE_S ?? 30) * 1000));
const calibration = cpuCalibrationMs();
const pid = job.child.pid!;
// LOAD_PATH: the same window under load instead, autocannon (its own process) at 32 connections on that path, so
// each thread's CPU is also given per 1,000 requests (where a cached hit's CPU goes in the whole main job).
const loadPath = process.env.LOAD_PATH;
const pathOf = (h: number) => (loadPath ?? '').replace('{height}', String(h));
// Every path the load asks is computed and kept first, so the window measures hits (as a warmed side-by-side row).
if (loadPath)
  for (let h = 1; h <= (loadPath.includes('{height}') ? chain.blocks : 1); h++)
    await (await fetch(`${job.base}${pathOf(h)}`)).text();
const before = threadCpuMs(pid);
let requests = 0;
const perSecond: number[] = [];
if (loadPath) {
  // In this process, not the main job's: the load's CPU is not in the figures.
  const c = await autocannon({
    url: job.base,
    connections: 32,
    duration: seconds,
    requests: [
      {
        method: 'GET',
        setupRequest: (req: Record<string, unknown>) => ({
          ...req,
          path: pathOf(1 + Math.floor(Math.random() * chain.blocks)),
        }),
      },
    ],
  });
  if (c.non2xx + c.errors > 0) throw new Error(`${c.non2xx + c.errors} requests failed`);
  requests = c.requests.total;
} else {
  // Idle: the process's CPU second by second too, so a periodic burst shows apart from the steady floor.
  let last = before;
  for (let i = 0; i < seconds; i++) {
    await new Promise((r) => setTimeout(r, 1000));
    const now = threadCpuMs(pid);
    let ms = 0;
    for (const [tid, t] of now) ms += t.ms - (last.get(tid)?.ms ?? 0);
    perSecond.push(Math.round(ms));
    last = now;
  }
}
const after = threadCpuMs(pid);
const byName = threadCpuDelta(before, after);
const byTid: [string, number][] = [];
let total = 0;
for (const [tid, { name, ms }] of after) {
  const d = ms - (before.get(tid)?.ms ?? 0);
  total += d;
  if (d > 0) byTid.push([`${name}:${Number(tid) - pid}`, d]);
}
const tenths = (x: number) => Math.round(x * 10) / 10;
const perS = (ms: number) => tenths(ms / seconds);
const per1k = (ms: number) => tenths((ms / requests) * 1000);
/** The rows that used CPU, busiest first, as name → figure (at most `n`). */
const ranked = (rows: Iterable<[string, number]>, figure: (ms: number) => number, n = Number.POSITIVE_INFINITY) =>
  Object.fromEntries(
    [...rows]
      .filter(([, ms]) => ms > 0)
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, ms]) => [k, figure(ms)]),
  );
console.log(
  JSON.stringify({
    bench: 'idle-cpu',
    machine: machine(),
    blocks: chain.blocks,
    seconds,
    settings: extra,
    cpu_ms_per_s: perS(total),
    ...(loadPath
      ? {
          load_path: loadPath,
          requests,
          req_per_s: Math.round(requests / seconds),
          // Per 1,000 requests: the whole process, then by thread name.
          cpu_ms_per_1k: per1k(total),
          by_thread_per_1k: ranked(byName, per1k),
        }
      : {}),
    ...(perSecond.length > 0 ? { ms_each_second: perSecond } : {}),
    by_thread: ranked(byName, perS),
    // The busiest threads by id relative to the process's (its main thread is +0; the ingest's worker is a `node`).
    top_threads: ranked(byTid, perS, 8),
    cpuCalibrationMs: calibration,
  }),
);
await job.kill();
rmSync(dataDir, { recursive: true, force: true });
chainProc.kill('SIGKILL');
process.exit(0);
