// Where one indexer request's time goes, measured in one process over a benchmark data set (rough: sequential
// requests, the clock of a shared machine). Parts:
//  - engine floor: `SELECT 1` and a 1-row point read through the Store;
//  - the tx list statements of one random by_account page (picker + documents + total) through the Store, and
//    the former single documents statement split into @clickhouse/client `query()` and `.text()` + JSON.parse;
//  - HTTP on loopback: a route that needs no engine (by_height above the tip), a response-cache hit, /status, and
//    the full by_account page, with and without the response cache.
// Usage: BENCH_SMALL=1 npx tsx bench/indexer-profile.ts <dataDir> [n]
import type { AddressInfo } from 'node:net';
import { closeServer, listen } from '../api/http/app.js';
import { createIndexerApp } from '../api/indexer/app.js';
import { createStore } from '../clickhouse/client.js';
import { listTxDocs, sequenceAbove } from '../clickhouse/queries/txs.js';
import { indexedHeight } from '../clickhouse/queries/status.js';
import { BENCH, BENCH_INDEXER_CONFIG, BLOCKS, benchAccount } from './indexer-data.js';

const dataDir = process.argv[2];
if (!dataDir) throw new Error('usage: indexer-profile.ts <dataDir> [n]');
const N = Number(process.argv[3] ?? 200);
const store = createStore({ dataDir });
const rnd = (n: number) => Math.floor(Math.random() * n);

async function timed(label: string, f: () => Promise<unknown>): Promise<void> {
  for (let i = 0; i < 10; i++) await f(); // warm-up
  const ms: number[] = [];
  for (let i = 0; i < N; i++) {
    const t = process.hrtime.bigint();
    await f();
    ms.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  ms.sort((a, b) => a - b);
  const q = (p: number) => ms[Math.min(ms.length - 1, Math.floor(p * ms.length))]!.toFixed(2);
  const mean = (ms.reduce((a, b) => a + b, 0) / ms.length).toFixed(2);
  process.stdout.write(
    `${label.padEnd(58)} mean ${mean.padStart(6)} ms  p50 ${q(0.5).padStart(6)}  p99 ${q(0.99).padStart(6)}\n`,
  );
}

const tip = await indexedHeight(store);
const maxSequence = sequenceAbove(tip);
const account = () => benchAccount(rnd(BENCH.accounts));
const page = (withTotal: boolean) =>
  listTxDocs(
    store,
    { kind: 'account', account: account(), isSigner: false },
    { desc: true, limit: 101, offset: 0 },
    { msgs: null, maxSequence, cursor: null },
    withTotal,
  );

process.stdout.write(`tip ${tip}, ${N} sequential calls each\n-- engine through the Store --\n`);
await timed('SELECT 1', () => store.rows('SELECT 1 AS one'));
await timed('1-row point read (blocks by height)', () =>
  store.rows('SELECT height, hash FROM blocks WHERE height = {h:UInt64} LIMIT 1', { h: 1 + rnd(BLOCKS) }),
);
await timed('SELECT 1 via client.query only (no .json())', () => store.client.query({ query: 'SELECT 1 AS one' }));
await timed('by_account page: picker only (sequences)', () =>
  store.rows(
    'SELECT sequence FROM account_txs WHERE account = {a:String} AND sequence < {m:UInt64} ORDER BY sequence DESC LIMIT 101',
    { a: account(), m: maxSequence.toString() },
  ),
);
await timed('by_account page: listTxDocs with total (2 statements)', () => page(true));
await timed('by_account page: listTxDocs without total', () => page(false));
{
  // The pre-issue-14 single documents statement through @clickhouse/client, split: client.query() (engine + SET
  // prefix) vs text() + JSON.parse (framing + parse).
  let q = 0;
  let j = 0;
  let bytes = 0;
  for (let i = 0; i < N; i++) {
    const t0 = process.hrtime.bigint();
    const rs = await store.client.query({
      query: `SELECT sequence, json FROM tx_documents WHERE sequence IN (SELECT sequence FROM account_txs WHERE account = {a:String} AND sequence < {m:UInt64} ORDER BY sequence DESC LIMIT 101) ORDER BY sequence DESC LIMIT 1 BY sequence`,
      query_params: { a: account(), m: maxSequence.toString() },
      format: 'JSONEachRow',
    });
    const t1 = process.hrtime.bigint();
    const text = await rs.text();
    bytes += text.length;
    JSON.parse(`[${text.trim().split('\n').join(',')}]`);
    const t2 = process.hrtime.bigint();
    q += Number(t1 - t0) / 1e6;
    j += Number(t2 - t1) / 1e6;
  }
  process.stdout.write(
    `old documents statement via @clickhouse/client: client.query ${(q / N).toFixed(2)} ms, text+JSON.parse ${(j / N).toFixed(2)} ms, ${Math.round(bytes / N)} bytes/page\n`,
  );
}

process.stdout.write('-- HTTP on loopback (express, cors, metrics, validator, handler) --\n');
for (const cache of [false, true]) {
  const app = createIndexerApp({
    store,
    config: BENCH_INDEXER_CONFIG,
    responseCache: cache,
    // Off here: these lines time the engine path of every request (the final cache is timed in the bench).
    finalCacheBytes: 0,
    // Off too: the rich list's engine path (the in-memory snapshot is timed in the bench).
    richListMemoryBytes: 0,
  });
  const server = await listen(app, 0);
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const get = async (p: string) => {
    const r = await fetch(base + p);
    await r.arrayBuffer();
    if (r.status !== 200) throw new Error(`${p} → ${r.status}`);
  };
  const tag = cache ? '[response cache on]' : '[response cache off]';
  if (cache)
    await timed(`${tag} cache hit (same by_height page)`, () => get(`/indexer/tx/v1/txs/by_height/${tip + 5}`));
  else {
    await timed(`${tag} by_height above the tip (no engine call)`, () =>
      get(`/indexer/tx/v1/txs/by_height/${tip + 5}`),
    );
    await timed(`${tag} /health (no validator, tip cached)`, () => get('/health'));
    await timed(`${tag} /status`, () => get('/status'));
    await timed(`${tag} by_account random account`, () => get(`/indexer/tx/v1/txs/by_account/${account()}`));
    await timed(`${tag} by_account random, count_total=false`, () =>
      get(`/indexer/tx/v1/txs/by_account/${account()}?pagination.count_total=false`),
    );
    await timed(`${tag} tx by hash`, () => get(`/indexer/tx/v1/txs/${'00'.repeat(32)}`).catch(() => undefined));
    await timed(`${tag} block by height`, () => get(`/indexer/block/v1/blocks/${1 + rnd(BLOCKS)}`));
    await timed(`${tag} richlist deep (offset key)`, () =>
      get(
        `/indexer/richlist/v1/${BENCH.richToken}?pagination.key=${encodeURIComponent(Buffer.from(String(rnd(BENCH.holders - 100))).toString('base64'))}`,
      ),
    );
  }
  await closeServer(server);
}
await store.close();
