// Backfill rate of a real minievm node's history vs the same txs served by chain-sim (issue 11): how much
// real RPC costs. Starts a devnet, lets it accumulate TXS txs (ERC20 transfers from SENDERS pipelining
// senders; default 20,000), then backfills it from height 1 with a fresh ingest (our main job, ROLE=all) and
// times blocks/s and txs/s until /status reaches the head of that moment. Then mirrors the same blocks (the
// node's raw tx bytes, REST txs, results, EVM txs and receipts; devnet/minievm/mirror.ts) into chain-sim,
// serves them on loopback and backfills again. Prints a markdown table with the load average.
//
//   bash devnet/minievm/build.sh && npx tsx bench/minievm-backfill.ts          (TXS=20000 SENDERS=8 INFLIGHT=16)
//   tiny proof run: TXS=50 SENDERS=2 npx tsx bench/minievm-backfill.ts
//
// Measure on a quiet machine (the integrator does; BENCHMARKS.md).
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SimChain, makeValidator } from '../devnet/chain-sim/chain.js';
import { startChainServer } from '../devnet/chain-sim/server.js';
import type { EvmReceipt, EvmTxObject } from '../devnet/chain-sim/types.js';
import { accumulateTransfers } from '../devnet/minievm/accumulate.js';
import { startDevnet } from '../devnet/minievm/devnet-process.js';
import { freePort, IngestProcess } from '../devnet/minievm/ingest-process.js';
import { mirrorTx, type RecordedRestTx } from '../devnet/minievm/mirror.js';
import { cometRpc, getJson, latestHeight, sleep, type NodeEndpoints } from '../devnet/minievm/node-client.js';
import { indexedHeight } from '../devnet/minievm/verify.js';

const TXS = Number(process.env.TXS ?? '20000');
const SENDERS = Number(process.env.SENDERS ?? '8');
const WINDOW = Number(process.env.INFLIGHT ?? '16');

interface CometBlock {
  block: { header: { time: string; height: string }; data: { txs: string[] | null } };
}

async function evm<T>(ep: NodeEndpoints, method: string, params: unknown[]): Promise<T> {
  const res = await fetch(ep.evmRpc, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await res.json()) as { result?: T; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result as T;
}

/** Fresh ingest from height 1 until /status reaches `head`: seconds, after the API is up. */
async function backfill(ep: NodeEndpoints, dir: string, head: number): Promise<number> {
  const ingest = new IngestProcess({
    endpoints: ep,
    dataDir: dir,
    port: await freePort(),
    pollIntervalMs: 200,
    extraEnv: { LOG_LEVEL: 'warn', INGEST_STOP_AT_HEIGHT: String(head) },
  });
  await ingest.start(120_000);
  const t0 = performance.now();
  try {
    while ((await indexedHeight(ingest.baseUrl).catch(() => 0)) < head) {
      if (!ingest.running) throw new Error(`ingest exited:\n${ingest.log.slice(-3000)}`);
      await sleep(100);
    }
    return (performance.now() - t0) / 1000;
  } finally {
    await ingest.stop();
  }
}

/** The node's blocks 1..head as a chain-sim chain (same raw txs, results, EVM side, block times). */
async function mirror(ep: NodeEndpoints, head: number): Promise<SimChain> {
  const first = await cometRpc<CometBlock>(ep.cometRpc, 'block', { height: '1' });
  const chainEvmId = await evm<string>(ep, 'eth_chainId', []);
  const chain = new SimChain({
    chainId: ep.chainId,
    vm: 'evm',
    evmChainId: BigInt(chainEvmId),
    validators: [makeValidator('devnet')],
    genesisTime: first.block.header.time,
    blockIntervalMs: 500,
  });
  for (let h = 1; h <= head; h++) {
    const b = await cometRpc<CometBlock>(ep.cometRpc, 'block', { height: String(h) });
    const raws = b.block.data.txs ?? [];
    let inputs: ReturnType<typeof mirrorTx>[] = [];
    if (raws.length) {
      const hex = `0x${h.toString(16)}`;
      const [rest, evmBlock, receipts] = await Promise.all([
        // by hash (sha256 of the raw bytes): txs/block/{h} carries the Tx JSON but not the results
        Promise.all(
          raws.map((raw) =>
            getJson<RecordedRestTx>(
              `${ep.rest}/cosmos/tx/v1beta1/txs/${createHash('sha256').update(Buffer.from(raw, 'base64')).digest('hex').toUpperCase()}`,
            ),
          ),
        ),
        evm<{ transactions: EvmTxObject[] }>(ep, 'eth_getBlockByNumber', [hex, true]),
        evm<EvmReceipt[]>(ep, 'eth_getBlockReceipts', [hex]),
      ]);
      inputs = raws.map((raw, i) => mirrorTx(raw, rest[i]!, evmBlock.transactions, receipts));
    }
    chain.appendBlock({ time: b.block.header.time, txs: inputs });
  }
  return chain;
}

const tmp = mkdtempSync(path.join(os.tmpdir(), 'bench-minievm-backfill-'));
const devnet = await startDevnet(path.join(tmp, 'node'), { DEVNET_ACCOUNTS: String(SENDERS + 1) });
try {
  await accumulateTransfers(devnet.ep, TXS, { senders: SENDERS, window: WINDOW });
  const head = await latestHeight(devnet.ep);
  const txs = await cometRpc<{ total_count: string }>(devnet.ep.cometRpc, 'tx_search', {
    query: `tx.height>=1 AND tx.height<=${head}`,
    per_page: '1',
    page: '1',
  }).then((r) => Number(r.total_count));
  process.stderr.write(`devnet: ${txs} txs in ${head} blocks; backfilling the node\n`);
  const nodeS = await backfill(devnet.ep, path.join(tmp, 'data-node'), head);
  const loadNode = os.loadavg()[0]!;
  process.stderr.write('mirroring the same blocks into chain-sim\n');
  const chain = await mirror(devnet.ep, head);
  const server = await startChainServer(chain);
  let simS = 0;
  let loadSim = 0;
  try {
    simS = await backfill(
      { chainId: devnet.ep.chainId, cometRpc: server.rpcUrl, rest: server.restUrl, evmRpc: server.evmUrl ?? '' },
      path.join(tmp, 'data-sim'),
      head,
    );
    loadSim = os.loadavg()[0]!;
  } finally {
    await server.close();
  }
  console.log('| source | blocks | txs | seconds | blocks/s | txs/s | load avg (1 min) |');
  console.log('|---|---|---|---|---|---|---|');
  for (const [name, s, load] of [
    ['minitiad v1.2.18 (real RPC)', nodeS, loadNode],
    ['chain-sim (same txs)', simS, loadSim],
  ] as const)
    console.log(
      `| ${name} | ${head} | ${txs} | ${s.toFixed(1)} | ${(head / s).toFixed(1)} | ${(txs / s).toFixed(1)} | ${load.toFixed(2)} |`,
    );
} finally {
  devnet.stop();
  rmSync(tmp, { recursive: true, force: true });
}
