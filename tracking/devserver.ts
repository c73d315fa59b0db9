// Lifecycle of the embedded Temporal dev server (Temporal CLI v1.5.1, SQLite file under DATA_DIR):
// build-if-missing via scripts/install-temporal.sh, spawn, wait until the frontend answers, kill on stop.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, existsSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Connection } from '@temporalio/client';
import { configSection } from '../platform/config.js';
import type { Logger } from '../platform/log.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Path of the Temporal CLI: $TEMPORAL_CLI if set, else built/cached by scripts/install-temporal.sh. */
export function temporalBinary(): string {
  const { TEMPORAL_CLI } = configSection(['TEMPORAL_CLI']);
  if (TEMPORAL_CLI && existsSync(TEMPORAL_CLI)) return TEMPORAL_CLI;
  const out = execFileSync('bash', [path.join(repoRoot, 'scripts/install-temporal.sh')], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return out.trim().split('\n').pop()!;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

export interface DevServer {
  address: string;
  port: number;
  process: ChildProcess;
  stop(): Promise<void>;
}

export interface DevServerOptions {
  dataDir: string;
  port?: number;
  log: Logger;
  /** How long to wait for the frontend to answer (a restart on an existing SQLite file can take a while). */
  readyTimeoutMs?: number;
}

/** Start-up attempts when a port was taken between choosing it and binding it (see startDevServer). */
const START_ATTEMPTS = 3;

/**
 * The CLI binds several ports: the frontend's (ours, chosen free just before) and the HTTP API's and the internal
 * services' (chosen free by the CLI itself). Another process can take any of them in the moment between choosing
 * and binding, most often in the parallel test suite; the server then exits with "address already in use". Such
 * an exit is retried with fresh ports (the frontend's kept when the caller fixed it); any other failure is not.
 */
export async function startDevServer(opts: DevServerOptions): Promise<DevServer> {
  const bin = temporalBinary();
  const dir = path.join(opts.dataDir, 'temporal');
  mkdirSync(dir, { recursive: true });
  for (let attempt = 1; ; attempt++) {
    const port = opts.port ?? (await freePort());
    try {
      return await launch(bin, dir, port, opts);
    } catch (e) {
      if (!(e instanceof PortTaken) || attempt >= START_ATTEMPTS) throw e;
      opts.log.warn('temporal.devserver.retry', { attempt, port, reason: e.message.slice(-300) });
    }
  }
}

class PortTaken extends Error {}

async function launch(bin: string, dir: string, port: number, opts: DevServerOptions): Promise<DevServer> {
  const args = [
    'server',
    'start-dev',
    '--db-filename',
    path.join(dir, 'temporal.sqlite'),
    '--headless',
    '--port',
    String(port),
    '--ip',
    '127.0.0.1',
    '--sqlite-pragma',
    'journal_mode=WAL',
    '--sqlite-pragma',
    'synchronous=OFF',
    '--log-level',
    'error',
    // An activity scheduled on the task queue of the worker completing the workflow task goes back to that worker in
    // the completion's answer, skipping one matching round trip (a webhook delivery: ~100 ms → ~30 ms here).
    '--dynamic-config-value',
    'system.enableActivityEagerExecution=true',
  ];
  const child = spawn(bin, args, { stdio: ['ignore', 'ignore', 'pipe'], detached: false });
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => {
    stderr = (stderr + c.toString()).slice(-4000);
  });
  let exited = false;
  // Never leave an orphaned server behind when this process exits without calling stop().
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  // 'close' (not 'exit'): by then the child's stderr has been read to its end, so the start-up error is whole.
  const exit = new Promise<'exited'>((resolve) =>
    child.once('close', () => {
      exited = true;
      process.off('exit', killOnExit);
      resolve('exited');
    }),
  );
  // What stop() waits for: the process's end, not its stderr's (anything else holding it open would hold stop).
  const ended = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const address = `127.0.0.1:${port}`;
  const timeoutMs = opts.readyTimeoutMs ?? 60_000;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    // A probe can stall on a socket that accepts but never speaks gRPC (the port taken by someone else): the
    // child's exit ends the wait instead.
    const probe = await Promise.race([answers(address), exit]);
    if (probe === 'exited' || exited) {
      const why = stderr.trim().slice(-1000);
      const msg = `temporal dev server exited during start-up: ${why}`;
      throw /address already in use/i.test(why) ? new PortTaken(msg) : new Error(msg);
    }
    if (probe) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`temporal dev server did not answer on ${address} within ${timeoutMs}ms`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  opts.log.info('temporal.devserver.started', { address, pid: child.pid, db: path.join(dir, 'temporal.sqlite') });
  return {
    address,
    port,
    process: child,
    stop: async () => {
      if (exited) return;
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await ended;
      clearTimeout(t);
      opts.log.info('temporal.devserver.stopped', { address });
    },
  };
}

/** True once the frontend serves namespace calls (a bare TCP accept is not enough after a restart: cli#632). */
async function answers(address: string): Promise<boolean> {
  let conn: Connection | undefined;
  try {
    conn = await Connection.connect({ address, connectTimeout: 1_000 });
    await conn.workflowService.describeNamespace({ namespace: 'default' });
    return true;
  } catch {
    return false;
  } finally {
    await conn?.close().catch(() => undefined);
  }
}
