// bench/ingest-chain.ts in a process of its own (so a benchmark's process and CPU figures hold only what it
// measures): started here, killed when this process exits, and the one JSON line it prints read as its endpoints.
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';

/** What bench/ingest-chain.ts prints once it serves the chain. */
export interface ServedReplica {
  rpcUrl: string;
  restUrl: string;
  evmUrl?: string;
  chainId: string;
  vm: 'evm' | 'move' | 'wasm';
  /** The chain's height: every block is served from the start. */
  blocks: number;
}

/**
 * Start bench/ingest-chain.ts with `args` (its usage line); `ready` resolves with its endpoints, or rejects if it
 * exits first. The caller may do other work while the chain is generated.
 */
export function serveReplicatedChain(
  args: readonly string[],
  o: { cwd?: string } = {},
): {
  proc: ChildProcess;
  ready: Promise<ServedReplica>;
} {
  const proc = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(import.meta.dirname, 'ingest-chain.ts'), ...args],
    { cwd: o.cwd, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  process.on('exit', () => proc.kill('SIGKILL'));
  const ready = new Promise<string>((resolve, reject) => {
    proc.once('exit', (code) => reject(new Error(`bench/ingest-chain.ts exited (${code})`)));
    readline.createInterface({ input: proc.stdout! }).once('line', resolve);
  }).then((line) => JSON.parse(line) as ServedReplica);
  return { proc, ready };
}
