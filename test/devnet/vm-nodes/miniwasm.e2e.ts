// Issue 26 on a REAL miniwasm node: build (cached) → start.sh (FLAVOR=miniwasm) → signed store / instantiate /
// execute, CW721 and bank txs → our ingest following the head → every tx, block, account and CW721 token against
// the node's own state (the contract's smart queries) → SIGKILL the ingest under traffic, restart, the same checks.
//   bash devnet/miniwasm/build.sh && npx vitest run -c devnet/vitest.vm-nodes.config.ts
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyNftCollection, verifyTokenTxs } from '../../../devnet/minievm/verify-state.js';
import { cw721State } from '../../../devnet/miniwasm/state.js';
import { runWasmTraffic, WASM_ACCOUNTS, type WasmTrafficResult } from '../../../devnet/miniwasm/traffic.js';
import { VmDevnet } from './harness.js';

const net = new VmDevnet('miniwasm', 'wasm', WASM_ACCOUNTS);
const runs: WasmTrafficResult[] = [];

beforeAll(() => net.start(), 300_000);
afterAll(() => net.stop());

/** Every CW721 contract and token of every run against the contract's queries, each token's txs against tx_search. */
async function checkNfts(): Promise<number> {
  await net.caughtUp();
  let tokens = 0;
  for (const run of runs)
    for (const contract of run.collections) {
      const state = await cw721State(net.ep, contract, run.minted);
      expect(state.supply).toBeGreaterThan(0);
      const m = await verifyNftCollection(net.ingest.baseUrl, state);
      expect(m, net.show(m)).toEqual([]);
      for (const nft of run.minted.filter((x) => x.contract === contract)) {
        const queries = [`wasm._contract_address='${contract}' AND wasm.token_id='${nft.tokenId}'`];
        const burned = state.burned.has(nft.tokenId);
        const t = await verifyTokenTxs(net.ep, net.ingest.baseUrl, contract, nft.tokenId, queries, burned);
        expect(t, net.show(t)).toEqual([]);
        tokens++;
      }
    }
  return tokens;
}

const funded = () => runs[0]?.accounts.map((a) => a.bech32) ?? [];

describe('a live miniwasm devnet', () => {
  it('store, instantiate, execute, CW721 and bank traffic: every tx, block, account and token matches the node', async () => {
    runs.push(await runWasmTraffic(net.ep, 'r1'));
    // The failures the generator meant to send; steps of one round run concurrently, so they land in any order.
    expect(
      runs[0]?.sent
        .filter((s) => !s.ok)
        .map((s) => s.label)
        .sort(),
    ).toEqual(['bank overdraft', 'nft transfer by a non-owner', 'unknown contract message']);
    const counts = await net.checkChain(funded());
    expect(counts.txs).toBeGreaterThanOrEqual(runs[0]?.sent.length ?? 1);
    expect(counts.accountTxs).toBeGreaterThan(0);
    expect(await checkNfts()).toBe(4);
  }, 300_000);

  it('SIGKILL the ingest under traffic, restart: nothing lost, nothing duplicated', async () => {
    runs.push(await net.crashDuring(runWasmTraffic(net.ep, 'r2')));
    await net.checkChain(funded());
    const collections = runs.flatMap((r) => r.collections);
    expect(await net.checkExplorerCalls(funded(), collections)).toBeGreaterThan(100);
    expect(await checkNfts()).toBe(8);
  }, 300_000);
});
