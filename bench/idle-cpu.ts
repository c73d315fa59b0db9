// The main job's CPU with no request on a still chain: after it has indexed a small chain-sim chain, its process's
// CPU is sampled per thread (from /proc) for a while. That work is inside every request's share of CPU, so it is
// what an idle deployment costs and what a side-by-side's CPU per request carries.
// Run: npx tsx bench/idle-cpu.ts [seconds=20] [blocks=300] [KEY=VALUE ...] (the main job's extra settings);
// SETTLE_S (30) is the wait after the last block is indexed; LOAD_PATH=/indexer/... samples under load instead.
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { freePort, startMainJob } from '../test/support/main-job.js';
import { cpuCalibrationMs, machine } from './machine.js';

const seconds = Number(process.argv[2] ?? 20);
const blocks = Number(process.argv[3] ?? 300);
const extra = Object.fromEntries(process.argv.slice(4).map((kv) => kv.split('=', 2) as [string, string]));
const here = path.dirname(new URL(import.meta.url).pathname);
const chainProc = spawn(
  process.execPath,
  ['--import', 'tsx', path.join(here, 'ingest-chain.ts'), String(blocks), '1', 'evm'],
  {
    stdio: ['ignore', 'pipe', 'inherit'],
  },
);
process.on('exit', () => chainProc.kill('SIGKILL'));
const chain = JSON.parse(
  await new Promise<string>((resolve) => readline.createInterface({ input: chainProc.stdout! }).once('line', resolve)),
) as { rpcUrl: string; restUrl: string; evmUrl: string; chainId: string; blocks: number };

const TICK = 100; // clock ticks per second (USER_HZ) on Linux
/** Per thread of a process: [name, user+system ticks]. */
function threads(pid: number): Map<string, [string, number]> {
  const out = new Map<string, [string, number]>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(tid, [name, Number(f[11]) + Number(f[12])]);
    } catch {
      // the thread ended
    }
  }
  return out;
}

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
if (loadPath) await (await fetch(`${job.base}${loadPath}`)).text(); // the first request computes and keeps it
const before = threads(pid);
let requests = 0;
if (loadPath) {
  const autocannon = path.join(here, '..', 'node_modules', '.bin', 'autocannon');
  const out = await new Promise<string>((resolve, reject) =>
    execFile(
      autocannon,
      ['-j', '-c', '32', '-d', String(seconds), `${job.base}${loadPath}`],
      { maxBuffer: 1 << 24 },
      (e, stdout) => (e ? reject(e) : resolve(stdout)),
    ),
  );
  const c = JSON.parse(out) as { requests: { total: number }; non2xx: number; errors: number };
  if (c.non2xx + c.errors > 0) throw new Error(`${c.non2xx + c.errors} requests failed`);
  requests = c.requests.total;
} else await new Promise((r) => setTimeout(r, seconds * 1000));
const after = threads(pid);
const byName = new Map<string, number>();
const byTid: [string, number][] = [];
let total = 0;
for (const [tid, [name, t]] of after) {
  const d = t - (before.get(tid)?.[1] ?? 0);
  total += d;
  if (d > 0) byTid.push([`${name}:${Number(tid) - pid}`, d]);
  byName.set(name, (byName.get(name) ?? 0) + d);
}
const perS = (ticks: number) => Math.round(((ticks * 1000) / TICK / seconds) * 10) / 10;
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
          cpu_ms_per_1k: Math.round(((total * 1000) / TICK / requests) * 1000 * 10) / 10,
          by_thread_per_1k: Object.fromEntries(
            [...byName]
              .filter(([, t]) => t > 0)
              .sort((a, b) => b[1] - a[1])
              .map(([n, t]) => [n, Math.round(((t * 1000) / TICK / requests) * 1000 * 10) / 10]),
          ),
        }
      : {}),
    by_thread: Object.fromEntries(
      [...byName]
        .filter(([, t]) => t > 0)
        .sort((a, b) => b[1] - a[1])
        .map(([n, t]) => [n, perS(t)]),
    ),
    // The busiest threads by id relative to the process's (its main thread is +0; the ingest's worker is a `node`).
    top_threads: Object.fromEntries(
      byTid
        .sort((a, b) => b[1] - a[1])
        .slice(0, 8)
        .map(([n, t]) => [n, perS(t)]),
    ),
    cpuCalibrationMs: calibration,
  }),
);
await job.kill();
rmSync(dataDir, { recursive: true, force: true });
chainProc.kill('SIGKILL');
process.exit(0);
