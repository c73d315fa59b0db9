// When the ingest rebuilds the rich list (ingest/richlist-schedule.ts), against a migrated chDB store: only when
// balances moved, at most every `intervalMs` while backfilling, and at the head at most every `headIntervalMs`
// (capped at `intervalMs`), so a live chain does not rebuild the list at every block.
import { rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createStore } from '../../clickhouse/client.js';
import { migrate } from '../../clickhouse/migrate.js';
import { richListSchedule } from '../../ingest/richlist-schedule.js';
import { createLogger } from '../../platform/log.js';

const dir = path.join(os.tmpdir(), `richlist-schedule-${process.pid}`);
const store = createStore({ dataDir: dir, readSessions: 1 });
const log = createLogger({ test: 'richlist-schedule' });

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

// The schedule reads the clock through Date.now(): it is set by hand here (the store's own timers stay real), so the
// bounds are checked to the millisecond, and a build takes 0 ms of this clock (5× it never holds a build back).
let now = Date.UTC(2026, 10, 29);
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(now);
});
afterEach(() => vi.useRealTimers());
const at = (ms: number) => vi.setSystemTime(now + ms);

describe('rich-list snapshot schedule', () => {
  it('builds only when balances moved, and at the head not again before headIntervalMs', async () => {
    const { s, built } = schedule(10_000, 600);
    await s.maybeBuild(1, true);
    expect(built).toEqual([]); // nothing moved
    s.markDirty();
    await s.maybeBuild(2, true);
    expect(built).toEqual([2]); // the first build is not held back
    s.markDirty();
    at(300);
    await s.maybeBuild(3, true);
    at(599);
    await s.maybeBuild(4, true);
    expect(built).toEqual([2]); // within headIntervalMs of the last build
    at(600);
    await s.maybeBuild(5, true);
    expect(built).toEqual([2, 5]);
    at(5_000);
    await s.maybeBuild(6, true);
    expect(built).toEqual([2, 5]); // clean again
    now += 10_000;
  });

  it('while backfilling waits intervalMs, and a forced build (before stopping) does not wait', async () => {
    const { s, built } = schedule(60_000, 0);
    s.markDirty();
    await s.maybeBuild(10, false);
    s.markDirty();
    at(59_999);
    await s.maybeBuild(20, false);
    expect(built).toEqual([10]);
    await s.maybeBuild(30, false, true);
    expect(built).toEqual([10, 30]);
    now += 100_000;
  });

  it('caps the head interval at intervalMs', async () => {
    const { s, built } = schedule(500, 60_000);
    s.markDirty();
    await s.maybeBuild(1, true);
    s.markDirty();
    at(499);
    await s.maybeBuild(2, true);
    expect(built).toEqual([1]);
    at(500);
    await s.maybeBuild(3, true);
    expect(built).toEqual([1, 3]);
    now += 100_000;
  });
});
