// An ingest told to stop below the height it starts at has nothing to index: it ends at once (it used to poll the
// node for ever, so a one-shot backfill job given those two settings never finished).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createStore, type Store } from '../../clickhouse/client.js';
import { factsStore } from '../../clickhouse/facts-store.js';
import { migrate } from '../../clickhouse/migrate.js';
import { startSampleChain } from '../../devnet/sample-chains/serve.js';
import { createLogger } from '../../platform/log.js';
import { type SampleChain, sampleIngest } from '../support/sample.js';

let dir: string;
let store: Store;
let sample: SampleChain;
beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'stop-below-start-'));
  store = createStore({ dataDir: dir });
  await migrate(store);
  sample = await startSampleChain('evm');
});
afterAll(async () => {
  await sample?.stop();
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

it('ends at once, having indexed nothing, when INGEST_STOP_AT_HEIGHT is below START_HEIGHT', async () => {
  const { source, ingest } = sampleIngest(store, sample, {
    log: createLogger({ test: 'stop-below-start' }),
    pollIntervalMs: 50,
    stopAtHeight: 3,
    startHeight: 5,
  });
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      ingest.run(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('the ingest did not end')), 20_000);
      }),
    ]);
  } finally {
    clearTimeout(timer);
    await ingest.stop();
    source.close();
  }
  expect(await factsStore(store).checkpoint()).toBe(0);
});
