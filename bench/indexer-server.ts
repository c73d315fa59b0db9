// The indexer over the synthetic benchmark data set, as its own process (chDB binds one data directory per
// process, and the load generator must not share the API's CPU time accounting). Builds the data set first
// if the directory does not hold a complete one. Prints `READY <url>` when listening.
//   node --import tsx bench/indexer-server.ts [dataDir]
import type { AddressInfo } from 'node:net';
import { listen } from '../api/http/app.js';
import { createIndexerApp } from '../api/indexer/app.js';
import { installJsonClientErrors } from '../api/http/client-errors.js';
import { createStore } from '../clickhouse/client.js';
import { BENCH, buildBenchData, defaultBenchDir } from './indexer-data.js';

const store = createStore({ dataDir: process.argv[2] ?? defaultBenchDir() });
await buildBenchData(store);
const app = createIndexerApp({
  store,
  config: {
    CHAIN_ID: BENCH.chainId,
    VM: 'evm',
    BECH32_PREFIX: 'init',
    VERSION: 'bench',
    COMMIT_HASH: 'bench',
    EVM_INTERNAL_TXS: false,
  },
  // BENCH_NO_CACHE=1 measures every request against the engine (no upstream-style response cache).
  responseCache: process.env.BENCH_NO_CACHE !== '1',
});
const server = await listen(app, 0);
installJsonClientErrors(server);
process.stdout.write(`READY http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
process.on('SIGTERM', () => {
  server.close();
  void store.close().then(() => process.exit(0));
});
