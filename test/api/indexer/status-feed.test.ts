// The status feed on a real embedded store: the first read waits for the engine, later reads come from memory
// (a new checkpoint is not seen at once), and the background refresh brings it within a few periods.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statusFeed } from '../../../api/indexer/read/status-feed.js';
import { createStore, type Store } from '../../../clickhouse/client.js';
import { migrate } from '../../../clickhouse/migrate.js';

let dir: string;
let store: Store;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'status-feed-'));
  store = createStore({ dataDir: dir });
  await migrate(store);
});
afterAll(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('status feed', () => {
  it('answers from memory and refreshes in the background while in use', async () => {
    const feed = statusFeed(store, { internalTxs: false, richList: false, chainId: true }, { intervalMs: 50 });
    try {
      expect((await feed.facts()).height).toBeNull(); // empty store: nothing indexed
      expect(await feed.tip()).toBe(0);
      await store.insert('ingest_checkpoints', [{ height: 7 }]);
      // straight after the write the memory copy is still the old one: no query on the request path
      expect(await feed.tip()).toBe(0);
      let seen = 0;
      for (let i = 0; i < 40 && seen !== 7; i++) {
        await sleep(25);
        seen = await feed.tip();
      }
      expect(seen).toBe(7);
    } finally {
      feed.stop();
    }
  });

  it('moves at once when poked by the ingest, even with a long refresh period', async () => {
    const feed = statusFeed(
      store,
      { internalTxs: false, richList: false, chainId: true },
      { intervalMs: 60_000, maxAgeMs: 60_000 },
    );
    try {
      const before = await feed.tip();
      await store.insert('ingest_checkpoints', [{ height: before + 10 }]);
      feed.poke();
      // a second write while that read may be in flight is not lost: one more read follows it
      await store.insert('ingest_checkpoints', [{ height: before + 11 }]);
      feed.poke();
      let seen = before;
      for (let i = 0; i < 40 && seen !== before + 11; i++) {
        await sleep(10);
        seen = await feed.tip();
      }
      expect(seen).toBe(before + 11);
    } finally {
      feed.stop();
    }
  });

  it('waits for a fresh read when its copy is older than maxAgeMs (an idle API)', async () => {
    const feed = statusFeed(
      store,
      { internalTxs: false, richList: false, chainId: true },
      { intervalMs: 10_000, maxAgeMs: 100 },
    );
    try {
      const before = await feed.tip();
      await store.insert('ingest_checkpoints', [{ height: before + 1 }]);
      await sleep(150);
      expect(await feed.tip()).toBe(before + 1);
    } finally {
      feed.stop();
    }
  });

  it('calls onRewind when the indexed height goes down (a re-ingest moved the checkpoint back)', async () => {
    let rewinds = 0;
    const feed = statusFeed(
      store,
      { internalTxs: false, richList: false, chainId: true },
      { intervalMs: 10_000, maxAgeMs: 50, onRewind: () => rewinds++ },
    );
    try {
      const top = await feed.tip();
      expect(top).toBeGreaterThan(0);
      await store.exec('DELETE FROM ingest_checkpoints WHERE height >= {h:UInt64}', { h: top });
      await sleep(80);
      expect(await feed.tip()).toBeLessThan(top);
      expect(rewinds).toBe(1);
    } finally {
      feed.stop();
    }
  });
});
