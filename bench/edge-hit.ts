// What a response-cache hit costs at the edge (api/http/edge.ts), apart from the engine, the chain and rollytics:
// the indexer's service app with its response cache and edge lane, one route answering a rich-list-shaped body,
// hit from a separate autocannon process (as bench/rollytics.ts does). `--root` loads the same modules from
// another checkout (e.g. a worktree of an older commit), so old and new can be run interleaved in one session.
//
// `--expiring` asks a list path instead, whose kept body lasts 1 s (as the lists of bench/rollytics.ts): each second
// every connection meets a miss, which node's server and express answer, between the hits. Its page takes 5 ms to
// come (an engine read's time), so the requests in that window wait on it, as in bench/rollytics.ts.
//
// `--bare` also runs Node's own HTTP floor in turn with it: a plain `http.createServer` answering the same bytes
// with the same headers and nothing else (no lane, no metrics, no express), so the edge's own share of a hit shows.
//
// Usage: npx tsx bench/edge-hit.ts [--root DIR (this checkout)] [--holders N (13)] [--connections C (32)]
//          [--seconds S (5)] [--rounds R (1)] [--expiring] [--bare]
// Prints one JSON line per round: req/s, p50/p99, bytes per response, the server's CPU time per 1,000 requests
// (this process: the server; autocannon runs in its own), and the CPU calibration loop beside it.
import { execFile } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { option } from './side-by-side.js';
import { cpuCalibrationMs } from './machine.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const root = path.resolve(option(args, '--root', path.join(here, '..')));
const holders = Number(option(args, '--holders', '13'));
const connections = Number(option(args, '--connections', '32'));
const seconds = Number(option(args, '--seconds', '5'));
const rounds = Number(option(args, '--rounds', '1'));
const bare = args.includes('--bare');
const expiring = args.includes('--expiring');
if (![holders, connections, seconds, rounds].every((n) => Number.isInteger(n) && n >= 1 && n <= 10_000)) {
  console.error(
    'usage: bench/edge-hit.ts [--root DIR] [--holders N] [--connections C] [--seconds S] [--rounds R] [--expiring] [--bare]',
  );
  process.exit(2);
}

interface Listening {
  address(): { port: number } | string | null;
}
const load = (rel: string) => import(path.join(root, rel));
const { createServiceApp, listen, closeServer } = await load('api/http/app.ts');
const { addEdgeLane, responseCacheLane } = await load('api/http/edge.ts');
const { createResponseCache } = await load('api/indexer/response-cache.ts');

const app = createServiceApp({ service: 'indexer', openapi: {} });
const cache = createResponseCache();
app.use(cache.middleware);
addEdgeLane(app, responseCacheLane(cache.fresh));
// The shape and sizes of a rich-list page (bench/rollytics.ts asks one ERC20's first page: 13 holders there).
const page = {
  holders: Array.from({ length: holders }, (_, i) => ({
    account: `0x${(i + 1).toString(16).padStart(40, '0')}`,
    amount: String(10n ** 21n + BigInt(i) * 12_345_678_901_234_567n),
  })),
  pagination: { next_key: null, total: String(holders) },
};
const route = expiring ? '/indexer/nft/v1/collections' : '/indexer/richlist/v1/:denom';
app.get(route, (_req: unknown, res: { json(b: unknown): void }) =>
  expiring ? setTimeout(() => res.json(page), 5) : res.json(page),
);
const server = (await listen(app, 0)) as Listening;
const port = (server.address() as { port: number }).port;
const url = `http://127.0.0.1:${port}${expiring ? route : `/indexer/richlist/v1/0x${'ab'.repeat(20)}`}`;
const first = await fetch(url);
const body = await first.text();
if (first.headers.get('x-cache') !== 'miss') throw new Error('the first request should have computed the page');

interface Cannon {
  requests: { average: number; total: number };
  throughput: { average: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
}
const autocannon = path.join(here, '..', 'node_modules', '.bin', 'autocannon');
const cannon = (target: string): Promise<Cannon> =>
  new Promise((resolve, reject) =>
    execFile(
      autocannon,
      ['-j', '-c', String(connections), '-d', String(seconds), target],
      { maxBuffer: 1 << 24 },
      (e, out) => (e ? reject(e) : resolve(JSON.parse(out) as Cannon)),
    ),
  );
// Node's floor: the same status, headers and bytes as the edge's hit, written by a bare server.
const floor = bare ? await bareServer() : undefined;
const floorUrl = floor ? `http://127.0.0.1:${(floor.address() as { port: number }).port}/` : '';

/** A plain server sending the headers the edge sends on a hit (less those node adds itself) and the same bytes. */
async function bareServer(): Promise<http.Server> {
  const r = await fetch(url);
  await r.arrayBuffer();
  const headers: string[] = [];
  r.headers.forEach((v, k) => {
    if (!['date', 'connection', 'keep-alive'].includes(k)) headers.push(k, v);
  });
  const bytes = Buffer.from(body);
  const s = http.createServer((_req, res) => {
    res.writeHead(200, headers);
    res.end(bytes);
  });
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  return s;
}

const runs: [string, string][] = [['edge', url]];
if (floor) runs.push(['node-floor', floorUrl]);
for (let r = 0; r < rounds; r++) {
  for (const [server, target] of runs) {
    const calibration = cpuCalibrationMs();
    const cpu0 = process.cpuUsage();
    const c = await cannon(target);
    const cpu = process.cpuUsage(cpu0);
    console.log(
      JSON.stringify({
        server,
        root,
        expiring,
        body_bytes: Buffer.byteLength(body),
        connections,
        req_per_s: Math.round(c.requests.average),
        p50_ms: c.latency.p50,
        p99_ms: c.latency.p99,
        bytes_per_response: Math.round(c.throughput.average / c.requests.average),
        errors: c.non2xx + c.errors,
        server_cpu_ms_per_1k: Math.round(((cpu.user + cpu.system) / c.requests.total) * 10) / 10,
        cpu_calibration_ms: calibration,
      }),
    );
  }
}
floor?.close();
await closeServer(server);
process.exit(0);
