// A real minievm devnet whose history the node-read benchmarks read back (bench/node-tx-reads.ts,
// bench/tx-search-history.ts). NODE_HOME=<dir> keeps the chain between runs (a later run resumes it); without it
// the chain lives in a temporary directory removed at close.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { requestText } from '../chain/http-keepalive.js';
import { type Devnet, startDevnet } from '../devnet/minievm/devnet-process.js';
import type { CometTx } from '../devnet/minievm/node-client.js';
import { cpuMs } from './side-by-side.js';

export interface HistoryNode {
  devnet: Devnet;
  /** CPU time (user + system, ms) the node's process has used so far. */
  nodeCpuMs(): number;
  /** The body of a REST GET on the node; an error for any answer but 200. */
  get(pathAndQuery: string, timeoutMs: number): Promise<string>;
  close(): void;
}

/** Starts (or resumes, in NODE_HOME) a devnet with `senders` funded accounts besides the deployer. */
export async function startHistoryNode(name: string, senders: number): Promise<HistoryNode> {
  const tmp = mkdtempSync(path.join(os.tmpdir(), `${name}-`));
  const home = process.env.NODE_HOME ? path.resolve(process.env.NODE_HOME) : path.join(tmp, 'node');
  const made = existsSync(path.join(home, 'config', 'genesis.json'));
  const devnet = await startDevnet(home, { DEVNET_ACCOUNTS: String(senders + 1), ...(made ? { RESUME: '1' } : {}) });
  const pid = Number(readFileSync(path.join(home, 'minitiad.pid'), 'utf8'));
  return {
    devnet,
    nodeCpuMs: () => cpuMs([pid]),
    async get(p, timeoutMs) {
      const r = await requestText(devnet.ep.rest + p, { timeoutMs });
      if (r.status !== 200) throw new Error(`GET ${p}: HTTP ${r.status} ${r.text.slice(0, 200)}`);
      return r.text;
    },
    close() {
      devnet.stop();
      rmSync(tmp, { recursive: true, force: true });
    },
  };
}

/** Each height's tx hashes (uppercase hex) in block order, from CometBFT's tx_search (its hash is the raw tx's sha256). */
export function hashesByHeight(txs: readonly CometTx[]): Map<number, string[]> {
  const out = new Map<number, string[]>();
  for (const t of [...txs].sort((a, b) => Number(a.height) - Number(b.height) || a.index - b.index)) {
    const h = Number(t.height);
    const list = out.get(h) ?? [];
    if (list.length === 0) out.set(h, list);
    list.push(t.hash.toUpperCase());
  }
  return out;
}
