// The held tokens follow a chain being indexed: the ingest runs a sample chain to the tip in steps, and after each
// step the memory, brought up by deltas only (one full load at the first step), equals a fresh full load and the
// engine's own token lists, for every collection and every holder. Over each sample chain, real chDB.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStore, type Store } from '../../../clickhouse/client.js';
import { migrate } from '../../../clickhouse/migrate.js';
import { listTokens, type TokenOrder, type TokenScope } from '../../../clickhouse/queries/tokens.js';
import { type TokenIndex, TokenMemory, type TokenSource } from '../../../api/indexer/read/token-memory.js';
import { tokenSource } from '../../../api/indexer/read/tokens.js';
import { factsStore } from '../../../clickhouse/facts-store.js';
import { createLogger } from '../../../platform/log.js';
import { startSampleChain } from '../../../devnet/sample-chains/serve.js';
import { sampleIngest } from '../../support/sample.js';

const ALL = { offset: 0, limit: 1_000_000 };

describe.each(['evm', 'move', 'wasm'] as const)('held tokens follow the ingest step by step (%s)', (kind) => {
  let chain: Awaited<ReturnType<typeof startSampleChain>>;
  let store: Store;
  const dir = mkdtempSync(path.join(os.tmpdir(), `token-memory-${kind}-`));

  beforeAll(async () => {
    chain = await startSampleChain(kind);
    store = createStore({ dataDir: dir });
    await migrate(store);
  });
  afterAll(async () => {
    await chain?.stop();
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function ingestTo(stopAtHeight: number): Promise<void> {
    const { source, ingest } = sampleIngest(store, chain, {
      log: createLogger({ test: `token-memory-${kind}` }),
      batchBlocks: 3,
      fetchConcurrency: 2,
      pollIntervalMs: 20,
      stopAtHeight,
    });
    await ingest.run();
    source.close();
  }

  /** Every collection and every holder's list, in both orders, from the index and from the engine. */
  async function expectSameLists(index: TokenIndex, fresh: TokenIndex): Promise<number> {
    const cols = await store.rows<{ c: string }>('SELECT DISTINCT collection AS c FROM nft_token_state');
    const owners = await store.rows<{ o: string }>('SELECT DISTINCT owner AS o FROM nft_holdings');
    let rows = 0;
    for (const order of ['token_id', 'height'] as TokenOrder[]) {
      const q = { order, desc: false, cursor: null, ...ALL };
      const check = async (scope: TokenScope, held: ReturnType<TokenIndex['ownerPage']>, again: typeof held) => {
        const engine = await listTokens(store, scope, order, { desc: false, ...ALL }, null);
        expect(held.rows, JSON.stringify(scope)).toEqual(engine.rows);
        expect(again.rows).toEqual(engine.rows);
        rows += engine.rows.length;
      };
      for (const { c } of cols)
        await check(
          { kind: 'collection', collection: c, tokenId: null },
          index.collectionPage(c, null, q),
          fresh.collectionPage(c, null, q),
        );
      for (const { o } of owners)
        await check(
          { kind: 'owner', owner: o, collection: null, tokenId: null },
          index.ownerPage(o, null, null, q),
          fresh.ownerPage(o, null, null, q),
        );
    }
    return rows;
  }

  it('equals a fresh load and the engine after every step, with one full load', async () => {
    const base = tokenSource(store);
    const calls = { all: 0, deltas: 0, changed: 0 };
    const counted: TokenSource = {
      stateRows: () => base.stateRows(),
      all: (max) => {
        calls.all++;
        return base.all(max);
      },
      changedAbove: async (h) => {
        calls.deltas++;
        const got = await base.changedAbove(h);
        calls.changed += got.length;
        return got;
      },
    };
    const memory = new TokenMemory(counted);
    const latest = chain.manifest.latestHeight;
    const steps = [1, 2, 3, 4, 5, 6].map((i) => Math.ceil((latest * i) / 6));
    let rows = 0;
    for (const h of steps) {
      await ingestTo(h);
      const tip = await factsStore(store).checkpoint();
      expect(tip).toBe(h);
      const index = await memory.at(tip);
      const fresh = await new TokenMemory(base).at(tip);
      expect(index).not.toBeNull();
      expect(index!.size).toBe(fresh!.size);
      rows += await expectSameLists(index!, fresh!);
    }
    expect(calls.all).toBe(1);
    expect(calls.deltas).toBe(steps.length - 1);
    // the chain's tokens changed along the way, and the lists were not empty
    expect(calls.changed).toBeGreaterThan(0);
    expect(rows).toBeGreaterThan(0);
  }, 240_000);
});
