// The read model's caches and held state answer what the engine answers at the same indexed tip, in the three
// races a review found (each reproduced on real chDB over an ingested sample chain before its fix):
// - an NFT's tx history read for the held tokens included a batch's rows written above the tip, before its
//   checkpoint, and kept them under a key of the tip's state;
// - a tx-by-hash miss of a load begun at a lower tip was shared with a request at a tip holding the tx;
// - a load begun before a rewind stored its value after the rewind cleared the caches, and later requests got it.
// The engine is slowed for the by-hash read alone (a busy engine), the way those races open; nothing is mocked.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Served } from '../../../api/http/edge.js';
import { createReadModel } from '../../../api/indexer/read/model.js';
import { parsePage } from '../../../api/indexer/read/page.js';
import { createStore, type Store } from '../../../clickhouse/client.js';
import { factsStore } from '../../../clickhouse/facts-store.js';
import { migrate } from '../../../clickhouse/migrate.js';
import { startSampleChain } from '../../../devnet/sample-chains/serve.js';
import { createIngest, type IngestOptions } from '../../../ingest/pipeline.js';
import { createChainSource } from '../../../ingest/source.js';
import { createLogger } from '../../../platform/log.js';
import { until } from '../../support/until.js';

const SEQ = 1_000_000;
let chain: Awaited<ReturnType<typeof startSampleChain>>;
let dir: string;
let store: Store;

/** The real ingest of the sample chain up to `stopAtHeight` (a failure it is told to make is swallowed). */
async function ingest(stopAtHeight: number, o: Partial<IngestOptions> = {}) {
  const source = createChainSource({ rpcUrl: chain.rpcUrl, restUrl: chain.restUrl, evmUrl: chain.evmUrl });
  try {
    await createIngest({
      store,
      source,
      vm: chain.vm,
      log: createLogger({ test: 'read-staleness' }),
      batchBlocks: 3,
      fetchConcurrency: 2,
      pollIntervalMs: 20,
      stopAtHeight,
      ...o,
    }).run();
  } catch (e) {
    if (!o.afterInsert) throw e;
  } finally {
    source.close();
  }
}

/** The store with its by-hash read held back `ms` (the engine busy with that statement alone). */
function slowByHash(ms: number): Store {
  const slow: Store = Object.create(store);
  slow.rows = (async (sql: string, params?: Record<string, unknown>, opts?: object) => {
    const rows = await store.rows(sql, params, opts as never);
    if (sql.includes('tx_hashes WHERE hash')) await new Promise((r) => setTimeout(r, ms));
    return rows;
  }) as Store['rows'];
  return slow;
}

beforeAll(async () => {
  chain = await startSampleChain('evm');
  dir = mkdtempSync(path.join(os.tmpdir(), 'read-staleness-'));
  store = createStore({ dataDir: dir });
  await migrate(store);
  await ingest(chain.manifest.latestHeight);
}, 120_000);
afterAll(async () => {
  await store?.close();
  await chain?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('the read model at one tip', () => {
  it('does not share a by-hash miss begun at a lower tip with a request at a tip that holds the tx', async () => {
    const [tx] = await store.rows<{ hash: string; h: string }>(
      `SELECT hash, toString(intDiv(sequence, ${SEQ})) AS h FROM tx_hashes ORDER BY sequence DESC LIMIT 1`,
    );
    const height = Number(tx!.h);
    // The tx's block is written, its checkpoint not yet.
    await store.exec('DELETE FROM ingest_checkpoints WHERE height >= {h:UInt64}', { h: height });
    const model = createReadModel({ store: slowByHash(1500), richList: false, chainIdFromBlocks: true });
    try {
      expect(await model.tip()).toBeLessThan(height);
      const early = model.txs.byHash(tx!.hash, new Served()); // at the lower tip: not indexed yet
      await new Promise((r) => setTimeout(r, 100));
      await store.insert('ingest_checkpoints', [{ height }]);
      await until(async () => (await model.tip()) >= height, 5_000, 'the tip holding the tx');
      const late = model.txs.byHash(tx!.hash, new Served());
      expect(await early).toBeUndefined();
      expect(await late).toBeDefined();
    } finally {
      model.status.stop();
    }
  });

  it('keeps nothing a load begun before a rewind read, once the rewind cleared the caches', async () => {
    const [tx] = await store.rows<{ hash: string; h: string }>(
      `SELECT hash, toString(intDiv(sequence, ${SEQ})) AS h FROM tx_hashes ORDER BY sequence DESC LIMIT 1`,
    );
    const height = Number(tx!.h);
    const model = createReadModel({ store: slowByHash(1500), richList: false, chainIdFromBlocks: true });
    try {
      expect(await model.tip()).toBeGreaterThanOrEqual(height);
      const before = model.txs.byHash(tx!.hash, new Served()); // read just before the rewind
      await new Promise((r) => setTimeout(r, 50));
      await factsStore(store).rewindTo(height - 1); // a re-ingest begins: the tx's height is gone
      await until(async () => (await model.tip()) < height, 5_000, 'the rewind seen by the model');
      expect(await before).toBeDefined(); // it was there when it was read
      const served = new Served();
      expect(await model.txs.byHash(tx!.hash, served)).toBeUndefined();
      expect(served.layer).toBe('engine');
    } finally {
      model.status.stop(); // the next test rewinds lower and writes what it needs
    }
  });
  it("bounds a held NFT's tx history by the tip when a batch above it is written but not checkpointed", async () => {
    const [token] = await store.rows<{ collection: string; token_id: string; hs: string[] }>(
      `SELECT collection, token_id, arraySort(groupUniqArray(height)) AS hs FROM nft_token_txs
       GROUP BY collection, token_id HAVING length(hs) >= 2 ORDER BY collection, token_id LIMIT 1`,
    );
    expect(token, 'the sample chain has an NFT with txs at two heights').toBeDefined();
    const tip = Number(token!.hs[0]);
    await factsStore(store).rewindTo(tip);
    const model = createReadModel({ store, richList: false, chainIdFromBlocks: true });
    try {
      const nft = { kind: 'nft' as const, collection: token!.collection, tokenId: token!.token_id };
      const page = parsePage({}, ['sequence']);
      const heights = (docs: string[]) => docs.map((d) => Number((JSON.parse(d) as { height: string }).height));
      // Any token page holds the tokens at the tip.
      await model.tokens.page(
        { kind: 'collection', collection: token!.collection, tokenId: null },
        'token_id',
        parsePage({}, ['token']),
        new Served(),
      );
      // The next batch's rows land, then the ingest stops before its checkpoint: the tip does not move.
      await ingest(chain.manifest.latestHeight, {
        batchBlocks: 10_000,
        afterInsert: (table) => {
          if (table === 'txs') throw new Error('stopped before the checkpoint');
        },
      });
      expect(await factsStore(store).checkpoint()).toBe(tip);
      expect(await model.tip()).toBe(tip);
      const got = await model.txs.page(nft, null, page, new Served());
      expect(heights(got.docs)).toEqual([tip]);
      expect(got.pagination.total).toBe('1');
    } finally {
      model.status.stop(); // the last test: the store stays as it ends
    }
  });
});
