// Starts a sample chain on loopback: `startSampleChain('evm')` for code, or the CLI
//   npx tsx devnet/sample-chains/serve.ts evm|move|wasm [--port N] [--produce-ms N]
// which prints the URLs and serves until interrupted.
import { startChainServer, type ChainServer } from '../chain-sim/server.js';
import type { SimChain } from '../chain-sim/chain.js';
import type { EthCallHandler } from '../chain-sim/evm.js';
import type { SampleManifest } from './builder.js';
import { buildEvmChain, type EvmSampleManifest } from './evm.js';
import { buildMoveChain, type MoveSampleManifest } from './move.js';
import { buildWasmChain, type WasmSampleManifest } from './wasm.js';
import type { SampleRoute } from './routes.js';

export type SampleChainKind = 'evm' | 'move' | 'wasm';

export interface StartedSampleChain {
  kind: SampleChainKind;
  chainId: string;
  vm: SampleChainKind;
  rpcUrl: string;
  restUrl: string;
  evmUrl?: string;
  manifest: SampleManifest | EvmSampleManifest | MoveSampleManifest | WasmSampleManifest;
  chain: SimChain;
  server: ChainServer;
  stop(): Promise<void>;
}

export interface SampleChainOptions {
  host?: string;
  port?: number;
  /** After the recorded blocks, append an empty block every N ms (a live-looking tip); off by default. */
  produceBlocksMs?: number;
}

interface Built {
  chain: SimChain;
  manifest: SampleManifest | EvmSampleManifest | MoveSampleManifest | WasmSampleManifest;
  routes: SampleRoute[];
  ethCalls?: EthCallHandler[];
}

export function buildSample(kind: SampleChainKind): Built {
  if (kind === 'evm') return buildEvmChain();
  if (kind === 'move') return buildMoveChain();
  if (kind === 'wasm') return buildWasmChain();
  throw new Error(`unknown sample chain kind: ${String(kind)} (expected evm, move or wasm)`);
}

export async function startSampleChain(
  kind: SampleChainKind = 'evm',
  opts: SampleChainOptions = {},
): Promise<StartedSampleChain> {
  const built = buildSample(kind);
  const server = await startChainServer(built.chain, opts);
  for (const r of built.routes) server.registerGet(r.pattern, r.handler);
  for (const h of built.ethCalls ?? []) server.registerEthCall(h);
  if (opts.produceBlocksMs !== undefined) {
    if (!Number.isFinite(opts.produceBlocksMs) || opts.produceBlocksMs < 10)
      throw new Error('produceBlocksMs must be ≥ 10');
    built.chain.startProducing(opts.produceBlocksMs);
  }
  return {
    kind,
    chainId: built.chain.chainId,
    vm: kind,
    rpcUrl: server.rpcUrl,
    restUrl: server.restUrl,
    ...(server.evmUrl ? { evmUrl: server.evmUrl } : {}),
    manifest: built.manifest,
    chain: built.chain,
    server,
    stop: async () => {
      built.chain.stopProducing();
      await server.close();
    },
  };
}

async function main(argv: string[]): Promise<void> {
  const kind = (argv[0] ?? 'evm') as SampleChainKind;
  const portIdx = argv.indexOf('--port');
  const port = portIdx >= 0 ? Number(argv[portIdx + 1]) : 0;
  const produceIdx = argv.indexOf('--produce-ms');
  const s = await startSampleChain(kind, {
    port,
    ...(produceIdx >= 0 ? { produceBlocksMs: Number(argv[produceIdx + 1]) } : {}),
  });
  process.stdout.write(
    `${JSON.stringify({ kind, chainId: s.chainId, rpcUrl: s.rpcUrl, restUrl: s.restUrl, evmUrl: s.evmUrl ?? null, latestHeight: s.manifest.latestHeight, txs: s.manifest.txs.length })}\n`,
  );
  const shutdown = (): void => {
    void s.stop().then(() => process.exit(0));
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  main(process.argv.slice(2)).catch((e: unknown) => {
    process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  });
}
