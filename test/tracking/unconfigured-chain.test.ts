// A deployment without an endpoint for a chain (TRACKING_RPC_URLS names no RPC for it): a transfer from it is
// refused at registration with a JSON 400 (it used to answer 200 and stay STATE_SUBMITTED for ever), and a hop into
// it ends in the hop's stall window (its polls failed and were retried for ever, the transfer PENDING for ever).
// Real Temporal dev server, real chDB, the simnet on loopback.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIM } from '../../devnet/simnet/index.js';
import { workflowIdOf } from '../../tracking/client.js';
import { startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    timings: { ibcStallMs: 3_000 },
    // The EVM rollup's CometBFT RPC is not configured here (its EVM JSON-RPC still is).
    chains: (all) => all.map((c) => (c.chainId === SIM.evm ? { ...c, rpcUrl: undefined } : c)),
  });
});
afterAll(async () => {
  await h?.close();
});

describe('a chain without a configured RPC', () => {
  it('a Cosmos tx on it is refused at registration with a JSON 400 naming the missing RPC', async () => {
    const r = await h.track(SIM.evm, 'AB'.repeat(32));
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.body)).toContain('no CometBFT RPC configured');
  });

  it("a transfer a worker cannot read the source chain of (its directory differs from the API's) is abandoned", async () => {
    // Registered past the API's check (as a router with another directory would): the workflow's source wait finds
    // no endpoint on this worker. It used to fail the execution, the status SUBMITTED for ever.
    const hash = 'CD'.repeat(32);
    await h.tracking.client.register(SIM.evm, hash, Date.now());
    const handle = h.tracking.client.client.workflow.getHandle(workflowIdOf(SIM.evm, hash));
    expect(((await handle.result()) as { state: string }).state).toBe('STATE_ABANDONED');
  });

  it('an IBC hop into it is abandoned after its stall window, not left pending for ever', async () => {
    // L1 channel-2 leads to the EVM rollup (devnet/simnet): the hop's polls need the rollup's RPC.
    const tx = h.simnet.ibcTransfer({ from: SIM.l1, channel: 'channel-2' });
    expect((await h.track(tx.chainId, tx.txHash)).status).toBe(200);
    const done = await h.waitFor(tx.chainId, tx.txHash, (b) => b.state === 'STATE_ABANDONED', 45_000);
    expect(done.status).toBe('STATE_FAILED');
  }, 60_000);
});
