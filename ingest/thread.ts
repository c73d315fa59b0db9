// The ingest on a thread of its own (INGEST_THREAD, on by default): decoding blocks and building rows hold a
// thread for 100+ ms per dense batch, and on the API's thread that delays every request and stream event by as
// much (bench/reports/2026-11-27-ingest-thread.md). The thread (ingest/thread-main.ts) opens its own store
// sessions on the same data directory, and its hooks arrive here as messages, in the order it sent them.
import { Worker } from 'node:worker_threads';
import type { CommittedItems, HandedLists } from '../clickhouse/committed-items.js';
import type { Logger } from '../platform/log.js';
import { adoptMetricValues } from '../platform/metrics.js';
import type { Ingest } from './pipeline.js';
import type { HostMessage, IngestThreadSettings, ThreadMessage } from './thread-protocol.js';

export interface IngestThreadHooks {
  log: Logger;
  onIndexed?: (height: number) => void;
  onCommitted?: (height: number, items?: CommittedItems) => void;
}

/** The ingest thread's handle: run() settles when the thread's ingest ends, stop() stops it. */
export type IngestRunner = Pick<Ingest, 'run' | 'stop'>;

/** The thread's handle, which also asks for the committed items of some lists (IngestOptions.handedLists). */
export type IngestThread = IngestRunner & { hand(lists: HandedLists): void };

export function startIngestThread(settings: IngestThreadSettings, hooks: IngestThreadHooks): IngestThread {
  const ext = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
  const entry = new URL(`./thread-main${ext}`, import.meta.url).href;
  // Under tsx (how the main job runs) a thread does not inherit the TypeScript loader: it registers it first.
  const bootstrap = entry.endsWith('.ts')
    ? `import('tsx/esm/api').then((t) => { t.register(); return import(${JSON.stringify(entry)}); })`
    : `import(${JSON.stringify(entry)})`;
  const worker = new Worker(bootstrap, { eval: true, workerData: settings });
  let settle!: { resolve: () => void; reject: (e: Error) => void };
  // Settles once, when the thread's ingest ends; run() returns it however often it is called.
  const finished = new Promise<void>((resolve, reject) => {
    settle = { resolve, reject };
  });
  finished.catch(() => undefined); // surfaced by run()
  let ended = false;
  const stopWaiters: (() => void)[] = [];
  const end = (error?: Error) => {
    if (ended) return;
    ended = true;
    if (error) settle.reject(error);
    else settle.resolve();
    for (const w of stopWaiters.splice(0)) w();
  };
  worker.on('message', (m: ThreadMessage) => {
    if (m.type === 'indexed') hooks.onIndexed?.(m.height);
    else if (m.type === 'committed') hooks.onCommitted?.(m.height, m.items);
    else if (m.type === 'metrics') adoptMetricValues(m.metrics);
    else if (m.type === 'done') end();
    else if (m.type === 'failed') end(new Error(m.error));
    else if (m.type === 'stopped') end();
  });
  // The thread never exits on its own (ingest/thread-main.ts): if it did (an uncaught error), chDB's binding no
  // longer answers this thread, so the process ends now. Every batch is crash-safe; a restart resumes.
  worker.on('error', (e) => hooks.log.error('ingest.thread_failed', { error: e.stack ?? e.message }));
  worker.on('exit', (code) => {
    hooks.log.error('ingest.thread_exited', { code });
    process.exit(1);
  });
  return {
    run: () => finished,
    hand: (lists) => worker.postMessage({ type: 'hand', lists } satisfies HostMessage),
    stop: () =>
      new Promise<void>((resolve) => {
        if (ended) return resolve();
        stopWaiters.push(resolve);
        worker.postMessage({ type: 'stop' } satisfies HostMessage);
      }),
  };
}
