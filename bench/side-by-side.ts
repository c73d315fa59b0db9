// What the two side-by-side benchmarks with rollytics share (bench/rollytics.ts: API on a devnet;
// bench/rollytics-ingest.ts: backfill of chain-sim's replicated chain): the scripts run with their stderr shown,
// process memory from /proc, rollytics' processes, and a backfill timed until an indexer's /status reaches a height.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { sleep } from '../devnet/minievm/node-client.js';
import { runScript } from '../devnet/run-script.js';

/** The value after `--name` in the command line, or `dflt`. */
export function option(args: readonly string[], name: string, dflt: string): string {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] ? (args[i + 1] as string) : dflt;
}

/** Run one of the project's bash scripts from the repository root (stderr shows live); its stdout. */
export const sh = (script: string, scriptArgs: string[], env: Record<string, string> = {}): string =>
  runScript(script, scriptArgs, env, undefined, { stderr: 'inherit', timeoutMs: 1_800_000 });

export function rssKb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

/** Clock ticks per second of /proc's CPU times. */
const ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** The fields of `/proc/<pid>/stat` after the command name, from the state (field 3 of stat(5)) on; undefined once
 * the process has ended. */
function statFields(pid: number | string): string[] | undefined {
  return readStat(`/proc/${pid}/stat`)?.fields;
}

/** A stat(5) file (a process's or a thread's): its command name and the fields after it; undefined once it has gone. */
function readStat(file: string): { name: string; fields: string[] } | undefined {
  try {
    const stat = readFileSync(file, 'utf8');
    const end = stat.lastIndexOf(')');
    return { name: stat.slice(stat.indexOf('(') + 1, end), fields: stat.slice(end + 2).split(' ') };
  } catch {
    return undefined;
  }
}

/** CPU time (user + system, ms) each thread of a process has used so far, by thread id, with the thread's name. */
export function threadCpuMs(pid: number): Map<string, { name: string; ms: number }> {
  const out = new Map<string, { name: string; ms: number }>();
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out; // the process has ended
  }
  for (const tid of tids) {
    const s = readStat(`/proc/${pid}/task/${tid}/stat`);
    if (s) out.set(tid, { name: s.name, ms: ((Number(s.fields[11]) + Number(s.fields[12])) * 1000) / ticksPerSecond });
  }
  return out;
}

/**
 * CPU (ms) each thread name used between two threadCpuMs samples, summed over the threads of that name (a thread
 * new in `after` counts from 0); `mainTid`'s thread is named `main` (the process's own JavaScript thread).
 */
export function threadCpuDelta(
  before: Map<string, { name: string; ms: number }>,
  after: Map<string, { name: string; ms: number }>,
  mainTid?: string,
): Map<string, number> {
  const byName = new Map<string, number>();
  for (const [tid, t] of after) {
    const name = tid === mainTid ? 'main' : t.name;
    byName.set(name, (byName.get(name) ?? 0) + t.ms - (before.get(tid)?.ms ?? 0));
  }
  return byName;
}

/** CPU time (user + system, ms) the processes have used so far; a process that has gone counts 0. */
export function cpuMs(pids: readonly number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    const f = statFields(pid);
    // fields 14 and 15 of stat(5): utime, stime
    if (f) ticks += Number(f[11]) + Number(f[12]);
  }
  return (ticks * 1000) / ticksPerSecond;
}

/** pid and every descendant (Postgres backends are children of the postmaster). */
export function withChildren(root: number): number[] {
  const parent = new Map<number, number>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    const f = statFields(d); // undefined: the process ended while the table was read
    if (f) parent.set(Number(d), Number(f[1])); // field 4 of stat(5): ppid
  }
  const out = [root];
  for (let i = 0; i < out.length; i++) for (const [p, pp] of parent) if (pp === out[i]) out.push(p);
  return out;
}

/** Every process of a rollytics started by devnet/rollytics/start.sh: indexer, API, Postgres and its backends. */
export function rollyticsPids(stateDir: string): number[] {
  const ids: number[] = [];
  for (const f of ['indexer.pid', 'api.pid']) {
    try {
      ids.push(Number(readFileSync(path.join(stateDir, f), 'utf8')));
    } catch {
      // not started yet
    }
  }
  try {
    const pgData = readFileSync(path.join(stateDir, 'pgdata.path'), 'utf8').trim();
    ids.push(...withChildren(Number(readFileSync(path.join(pgData, 'postmaster.pid'), 'utf8').split('\n')[0])));
  } catch {
    // not started yet, gone, or the postmaster is not readable by this user
  }
  return ids;
}

/** Why the rollytics indexer is no longer running (it panics on what it cannot read), or null while it runs. */
export function rollyticsIndexerExited(stateDir: string): string | null {
  const pid = Number(readFileSync(path.join(stateDir, 'indexer.pid'), 'utf8'));
  try {
    process.kill(pid, 0);
    return null;
  } catch {
    return `the rollytics indexer (pid ${pid}) exited; its log is in ${stateDir}`;
  }
}

async function statusHeight(base: string): Promise<number> {
  try {
    const r = await fetch(`${base}/status`, { signal: AbortSignal.timeout(5_000) });
    return r.ok ? Number(((await r.json()) as { height?: number }).height ?? 0) : 0;
  } catch {
    return 0;
  }
}

const BACKFILL_LIMIT_MS = 900_000;

/**
 * Poll `base`'s /status until it reports `height`, sampling the summed RSS of `pids()` every 200 ms. Fails
 * after 15 minutes, or at once when `exited()` names a reason.
 */
export async function backfill(
  base: string,
  height: number,
  pids: () => number[],
  t0: number,
  exited: () => string | null = () => null,
): Promise<{ seconds: number; peakRssMb: number }> {
  let peakKb = 0;
  const timer = setInterval(() => {
    peakKb = Math.max(
      peakKb,
      pids().reduce((s, p) => s + rssKb(p), 0),
    );
  }, 200);
  try {
    for (;;) {
      const h = await statusHeight(base);
      if (h >= height) break;
      const why = exited();
      if (why) throw new Error(`backfill at ${h} of ${height}: ${why}`);
      if (Date.now() - t0 > BACKFILL_LIMIT_MS)
        throw new Error(`backfill at ${h} of ${height} after 15 minutes (use a smaller chain)`);
      await sleep(100);
    }
    return { seconds: (Date.now() - t0) / 1000, peakRssMb: Math.round(peakKb / 1024) };
  } finally {
    clearInterval(timer);
  }
}
