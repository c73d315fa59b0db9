// Where the NFT endpoints' time goes, per request (rough: sequential requests over loopback HTTP in one process,
// the clock of a shared machine). For each NFT scenario of bench/indexer.ts: p50/mean per request, engine
// statements per request, and each distinct statement's mean time. The response cache is off; the cache of final
// answers and the totals (keyed by tip) stay on as in production, so a total is counted once per list and tip
// (on a live chain the tip moves every block: a count statement listed here then runs about once per block).
// Usage: BENCH_SMALL=1 npx tsx bench/nft-profile.ts <dataDir> [n]
import { AsyncLocalStorage } from 'node:async_hooks';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { closeServer, listen } from '../api/http/app.js';
import { createIndexerApp } from '../api/indexer/app.js';
import { createStore, type QueryParams, type ReadOptions, type Store } from '../clickhouse/client.js';
import { BENCH, BENCH_INDEXER_CONFIG, benchAccount, benchCollection } from './indexer-data.js';

const dataDir = process.argv[2];
if (!dataDir) throw new Error('usage: nft-profile.ts <dataDir> [n]');
const N = Number(process.argv[3] ?? 100);
const base = createStore({ dataDir });

interface Stmt {
  sql: string;
  ms: number;
}
const als = new AsyncLocalStorage<Stmt[]>();
const rows = async <T>(query: string, params?: QueryParams, opts?: ReadOptions): Promise<T[]> => {
  const log = als.getStore();
  const t = process.hrtime.bigint();
  try {
    return await base.rows<T>(query, params, opts);
  } finally {
    log?.push({ sql: query, ms: Number(process.hrtime.bigint() - t) / 1e6 });
  }
};
const store: Store = {
  kind: base.kind,
  client: base.client,
  rows,
  exec: (q, p) => base.exec(q, p),
  insert: (t, v, s) => base.insert(t, v, s),
  close: () => base.close(),
};

const rnd = (n: number) => Math.floor(Math.random() * n);
const b64 = (v: unknown) => encodeURIComponent(Buffer.from(JSON.stringify(v)).toString('base64'));
const hot = benchAccount(0);
const accounts = Array.from({ length: 200 }, () => benchAccount(rnd(BENCH.accounts)));
const collections = Array.from({ length: BENCH.collections }, (_, c) => benchCollection(c));
const anyCollection = () => collections[rnd(collections.length)]!;
const P = '/indexer/nft/v1';
const scenarios: [string, () => string][] = [
  ['collections first page', () => `${P}/collections`],
  [
    'collections deep (cursor)',
    () =>
      `${P}/collections?pagination.limit=10&pagination.key=${b64({ height: 1 + rnd(BENCH.collections) * 9, object_addr: anyCollection() })}`,
  ],
  ['collection by address', () => `${P}/collections/${anyCollection()}`],
  ['collections by_account (hot)', () => `${P}/collections/by_account/${hot}`],
  ['collections by_account (random)', () => `${P}/collections/by_account/${accounts[rnd(accounts.length)]}`],
  ['collections by_name', () => `${P}/collections/by_name/collection%20${rnd(20)}`],
  ['tokens by_collection first page', () => `${P}/tokens/by_collection/${anyCollection()}`],
  [
    'tokens by_collection deep (cursor)',
    () =>
      `${P}/tokens/by_collection/${anyCollection()}?pagination.key=${b64({ height: 0, token_id: String(rnd(BENCH.nfts)) })}`,
  ],
  ['tokens by_collection order_by=height', () => `${P}/tokens/by_collection/${anyCollection()}?order_by=height`],
  ['tokens by_account hot first page', () => `${P}/tokens/by_account/${hot}`],
  ['tokens by_account (random account)', () => `${P}/tokens/by_account/${accounts[rnd(accounts.length)]}`],
  [
    'nft txs',
    () => {
      const n = rnd(BENCH.nfts);
      return `${P}/txs/${collections[n % BENCH.collections]}/${n}`;
    },
  ],
];

const app = createIndexerApp({ store, config: BENCH_INDEXER_CONFIG, responseCache: false });
// The server side runs each request in its own statement log (the client's async context does not reach it).
let lastLog: Stmt[] = [];
const outer = express();
outer.use((_req, _res, next) => {
  const log: Stmt[] = [];
  lastLog = log;
  als.run(log, next);
});
outer.use(app);
const server = await listen(outer, 0);
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

const shortSql = (s: string) =>
  s
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^SELECT /, '')
    .slice(0, 90);

const q = (xs: number[], p: number) => xs[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;
process.stdout.write(`${N} sequential requests per scenario\n`);
for (const [name, path] of scenarios) {
  const ms: number[] = [];
  const per = new Map<string, { n: number; ms: number }>();
  let stmts = 0;
  for (let i = 0; i < N + 10; i++) {
    const t = process.hrtime.bigint();
    const r = await fetch(url + path());
    await r.arrayBuffer();
    const log = lastLog;
    if (r.status !== 200) throw new Error(`${name}: ${r.status}`);
    if (i < 10) continue; // warm-up
    ms.push(Number(process.hrtime.bigint() - t) / 1e6);
    stmts += log.length;
    for (const s of log) {
      const k = shortSql(s.sql);
      const e = per.get(k) ?? { n: 0, ms: 0 };
      e.n++;
      e.ms += s.ms;
      per.set(k, e);
    }
  }
  ms.sort((a, b) => a - b);
  process.stdout.write(
    `${name.padEnd(38)} p50 ${q(ms, 0.5).toFixed(2).padStart(6)} ms  p90 ${q(ms, 0.9).toFixed(2).padStart(6)}  statements/req ${(stmts / N).toFixed(2)}\n`,
  );
  for (const [k, e] of [...per].sort((a, b) => b[1].ms - a[1].ms))
    process.stdout.write(`    ${(e.n / N).toFixed(2)}× ${(e.ms / e.n).toFixed(2).padStart(6)} ms  ${k}\n`);
}
await closeServer(server);
await base.close();
