// Ordered SQL migrations (`clickhouse/migrations/NNN_name.sql`), applied once each and recorded in
// `schema_migrations`. Every statement is written to be idempotent (IF NOT EXISTS), so a crash between
// a statement and its record is harmless: the file is simply applied again.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Store } from './client.js';

export const migrationsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

export function splitStatements(sql: string): string[] {
  return sql
    .split('\n')
    .filter((l) => !l.trimStart().startsWith('--'))
    .join('\n')
    .split(/;\s*(?:\n|$)/)
    .map((s) => s.trim())
    .filter(Boolean);
}

export function listMigrations(dir = migrationsDir): { version: string; file: string }[] {
  return readdirSync(dir)
    .filter((f) => /^\d{3}_[a-z0-9_]+\.sql$/.test(f))
    .sort()
    .map((f) => ({ version: f.replace(/\.sql$/, ''), file: path.join(dir, f) }));
}

export async function migrate(store: Store, dir = migrationsDir): Promise<string[]> {
  await store.exec(
    `CREATE TABLE IF NOT EXISTS schema_migrations (version String, applied_at DateTime64(3, 'UTC') DEFAULT now64(3))
     ENGINE = ReplacingMergeTree ORDER BY version`,
  );
  const done = new Set(
    (await store.rows<{ version: string }>('SELECT version FROM schema_migrations FINAL')).map((r) => r.version),
  );
  const applied: string[] = [];
  for (const m of listMigrations(dir)) {
    if (done.has(m.version)) continue;
    for (const stmt of splitStatements(readFileSync(m.file, 'utf8'))) await store.exec(stmt);
    await store.insert('schema_migrations', [{ version: m.version }]);
    applied.push(m.version);
  }
  return applied;
}
