// Migrations 210/211 on a real embedded store indexed before them: the documents move from tx_docs to
// tx_documents, the contract-calls aggregate neither loses nor double-counts a call, later documents reach it
// through the view on the new table, a rebuild from the facts agrees, and crash recovery deletes by height there.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStore, type Store } from '../../clickhouse/client.js';
import { HEIGHT_TABLES } from '../../clickhouse/facts-store.js';
import { listMigrations, migrate } from '../../clickhouse/migrate.js';
import { rebuildStats } from '../../clickhouse/analytics.js';

let dir: string;
let store: Store;
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'tx-documents-'));
  store = createStore({ dataDir: path.join(dir, 'clickhouse') });
});
afterAll(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

const call = (sequence: number, height: number, contract: string) => ({
  sequence,
  height,
  json: JSON.stringify({
    timestamp: '2026-11-01T10:00:00Z',
    code: 0,
    tx: { body: { messages: [{ '@type': '/minievm.evm.v1.MsgCall', contract_addr: contract }] } },
  }),
});
const calls = async () =>
  (
    await store.rows<{ target: string; n: string }>(
      `SELECT target, toString(sum(calls)) AS n FROM stats_contracts WHERE res = 3600 GROUP BY target ORDER BY target`,
    )
  ).map((r) => [r.target, r.n]);

describe('tx documents in their own small-granule table', () => {
  it('moves the documents of a store indexed before it, counting every call once', async () => {
    // The store as it was before: every migration up to 201.
    const before = path.join(dir, 'migrations-before');
    mkdirSync(before);
    for (const m of listMigrations().filter((m) => m.version < '210'))
      copyFileSync(m.file, path.join(before, path.basename(m.file)));
    await migrate(store, before);
    await store.insert('tx_docs', [call(1_000_001, 1, '0xaa'), call(1_000_002, 1, '0xbb')]);
    expect(await calls()).toEqual([
      ['0xaa', '1'],
      ['0xbb', '1'],
    ]);

    const applied = await migrate(store);
    expect(applied).toEqual(expect.arrayContaining(['210_tx_documents', '211_analytics_tx_documents']));
    const docs = await store.rows<{ sequence: string }>('SELECT sequence FROM tx_documents ORDER BY sequence');
    expect(docs.map((d) => d.sequence)).toEqual(['1000001', '1000002']);
    const [gone] = await store.rows<{ c: string }>(
      "SELECT count() AS c FROM system.tables WHERE database = currentDatabase() AND name = 'tx_docs'",
    );
    expect(gone?.c).toBe('0');
    expect(await calls()).toEqual([
      ['0xaa', '1'],
      ['0xbb', '1'],
    ]);

    // A document written after the upgrade reaches the aggregate through the view on the new table.
    await store.insert('tx_documents', [call(2_000_001, 2, '0xaa')]);
    expect(await calls()).toEqual([
      ['0xaa', '2'],
      ['0xbb', '1'],
    ]);
    // The rebuild reads the same table and agrees.
    await rebuildStats(store);
    expect(await calls()).toEqual([
      ['0xaa', '2'],
      ['0xbb', '1'],
    ]);
    // A second run of every migration changes nothing.
    expect(await migrate(store)).toEqual([]);
  });

  it('is a height table of the ingest (recovery deletes there), and tx_docs no longer is', () => {
    expect(HEIGHT_TABLES).toContain('tx_documents');
    expect(HEIGHT_TABLES).not.toContain('tx_docs');
  });
});
