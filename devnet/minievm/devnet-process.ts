// Start/stop a devnet (start.sh/stop.sh) from TypeScript on a free loopback port base, for benches and tools.
import { execFileSync } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { NodeEndpoints } from './node-client.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const PORT_OFFSETS = [17, 45, 46, 56, 57, 90]; // start.sh: REST, JSON-RPC, WS, P2P, RPC, gRPC
/** Held open for the process's life: another process's freePortBase sees this base as taken. */
const RESERVATION_OFFSET = 99;
/** Bases 20000..32600: every derived port stays below the kernel's ephemeral range (32768+), so an outgoing
 *  connection cannot take a node's port between a stop and a restart on the same base. */
const BASE_MIN = 20_000;
const BASE_SLOTS = 127;

async function isFree(port: number): Promise<boolean> {
  const s = await reserve(port);
  if (!s) return false;
  await new Promise<void>((r) => s.close(() => r()));
  return true;
}

/** Listens on `port` until closed or the process exits (unref'd: it keeps nothing alive); null if it is taken. */
async function reserve(port: number): Promise<Server | null> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(null));
    s.listen(port, '127.0.0.1', () => {
      s.unref();
      resolve(s);
    });
  });
}

/**
 * A PORT_BASE whose six derived ports (see start.sh) are free right now and which no other process using this
 * function holds: test files run in parallel processes, and two of them checking the same base at once would
 * both see it free. The reservation port makes the pick exclusive.
 */
export async function freePortBase(): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const base = BASE_MIN + 100 * Math.floor(Math.random() * BASE_SLOTS);
    const held = await reserve(base + RESERVATION_OFFSET);
    if (!held) continue;
    if ((await Promise.all(PORT_OFFSETS.map((d) => isFree(base + d)))).every(Boolean)) return base;
    held.close();
  }
  throw new Error(`no free port base found in ${BASE_MIN}..${BASE_MIN + 100 * BASE_SLOTS}`);
}

export interface Devnet {
  ep: NodeEndpoints;
  stop(): void;
}

/** start.sh in `home` on a free port base; the returned stop() runs stop.sh (only that node's pid). */
export async function startDevnet(home: string, env: Record<string, string> = {}): Promise<Devnet> {
  const out = execFileSync('bash', [path.join(ROOT, 'devnet/minievm/start.sh'), home], {
    cwd: ROOT,
    env: { ...process.env, PORT_BASE: String(await freePortBase()), ...env },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    timeout: 180_000,
  });
  const kv = Object.fromEntries(
    out
      .trim()
      .split('\n')
      .map((l) => l.split('=', 2) as [string, string]),
  );
  return {
    ep: {
      chainId: kv.CHAIN_ID ?? '',
      cometRpc: kv.COMETBFT_RPC_URL ?? '',
      rest: kv.COSMOS_REST_URL ?? '',
      evmRpc: kv.EVM_JSONRPC_URL ?? '',
    },
    stop: () => execFileSync('bash', [path.join(ROOT, 'devnet/minievm/stop.sh'), home], { stdio: 'inherit' }),
  };
}
