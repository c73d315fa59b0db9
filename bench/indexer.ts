// Indexer benchmark over HTTP on loopback (autocannon), against the synthetic data set of bench/indexer-data.ts:
//  - latency p50/p99 per endpoint at 1 connection (first page and a deep page reached by cursor), with a
//    random account / hash / height / collection / offset per request so caches do not flatter the figures;
//  - throughput at 32 connections on txs/by_account and richlist;
//  - RSS of the API process (peak, sampled every 100 ms) during the throughput runs.
// Before the latency runs and again before the throughput runs, every file of the data set is read once
// (`--no-warm` skips it). This VM reclaims idle page cache on its own: the kernel's DAMON `pageout` scheme
// (/sys/kernel/mm/damon/admin/kdamonds/0) pages out physical pages not accessed for 12 aggregation intervals
// (6 s), up to 128 MB/s, with free memory to spare. Random keys over the 9.4 GB set leave most pages idle for
// longer than that, so some reads go to the disk whatever we do; the read makes each phase start from the same
// state (the first run after generating the set was cold: 117 req/s, p99 1 s).
// Usage: npx tsx bench/indexer.ts [dataDir] [--seconds N] [--no-cache] [--no-warm]   → table on stdout, JSON in bench/results/
import { machine } from './machine.js';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
// @ts-expect-error -- autocannon ships no types; the slice we use is typed below (ts-ignore, not expect-error, in case a declaration appears)
import autocannonUntyped from 'autocannon';
import { BENCH, BLOCKS, benchAccount, benchCollection, defaultBenchDir } from './indexer-data.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const secIdx = args.indexOf('--seconds');
const seconds = secIdx >= 0 ? Number(args[secIdx + 1]) : 5;
const onlyIdx = args.indexOf('--only');
/** `--only a,b`: run just the scenarios whose name contains one of these (a quick A/B; not the official run). */
const only = onlyIdx >= 0 ? (args[onlyIdx + 1] ?? '').split(',').filter(Boolean) : [];
const picked = (name: string) => only.length === 0 || only.some((o) => name.includes(o));
const dataDir =
  args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--seconds' && args[i - 1] !== '--only') ??
  defaultBenchDir();
const noCache = args.includes('--no-cache');
const warm = !args.includes('--no-warm');

/** Read every file under `dir` once (into the page cache); returns the bytes read. */
async function warmPageCache(dir: string): Promise<number> {
  let bytes = 0;
  const buf = Buffer.allocUnsafe(1 << 20);
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!e.isFile()) continue;
    const f = await open(path.join(e.parentPath, e.name), 'r');
    try {
      for (let n = 1; n > 0; bytes += n) n = (await f.read(buf, 0, buf.length, null)).bytesRead;
    } finally {
      await f.close();
    }
  }
  return bytes;
}

