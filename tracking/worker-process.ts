// The chain worker (workflows + chain-polling activities + shared chain feeds, tracking/worker-main.ts) as a child
// process of the main job, so `npm start` keeps that work off the API's event loop (issue 14). The main job keeps
// the projection worker: embedded chDB binds its directory to one process. Temporal holds all workflow state, so
// the child can die at any time: it is restarted with back-off and its workflows resume (the fault test kills the
// same program). The child exits when the main job's IPC channel closes, so it never outlives it.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { ProjectionSink } from '../activities/projection.js';
import type { Logger } from '../platform/log.js';
import { serveProjectionOverIpc } from './projection-ipc.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const READY = 'tracking.worker.ready';

export interface ChainWorkerProcessOptions {
  /** Temporal frontend host:port (the main job's dev server or a cluster). */
  address: string;
  namespace: string;
  taskQueue: string;
  log: Logger;
  /** Extra environment of the child (tests: TRACKING_CHAINS_FILE); the main job's own environment is inherited. */
  env?: Record<string, string>;
  /** The main job's projection: the child's workflows write through it over IPC instead of the projection queue. */
  projection?: ProjectionSink;
  /** How long one start may take (bundling the workflow code takes seconds). */
  readyTimeoutMs?: number;
}

export interface ChainWorkerProcess {
  /** pid of the current child. */
  readonly pid: number | undefined;
  /** Unplanned exits that were restarted. */
  readonly restarts: number;
  /** Resolves when a (re)started child reports ready. */
  ready(): Promise<void>;
  stop(): Promise<void>;
}

export async function startChainWorkerProcess(o: ChainWorkerProcessOptions): Promise<ChainWorkerProcess> {
  const log = o.log.child({ component: 'chain-worker-process' });
  let child: ChildProcess | undefined;
  let stopping = false;
  let restarts = 0;
  let backoffMs = 1_000;
  let readyWaiters: (() => void)[] = [];
  let isReady = false;

  const spawnChild = (): Promise<void> =>
    new Promise((resolve, reject) => {
      const c = spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'tracking', 'worker-main.ts')], {
        cwd: repoRoot,
        env: {
          ...process.env,
          ...o.env,
          ROLE: 'worker',
          TEMPORAL_ADDRESS: o.address,
          TEMPORAL_NAMESPACE: o.namespace,
          TEMPORAL_TASK_QUEUE: o.taskQueue,
          ...(o.projection ? { TRACKING_PROJECTION_IPC: 'true' } : {}),
        },
        stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
      });
      child = c;
      if (o.projection) serveProjectionOverIpc(c, o.projection, log);
      isReady = false;
      // spawn failures (e.g. no node binary) arrive as 'error', possibly without 'exit'.
      c.once('error', (e) => reject(e));
      // Later errors (a failed IPC send to a child that just died) are logged; its exit restarts it.
      c.on('error', (e) => log.warn('tracking.chain_worker.error', { pid: c.pid, error: e.message }));
      const startedAt = Date.now();
      const timer = setTimeout(() => {
        c.kill('SIGKILL');
        reject(new Error(`chain worker process not ready within ${o.readyTimeoutMs ?? 120_000} ms`));
      }, o.readyTimeoutMs ?? 120_000);
      // The child's log lines go to ours; its ready line resolves the start.
      createInterface({ input: c.stdout! }).on('line', (line) => {
        if (!isReady && line.includes(READY)) {
          isReady = true;
          clearTimeout(timer);
          log.info('tracking.chain_worker.ready', { pid: c.pid, ms: Date.now() - startedAt });
          for (const w of readyWaiters) w();
          readyWaiters = [];
          resolve();
        } else process.stdout.write(`${line}\n`);
      });
      c.once('exit', (code, signal) => {
        clearTimeout(timer);
        if (!isReady) reject(new Error(`chain worker process exited during start-up (code ${code}, ${signal})`));
        if (stopping) return;
        restarts++;
        const upMs = Date.now() - startedAt;
        if (upMs > 60_000) backoffMs = 1_000;
        log.warn('tracking.chain_worker.exited', { pid: c.pid, code, signal, restartInMs: backoffMs });
        const delay = backoffMs;
        backoffMs = Math.min(30_000, backoffMs * 2);
        setTimeout(() => {
          if (!stopping)
            spawnChild().catch((e: Error) => log.error('tracking.chain_worker.start_failed', { error: e.message }));
        }, delay).unref();
      });
    });

  // Never leave the child behind when this process exits without stop() (it also exits on IPC disconnect).
  const killOnExit = () => child?.kill('SIGKILL');
  process.once('exit', killOnExit);
  try {
    await spawnChild();
  } catch (e) {
    // The first start failed: no restarts, the caller sees the error.
    stopping = true;
    process.off('exit', killOnExit);
    child?.kill('SIGKILL');
    throw e;
  }
  return {
    get pid() {
      return child?.pid;
    },
    get restarts() {
      return restarts;
    },
    ready: () => (isReady ? Promise.resolve() : new Promise<void>((r) => readyWaiters.push(r))),
    async stop() {
      stopping = true;
      process.off('exit', killOnExit);
      const c = child;
      if (!c || c.exitCode !== null || c.signalCode !== null) return;
      const done = new Promise<void>((r) => c.once('exit', () => r()));
      c.kill('SIGTERM');
      const t = setTimeout(() => c.kill('SIGKILL'), 10_000);
      await done;
      clearTimeout(t);
    },
  };
}
