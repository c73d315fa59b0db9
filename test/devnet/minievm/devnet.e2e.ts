// Issue 6 end to end on a REAL minievm node: build (cached) → start.sh →
// traffic generator → our ingest following the head → the issue's checks →
// SIGKILL the ingest mid-traffic, restart, same checks.
//
// Not a *.test.ts file: it needs the minitiad binary from build.sh (module
// proxy, or the vendored source archive; see docs/minievm.md). scripts/test.sh
// builds it and runs this suite on every run:
//   bash devnet/minievm/build.sh && npx vitest run -c devnet/minievm/vitest.e2e.config.ts
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Contract, Interface, JsonRpcProvider } from 'ethers';
import { percentile, type Mismatch } from '../../../devnet/minievm/checks.js';
import { getContract } from '../../../devnet/minievm/contracts.js';
import { type Devnet, startDevnet } from '../../../devnet/minievm/devnet-process.js';
import { freePort, IngestProcess } from '../../../devnet/minievm/ingest-process.js';
import { latestHeight, sleep, txSearchAll, type NodeEndpoints } from '../../../devnet/minievm/node-client.js';
import { runTraffic, type TrafficResult } from '../../../devnet/minievm/traffic.js';
import { DEFAULT_SHAPE, expectedState, planTraffic, type Plan } from '../../../devnet/minievm/traffic-plan.js';
import { createChainSource } from '../../../ingest/source.js';
import { metrics } from '../../../platform/metrics.js';
import { measureStatusLag, verifyAll, type IssueCheckTargets } from '../../../devnet/minievm/verify.js';
import {
  settledRichListHeight,
  verifyAccountTxs,
  verifyCollectionHeight,
  verifyErc20AtHeight,
  verifyNativeRichList,
} from '../../../devnet/minievm/verify-state.js';

const MAX_STATUS_LAG_MS = 3_000;

let home: string;
let devnet: Devnet | undefined;
let dataDir: string;
let ep: NodeEndpoints;
let ingest: IngestProcess;
const runs: { plan: Plan; result: TrafficResult }[] = [];

beforeAll(async () => {
  home = mkdtempSync(path.join(os.tmpdir(), 'minievm-home-'));
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'minievm-data-'));
  devnet = await startDevnet(path.join(home, 'node'), { DEVNET_ACCOUNTS: String(DEFAULT_SHAPE.accounts) });
  ep = devnet.ep;
  ingest = new IngestProcess({
    endpoints: ep,
    dataDir,
    port: await freePort(),
    // internal txs on: minievm cannot trace block 1 ("genesis is not traceable"), which must not stall us
    extraEnv: { RICHLIST_INTERVAL_MS: '500', LOG_LEVEL: 'warn', EVM_INTERNAL_TXS: 'true' },
  });
  await ingest.start();
}, 300_000);

