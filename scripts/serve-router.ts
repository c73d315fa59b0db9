// Start the router app alone on loopback (used by scripts/fuzz-router.sh and bench runs).
// Prints one JSON line {"port": N} once listening. ROUTER_NETWORK / ROUTER_REGISTRY_FILE select the registry.
import { listen } from '../api/http/app.js';
import { createRouterApp, routerOptionsFromConfig } from '../api/router/app.js';
import { loadRouterRegistry } from '../routing/registry.js';
import { loadConfigOrExit } from '../platform/config.js';

const config = loadConfigOrExit();
let registry: ReturnType<typeof loadRouterRegistry>;
try {
  registry = loadRouterRegistry(config);
} catch (e) {
  process.stderr.write(`${(e as Error).message}\n`);
  process.exit(2);
}
const port = Number(process.argv[2] ?? config.ROUTER_PORT);
const server = await listen(
  createRouterApp({ registry, ...routerOptionsFromConfig(config, registry) }),
  port,
  '127.0.0.1',
);
process.stdout.write(`${JSON.stringify({ port: (server.address() as { port: number }).port })}\n`);
const stop = () => server.close(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