const rnd = (n: number) => Math.floor(Math.random() * n);
const b64 = (v: unknown) =>
  encodeURIComponent(Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64'));
const txHash = (n: number) => createHash('sha256').update(`tx${n}`).digest('hex').toUpperCase();
const seqAt = (height: number) => height * 1_000_000;
const accounts = Array.from({ length: 2000 }, () => benchAccount(rnd(BENCH.accounts)));
const hot = benchAccount(0);
const collections = Array.from({ length: BENCH.collections }, (_, c) => benchCollection(c));
const anyCollection = () => collections[rnd(collections.length)]!;
const P = '/indexer';

/** name → a path generator (called per request). */
const scenarios: [string, () => string][] = [
  ['status', () => '/status'],
  ['block by height', () => `${P}/block/v1/blocks/${1 + rnd(BLOCKS)}`],
  ['blocks first page', () => `${P}/block/v1/blocks`],
  ['blocks deep (cursor)', () => `${P}/block/v1/blocks?pagination.key=${b64({ height: 1000 + rnd(BLOCKS - 1000) })}`],
  ['avg_blocktime', () => `${P}/block/v1/avg_blocktime`],
  ['tx by hash', () => `${P}/tx/v1/txs/${txHash(rnd(BENCH.txs))}`],
  ['txs first page', () => `${P}/tx/v1/txs`],
  ['txs deep (cursor)', () => `${P}/tx/v1/txs?pagination.key=${b64({ sequence: seqAt(1000 + rnd(BLOCKS - 1000)) })}`],
  ['txs msgs=MsgSend first page', () => `${P}/tx/v1/txs?msgs=cosmos.bank.v1beta1.MsgSend`],
  [
    'txs msgs=MsgSend deep (cursor)',
    () =>
      `${P}/tx/v1/txs?msgs=cosmos.bank.v1beta1.MsgSend&pagination.key=${b64({ sequence: seqAt(1000 + rnd(BLOCKS - 1000)) })}`,
  ],
  ['txs by_account (random account)', () => `${P}/tx/v1/txs/by_account/${accounts[rnd(accounts.length)]}`],
  ['txs by_account hot first page', () => `${P}/tx/v1/txs/by_account/${hot}`],
  [
    'txs by_account hot deep (cursor)',
    () => `${P}/tx/v1/txs/by_account/${hot}?pagination.key=${b64({ sequence: seqAt(1000 + rnd(BLOCKS - 1000)) })}`,
  ],
  ['txs by_height', () => `${P}/tx/v1/txs/by_height/${1 + rnd(BLOCKS)}`],
  ['collections first page', () => `${P}/nft/v1/collections`],
  [
    'collections deep (cursor)',
    () =>
      `${P}/nft/v1/collections?pagination.limit=10&pagination.key=${b64({ height: 1 + rnd(BENCH.collections) * 9, object_addr: anyCollection() })}`,
  ],
  ['collection by address', () => `${P}/nft/v1/collections/${anyCollection()}`],
  ['collections by_account (hot)', () => `${P}/nft/v1/collections/by_account/${hot}`],
  ['collections by_name', () => `${P}/nft/v1/collections/by_name/collection%20${rnd(20)}`],
  ['tokens by_collection first page', () => `${P}/nft/v1/tokens/by_collection/${anyCollection()}`],
  [
    'tokens by_collection deep (cursor)',
    () =>
      `${P}/nft/v1/tokens/by_collection/${anyCollection()}?pagination.key=${b64({ height: 0, token_id: String(rnd(BENCH.nfts)) })}`,
  ],
  ['tokens by_collection order_by=height', () => `${P}/nft/v1/tokens/by_collection/${anyCollection()}?order_by=height`],
  ['tokens by_account hot first page', () => `${P}/nft/v1/tokens/by_account/${hot}`],
  [
    'tokens by_account hot deep (cursor)',
    () =>
      `${P}/nft/v1/tokens/by_account/${hot}?pagination.key=${b64({ collection_addr: anyCollection(), height: 0, token_id: String(rnd(BENCH.nfts)) })}`,
  ],
  ['tokens by_account (random account)', () => `${P}/nft/v1/tokens/by_account/${accounts[rnd(accounts.length)]}`],
  [
    'nft txs',
    () => {
      const n = rnd(BENCH.nfts);
      return `${P}/nft/v1/txs/${collections[n % BENCH.collections]}/${n}`;
    },
  ],
  ['richlist first page', () => `${P}/richlist/v1/${BENCH.richToken}`],
  [
    'richlist deep (offset key)',
    () => `${P}/richlist/v1/${BENCH.richToken}?pagination.key=${b64(String(rnd(BENCH.holders - 100)))}`,
  ],
];

interface CannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p90: number; p99: number; max: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}
type Cannon = (opts: Record<string, unknown>) => Promise<CannonResult>;
const autocannon = autocannonUntyped as Cannon;

interface Result {
  name: string;
  connections: number;
  rps: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  non2xx: number;
  errors: number;
  requests: number;
}

async function run(
  base: string,
  name: string,
  pathOf: () => string,
  connections: number,
  duration: number,
): Promise<Result> {
  const r = await autocannon({
    url: base,
    connections,
    duration,
    requests: [{ method: 'GET', setupRequest: (req: Record<string, unknown>) => ({ ...req, path: pathOf() }) }],
  });
  return {
    name,
    connections,
    rps: Math.round(r.requests.average),
    p50: r.latency.p50,
    p90: r.latency.p90,
    p99: r.latency.p99,
    max: r.latency.max,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
    requests: r.requests.total,
  };
}

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Math.round(Number(m[1]) / 1024) : 0;
}

