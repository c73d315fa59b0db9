// Router benchmark.
//   1. In process: route computation (validate + search + rank + render) over every routable asset pair of
//      the full mainnet and testnet registries; p50/p99 per request.
//   2. Over HTTP on loopback: the router (mainnet registry) in a child process, autocannon with 32
//      connections cycling through the mainnet routable pairs. Target ≥ 2,000 req/s with p99 < 20 ms.
// Run: npx tsx bench/route.ts [seconds=15]
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import os from 'node:os';
// @ts-expect-error -- autocannon ships no types; the slice we use is typed below
import autocannonUntyped from 'autocannon';
import { loadRouterRegistry, type Registry } from '../routing/registry.js';
import { renderRoute, resolveRoute, type RouteRequest } from '../routing/route.js';

type Req = { method: string; path: string; headers: Record<string, string>; body?: string };
type Cannon = (o: {
  url: string;
  connections: number;
  duration: number;
  requests: (Req & { setupRequest: (r: Req) => Req })[];
}) => Promise<{
  requests: { average: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
}>;
const autocannon = autocannonUntyped as Cannon;
const seconds = Number(process.argv[2] ?? 15);

function routablePairs(reg: Registry): RouteRequest[] {
  const assets: [string, string][] = [];
  for (const [chain, m] of reg.assets) for (const d of m.keys()) assets.push([chain, d]);
  for (const d of reg.layerZero) assets.push([d.chain_id, d.denom]);
  const out: RouteRequest[] = [];
  for (const [sc, sd] of assets)
    for (const [dc, dd] of assets) {
      if (sc === dc && sd === dd) continue;
      const req = {
        amount_in: '1000000000000000000',
        source_asset_chain_id: sc,
        source_asset_denom: sd,
        dest_asset_chain_id: dc,
        dest_asset_denom: dd,
      };
      try {
        resolveRoute(reg, req, false);
        out.push(req);
      } catch {
        /* no route: not part of the routable set */
      }
    }
  return out;
}

const pct = (xs: number[], p: number) => xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

/** Validate + search + rank + render per pair; `cached` reuses the memoised candidate routes. */
function inProcess(name: string, reg: Registry, pairs: RouteRequest[], cached: boolean) {
  const none = new Map();
  for (const q of pairs) renderRoute(reg, q, resolveRoute(reg, q, cached)[0]!, none); // warm-up (JIT, trace memo)
  const times: number[] = [];
  for (let round = 0; round < 5; round++)
    for (const q of pairs) {
      const t = process.hrtime.bigint();
      renderRoute(reg, q, resolveRoute(reg, q, cached)[0]!, none);
      times.push(Number(process.hrtime.bigint() - t) / 1e6);
    }
  times.sort((a, b) => a - b);
  console.log(
    `in-process ${name} (${cached ? 'search memoised' : 'full search'}): ${pairs.length} routable pairs × 5, p50 ${pct(times, 50).toFixed(3)} ms, p99 ${pct(times, 99).toFixed(3)} ms, max ${times[times.length - 1]!.toFixed(3)} ms`,
  );
}

const mainnet = loadRouterRegistry({ ROUTER_NETWORK: 'mainnet' });
const testnet = loadRouterRegistry({ ROUTER_NETWORK: 'testnet' });
const mainPairs = routablePairs(mainnet);
const testPairs = routablePairs(testnet);
for (const cached of [false, true]) {
  inProcess('mainnet', mainnet, mainPairs, cached);
  inProcess('testnet', testnet, testPairs, cached);
}

// HTTP: server in its own process so autocannon does not steal its event loop.
const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/serve-router.ts', '0'], {
  env: { ...process.env, ROUTER_NETWORK: 'mainnet', LOG_LEVEL: 'warn' },
  stdio: ['ignore', 'pipe', 'inherit'],
});
const [line] = (await once(child.stdout!, 'data')) as [Buffer];
const port = (JSON.parse(line.toString()) as { port: number }).port;
const bodies = mainPairs.map((q) => JSON.stringify(q));
let i = 0;
const run = (duration: number) =>
  autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: 32,
    duration,
    requests: [
      {
        method: 'POST',
        path: '/v2/fungible/route',
        headers: { 'content-type': 'application/json' },
        setupRequest: (r) => ({ ...r, body: bodies[i++ % bodies.length] }),
      },
    ],
  });
await run(3); // warm-up
const res = await run(seconds);
console.log(
  `http mainnet: 32 connections, ${seconds}s: ${res.requests.average.toFixed(0)} req/s, latency p50 ${res.latency.p50} ms, p99 ${res.latency.p99} ms, non-2xx ${res.non2xx}, errors ${res.errors}`,
);
console.log(
  `machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, node ${process.version}, load average ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}`,
);
child.kill('SIGTERM');
await once(child, 'exit');
