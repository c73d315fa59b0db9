// Foundation: config validation, migrations (idempotent, recorded), cluster DDL syntax, compose file.
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { createStore } from '../../clickhouse/client.js';
import { listMigrations, migrate, splitStatements } from '../../clickhouse/migrate.js';
import { ConfigError, loadConfig } from '../../platform/config.js';

const root = path.resolve(import.meta.dirname, '..', '..');
const dataDir = path.join(os.tmpdir(), `foundation-${process.pid}`);
const store = createStore({ dataDir });
afterAll(async () => {
  await store.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('config', () => {
  it('has embedded defaults', () => {
    const c = loadConfig({});
    expect(c.INDEXER_PORT).toBe(8080);
    expect(c.ROUTER_PORT).toBe(8081);
    expect(c.DATA_DIR).toBe(path.resolve('./data'));
    expect(c.SAMPLE_CHAIN).toBe('evm');
    expect(c.CLICKHOUSE_URL).toBeUndefined();
  });
  it('rejects a bad value with one line naming the variable', () => {
    expect(() => loadConfig({ INDEXER_PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig({ INDEXER_PORT: 'eighty' })).toThrow(/^config: INDEXER_PORT /);
    expect(() => loadConfig({ VM: 'solana' })).toThrow(/^config: VM /);
    expect(() => loadConfig({ CLICKHOUSE_URL: 'not a url' })).toThrow(/^config: CLICKHOUSE_URL /);
  });
  it('requires the REST and EVM URLs that a configured chain needs', () => {
    expect(() => loadConfig({ COMETBFT_RPC_URL: 'http://127.0.0.1:26657', CHAIN_ID: 'x-1', VM: 'move' })).toThrow(
      /COSMOS_REST_URL/,
    );
    expect(() =>
      loadConfig({
        COMETBFT_RPC_URL: 'http://127.0.0.1:26657',
        COSMOS_REST_URL: 'http://127.0.0.1:1317',
        CHAIN_ID: 'x-1',
        VM: 'evm',
      }),
    ).toThrow(/EVM_JSONRPC_URL/);
    expect(
      loadConfig({
        COMETBFT_RPC_URL: 'http://127.0.0.1:26657',
        COSMOS_REST_URL: 'http://127.0.0.1:1317',
        CHAIN_ID: 'x-1',
        VM: 'move',
      }).VM,
    ).toBe('move');
  });
});

describe('migrations', () => {
  it('apply once, in order, and are recorded', async () => {
    const first = await migrate(store);
    expect(first).toEqual(listMigrations().map((m) => m.version));
    expect(await migrate(store)).toEqual([]);
    const recorded = await store.rows<{ version: string }>(
      'SELECT version FROM schema_migrations FINAL ORDER BY version',
    );
    expect(recorded.map((r) => r.version)).toEqual(first);
    const tables = (
      await store.rows<{ name: string }>('SELECT name FROM system.tables WHERE database = currentDatabase()')
    ).map((r) => r.name);
    for (const t of [
      'blocks',
      'txs',
      'evm_logs',
      'account_txs',
      'msg_type_txs',
      'tx_hashes',
      'nft_events',
      'nft_holdings',
      'balance_deltas',
      'richlist',
    ])
      expect(tables).toContain(t);
    // Migration 310's storage changes hold on the tables the ingest writes (decision 010).
    const codecs = await store.rows<{ table: string; codec: string }>(
      `SELECT table, compression_codec AS codec FROM system.columns
       WHERE database = currentDatabase() AND name = 'hash' AND table IN ('txs', 'tx_hashes', 'evm_txs') ORDER BY table`,
    );
    expect(codecs).toEqual(['evm_txs', 'tx_hashes', 'txs'].map((table) => ({ table, codec: 'CODEC(ZSTD(1))' })));
    const [docs] = await store.rows<{ q: string }>(
      "SELECT create_table_query AS q FROM system.tables WHERE database = currentDatabase() AND name = 'tx_documents'",
    );
    expect(docs!.q).toMatch(/index_granularity = 4, min_compress_block_size = 16384, max_compress_block_size = 65536/);
  });

  it('cluster DDL beside the single-node DDL parses (formatQuery) and covers every single-node table', async () => {
    const clusterDir = path.join(root, 'clickhouse', 'cluster');
    const files = readdirSync(clusterDir).filter((f) => f.endsWith('.sql'));
    expect(files.length).toBeGreaterThan(0);
    const clusterSql = files.map((f) => readFileSync(path.join(clusterDir, f), 'utf8')).join('\n');
    const statements = splitStatements(clusterSql);
    for (const stmt of statements) {
      const [r] = await store.rows<{ q: string }>('SELECT formatQuery({s:String}) AS q', { s: stmt });
      expect(r!.q.length).toBeGreaterThan(0);
    }
    expect(clusterSql).toMatch(/ReplicatedMergeTree/);
    expect(clusterSql).toMatch(/Distributed\(/);
    expect(clusterSql).toMatch(/ON CLUSTER/);
    const singleTables = new Set<string>();
    for (const m of listMigrations())
      for (const x of readFileSync(m.file, 'utf8').matchAll(
        /CREATE TABLE IF NOT EXISTS (\w+)|DROP TABLE IF EXISTS (\w+)/g,
      ))
        if (x[2]) singleTables.delete(x[2]);
        else singleTables.add(x[1]!);
    expect(singleTables.has('tx_documents')).toBe(true);
    for (const t of singleTables)
      expect(clusterSql, `cluster DDL for ${t}`).toMatch(new RegExp(`CREATE TABLE IF NOT EXISTS ${t}_local\\b`));
  });
});

describe('docker-compose.yml', () => {
  it('is valid compose YAML with ClickHouse, Temporal (own DB) and the api, ingest and worker processes', () => {
    const doc = parse(readFileSync(path.join(root, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
      services: Record<string, { image?: string; build?: unknown; environment?: Record<string, string> }>;
    };
    const s = doc.services;
    expect(s.clickhouse?.image).toMatch(/clickhouse-server/);
    expect(s.temporal?.image).toMatch(/temporal/);
    expect(s['temporal-db']?.image).toMatch(/postgres/);
    for (const role of ['ingest', 'indexer-api', 'router-api', 'worker']) {
      expect(s[role]?.build ?? s[role]?.image, role).toBeTruthy();
      expect(s[role]?.environment?.CLICKHOUSE_URL).toBe('http://clickhouse:8123');
    }
    expect(s.worker?.environment?.ROLE).toBe('worker');
  });

  it('migrates once before any app process starts, and publishes ClickHouse and Temporal on loopback only', () => {
    type Service = {
      environment?: Record<string, string>;
      depends_on?: Record<string, { condition: string }>;
      ports?: string[];
    };
    const s = (
      parse(readFileSync(path.join(root, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
        services: Record<string, Service>;
      }
    ).services;
    expect(s.migrate?.environment?.ROLE).toBe('migrate');
    expect(loadConfig({ ROLE: 'migrate' }).ROLE).toBe('migrate');
    // Several processes migrating at once repeated the one-time fills (INSERT … SELECT) and double-counted.
    for (const role of ['ingest', 'indexer-api', 'router-api', 'worker'])
      expect(s[role]?.depends_on?.migrate?.condition, role).toBe('service_completed_successfully');
    expect(s.migrate?.depends_on?.migrate).toBeUndefined();
    for (const infra of ['clickhouse', 'temporal'])
      for (const p of s[infra]?.ports ?? []) expect(p, infra).toMatch(/^127\.0\.0\.1:/);
  });
});

describe('cluster DDL file', () => {
  it('is exactly what the generator derives from the current migrations (no drift)', async () => {
    const { clusterDdl, clusterDdlFile } = await import('../../clickhouse/cluster-ddl.js');
    expect(readFileSync(clusterDdlFile, 'utf8')).toBe(clusterDdl());
  });
});
