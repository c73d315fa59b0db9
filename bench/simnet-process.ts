// Benchmark plumbing shared by the tracking benches: the simnet (L1, rollups, relayer) in its own process, driven over
// JSON lines (devnet/simnet/main.ts --control), and per-process CPU / memory from /proc.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { ChainInfo } from '../activities/chains.js';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** CPU seconds (utime + stime) and RSS of a pid from /proc. */
export function procSample(pid: number): { cpuS: number; rssMb: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return { cpuS: (Number(stat[11]) + Number(stat[12])) / 100, rssMb: (Number(stat[21]) * 4096) / 1e6 };
}

export function tsx(script: string, args: string[], env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', path.join(repo, script), ...args], {
    cwd: repo,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
}

/** The simnet in its own process, driven over JSON lines. */
export async function startSimnet(finalizationS = 240): Promise<{
  child: ChildProcess;
  chains: ChainInfo[];
  call(op: string, args?: object): Promise<unknown>;
  includedAt: Map<string, number>;
}> {
  const child = tsx('devnet/simnet/main.ts', ['--control', '--finalization-s', String(finalizationS)], {});
  const includedAt = new Map<string, number>();
  const pending = new Map<number, (v: unknown) => void>();
  let seq = 0;
  const chains = await new Promise<ChainInfo[]>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const m = JSON.parse(line) as {
        event?: string;
        chains?: ChainInfo[];
        hash?: string;
        at?: number;
        id?: number;
        result?: unknown;
        error?: string;
      };
      if (m.event === 'simnet.ready') resolve(m.chains!);
      else if (m.event === 'included') includedAt.set(m.hash!, m.at!);
      else if (m.id !== undefined) {
        pending.get(m.id)?.(m.error ? Promise.reject(new Error(m.error)) : m.result);
        pending.delete(m.id);
      }
    });
    child.once('exit', (c) => reject(new Error(`simnet exited ${c}`)));
  });
  const call = (op: string, args: object = {}) =>
    new Promise<unknown>((resolve) => {
      const id = ++seq;
      pending.set(id, resolve);
      child.stdin!.write(`${JSON.stringify({ id, op, args })}\n`);
    });
  return { child, chains, call, includedAt };
}
