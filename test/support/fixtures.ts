// Loading recorded data: the real Initia txs of devnet/recorded/initia-tx-decoder (sources in devnet/recorded/SOURCES.md,
// shared with the sample chains) and the test-only recordings of test/fixtures (test/fixtures/SOURCES.md).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const fixturesDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');

export const recordedDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'devnet', 'recorded');

/** A recorded JSON file: `initia-tx-decoder/…` from devnet/recorded, anything else from test/fixtures. */
export function loadFixture<T = Record<string, unknown>>(relPath: string): T {
  const root = relPath.startsWith('initia-tx-decoder/') ? recordedDir : fixturesDir;
  return JSON.parse(readFileSync(path.join(root, relPath), 'utf8')) as T;
}

/** An LCD `tx_response` export from the tx-decoder fixtures. */
export interface TxResponseFixture {
  txhash: string;
  height: string;
  code: number;
  codespace: string;
  timestamp: string;
  gas_wanted: string;
  gas_used: string;
  data: string;
  raw_log: string;
  info: string;
  tx: { '@type'?: string; body: { messages: { '@type': string }[] }; auth_info: unknown; signatures: string[] };
  events: { type: string; attributes: { key: string; value: string; index?: boolean }[] }[];
}

export function txResponse(relPath: string, exportName: string): TxResponseFixture {
  const all = loadFixture<Record<string, TxResponseFixture>>(`initia-tx-decoder/${relPath}`);
  const t = all[exportName];
  if (!t) throw new Error(`fixture ${relPath} has no export ${exportName}`);
  return t;
}
