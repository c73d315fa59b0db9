// Server CPU of following a tracked transfer (issue 30): K clients each following one registered, pending transfer
// (the common case of a days-long OPinit withdrawal), as status streams (GET /v2/tx/status_stream) or as 1 s pollers
// of GET /v2/tx/status (what @skip-go/client does), against the same router app on the same chDB projection.
// The server (this process) measures its own CPU (process.cpuUsage) over a window per mode, minus an idle window;
// the clients run in a child process (bench/status-clients.ts). Printed: CPU ms per client-hour, per mode.
//   npx tsx bench/status-stream-cost.ts [clients=500] [seconds=30]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { closeServer, listen } from '../api/http/app.js';
import { createRouterApp } from '../api/router/app.js';
import { createTrackingRoutes } from '../api/router/tracking/index.js';
import { staticDirectory } from '../activities/chains.js';
import { TrackingProjection } from '../activities/projection.js';
import { createStore } from '../clickhouse/client.js';
import { migrate } from '../clickhouse/migrate.js';
import { loadRouterRegistry } from '../routing/registry.js';
import type { RegistrationStarter } from '../tracking/starter.js';
import { createTrackingService } from '../tracking/service.js';
import { cpuCalibrationMs, machine } from './machine.js';

const K = Number(process.argv[2] ?? 500);
const SECONDS = Number(process.argv[3] ?? 30);
const here = path.dirname(new URL(import.meta.url).pathname);

const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-status-cost-'));
const store = createStore({ dataDir: path.join(dir, 'clickhouse') });
await migrate(store);
const projection = new TrackingProjection(store);
const chainId = 'bench-1';
const hashes = Array.from({ length: K }, (_, i) => i.toString(16).toUpperCase().padStart(64, '0'));
await Promise.all(hashes.map((h) => projection.register(chainId, h, Date.now())));
// No track call is made here (the transfers are registered above), so no workflow is ever started.
const noStarts = { enqueue: () => undefined } as unknown as RegistrationStarter;
const service = createTrackingService(staticDirectory([{ chainId }]), projection, noStarts);
const server = await listen(
  createRouterApp({
    registry: loadRouterRegistry({ ROUTER_NETWORK: 'mainnet' }),
    tracking: createTrackingRoutes(service, { maxStreams: K + 10, maxPerClient: K + 10 }),
    clientLimits: { perMinute: 0, burst: 0 },
  }),
  0,
);
const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;

async function window(mode: 'idle' | 'stream' | 'poll') {
  const child =
    mode === 'idle'
      ? null
      : spawn(
          process.execPath,
          ['--import', 'tsx', path.join(here, 'status-clients.ts'), mode, base, chainId, ...hashes],
          {
            stdio: ['ignore', 'pipe', 'inherit'],
          },
        );
  if (child) await new Promise<void>((r) => child.stdout!.once('data', () => r())); // all connected
  await new Promise((r) => setTimeout(r, 2000)); // settle
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, SECONDS * 1000));
  const cpu = process.cpuUsage(cpu0);
  const ms = performance.now() - t0;
  if (child) {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
  return { mode, cpuMs: (cpu.user + cpu.system) / 1000, wallMs: ms };
}

console.log(JSON.stringify({ bench: 'status-stream-cost', clients: K, seconds: SECONDS, machine: machine() }));
for (let round = 1; round <= 2; round++) {
  const calibration = cpuCalibrationMs();
  const idle = await window('idle');
  for (const mode of ['stream', 'poll'] as const) {
    const w = await window(mode);
    const perClientHourMs = ((w.cpuMs - (idle.cpuMs * w.wallMs) / idle.wallMs) / K) * (3_600_000 / w.wallMs);
    console.log(
      JSON.stringify({
        round,
        mode,
        server_cpu_ms: Math.round(w.cpuMs),
        idle_cpu_ms: Math.round(idle.cpuMs),
        cpu_ms_per_client_hour: Math.round(perClientHourMs * 10) / 10,
        cpuCalibrationMs: calibration,
      }),
    );
  }
}
await closeServer(server);
await store.close();
rmSync(dir, { recursive: true, force: true });
process.exit(0);
