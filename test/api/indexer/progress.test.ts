// The dashboard's ingest rate (api/indexer/read/progress.ts) against a migrated chDB store: blocks a second over the
// last minute of checkpoints, read from the newest checkpoints by key (at most 1,000), not a scan of all of them.
import { rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ingestRate } from '../../../api/indexer/read/progress.js';
import { createStore } from '../../../clickhouse/client.js';
import { migrate } from '../../../clickhouse/migrate.js';

const dir = path.join(os.tmpdir(), `progress-${process.pid}`);
const store = createStore({ dataDir: dir, readSessions: 1 });

beforeAll(() => migrate(store));
beforeEach(() => store.exec('TRUNCATE TABLE ingest_checkpoints'));
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Checkpoints of heights `first`, `first + step`, … written `everyMs` apart, the last one `endMsAgo` ago. */
async function checkpoints(n: number, first: number, step: number, everyMs: number, endMsAgo = 0) {
  const now = Date.now();
  await store.insert(
    'ingest_checkpoints',
    Array.from({ length: n }, (_, i) => ({
      height: first + i * step,
      written_at: new Date(now - endMsAgo - (n - 1 - i) * everyMs).toISOString().replace('T', ' ').replace('Z', ''),
    })),
  );
}

describe('ingest rate over the last minute of checkpoints', () => {
  it('is null with fewer than two checkpoints', async () => {
    expect(await ingestRate(store)).toBeNull();
    await checkpoints(1, 10, 1, 1000);
    expect(await ingestRate(store)).toBeNull();
  });

  it('is null when the ingest wrote nothing in the last minute (stopped an hour ago), not its old rate', async () => {
    await checkpoints(10, 1, 1, 1000, 3_600_000);
    expect(await ingestRate(store)).toBeNull();
  });

  it('counts only the last minute', async () => {
    // An old stretch at 100 blocks a checkpoint, then the last 30 s at 2 blocks every 500 ms (4 blocks/s).
    await checkpoints(50, 100, 100, 1000, 120_000);
    await checkpoints(61, 10_000, 2, 500);
    expect(await ingestRate(store)).toBeCloseTo(4, 5);
  });

  it('reads the rate from the newest 1,000 checkpoints when more came in the minute', async () => {
    // 2,000 checkpoints of 10 blocks, then 1,000 of one, all 10 ms apart and inside the minute: the newest 1,000
    // span 9.99 s for 999 blocks (100 a second); all 3,000 would give about 700.
    await checkpoints(2000, 1, 10, 10, 10_000);
    await checkpoints(1000, 20_001, 1, 10);
    expect(await ingestRate(store)).toBeCloseTo(100, 5);
  });
});
