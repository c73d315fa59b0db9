// Ingest a recorded sample chain into a temporary chDB and serve the indexer over it on loopback; prints
// `READY <base url>` once listening. Used by scripts/fuzz-indexer.sh (and handy for poking at the API):
//   npx tsx devnet/tools/serve-sample.ts [evm|move|wasm] [port]
import type { AddressInfo } from 'node:net';
import { listen, closeServer } from '../../api/http/app.js';
import { createIndexerApp } from '../../api/indexer/app.js';
import { installJsonClientErrors } from '../../api/http/client-errors.js';
import { ingestSampleChain, type SampleKind } from '../../test/support/sample.js';

const kind = (process.argv[2] ?? 'evm') as SampleKind;
const port = Number(process.argv[3] ?? 0);
const s = await ingestSampleChain(kind, { evmTraces: kind === 'evm' }); // EVM: internal txs fuzzed too
const app = createIndexerApp({
  store: s.store,
  config: {
    CHAIN_ID: s.sample.manifest.chainId,
    VM: kind,
    BECH32_PREFIX: 'init',
    VERSION: 'fuzz',
    COMMIT_HASH: 'unknown',
    EVM_INTERNAL_TXS: kind === 'evm',
  },
  chain: { restUrl: s.sample.restUrl },
  // Event streams end after 100 ms (resumably), so each fuzzed stream request completes; the fuzzer is one client.
  streams: { lifetimeMs: 100, maxPerClient: 1000 },
});
const server = await listen(app, port);
installJsonClientErrors(server);
process.stdout.write(`READY http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
const stop = async () => {
  setTimeout(() => process.exit(0), 5000).unref(); // never linger if a cleanup step hangs
  await closeServer(server);
  await s.cleanup();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
