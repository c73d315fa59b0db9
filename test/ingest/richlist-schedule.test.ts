// When the ingest rebuilds the rich list (ingest/richlist-schedule.ts), against a migrated chDB store: only when
// balances moved, at most every `intervalMs` while backfilling, and at the head at most every `headIntervalMs`
// (capped at `intervalMs`), so a live chain does not rebuild the list at every block.
import { rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStore } from '../../clickhouse/client.js';
import { migrate } from '../../clickhouse/migrate.js';
import { richListSchedule } from '../../ingest/richlist-schedule.js';
import { createLogger } from '../../platform/log.js';

const dir = path.join(os.tmpdir(), `richlist-schedule-${process.pid}`);
const store = createStore({ dataDir: dir, readSessions: 1 });
const log = createLogger({ test: 'richlist-schedule' });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(() => migrate(store));
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

function schedule(intervalMs: number, headIntervalMs: number) {
  const built: number[] = [];
  const s = richListSchedule({
    store,
    enabled: true,
    intervalMs,
    headIntervalMs,
    log,
    onBuilt: (h) => built.push(h),
  });
  return { s, built };
}

describe('rich-list snapshot schedule', () => {
  it('builds only when balances moved, and at the head not again before headIntervalMs', async () => {
    const { s, built } = schedule(10_000, 600);
    await s.maybeBuild(1, true);
    expect(built).toEqual([]); // nothing moved
    s.markDirty();
    await s.maybeBuild(2, true);
    expect(built).toEqual([2]); // the first build is not held back
    s.markDirty();
    await s.maybeBuild(3, true);
    await s.maybeBuild(4, true);
    expect(built).toEqual([2]); // within headIntervalMs of the last build
    await sleep(700);
    await s.maybeBuild(5, true);
    expect(built).toEqual([2, 5]);
    await s.maybeBuild(6, true);
    expect(built).toEqual([2, 5]); // clean again
  });

  it('while backfilling waits intervalMs, and a forced build (before stopping) does not wait', async () => {
    const { s, built } = schedule(60_000, 0);
    s.markDirty();
    await s.maybeBuild(10, false);
    s.markDirty();
    await s.maybeBuild(20, false);
    expect(built).toEqual([10]);
    await s.maybeBuild(30, false, true);
    expect(built).toEqual([10, 30]);
  });

  it('caps the head interval at intervalMs', async () => {
    const { s, built } = schedule(0, 60_000);
    s.markDirty();
    await s.maybeBuild(1, true);
    s.markDirty();
    // Not 60 s: the next build comes once five times the last build's time has passed (the 5× rule still holds).
    const deadline = Date.now() + 10_000;
    while (built.length < 2 && Date.now() < deadline) {
      await s.maybeBuild(2, true);
      await sleep(50);
    }
    expect(built).toEqual([1, 2]);
  });
});
