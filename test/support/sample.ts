// Ingest a recorded sample chain (devnet/sample-chains) into a fresh embedded chDB through the real code path:
// chain-sim over loopback HTTP → ingest/source (cosmjs RPC transport, REST, ethers) → decoders → writer.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createStore, type Store } from '../../clickhouse/client.js';
import { migrate } from '../../clickhouse/migrate.js';
import { createIngest, type Ingest, type IngestOptions } from '../../ingest/pipeline.js';
import { createChainSource } from '../../ingest/source.js';
import { createLogger, type Logger } from '../../platform/log.js';
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
  const { source, ingest } = sampleIngest(store, sample, {
    log: createLogger({ test: kind }),
    evmTraces: opts.evmTraces,
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

/** How a test runs the real ingest over a served sample chain: the source's settings and the pipeline's. */
export interface SampleIngestOptions
  extends Pick<
    IngestOptions,
    'batchBlocks' | 'fetchConcurrency' | 'pollIntervalMs' | 'mergePaceThresholds' | 'startHeight'
  > {
  stopAtHeight: number;
  log: Logger;
  evmTraces?: boolean;
  timeoutMs?: number;
  /** The hooks an API in the same process takes (its streams advance on commits and hold their items). */
  hooks?: Pick<IngestOptions, 'onCommitted' | 'handedLists'>;
}

/** The real ingest (chain source over loopback → pipeline) of a served sample chain into `store`; close the source after. */
export function sampleIngest(
  store: Store,
  sample: SampleChain,
  o: SampleIngestOptions,
): { source: ReturnType<typeof createChainSource>; ingest: Ingest } {
  const source = createChainSource({
    rpcUrl: sample.rpcUrl,
    restUrl: sample.restUrl,
    evmUrl: sample.evmUrl,
    evmTraces: o.evmTraces,
    timeoutMs: o.timeoutMs,
  });
  const ingest = createIngest({
    store,
    source,
    vm: sample.vm,
    log: o.log,
    batchBlocks: o.batchBlocks,
    fetchConcurrency: o.fetchConcurrency,
    pollIntervalMs: o.pollIntervalMs,
    stopAtHeight: o.stopAtHeight,
    mergePaceThresholds: o.mergePaceThresholds,
    startHeight: o.startHeight,
    ...o.hooks,
  });
  return { source, ingest };
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
