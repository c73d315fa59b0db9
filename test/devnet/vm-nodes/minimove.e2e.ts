// Issue 26 on a REAL minimove node: build (cached) → start.sh (FLAVOR=minimove) → signed Move, bank, feegrant and
// authz txs → our ingest following the head → every tx, block, account, rich-list holder and NFT against the
// node's own state → SIGKILL the ingest under traffic, restart, the same checks.
//   bash devnet/minimove/build.sh && npx vitest run -c devnet/vitest.vm-nodes.config.ts
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyNftCollection, verifyTokenTxs } from '../../../devnet/minievm/verify-state.js';
import { moveCollectionState } from '../../../devnet/minimove/state.js';
import { MOVE_ACCOUNTS, type MoveTrafficResult, runMoveTraffic } from '../../../devnet/minimove/traffic.js';
import { VmDevnet } from './harness.js';

const net = new VmDevnet('minimove', 'move', MOVE_ACCOUNTS);
const runs: MoveTrafficResult[] = [];

beforeAll(() => net.start(), 300_000);
afterAll(() => net.stop());

/** Every collection and NFT of every run against the object resources, and each NFT's txs against tx_search. */
async function checkNfts(): Promise<number> {
  await net.caughtUp();
  let tokens = 0;
  for (const run of runs)
    for (const collection of run.collections) {
      const state = await moveCollectionState(net.ep, collection, run.minted);
      expect(state.supply).toBeGreaterThan(0);
      const m = await verifyNftCollection(net.ingest.baseUrl, state);
      expect(m, net.show(m)).toEqual([]);
      for (const nft of run.minted.filter((x) => x.collection === collection)) {
        const queries = [`move.object='${nft.object}'`, `move.nft='${nft.object}'`];
        const burned = state.burned.has(nft.tokenId);
        const t = await verifyTokenTxs(net.ep, net.ingest.baseUrl, collection, nft.tokenId, queries, burned);
        expect(t, net.show(t)).toEqual([]);
        tokens++;
      }
    }
  return tokens;
}

const funded = () => runs[0]?.accounts.map((a) => a.bech32) ?? [];

describe('a live minimove devnet', () => {
  it('Move, bank, feegrant and authz traffic: every tx, block, account and NFT matches the node', async () => {
    runs.push(await runMoveTraffic(net.ep, 'r1'));
    // The failures the generator meant to send; steps of one round run concurrently, so they land in any order.
    expect(
      runs[0]?.sent
        .filter((s) => !s.ok)
        .map((s) => s.label)
        .sort(),
    ).toEqual(['bank overdraft', 'nft burn by a non-owner']);
    const counts = await net.checkChain(funded());
    expect(counts.txs).toBeGreaterThanOrEqual(runs[0]?.sent.length ?? 1);
    expect(counts.accountTxs).toBeGreaterThan(0);
    expect(await checkNfts()).toBe(6);
  }, 300_000);

  it('SIGKILL the ingest under traffic, restart: nothing lost, nothing duplicated', async () => {
    runs.push(await net.crashDuring(runMoveTraffic(net.ep, 'r2')));
    await net.checkChain(funded());
    const collections = runs.flatMap((r) => r.collections);
    expect(await net.checkExplorerCalls(funded(), collections)).toBeGreaterThan(100);
    expect(await checkNfts()).toBe(12);
  }, 300_000);
});