afterAll(async () => {
  await ingest?.stop();
  devnet?.stop();
  if (home) rmSync(home, { recursive: true, force: true });
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

function targets(): IssueCheckTargets {
  return {
    erc20: runs.map((r) => ({ token: r.result.erc20Address, accounts: r.result.accounts.map((a) => a.evmAddress) })),
    nfts: runs.map((r) => ({
      collection: r.result.nftAddress,
      tokenIds: r.plan.phases.flat().flatMap((op) => (op.kind === 'erc721-mint' ? [op.tokenId.toString()] : [])),
    })),
  };
}

function show(m: Mismatch[]): string {
  return (
    JSON.stringify(m.slice(0, 5), (_k, v) => (typeof v === 'bigint' ? v.toString() : v), 1) +
    `\n${ingest.log.slice(-3000)}`
  );
}

/**
 * Issue 11's state checks once traffic has stopped: at the settled indexed height, the native denom's and every
 * ERC20's rich list equal the node's balances (genesis included), every collection's height is its deployment,
 * txs/by_account of every funded account holds what tx_search finds, and internal txs kept up with the head.
 */
async function assertStateMatchesNode(): Promise<void> {
  const head = await latestHeight(ep);
  await ingest.waitForHeight(head, 60_000);
  const h = await settledRichListHeight(ingest.baseUrl, head);
  const native = await verifyNativeRichList(ep, ingest.baseUrl, h);
  expect(native.mismatches, show(native.mismatches)).toEqual([]);
  expect(native.holders).toBeGreaterThanOrEqual(DEFAULT_SHAPE.accounts); // every genesis account is funded
  for (const r of runs) {
    const accounts = r.result.accounts.map((a) => a.evmAddress);
    const erc20 = await verifyErc20AtHeight(ep, ingest.baseUrl, r.result.erc20Address, accounts, h);
    expect(erc20.mismatches, show(erc20.mismatches)).toEqual([]);
    const col = await verifyCollectionHeight(ep, ingest.baseUrl, r.result.nftAddress);
    expect(col, show(col)).toEqual([]);
  }
  const funded = runs[0]!.result.accounts.map((a) => a.bech32);
  const byAccount = await verifyAccountTxs(ep, ingest.baseUrl, funded, h);
  expect(byAccount.mismatches, show(byAccount.mismatches)).toEqual([]);
  expect(byAccount.checked).toBeGreaterThan(0);
  const status = (await (await fetch(`${ingest.baseUrl}/status`)).json()) as { height: number };
  expect(status).toMatchObject({ rich_list_height: status.height, internal_tx_height: status.height });
}

/** The generator itself must have produced what its model says (else the checks prove nothing). */
async function assertNodeMatchesModel(run: { plan: Plan; result: TrafficResult }): Promise<void> {
  const provider = new JsonRpcProvider(ep.evmRpc);
  try {
    const model = expectedState(run.plan);
    const token = new Contract(run.result.erc20Address, new Interface(getContract('DevToken').abi), provider);
    for (const [i, amount] of model.erc20) {
      const a = run.result.accounts[i];
      expect(await token.getFunction('balanceOf')(a?.evmAddress)).toBe(amount);
    }
    const nft = new Contract(run.result.nftAddress, new Interface(getContract('DevCollection').abi), provider);
    expect(await nft.getFunction('totalSupply')()).toBe(model.nftSupply);
    for (const [id, owner] of model.nftOwners) {
      expect((await nft.getFunction('ownerOf')(BigInt(id))).toLowerCase()).toBe(
        run.result.accounts[owner]?.evmAddress.toLowerCase(),
      );
    }
    expect(run.result.sent.filter((s) => !s.ok)).toHaveLength(model.failedOps);
  } finally {
    provider.destroy();
  }
}

/**
 * Issue 12 on the real node: every EVM tx the traffic sent and the node included is served by
 * /indexer/tx/v1/evm-txs/{hash} with the node's own receipt hash, block number and status.
 */
async function assertEvmTxsMatchNode(result: TrafficResult): Promise<void> {
  const provider = new JsonRpcProvider(ep.evmRpc);
  try {
    let checked = 0;
    for (const sent of result.sent.filter((t) => t.vm === 'evm')) {
      const receipt = (await provider.send('eth_getTransactionReceipt', [sent.hash])) as {
        transactionHash: string;
        blockNumber: string;
        status: string;
      } | null;
      if (!receipt) continue; // rejected before inclusion: nothing to serve
      const res = await fetch(`${ingest.baseUrl}/indexer/tx/v1/evm-txs/${sent.hash}`);
      expect(res.status, sent.hash).toBe(200);
      const { tx } = (await res.json()) as { tx: { transactionHash: string; blockNumber: string; status: string } };
      expect({ hash: tx.transactionHash, block: tx.blockNumber, status: tx.status }, sent.hash).toEqual({
        hash: receipt.transactionHash,
        block: receipt.blockNumber,
        status: receipt.status,
      });
      checked++;
    }
    expect(checked).toBeGreaterThan(0);
  } finally {
    provider.destroy();
  }
}

describe('issue 6 on a live minievm devnet', () => {
  it('traffic is included and every tx, block, holder and NFT matches the node', async () => {
    const plan = planTraffic(DEFAULT_SHAPE);
    const result = await runTraffic(ep, plan);
    runs.push({ plan, result });
    await assertNodeMatchesModel(runs[0]!);
    const report = await verifyAll(ep, ingest.baseUrl, targets(), (h) => ingest.waitForHeight(h, 60_000));
    expect(report.mismatches, show(report.mismatches)).toEqual([]);
    expect(report.txs).toBeGreaterThanOrEqual(result.sent.length);
    expect(report.holders).toBeGreaterThan(DEFAULT_SHAPE.accounts / 2);
    await assertStateMatchesNode();
    await assertEvmTxsMatchNode(result);
  }, 300_000);

  it("the node's ranged tx searches give the ingest the same txs as reading each block alone", async () => {
    // The premise of ingest/tx-ranges.ts on a real node: a search over heights answers each one's REST txs exactly
    // as its txs/block answer does, so a backfill reads them several heights a request (no fallback once indexed).
    const last = runs[0]!.result.lastHeight;
    const heights = [...new Set((await txSearchAll(ep, last)).map((t) => Number(t.height)))].sort((a, b) => a - b);
    expect(heights.length).toBeGreaterThan(1);
    const fallbacks = async () =>
      (await metrics.ingestErrors.get()).values.find((v) => v.labels.kind === 'ranged_txs_fallback')?.value ?? 0;
    const exact = async () => (await metrics.ingestRangedTxReads.get()).values[0]?.value ?? 0;
    const before = await fallbacks();
    const exactBefore = await exact();
    // The e2e chain holds a few hundred txs, well under RANGED_TX_READS_MAX_HISTORY: ranged reads are on.
    const source = createChainSource({ rpcUrl: ep.cometRpc, restUrl: ep.rest, evmUrl: ep.evmRpc, rpcBatch: 10 });
    try {
      for (let i = 0; i < heights.length; i += 25) {
        for (const f of await source.fetchBlocks(heights.slice(i, i + 25)))
          expect(f.restTxs, `height ${f.height}`).toEqual((await source.fetchBlock(f.height)).restTxs);
      }
    } finally {
      source.close();
    }
    expect(await fallbacks()).toBe(before);
    // Searches were made and used: each group of heights above holds a run of two heights or more.
    expect(await exact()).toBeGreaterThanOrEqual(Math.floor(heights.length / 25));
    expect(await exact()).toBeGreaterThan(exactBefore);
  }, 120_000);

  it('/status catches up within a few seconds of each new block', async () => {
    const lags = await measureStatusLag(ep, ingest.baseUrl, 10, { timeoutMs: 60_000, alive: () => ingest.running });
    expect(Math.max(...lags), `lags ${lags.join(',')}`).toBeLessThan(MAX_STATUS_LAG_MS);
    expect(percentile(lags, 50)).toBeLessThan(MAX_STATUS_LAG_MS);
  }, 90_000);

  it('SIGKILL the ingest mid-traffic, restart: the same checks hold', async () => {
    const plan = planTraffic({ ...DEFAULT_SHAPE, seed: DEFAULT_SHAPE.seed + 1 });
    const traffic = runTraffic(ep, plan);
    await sleep(3_000);
    const atKill = await latestHeight(ep);
    await ingest.kill();
    await sleep(2_000);
    await ingest.start();
    const result = await traffic;
    runs.push({ plan, result });
    expect(result.lastHeight).toBeGreaterThan(atKill);
    await assertNodeMatchesModel(runs[1]!);
    const report = await verifyAll(ep, ingest.baseUrl, targets(), (h) => ingest.waitForHeight(h, 60_000));
    expect(report.mismatches, show(report.mismatches)).toEqual([]);
    await assertStateMatchesNode();
  }, 300_000);
});
