// Temporal workers of tracking. Three task queues:
//   <taskQueue>             workflows + chain-polling activities (any number of worker processes)
//   <taskQueue>-webhooks    webhook deliveries (beside the chain worker, with their own slots)
//   <taskQueue>-projection  the ClickHouse projection activity, served by the process that owns the Store
//                           (embedded chDB binds one directory to one process, so a standalone worker
//                           without a ClickHouse server leaves projection writes to the main job).
// The workflows write the projection by a local activity of the chain worker instead wherever it can reach the
// store (in-process, or over IPC to the main job when it is the main job's child); the queue serves the rest.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  DefaultLogger,
  NativeConnection,
  Runtime,
  makeTelemetryFilterString,
  Worker,
  bundleWorkflowCode,
  type WorkflowBundleWithSourceMap,
} from '@temporalio/worker';
import { createLogger, type Logger } from '../platform/log.js';
import type { ChainDirectory } from '../activities/chains.js';
import { createChainActivities } from '../activities/tracking.js';
import {
  createLocalProjectionActivities,
  createProjectionActivities,
  type ProjectionSink,
  projectionSink,
  type TrackingProjection,
} from '../activities/projection.js';
import { createWebhookActivities } from '../activities/webhook.js';
import type { WebhookSettings } from '../workflows/webhook.js';
import { webhookQueue } from '../workflows/model.js';
import { feedIntervalFromEnv, webhookSettingsFromEnv } from './timings.js';

export const workflowsPath = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'workflows', 'index.ts');
export const projectionQueue = (taskQueue: string) => `${taskQueue}-projection`;

let bundlePromise: Promise<WorkflowBundleWithSourceMap> | undefined;
/** Bundle the workflow code once per process (webpack; a few seconds). */
export function workflowBundle(): Promise<WorkflowBundleWithSourceMap> {
  installRuntime();
  bundlePromise ??= bundleWorkflowCode({ workflowsPath, logger: quietLogger });
  return bundlePromise;
}

/** The SDK's own lines as ours: one JSON object per line (its default writes `date [LEVEL] msg meta` over lines). */
const sdkLog = createLogger({ component: 'temporal' });
const sdkLine = (level: 'warn' | 'error', message: string, meta?: Record<string, unknown>) => {
  // The projection and webhook workers serve activities only, by design: the SDK warns about it at every start.
  if (message.startsWith('No workflows registered')) return;
  let fields: Record<string, unknown> = {};
  try {
    fields = JSON.parse(
      JSON.stringify(meta ?? {}, (_k, v) => (v instanceof Error ? { name: v.name, message: v.message } : v)),
    );
  } catch {
    fields = { meta: String(meta) }; // circular or otherwise unserialisable
  }
  sdkLog[level]('temporal.sdk', { message, ...fields });
};

const quietLogger = {
  log: () => undefined,
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: (m: string, meta?: Record<string, unknown>) => sdkLine('warn', m, meta),
  error: (m: string, meta?: Record<string, unknown>) => sdkLine('error', m, meta),
};

export interface WorkerSetOptions {
  address: string;
  namespace: string;
  taskQueue: string;
  /** Run the workflow + chain activity worker (needs chains). */
  chains?: ChainDirectory;
  /** Run the projection worker (needs the projection over the store). */
  projection?: TrackingProjection;
  /**
   * Where the chain worker's local projection activity writes when this process has no projection of its own
   * (a child of the main job: over IPC). Default: `projection` when given, else none (the workflows then use the
   * projection queue).
   */
  projectionSink?: ProjectionSink;
  log: Logger;
  maxConcurrentActivities?: number;
  /** Webhook signing and target policy of the chain worker; default from the WEBHOOK_* variables, null for none. */
  webhooks?: WebhookSettings | null;
}

export interface WorkerSet {
  stop(): Promise<void>;
  /** Resolves/rejects when a worker stops by itself (fatal error). */
  done: Promise<void>;
}

let runtimeInstalled = false;
/** The SDK logs every worker state change at INFO in its own format; keep only its warnings. */
export function installRuntime(): void {
  if (runtimeInstalled) return;
  runtimeInstalled = true;
  try {
    Runtime.install({
      logger: new DefaultLogger('WARN', (e) =>
        sdkLine(e.level === 'ERROR' ? 'error' : 'warn', e.message, e.meta as Record<string, unknown> | undefined),
      ),
      // Core's gRPC retry warnings while a server restarts are expected; keep errors only.
      telemetryOptions: {
        logging: { filter: makeTelemetryFilterString({ core: 'ERROR', other: 'ERROR' }), forward: {} },
      },
    });
  } catch {
    /* already installed by the host process */
  }
}

export async function startWorkers(o: WorkerSetOptions): Promise<WorkerSet> {
  installRuntime();
  const connection = await NativeConnection.connect({ address: o.address });
  const workers: Worker[] = [];
  const webhookSettings = o.webhooks === undefined ? webhookSettingsFromEnv() : (o.webhooks ?? undefined);
  if (o.chains) {
    workers.push(
      await Worker.create({
        connection,
        namespace: o.namespace,
        taskQueue: o.taskQueue,
        workflowBundle: await workflowBundle(),
        activities: {
          ...createChainActivities(o.chains, { feedIntervalMs: feedIntervalFromEnv() }),
          ...createLocalProjectionActivities(
            o.projectionSink ?? (o.projection ? projectionSink(o.projection, webhookSettings) : undefined),
          ),
        },
        // Polls are async I/O: thousands fit in one process; each is bounded by the poll window.
        maxConcurrentActivityTaskExecutions: o.maxConcurrentActivities ?? 2000,
        maxConcurrentWorkflowTaskExecutions: 200,
        // Status writes (local activities): as many as the projection queue's worker takes at once.
        maxConcurrentLocalActivityExecutions: 1000,
        // One poller fetches one task per round trip; bursts of completions (many hops settling in one block)
        // would otherwise queue behind a handful of pollers.
        maxConcurrentWorkflowTaskPolls: 16,
        maxConcurrentActivityTaskPolls: 16,
        maxCachedWorkflows: 2000,
        // After a worker dies its sticky workflow tasks fall back to the normal queue this fast.
        stickyQueueScheduleToStartTimeout: '3s',
      }),
    );
  }
  if (o.chains) {
    // Webhook deliveries: their own queue and slots beside the chain worker, so none waits behind a long poll.
    workers.push(
      await Worker.create({
        connection,
        namespace: o.namespace,
        taskQueue: webhookQueue(o.taskQueue),
        activities: createWebhookActivities(webhookSettings),
        maxConcurrentActivityTaskExecutions: 1000,
        maxConcurrentActivityTaskPolls: 8,
      }),
    );
  }
  if (o.projection) {
    workers.push(
      await Worker.create({
        connection,
        namespace: o.namespace,
        taskQueue: projectionQueue(o.taskQueue),
        activities: createProjectionActivities(o.projection, webhookSettings),
        maxConcurrentActivityTaskExecutions: 1000,
        maxConcurrentActivityTaskPolls: 16,
      }),
    );
  }
  const runs = workers.map((w) => w.run());
  const done = Promise.all(runs).then(() => undefined);
  o.log.info('tracking.workers.started', {
    taskQueue: o.taskQueue,
    chainWorker: !!o.chains,
    projectionWorker: !!o.projection,
  });
  return {
    done,
    stop: async () => {
      for (const w of workers) if (w.getState() === 'RUNNING') w.shutdown();
      await Promise.allSettled(runs);
      await connection.close();
    },
  };
}
