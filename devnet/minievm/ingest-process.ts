// Runs our main job (ingest + indexer API) as a child process pointed at a
// chain, so tests can SIGKILL it mid-run and restart it on the same DATA_DIR.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Vm } from '../../chain/vm.js';
import { MAIN_JOB_NODE_FLAGS } from '../../platform/node-flags.js';
import type { NodeEndpoints } from './node-client.js';
import { sleep } from './node-client.js';
import { indexedHeight } from './verify.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const LOG_TAIL_CHARS = 20_000;

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

export interface IngestOptions {
  endpoints: NodeEndpoints;
  dataDir: string;
  port: number;
  pollIntervalMs?: number;
  /** the rollup's VM (default evm); Move and Wasm nodes have no EVM JSON-RPC */
  vm?: Vm;
  extraEnv?: Record<string, string>;
}

export class IngestProcess {
  private child?: ChildProcess;
  private output = '';
  readonly baseUrl: string;

  constructor(private readonly opts: IngestOptions) {
    this.baseUrl = `http://127.0.0.1:${opts.port}`;
  }

  /** Last part of the child's combined stdout/stderr (JSON log lines), for failure messages. */
  get log(): string {
    return this.output;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  async start(readyTimeoutMs = 60_000): Promise<void> {
    if (this.child) throw new Error('ingest already running');
    const ep = this.opts.endpoints;
    const child = spawn(process.execPath, [...MAIN_JOB_NODE_FLAGS, '--import', 'tsx', 'scripts/main.ts'], {
      cwd: ROOT,
      env: {
        ...process.env,
        ROLE: 'all',
        CHAIN_ID: ep.chainId,
        VM: this.opts.vm ?? 'evm',
        COMETBFT_RPC_URL: ep.cometRpc,
        COSMOS_REST_URL: ep.rest,
        ...(ep.evmRpc ? { EVM_JSONRPC_URL: ep.evmRpc } : {}),
        DATA_DIR: this.opts.dataDir,
        INDEXER_PORT: String(this.opts.port),
        ROUTER_ENABLED: 'false',
        TRACKING_ENABLED: 'false',
        START_HEIGHT: '1',
        POLL_INTERVAL_MS: String(this.opts.pollIntervalMs ?? 100),
        ...this.opts.extraEnv,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    const keep = (d: Buffer) => {
      this.output = (this.output + d.toString()).slice(-LOG_TAIL_CHARS);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    child.on('exit', () => {
      if (this.child === child) this.child = undefined;
    });
    const deadline = Date.now() + readyTimeoutMs;
    for (;;) {
      if (!this.child) throw new Error(`ingest exited during start-up:\n${this.output}`);
      try {
        const res = await fetch(`${this.baseUrl}/health`, { signal: AbortSignal.timeout(2_000) });
        if (res.ok) return;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error(`ingest API not up within ${readyTimeoutMs} ms:\n${this.output}`);
      await sleep(200);
    }
  }

  get running(): boolean {
    return this.child !== undefined;
  }

  /** Waits until /status reports `height`; fails fast (with the log) if the process died. */
  async waitForHeight(height: number, timeoutMs: number): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (!this.child) throw new Error(`ingest process exited:\n${this.output.slice(-4000)}`);
      const h = await indexedHeight(this.baseUrl).catch(() => 0);
      if (h >= height) return h;
      if (Date.now() > deadline) {
        throw new Error(`indexer at ${h}, wanted ${height} within ${timeoutMs} ms:\n${this.output.slice(-4000)}`);
      }
      await sleep(100);
    }
  }

  /** SIGKILL: no shutdown hooks run, like a crashed pod. */
  async kill(): Promise<void> {
    await this.signal('SIGKILL');
  }

  /** SIGTERM: graceful shutdown. */
  async stop(): Promise<void> {
    await this.signal('SIGTERM');
  }

  private async signal(sig: NodeJS.Signals): Promise<void> {
    const child = this.child;
    if (!child) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill(sig);
    const timeout = sleep(15_000).then(() => {
      if (this.child === child) child.kill('SIGKILL');
    });
    await Promise.race([exited, timeout]);
    await exited;
    this.child = undefined;
  }
}
