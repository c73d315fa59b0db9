// A LayerZero transfer tracked long after its delivery: the destination log lies more than one eth_getLogs range
// (9,000 blocks, 37 minutes on Arbitrum) below the head. The search used to look only that far back from the head,
// so such a transfer was abandoned after the LayerZero stall window; it now starts at the destination block of the
// send's time. Real Temporal dev server, real chDB, the simnet on loopback.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SIM } from '../../devnet/simnet/index.js';
import { startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ timings: { lzStallMs: 8_000 } });
});
afterAll(async () => {
  await h?.close();
});

it('finds a delivery 10,000 destination blocks below the head', async () => {
  const delivered = h.simnet.relayer.delivered.lz;
  const tx = h.simnet.lzSend();
  const end = Date.now() + 10_000;
  while (h.simnet.relayer.delivered.lz === delivered && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
  expect(h.simnet.relayer.delivered.lz).toBe(delivered + 1);
  for (let i = 0; i < 10_000; i++) h.simnet.include(SIM.eth, []);
  expect((await h.track(tx.chainId, tx.txHash)).status).toBe(200);
  const done = await h.waitFor(
    tx.chainId,
    tx.txHash,
    (b) => b.state !== 'STATE_SUBMITTED' && b.state !== 'STATE_PENDING',
    30_000,
  );
  expect(done.state).toBe('STATE_COMPLETED_SUCCESS');
  expect(done.transfer_sequence[0].layer_zero_transfer.state).toBe('LAYER_ZERO_TRANSFER_RECEIVED');
}, 60_000);
