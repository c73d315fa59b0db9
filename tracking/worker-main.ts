// Standalone tracking worker process (docker-compose `worker` service, and the kill-the-worker fault test).
// Runs the workflows + chain-polling activities. With a ClickHouse server configured it also serves the
// projection queue; with embedded chDB the main job serves it (one chDB directory per process).
//   TEMPORAL_ADDRESS            required (the main job or a cluster runs the server)
//   TRACKING_CHAINS_FILE        JSON array of ChainInfo (activities/chains.ts); else the router registry plus
//   TRACKING_RPC_URLS / TRACKING_EXECUTOR_URLS  JSON objects chain id → URL (the registry has neither)
import { loadConfigOrExit } from '../platform/config.js';
import { createLogger } from '../platform/log.js';
import { createStore } from '../clickhouse/client.js';
import { TrackingProjection } from '../activities/projection.js';
import type { ChainDirectory } from '../activities/chains.js';
import { projectionSinkOverIpc } from './projection-ipc.js';
import { startWorkers } from './worker.js';

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const log = createLogger({ service: 'tracking-worker' });
  if (!config.TEMPORAL_ADDRESS) {
    process.stderr.write('config: TEMPORAL_ADDRESS is required for the standalone tracking worker\n');
    process.exit(2);
  }
  const { loadRouterRegistry } = await import('../routing/registry.js');
  const { directoryFromEnv } = await import('./registry-adapter.js');
  let chains: ChainDirectory;
  try {
    chains = directoryFromEnv(loadRouterRegistry(config));
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n`);
    process.exit(2);
  }
  const store = config.CLICKHOUSE_URL
    ? createStore({
        url: config.CLICKHOUSE_URL,
        user: config.CLICKHOUSE_USER,
        password: config.CLICKHOUSE_PASSWORD,
        database: config.CLICKHOUSE_DATABASE,
      })
    : undefined;
  const workers = await startWorkers({
    address: config.TEMPORAL_ADDRESS,
    namespace: config.TEMPORAL_NAMESPACE,
    taskQueue: config.TEMPORAL_TASK_QUEUE,
    log,
    chains,
    ...(store ? { projection: new TrackingProjection(store) } : {}),
    // A child of the main job writes through the main job (tracking/projection-ipc.ts), store or not: the main job's
    // projection then learns each version at once, and pushes it to its status streams.
    ...(config.TRACKING_PROJECTION_IPC ? { projectionSink: projectionSinkOverIpc() } : {}),
  });
  const stop = async (signal: string) => {
    log.info('tracking.worker.stopping', { signal });
    await workers.stop();
    await store?.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  if (process.connected) {
    // Started by the main job (tracking/worker-process.ts): it stops this process (SIGTERM), also on Ctrl-C,
    // and this process never outlives it.
    process.on('SIGINT', () => undefined);
    process.once('disconnect', () => void stop('parent exited'));
  } else process.once('SIGINT', () => void stop('SIGINT'));
  process.stdout.write(`${JSON.stringify({ event: 'tracking.worker.ready', pid: process.pid })}\n`);
  await workers.done;
}

main().catch((e) => {
  createLogger({ component: 'tracking-worker' }).error('tracking.worker.failed', {
    error: String((e as Error)?.message ?? e),
    stack: (e as Error)?.stack,
  });
  process.exit(1);
});
