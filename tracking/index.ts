// Composition of durable transfer tracking for the all-in-one main job:
//   Temporal (embedded dev server unless TEMPORAL_ADDRESS) + in-process workers + the service the
//   HTTP routes (built in api/router/tracking/) call.
import type { AppConfig } from '../platform/config.js';
import type { Logger } from '../platform/log.js';
import type { Store } from '../clickhouse/client.js';
import { migrate } from '../clickhouse/migrate.js';
import type { ChainDirectory } from '../activities/chains.js';
import { projectionSink, TrackingProjection } from '../activities/projection.js';
import type { TrackingTimings } from '../workflows/model.js';
import { startDevServer, type DevServer } from './devserver.js';
import { TrackingClient } from './client.js';
import { startWorkers, type WorkerSet } from './worker.js';
import { startChainWorkerProcess, type ChainWorkerProcess } from './worker-process.js';
import { timingsFromEnv, webhookSettingsFromEnv } from './timings.js';
import type { WebhookSettings } from '../workflows/webhook.js';
import { RegistrationStarter } from './starter.js';
import { createTrackingService, type TrackingServiceImpl } from './service.js';

export interface StartTrackingOptions {
  config: Pick<AppConfig, 'DATA_DIR' | 'TEMPORAL_ADDRESS' | 'TEMPORAL_NAMESPACE' | 'TEMPORAL_TASK_QUEUE'>;
  store: Store;
  chains: ChainDirectory;
  log: Logger;
  timings?: TrackingTimings;
  /** Run the workflow/chain worker in this process (default true; false when worker-main.ts runs it). */
  runChainWorker?: boolean;
  /**
   * Run the workflow/chain worker in a child process (tracking/worker-process.ts) instead, restarted when it
   * dies, stopped with tracking (`npm start`'s default, TRACKING_CHAIN_WORKER=process). Implies no in-process one.
   */
  chainWorkerProcess?: { env?: Record<string, string> } | boolean;
  /** Fixed dev-server port (restart tests reuse it); random when absent. */
  devServerPort?: number;
  /**
   * Webhook signing and target policy, for the track route and an in-process chain worker; default from the
   * WEBHOOK_* variables (a chain worker process reads them from its environment).
   */
  webhooks?: WebhookSettings | null;
}

export interface Tracking {
  /** What the tracking HTTP routes call (api/router/tracking createTrackingRoutes). */
  service: TrackingServiceImpl;
  /** host:port of the Temporal frontend in use. */
  address: string;
  client: TrackingClient;
  projection: TrackingProjection;
  starter: RegistrationStarter;
  devServer?: DevServer;
  /** The chain worker child process, when started with chainWorkerProcess. */
  chainWorker?: ChainWorkerProcess;
  stop(): Promise<void>;
}

export async function startTracking(o: StartTrackingOptions): Promise<Tracking> {
  const log = o.log.child({ component: 'tracking' });
  const timings = o.timings ?? timingsFromEnv();
  const webhooks = o.webhooks === undefined ? (webhookSettingsFromEnv() ?? null) : o.webhooks;
  await migrate(o.store);
  let devServer: DevServer | undefined;
  if (!o.config.TEMPORAL_ADDRESS)
    devServer = await startDevServer({ dataDir: o.config.DATA_DIR, log, port: o.devServerPort });
  const address = o.config.TEMPORAL_ADDRESS ?? devServer!.address;
  const projection = new TrackingProjection(o.store);
  let workers: WorkerSet | undefined;
  let client: TrackingClient | undefined;
  let chainWorker: ChainWorkerProcess | undefined;
  const inline = o.runChainWorker !== false && !o.chainWorkerProcess;
  try {
    client = await TrackingClient.connect({
      address,
      namespace: o.config.TEMPORAL_NAMESPACE,
      taskQueue: o.config.TEMPORAL_TASK_QUEUE,
      timings,
    });
    workers = await startWorkers({
      address,
      namespace: o.config.TEMPORAL_NAMESPACE,
      taskQueue: o.config.TEMPORAL_TASK_QUEUE,
      log,
      projection,
      webhooks,
      ...(inline ? { chains: o.chains } : {}),
    });
    if (o.chainWorkerProcess)
      chainWorker = await startChainWorkerProcess({
        address,
        namespace: o.config.TEMPORAL_NAMESPACE,
        taskQueue: o.config.TEMPORAL_TASK_QUEUE,
        log,
        env: typeof o.chainWorkerProcess === 'object' ? o.chainWorkerProcess.env : undefined,
        projection: projectionSink(projection, webhooks ?? undefined),
      });
  } catch (e) {
    await workers?.stop().catch(() => undefined);
    await client?.close().catch(() => undefined);
    await devServer?.stop();
    throw e;
  }
  const starter = new RegistrationStarter(
    client,
    log,
    async (chainId, txHash) => (await projection.latest(chainId, txHash))?.version ?? 0,
  );
  // Registrations whose workflow start was lost in a crash (or never happened) are started again.
  await starter.reconcile(o.store);
  const service = createTrackingService(o.chains, projection, starter, {
    settings: webhooks ?? undefined,
  });
  return {
    service,
    address,
    client,
    projection,
    devServer,
    starter,
    chainWorker,
    stop: async () => {
      starter.stop();
      await chainWorker?.stop();
      await workers?.stop();
      await client?.close();
      await devServer?.stop();
    },
  };
}
