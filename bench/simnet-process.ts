// Benchmark plumbing shared by the tracking benches: the simnet (L1, rollups, relayer) in its own process, driven over
// JSON lines (devnet/simnet/main.ts --control), and per-process CPU / memory from /proc.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { staticDirectory, type ChainInfo } from '../activities/chains.js';
import { createStore, type Store } from '../clickhouse/client.js';
import { createLogger } from '../platform/log.js';
import { startTracking, type Tracking } from '../tracking/index.js';
import type { WebhookSettings } from '../workflows/webhook.js';

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

/**
 * The tracking of a bench over the simnet: embedded chDB in `dataDir`, the Temporal dev server, and the chain worker
 * as a child process as `npm start` runs it (`env` adds to its environment), with timings that let every transfer
 * of a run stay in flight.
 */
export async function startBenchTracking(o: {
  dataDir: string;
  chains: ChainInfo[];
  bench: string;
  pollIntervalMs?: number;
  env?: Record<string, string>;
  webhooks?: WebhookSettings;
}): Promise<{ store: Store; tracking: Tracking }> {
  const store = createStore({ dataDir: path.join(o.dataDir, 'clickhouse') });
  const chainsFile = path.join(o.dataDir, 'chains.json');
  writeFileSync(chainsFile, JSON.stringify(o.chains));
  const tracking = await startTracking({
    config: {
      DATA_DIR: o.dataDir,
      TEMPORAL_ADDRESS: undefined,
      TEMPORAL_NAMESPACE: 'default',
      TEMPORAL_TASK_QUEUE: 'transfer-tracking',
    },
    store,
    chains: staticDirectory(o.chains),
    log: createLogger({ bench: o.bench }),
    ...(o.webhooks ? { webhooks: o.webhooks } : {}),
    chainWorkerProcess: { env: { TRACKING_CHAINS_FILE: chainsFile, LOG_LEVEL: 'warn', ...o.env } },
    timings: {
      pollIntervalMs: o.pollIntervalMs ?? 1_000,
      pollWindowMs: 20_000,
      sourceTimeoutMs: 300_000,
      ibcStallMs: 600_000,
      lzStallMs: 600_000,
      depositStallMs: 600_000,
      withdrawalStallMs: 600_000,
      lzRetryWindowMs: 60_000,
    },
  });
  return { store, tracking };
}
