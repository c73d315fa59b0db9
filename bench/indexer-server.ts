// The indexer over the synthetic benchmark data set, as its own process (chDB binds one data directory per
// process, and the load generator must not share the API's CPU time accounting). Builds the data set first
// if the directory does not hold a complete one. Prints `READY <url>` when listening.
//   node --import tsx bench/indexer-server.ts [dataDir]
import type { AddressInfo } from 'node:net';
import express from 'express';
import { listen } from '../api/http/app.js';
import { createIndexerApp } from '../api/indexer/app.js';
import { installJsonClientErrors } from '../api/http/client-errors.js';
import { createStore, type Store } from '../clickhouse/client.js';
import { loadConfig } from '../platform/config.js';
import { BENCH_INDEXER_CONFIG, BLOCKS, buildBenchData, defaultBenchDir } from './indexer-data.js';

export interface FloorFigures {
  n: number;
  p50: number;
  p99: number;
  mean: number;
}

/** Sequential timings (ms) of one engine call through the same Store the API uses. */
async function timeCalls(n: number, call: () => Promise<unknown>): Promise<FloorFigures> {
  const ms: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = process.hrtime.bigint();
    await call();
    ms.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  ms.sort((a, b) => a - b);
  const at = (q: number) => Math.round(ms[Math.min(ms.length - 1, Math.floor(q * ms.length))]! * 100) / 100;
  return { n, p50: at(0.5), p99: at(0.99), mean: Math.round((ms.reduce((a, b) => a + b, 0) / n) * 100) / 100 };
}

/** The engine's floor in this process: `SELECT 1` and a 1-row point read of `blocks` by its key. */
export async function engineFloor(store: Store, n = 200) {
  const select1 = await timeCalls(n, () => store.rows('SELECT 1 AS one'));
  const pointRead = await timeCalls(n, () =>
    store.rows('SELECT height, hash FROM blocks WHERE height = {h:UInt64} LIMIT 1', {
      h: 1 + Math.floor(Math.random() * BLOCKS),
    }),
  );
  return { select1, pointRead };
}

// CHDB_READ_SESSIONS as in production (platform/config.ts): the embedded engine's parallel readers.
const store = createStore({
  dataDir: process.argv[2] ?? defaultBenchDir(),
  readSessions: loadConfig(process.env).CHDB_READ_SESSIONS,
});
await buildBenchData(store);
const app = createIndexerApp({
  store,
  config: BENCH_INDEXER_CONFIG,
  // BENCH_NO_CACHE=1 measures every request against the engine (no upstream-style response cache).
  responseCache: process.env.BENCH_NO_CACHE !== '1',
  // The cache of final answers stays on as in production (it is not the response cache); BENCH_FINAL_CACHE_MB=0
  // turns it off to time every request's engine path.
  finalCacheBytes:
    process.env.BENCH_FINAL_CACHE_MB === undefined ? undefined : Number(process.env.BENCH_FINAL_CACHE_MB) * 2 ** 20,
  // Rich-list snapshots held in memory as in production (256 MiB); BENCH_RICHLIST_MEMORY_MB=0 keeps the engine path.
  richListMemoryBytes:
    process.env.BENCH_RICHLIST_MEMORY_MB === undefined
      ? undefined
      : Number(process.env.BENCH_RICHLIST_MEMORY_MB) * 2 ** 20,
  // NFT tokens held in memory as in production (200,000); BENCH_NFT_TOKENS_HELD=0 keeps the engine path.
  tokensHeld: process.env.BENCH_NFT_TOKENS_HELD === undefined ? undefined : Number(process.env.BENCH_NFT_TOKENS_HELD),
});
// Bench-only route (never in the production app): the engine floor measured in the API's own process, since
// chDB binds one data directory per process.
const outer = express();
outer.get('/__bench/floor', (req, res, next) => {
  const n = Math.min(2000, Math.max(10, Number(req.query.n ?? 200) || 200));
  engineFloor(store, n).then((f) => res.json(f), next);
});
outer.use(app);
const server = await listen(outer, 0);
installJsonClientErrors(server);
process.stdout.write(`READY http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
process.on('SIGTERM', () => {
  server.close();
  void store.close().then(() => process.exit(0));
});
