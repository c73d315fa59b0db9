// A multi-hop (PFM) transfer whose second leg is slow, in steps each inside the IBC stall window: the first hop is
// received at once and its acknowledgement comes only once the second leg settles, longer than the window after its
// receipt. The first hop's progress is its forward's progress: it used to be abandoned while the second leg was
// still moving. Real Temporal dev server, real chDB, the simnet on loopback (relays 4 s, acks 5 s, IBC stall window 7 s).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SIM } from '../../devnet/simnet/index.js';
import { startHarness, terminal, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  // hop 1 received at ~4 s; its forward received at ~8 s and settled at ~13 s, which writes hop 1's ack: 9 s
  // without progress of its own, 5 s after its forward's last step; relayed back at ~18 s.
  h = await startHarness({ timings: { ibcStallMs: 7_000 }, simnet: { delays: { recvMs: 4_000, ackMs: 5_000 } } });
});
afterAll(async () => {
  await h?.close();
});

it('a first hop waiting on its forward is not abandoned while the forward makes progress', async () => {
  const tx = h.simnet.ibcTransfer({ from: SIM.move, channel: 'channel-0', forward: { channel: 'channel-2' } });
  expect((await h.track(tx.chainId, tx.txHash)).status).toBe(200);
  const d = await h.waitFor(tx.chainId, tx.txHash, terminal, 45_000);
  expect(d.state).toBe('STATE_COMPLETED_SUCCESS');
  expect(d.transfer_sequence.map((e: any) => e.ibc_transfer.state)).toEqual(['TRANSFER_SUCCESS', 'TRANSFER_SUCCESS']);
}, 60_000);
