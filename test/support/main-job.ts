// The main job (scripts/main.ts, ROLE=all on chDB: the ingest and the indexer API in one process) over a served
// sample chain, as a child process that tests can SIGKILL and restart on the same data directory.
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { MAIN_JOB_NODE_FLAGS } from '../../platform/node-flags.js';
import type { SampleChain } from './sample.js';

const root = path.resolve(import.meta.dirname, '..', '..');

export async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

/** What the main job needs to know of a served chain. */
export interface ChainEndpoints {
  chainId: string;
  vm: string;
  rpcUrl: string;
  restUrl: string;
  evmUrl?: string;
}

/** The main job's environment for a served chain. */
export const chainEnv = (chain: ChainEndpoints): Record<string, string> => ({
  CHAIN_ID: chain.chainId,
  VM: chain.vm,
  COMETBFT_RPC_URL: chain.rpcUrl,
  COSMOS_REST_URL: chain.restUrl,
  ...(chain.evmUrl ? { EVM_JSONRPC_URL: chain.evmUrl } : {}),
});

/** Small, slow batches, one height at a time: a backfill of a sample chain that takes seconds on a slowed node. */
export const smallBatches = (chain: SampleChain): Record<string, string> => ({
  BATCH_BLOCKS: '2',
  FETCH_CONCURRENCY: '1',
  RPC_BATCH: '1',
  POLL_INTERVAL_MS: '50',
  RICHLIST_INTERVAL_MS: '0',
  INGEST_STOP_AT_HEIGHT: String(chain.manifest.latestHeight),
});

export interface MainJob {
  child: ChildProcess;
  base: string;
  /** stdout and stderr so far. */
  out(): string;
  /** Resolves once /health answers (throws with the job's output if it exits first). */
  up(): Promise<void>;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** Start the main job (indexer and ingest, no router) over `chain`; `env` adds to or overrides its settings. */
export function startMainJob(
  chain: ChainEndpoints,
  dataDir: string,
  port: number,
  env: Record<string, string> = {},
): MainJob {
  let out = '';
  // Under the launchers' Node flags: the benches that start it (bench/stream-latency.ts) measure the main job as run.
  const child = spawn(process.execPath, [...MAIN_JOB_NODE_FLAGS, '--import', 'tsx', 'scripts/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      ROLE: 'all',
      DATA_DIR: dataDir,
      ...chainEnv(chain),
      INDEXER_PORT: String(port),
      HTTP_HOST: '127.0.0.1',
      ROUTER_ENABLED: 'false',
      TRACKING_ENABLED: 'false',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const base = `http://127.0.0.1:${port}`;
  return {
    child,
    base,
    out: () => out,
    async up() {
      for (let i = 0; i < 600; i++) {
        if (child.exitCode !== null) throw new Error(`main job exited (${child.exitCode}):\n${out.slice(-2000)}`);
        if (
          await fetch(`${base}/health`).then(
            (r) => r.ok,
            () => false,
          )
        )
          return;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`main job did not listen:\n${out.slice(-2000)}`);
    },
    async kill(signal = 'SIGKILL') {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill(signal);
      await exited;
    },
  };
}

/** A REST list read ascending to its end (every page by next_key; anything but a 200 fails). */
export async function restAscending<T>(base: string, listPath: string, key: string): Promise<T[]> {
  const items: T[] = [];
  let next: string | null = null;
  const sep = listPath.includes('?') ? '&' : '?';
  do {
    const url: string = `${base}${listPath}${sep}pagination.reverse=false&pagination.limit=10${next ? `&pagination.key=${encodeURIComponent(next)}` : ''}`;
    const res = await fetch(url);
    const body = (await res.json()) as Record<string, unknown> & { pagination: { next_key: string | null } };
    if (res.status !== 200) throw new Error(`${url} → ${res.status} ${JSON.stringify(body)}`);
    items.push(...(body[key] as T[]));
    next = body.pagination.next_key;
  } while (next !== null);
  return items;
}
