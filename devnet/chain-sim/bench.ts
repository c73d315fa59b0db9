// Serving throughput of chain-sim on the lazy replicated chain, measured the way an ingest reads it.
//   npx tsx devnet/chain-sim/bench.ts [--blocks 300] [--txs-per-block 100] [--concurrency 4] [--in-process]
// Per height it requests what the ingest needs: CometBFT block + block_results, REST txs/block (one page
// of up to 100) and eth_getBlockReceipts; every block is produced on first request (cold, no cache hit).
// By default the server runs in a child process so the client's parsing does not share its event loop.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { generateReplicatedChain } from '../sample-chains/replicated.js';
import { startChainServer } from './server.js';

function arg(name: string, dflt: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : dflt;
  if (!Number.isSafeInteger(v) || v < 1) throw new Error(`--${name} must be a positive integer`);
  return v;
}

interface Urls {
  rpcUrl: string;
  restUrl: string;
  evmUrl?: string;
  chainId: string;
  setupMs: number;
  close(): Promise<void>;
}

async function inProcess(txsPerBlock: number): Promise<Urls> {
  const t0 = Date.now();
  const chain = generateReplicatedChain({ txs: 1_000_000, txsPerBlock, cacheBlocks: 64 });
  const setupMs = Date.now() - t0;
  const server = await startChainServer(chain);
  // CPU time of the serving process: load-independent capacity on a shared machine.
  server.registerGet('/__bench/cpu', () => process.cpuUsage());
  return { ...server, chainId: chain.chainId, setupMs, close: () => server.close() };
}

async function child(txsPerBlock: number): Promise<Urls> {
  const proc: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(import.meta.url), '--serve', '--txs-per-block', String(txsPerBlock)],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const line = await new Promise<string>((resolve, reject) => {
    let buf = '';
    proc.stdout?.on('data', (c: Buffer) => {
      buf += c.toString();
      if (buf.includes('\n')) resolve(buf.slice(0, buf.indexOf('\n')));
    });
    proc.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  const urls = JSON.parse(line) as Omit<Urls, 'close'>;
  return {
    ...urls,
    close: async () => {
      proc.kill('SIGTERM');
    },
  };
}

async function serve(): Promise<void> {
  const s = await inProcess(arg('txs-per-block', 100));
  process.stdout.write(
    `${JSON.stringify({ rpcUrl: s.rpcUrl, restUrl: s.restUrl, evmUrl: s.evmUrl, chainId: s.chainId, setupMs: s.setupMs })}\n`,
  );
  process.on('SIGTERM', () => {
    void s.close().then(() => process.exit(0));
  });
}

async function main(): Promise<void> {
  if (process.argv.includes('--serve')) return serve();
  const blocks = arg('blocks', 300);
  const txsPerBlock = arg('txs-per-block', 100);
  const concurrency = arg('concurrency', 4);
  const server = process.argv.includes('--in-process') ? await inProcess(txsPerBlock) : await child(txsPerBlock);
  const setupMs = server.setupMs;
  const rpc = (method: string, params: unknown): Promise<string> =>
    fetch(server.rpcUrl, { method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) }).then(
      (r) => r.text(),
    );
  const cpu = async (): Promise<number> => {
    const u = (await (await fetch(`${server.restUrl}/__bench/cpu`)).json()) as { user: number; system: number };
    return (u.user + u.system) / 1e6;
  };
  const cpuBefore = await cpu();
  let bytes = 0;
  let next = 1;
  const start = process.hrtime.bigint();
  const worker = async (): Promise<void> => {
    for (let h = next++; h <= blocks; h = next++) {
      const parts = await Promise.all([
        rpc('block', { height: String(h) }),
        rpc('block_results', { height: String(h) }),
        fetch(`${server.restUrl}/cosmos/tx/v1beta1/txs/block/${h}?pagination.limit=100`).then((r) => r.text()),
        fetch(server.evmUrl ?? '', {
          method: 'POST',
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'eth_getBlockReceipts',
            params: [`0x${h.toString(16)}`],
          }),
        }).then((r) => r.text()),
      ]);
      for (const p of parts) bytes += p.length;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const secs = Number(process.hrtime.bigint() - start) / 1e9;
  const serverCpuSecs = (await cpu()) - cpuBefore;
  await server.close();
  const txs = blocks * txsPerBlock;
  process.stdout.write(
    `${JSON.stringify({
      chain: server.chainId,
      mode: process.argv.includes('--in-process') ? 'in-process' : 'child-process',
      blocks,
      txsPerBlock,
      concurrency,
      setupMs,
      seconds: Number(secs.toFixed(2)),
      txsPerSecond: Math.round(txs / secs),
      blocksPerSecond: Math.round(blocks / secs),
      mbPerSecond: Number((bytes / secs / 1e6).toFixed(1)),
      serverCpuSeconds: Number(serverCpuSecs.toFixed(2)),
      txsPerServerCpuSecond: Math.round(txs / serverCpuSecs),
    })}\n`,
  );
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
