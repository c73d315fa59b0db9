// The one config schema (platform/config.ts) against its one documentation table (docs/configuration.md),
// and the production code against the schema: no variable is read that the schema does not know.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ConfigError, configSchema, configSection, loadConfig } from '../../platform/config.js';
import { feedIntervalFromEnv, timingsFromEnv } from '../../tracking/timings.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const shape = configSchema.innerType().shape;

/** Rows of the docs table: variable → its Default cell. */
function documented(): Map<string, string> {
  const md = readFileSync(path.join(root, 'docs/configuration.md'), 'utf8');
  const rows = new Map<string, string>();
  for (const line of md.split('\n')) {
    const m = /^\| `([A-Z][A-Z0-9_]*)` \| ([^|]*) \|/.exec(line);
    if (!m) continue;
    expect(rows.has(m[1]!), `${m[1]} documented twice`).toBe(false);
    rows.set(m[1]!, m[2]!.trim());
  }
  return rows;
}

function defaultCell(schema: (typeof shape)[keyof typeof shape]): string {
  const r = schema.safeParse(undefined);
  if (!r.success || r.data === undefined) return '—';
  return r.data === '' ? '`""`' : `\`${String(r.data)}\``;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = path.join(dir, f);
    if (statSync(p).isDirectory()) return sourceFiles(p);
    return p.endsWith('.ts') ? [p] : [];
  });
}

describe('configuration', () => {
  it('docs/configuration.md documents exactly the schema variables, once each', () => {
    const rows = documented();
    expect([...rows.keys()].sort()).toEqual(Object.keys(shape).sort());
  });

  it('the documented defaults are the schema defaults', () => {
    const rows = documented();
    for (const [k, schema] of Object.entries(shape)) {
      const cell = rows.get(k) ?? '';
      expect(cell.split(' ')[0], k).toBe(defaultCell(schema));
    }
  });

  it('production code reads no environment variable the schema does not know', () => {
    const prod = ['api', 'ingest', 'clickhouse', 'chain', 'routing', 'workflows', 'activities', 'tracking', 'platform'];
    const read = new Set<string>();
    for (const f of prod.flatMap((d) => sourceFiles(path.join(root, d)))) {
      const src = readFileSync(f, 'utf8');
      for (const m of src.matchAll(/process\.env\.([A-Z][A-Z0-9_]*)/g)) read.add(m[1]!);
      // Indexing process.env by a computed name would escape this check.
      expect(/process\.env\[/.test(src), f).toBe(false);
    }
    expect(read.size).toBeGreaterThan(0);
    for (const k of read) expect(Object.keys(shape), k).toContain(k);
  });

  it('TRACKING_* timings are validated by the same schema, with one-line errors', () => {
    expect(timingsFromEnv({}).pollIntervalMs).toBe(1000);
    expect(timingsFromEnv({ TRACKING_IBC_STALL_MS: '5000' }).ibcStallMs).toBe(5000);
    expect(feedIntervalFromEnv({})).toBe(250);
    // Webhook retries start at 1 s (workflows/transfer.ts): a shorter ceiling is a retry policy Temporal refuses,
    // which would give up every event unsent.
    expect(timingsFromEnv({ TRACKING_WEBHOOK_MAX_BACKOFF_MS: '1000' }).webhookMaxBackoffMs).toBe(1000);
    expect(() => timingsFromEnv({ TRACKING_WEBHOOK_MAX_BACKOFF_MS: '500' })).toThrow(/TRACKING_WEBHOOK_MAX_BACKOFF_MS/);
    expect(() => timingsFromEnv({ TRACKING_POLL_INTERVAL_MS: '10' })).toThrow(ConfigError);
    expect(() => timingsFromEnv({ TRACKING_POLL_INTERVAL_MS: '10' })).toThrow(/^config: TRACKING_POLL_INTERVAL_MS /);
    expect(() => loadConfig({ TRACKING_FEED_INTERVAL_MS: 'often' })).toThrow(/^config: TRACKING_FEED_INTERVAL_MS /);
    expect(configSection(['TEMPORAL_CLI'], { TEMPORAL_CLI: '/bin/temporal' })).toEqual({
      TEMPORAL_CLI: '/bin/temporal',
    });
  });

  it('refuses endpoints without an http(s) scheme, a port of spaces, and the two APIs on one port', () => {
    // `localhost:26657` parses as a URL whose scheme is `localhost:`; a file URL is no endpoint.
    expect(() => loadConfig({ COMETBFT_RPC_URL: 'localhost:26657' })).toThrow(
      /^config: COMETBFT_RPC_URL must be an http/,
    );
    expect(() => loadConfig({ CLICKHOUSE_URL: 'file:///etc/passwd' })).toThrow(
      /^config: CLICKHOUSE_URL must be an http/,
    );
    expect(loadConfig({ CLICKHOUSE_URL: 'https://ch.example:8443' }).CLICKHOUSE_URL).toBe('https://ch.example:8443');
    // A port of spaces coerced to 0, a random port.
    expect(() => loadConfig({ INDEXER_PORT: ' ' })).toThrow(/^config: INDEXER_PORT /);
    expect(() => loadConfig({ INDEXER_PORT: '9000', ROUTER_PORT: '9000' })).toThrow(
      /^config: ROUTER_PORT must differ from INDEXER_PORT/,
    );
    expect(loadConfig({ INDEXER_PORT: '0', ROUTER_PORT: '0' }).ROUTER_PORT).toBe(0);
    expect(loadConfig({ ROLE: 'indexer', INDEXER_PORT: '9000', ROUTER_PORT: '9000' }).INDEXER_PORT).toBe(9000);
  });
});