interface FloorFigures {
  n: number;
  p50: number;
  p99: number;
  mean: number;
}
type Floor = { select1: FloorFigures; pointRead: FloorFigures };
/** The engine's floor, measured inside the API process through its Store (bench/indexer-server.ts). */
async function floor(base: string): Promise<Floor> {
  const r = await fetch(`${base}/__bench/floor?n=300`);
  return (await r.json()) as Floor;
}
const floorLine = (label: string, f: Floor) =>
  `engine floor ${label}: SELECT 1 p50 ${f.select1.p50} ms p99 ${f.select1.p99} ms; 1-row point read p50 ${f.pointRead.p50} ms p99 ${f.pointRead.p99} ms (n=${f.select1.n}, same Store as the API)\n`;

process.stdout.write(`machine ${JSON.stringify(machine())}\n`);
async function warmUp(phase: string): Promise<void> {
  if (!warm) return;
  const t = Date.now();
  const bytes = await warmPageCache(dataDir);
  process.stdout.write(
    `page cache warmed before ${phase}: ${(bytes / 2 ** 30).toFixed(1)} GiB read in ${((Date.now() - t) / 1000).toFixed(0)} s\n`,
  );
}
await warmUp('the latency runs');
// BENCH_SERVER_NODE_ARGS: extra node flags for the API process (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`).
const serverArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
const server = spawn(
  process.execPath,
  [...serverArgs, '--import', 'tsx', path.join(here, 'indexer-server.ts'), dataDir],
  {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, LOG_LEVEL: 'warn', BENCH_NO_CACHE: noCache ? '1' : '0' },
  },
);
const base = await new Promise<string>((resolve, reject) => {
  let out = '';
  server.stdout.on('data', (d: Buffer) => {
    out += d.toString();
    const m = /READY (\S+)/.exec(out);
    if (m) resolve(m[1]!);
  });
  server.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
});
try {
  const rssIdle = rssMb(server.pid!);
  const floorBefore = await floor(base);
  process.stdout.write(floorLine('(before)', floorBefore));
  const latency: Result[] = [];
  for (const [name, p] of scenarios) {
    if (!picked(name)) continue;
    await run(base, name, p, 1, 1); // warm-up
    const r = await run(base, name, p, 1, seconds);
    latency.push(r);
    process.stdout.write(
      `${name.padEnd(40)} p50 ${String(r.p50).padStart(4)} ms  p99 ${String(r.p99).padStart(4)} ms  ${r.rps} req/s  non2xx ${r.non2xx}\n`,
    );
  }
  const throughput: (Result & { rssPeakMb: number })[] = [];
  await warmUp('the throughput runs');
  // A fixed set of 50 hot accounts: what the response cache does for popular pages.
  const hotAccounts = accounts.slice(0, 50);
  scenarios.push([
    'txs by_account (50 hot accounts)',
    () => `${P}/tx/v1/txs/by_account/${hotAccounts[rnd(hotAccounts.length)]}`,
  ]);
  for (const name of [
    'txs by_account (random account)',
    'txs by_account (50 hot accounts)',
    'richlist deep (offset key)',
    'richlist first page',
  ]) {
    if (!picked(name)) continue;
    const p = scenarios.find(([n]) => n === name)![1];
    let peak = 0;
    const t = setInterval(() => (peak = Math.max(peak, rssMb(server.pid!))), 100);
    const r = await run(base, name, p, 32, Math.max(seconds * 2, 10));
    clearInterval(t);
    throughput.push({ ...r, rssPeakMb: peak });
    process.stdout.write(
      `32 conns ${name.padEnd(31)} ${r.rps} req/s  p50 ${r.p50} ms  p99 ${r.p99} ms  non2xx ${r.non2xx}  RSS peak ${peak} MB\n`,
    );
  }
  const floorAfter = await floor(base);
  process.stdout.write(floorLine('(after)', floorAfter));
  const machineAfter = machine();
  mkdirSync(path.join(here, 'results'), { recursive: true });
  writeFileSync(
    path.join(here, 'results', noCache ? 'indexer-nocache.json' : 'indexer.json'),
    JSON.stringify(
      {
        at: new Date().toISOString(),
        dataDir,
        seconds,
        noCache,
        machine: machineAfter,
        engineFloor: { before: floorBefore, after: floorAfter },
        rssIdleMb: rssIdle,
        latency,
        throughput,
      },
      null,
      2,
    ),
  );
  process.stdout.write(`idle RSS ${rssIdle} MB; machine ${JSON.stringify(machineAfter)}\n`);
} finally {
  server.kill('SIGTERM');
}
