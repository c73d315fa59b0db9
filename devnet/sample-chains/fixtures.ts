// Reads the recorded Initia txs copied (unchanged) from initia-labs/tx-decoder into
// devnet/recorded/initia-tx-decoder (see devnet/recorded/SOURCES.md).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { TxJson, TxResult } from '../chain-sim/types.js';

export const FIXTURE_ROOT = fileURLToPath(new URL('../recorded/initia-tx-decoder/', import.meta.url));

export interface IndexRow {
  file: string;
  export: string;
  kind: 'cosmos_tx_response' | 'evm_tx+receipt' | 'mock_api';
  txhash?: string;
  hash?: string;
  height?: string;
  timestamp?: string;
  code?: number;
  msgs?: string[];
  chain_guess?: string;
  synthetic?: boolean;
}

/** LCD tx_response as recorded (hex data, SDK 0.50 events). */
export interface RecordedTxResponse {
  code: number;
  codespace?: string;
  data?: string;
  events: TxResult['events'];
  gas_used: string;
  gas_wanted: string;
  height: string;
  info?: string;
  raw_log?: string;
  timestamp: string;
  tx: TxJson;
  txhash: string;
}

/** viem-normalised EVM tx + receipt (decimal strings, boolean status). */
export interface RecordedEvmPayload {
  tx: Record<string, unknown> & { hash: string; from: string; to: string | null; input: string; nonce: string };
  txReceipt: Record<string, unknown> & { logs: Array<Record<string, unknown>>; transactionHash: string };
}

export interface MockApi {
  GET?: Record<string, unknown> | unknown[];
  POST?: Record<string, Array<{ payload: unknown; response: unknown }>> | unknown[];
}

const fileCache = new Map<string, Record<string, unknown>>();

export function loadFile(file: string): Record<string, unknown> {
  let f = fileCache.get(file);
  if (!f) {
    f = JSON.parse(readFileSync(`${FIXTURE_ROOT}${file}`, 'utf8')) as Record<string, unknown>;
    fileCache.set(file, f);
  }
  return f;
}

export function loadIndex(): IndexRow[] {
  return loadFile('INDEX.json') as unknown as IndexRow[];
}

export function loadExport<T>(file: string, exportName: string): T {
  const v = loadFile(file)[exportName];
  if (v === undefined) throw new Error(`fixture ${file} has no export ${exportName}`);
  return v as T;
}

/** Every recorded GET answer of every mock_api export in the given files (path with query → body). */
export function recordedGets(files: string[]): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const row of loadIndex()) {
    if (row.kind !== 'mock_api' || !files.includes(row.file)) continue;
    const api = loadExport<MockApi>(row.file, row.export);
    if (api.GET && !Array.isArray(api.GET))
      for (const [k, v] of Object.entries(api.GET)) if (!out.has(k)) out.set(k, v);
  }
  return out;
}

/** Full LCD envelopes `{tx, tx_response}` recorded inside mock_api exports, keyed by lowercase original hash. */
export function recordedEnvelopes(file: string): Map<string, { tx: TxJson; tx_response: RecordedTxResponse }> {
  const out = new Map<string, { tx: TxJson; tx_response: RecordedTxResponse }>();
  for (const [path, body] of recordedGets([file])) {
    const m = /^\/cosmos\/tx\/v1beta1\/txs\/([0-9a-fA-F]{64})$/.exec(path);
    if (m && body && typeof body === 'object' && 'tx_response' in body) {
      out.set((m[1] ?? '').toLowerCase(), body as { tx: TxJson; tx_response: RecordedTxResponse });
    }
  }
  return out;
}

/** `cosmos_cosmosTxHashByTxHash` answers recorded in a file: EVM hash → Cosmos hash (both lowercase). */
export function recordedCosmosHashes(file: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const row of loadIndex()) {
    if (row.kind !== 'mock_api' || row.file !== file) continue;
    const api = loadExport<MockApi>(row.file, row.export);
    const posts = api.POST && !Array.isArray(api.POST) ? (api.POST['/'] ?? []) : [];
    for (const p of posts) {
      const payload = p.payload as { method?: string; params?: string[] };
      const response = p.response as { result?: string };
      if (payload.method === 'cosmos_cosmosTxHashByTxHash' && payload.params?.[0] && response.result) {
        out.set(payload.params[0].toLowerCase(), response.result.toLowerCase());
      }
    }
  }
  return out;
}
