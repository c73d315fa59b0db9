import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, terminal, type Harness } from './harness.js';
import { SIM } from '../../devnet/simnet/index.js';
import { ics20ChainDenom } from '../../workflows/evidence.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

describe('IBC tracking on the simnet (real Temporal dev server, real chDB)', () => {
  it('follows an ICS-20 transfer to TRANSFER_SUCCESS', async () => {
    const tx = h.simnet.ibcTransfer({ from: SIM.l1, channel: 'channel-1' });
    const r = await h.track(tx.chainId, tx.txHash);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      tx_hash: tx.txHash,
      explorer_link: `https://scan.simnet.local/${SIM.l1}/txs/${tx.txHash}`,
    });
    const done = await h.waitFor(tx.chainId, tx.txHash, terminal);
    expect(done.state).toBe('STATE_COMPLETED_SUCCESS');
    expect(done.status).toBe('STATE_COMPLETED');
    expect(done.next_blocking_transfer).toBeNull();
    const hop = done.transfer_sequence[0].ibc_transfer;
    expect(hop.from_chain_id).toBe(SIM.l1);
    expect(hop.to_chain_id).toBe(SIM.move);
    expect(hop.state).toBe('TRANSFER_SUCCESS');
    expect(hop.packet_txs.send_tx.tx_hash).toBe(tx.txHash);
    expect(hop.packet_txs.receive_tx.chain_id).toBe(SIM.move);
    expect(hop.packet_txs.acknowledge_tx.chain_id).toBe(SIM.l1);
    expect(hop.packet_txs.timeout_tx).toBeNull();
    expect(done.transfer_asset_release).toEqual({
      chain_id: SIM.move,
      // where the funds landed: minimove's voucher of L1 uinit received over its channel-0
      denom: ics20ChainDenom('transfer/channel-0/uinit'),
      amount: '200000',
      released: true,
    });
  });
});
