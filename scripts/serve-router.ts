// Start the router app alone on loopback (used by scripts/fuzz-router.sh and bench runs).
// Prints one JSON line {"port": N} once listening. ROUTER_NETWORK / ROUTER_REGISTRY_FILE select the registry.
// `--tracking` also serves the tracking routes (track, status, streams, history, claims) over embedded chDB in
// DATA_DIR and a Temporal dev server, with no chain worker (nothing is polled: the routes are what is served);
// streams end after 100 ms so that each request of a fuzzer completes.
import { listen } from '../api/http/app.js';
import { createRouterApp, routerOptionsFromConfig } from '../api/router/app.js';
import { loadRouterRegistry } from '../routing/registry.js';
import { loadConfigOrExit } from '../platform/config.js';
import { createLogger } from '../platform/log.js';

const config = loadConfigOrExit();
let registry: ReturnType<typeof loadRouterRegistry>;
try {
  registry = loadRouterRegistry(config);
} catch (e) {
  process.stderr.write(`${(e as Error).message}\n`);
  process.exit(2);
}
const args = process.argv.slice(2);
const port = Number(args.find((a) => /^\d+$/.test(a)) ?? config.ROUTER_PORT);
const stops: (() => Promise<void>)[] = [];
let tracking: Parameters<typeof createRouterApp>[0]['tracking'];
if (args.includes('--tracking')) {
  const { createStore } = await import('../clickhouse/client.js');
  const { startTracking } = await import('../tracking/index.js');
  const { directoryFromEnv } = await import('../tracking/registry-adapter.js');
  const { createTrackingRoutes } = await import('../api/router/tracking/index.js');
  const store = createStore({ dataDir: `${config.DATA_DIR}/clickhouse` });
  const t = await startTracking({
    config,
    store,
    chains: directoryFromEnv(registry),
    log: createLogger({ service: 'serve-router' }),
    runChainWorker: false,
  });
  tracking = createTrackingRoutes(t.service, { lifetimeMs: 100, maxPerClient: 1000 });
  stops.push(
    () => t.stop(),
    () => store.close(),
  );
}
const server = await listen(
  createRouterApp({ registry, ...routerOptionsFromConfig(config, registry), tracking }),
  port,
  '127.0.0.1',
);
process.stdout.write(`${JSON.stringify({ port: (server.address() as { port: number }).port })}\n`);
const stop = () =>
  server.close(async () => {
    for (const s of stops) await s().catch(() => undefined);
    process.exit(0);
  });
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
