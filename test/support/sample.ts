// Ingest a recorded sample chain (devnet/sample-chains) into a fresh embedded chDB through the real code path:
// chain-sim over loopback HTTP → ingest/source (cosmjs RPC transport, REST, ethers) → decoders → writer.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createStore, type Store } from '../../clickhouse/client.js';
import { migrate } from '../../clickhouse/migrate.js';
import { createIngest, type Ingest } from '../../ingest/pipeline.js';
import { createChainSource } from '../../ingest/source.js';
import { createLogger } from '../../platform/log.js';
import { startSampleChain } from '../../devnet/sample-chains/serve.js';

export type SampleKind = 'evm' | 'move' | 'wasm';
export type SampleChain = Awaited<ReturnType<typeof startSampleChain>>;

export interface IngestedSample {
  store: Store;
  sample: SampleChain;
  ingest: Ingest;
  dataDir: string;
  cleanup(): Promise<void>;
}

export async function ingestSampleChain(
  kind: SampleKind,
  opts: { batchBlocks?: number; dataDir?: string; evmTraces?: boolean } = {},
): Promise<IngestedSample> {
  const dataDir = opts.dataDir ?? mkdtempSync(path.join(os.tmpdir(), `sample-${kind}-`));
  const sample = await startSampleChain(kind);
  const store = createStore({ dataDir: path.join(dataDir, 'clickhouse') });
  await migrate(store);
  const source = createChainSource({
    rpcUrl: sample.rpcUrl,
    restUrl: sample.restUrl,
    evmUrl: sample.evmUrl,
    evmTraces: opts.evmTraces,
  });
  const ingest = createIngest({
    store,
    source,
    vm: sample.vm,
    log: createLogger({ test: kind }),
    batchBlocks: opts.batchBlocks ?? 7,
    fetchConcurrency: 4,
    pollIntervalMs: 50,
    stopAtHeight: sample.manifest.latestHeight,
  });
  await ingest.run();
  return {
    store,
    sample,
    ingest,
    dataDir,
    async cleanup() {
      await ingest.stop();
      source.close();
      await sample.stop();
      await store.close();
      if (!opts.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A deterministic dump of every table with height-keyed rows (for comparing re-ingests). */
export async function dumpTables(store: Store, tables: readonly string[]): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const t of tables) {
    const rows = await store.rows<Record<string, unknown>>(
      `SELECT * ${t === 'ingest_errors' ? 'EXCEPT (at)' : ''} FROM ${t} ORDER BY ALL`,
    );
    out[t] = JSON.stringify(rows);
  }
  return out;
}
