// The embedded engine's nice values (clickhouse/client.ts `queryNice`, `mergeNice`): every path a store's statements
// take (its read sessions, its writer's inserts and the materialized views they feed, its @clickhouse/client
// connection) carries the statement settings, and the store that starts the engine sets the merges' server
// setting. Whether the kernel then lowers a thread's priority is the engine's part (it needs CAP_SYS_NICE to put it
// back); bench/reports/2026-11-27-engine-nice.md has the threads sampled during a backfill.
import { rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Session } from 'chdb';
import { afterAll, expect, it } from 'vitest';
import { createStore } from '../../clickhouse/client.js';

const dir = path.join(os.tmpdir(), `engine-nice-${process.pid}`);
const store = createStore({ dataDir: dir, readSessions: 1, queryNice: 7, mergeNice: 9 });
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

it('gives reads and client statements the query and materialized-view nice values', async () => {
  const query = `SELECT getSetting('os_threads_nice_value_query') AS q,
    getSetting('os_threads_nice_value_materialized_view') AS mv`;
  expect(await store.rows<{ q: number; mv: number }>(query)).toEqual([{ q: 7, mv: 7 }]);
  const viaClient = await (await store.client.query({ query, format: 'JSONEachRow' })).json();
  expect(viaClient).toEqual([{ q: 7, mv: 7 }]);
});

it('gives inserts the query nice value, and keeps the caller’s own settings beside it', async () => {
  // A column's default is computed in the insert's context, so it records the settings the insert ran with.
  await store.exec(`CREATE TABLE nice_probe (k UInt8,
    q Int32 DEFAULT getSetting('os_threads_nice_value_query'),
    d UInt64 DEFAULT getSetting('max_insert_block_size')) ENGINE = MergeTree ORDER BY k`);
  await store.insert('nice_probe', [{ k: 1 }], { max_insert_block_size: 12345 });
  expect(await store.rows('SELECT k, q, d FROM nice_probe')).toEqual([{ k: 1, q: 7, d: '12345' }]);
});

it('starts the engine with the merges’ nice value', async () => {
  const rows = await store.rows<{ value: string }>(
    "SELECT value FROM system.server_settings WHERE name = 'os_threads_nice_value_merge_mutate'",
  );
  expect(rows).toEqual([{ value: '9' }]);
});

it('leaves the statements of other sessions on the same engine at nice 0 (the APIs’ reads)', async () => {
  const other = new Session(dir);
  try {
    const text = (await other.queryAsync("SELECT getSetting('os_threads_nice_value_query') AS q", { format: 'CSV' }))
      .text()
      .trim();
    expect(text).toBe('0');
  } finally {
    other.close();
  }
});
