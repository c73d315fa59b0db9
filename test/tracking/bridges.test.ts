// Every bridge kind to its terminal state on the simnet, plus failure paths and registration semantics.
// Real Temporal dev server + real chDB; the scenarios run concurrently against one harness.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAST, startHarness, terminal, type Harness } from './harness.js';
import { SIM } from '../../devnet/simnet/index.js';
import { workflowIdOf } from '../../tracking/client.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ timings: { ibcStallMs: 6_000 }, simnet: { finalizationPeriodS: 4 } });
});
afterAll(async () => {
  await h?.close();
});

const trackOk = async (tx: { chainId: string; txHash: string }) => {
  const r = await h.track(tx.chainId, tx.txHash);
  expect(r.status).toBe(200);
  return r;
};

describe.concurrent('bridge kinds to completion', () => {
  it('multi-hop IBC (PFM move → L1 → evm) followed packet by packet', async () => {
    const tx = h.simnet.ibcTransfer({ from: SIM.move, channel: 'channel-0', forward: { channel: 'channel-2' } });
    await trackOk(tx);
    const d = await h.waitFor(tx.chainId, tx.txHash, terminal);
    expect(d.state).toBe('STATE_COMPLETED_SUCCESS');
    expect(d.transfer_sequence).toHaveLength(2);
    const [a, b] = d.transfer_sequence.map((e: any) => e.ibc_transfer);
    expect([a.from_chain_id, a.to_chain_id, a.state]).toEqual([SIM.move, SIM.l1, 'TRANSFER_SUCCESS']);
    expect([b.from_chain_id, b.to_chain_id, b.state]).toEqual([SIM.l1, SIM.evm, 'TRANSFER_SUCCESS']);
    // Hop 2 begins in hop 1's destination tx (the PFM send_packet is in the recv tx).
    expect(b.packet_txs.send_tx.tx_hash).toBe(a.packet_txs.receive_tx.tx_hash);
    expect(d.transfer_asset_release).toMatchObject({ chain_id: SIM.evm, released: true });
  });

  it('IBC error acknowledgement → TRANSFER_FAILURE / PACKET_ERROR_ACKNOWLEDGEMENT, refund settled', async () => {
    const tx = h.simnet.ibcTransfer({ from: SIM.l1, channel: 'channel-2', outcome: 'errorAck' });
    await trackOk(tx);
    const d = await h.waitFor(tx.chainId, tx.txHash, terminal);
    expect([d.state, d.status]).toEqual(['STATE_COMPLETED_ERROR', 'STATE_FAILED']);
    const hop = d.transfer_sequence[0].ibc_transfer;
    expect(hop.state).toBe('TRANSFER_FAILURE');
    expect(hop.packet_txs.error.type).toBe('PACKET_ERROR_ACKNOWLEDGEMENT');
    expect(hop.packet_txs.error.message).toContain('ABCI code: 6');
    expect(hop.packet_txs.receive_tx.chain_id).toBe(SIM.evm);
    expect(hop.packet_txs.acknowledge_tx.chain_id).toBe(SIM.l1);
    expect(d.transfer_asset_release).toEqual({ chain_id: SIM.l1, denom: 'uinit', amount: '200000', released: true });
    expect(d.error.type).toBe('STATUS_ERROR_TRANSFER');
  });

  it('IBC timeout → PACKET_ERROR_TIMEOUT with timeout_tx', async () => {
    const tx = h.simnet.ibcTransfer({ from: SIM.l1, channel: 'channel-1', outcome: 'timeout' });
    await trackOk(tx);
    const d = await h.waitFor(tx.chainId, tx.txHash, terminal);
    expect(d.state).toBe('STATE_COMPLETED_ERROR');
    const hop = d.transfer_sequence[0].ibc_transfer;
    expect(hop.packet_txs.error.type).toBe('PACKET_ERROR_TIMEOUT');
    expect(hop.packet_txs.timeout_tx.chain_id).toBe(SIM.l1);
    expect(hop.packet_txs.receive_tx).toBeNull();
  });

  it('multi-hop IBC whose forwarded hop fails: both hops fail, funds back on the origin', async () => {
    const tx = h.simnet.ibcTransfer({
      from: SIM.move,
      channel: 'channel-0',
      forward: { channel: 'channel-2', outcome: 'errorAck' },
    });
    await trackOk(tx);
    const d = await h.waitFor(tx.chainId, tx.txHash, terminal);
    expect(d.state).toBe('STATE_COMPLETED_ERROR');
    expect(d.transfer_sequence.map((e: any) => e.ibc_transfer.state)).toEqual(['TRANSFER_FAILURE', 'TRANSFER_FAILURE']);
    expect(d.transfer_asset_release).toMatchObject({ chain_id: SIM.move, released: true });
  });

  it('OPinit deposit → OPINIT_TRANSFER_RECEIVED', async () => {
    const tx = h.simnet.deposit({ l2: SIM.move });
    await trackOk(tx);
    const d = await h.waitFor(tx.chainId, tx.txHash, terminal);
    expect(d.state).toBe('STATE_COMPLETED_SUCCESS');
    const hop = d.transfer_sequence[0].op_init_transfer;
    expect([hop.from_chain_id, hop.to_chain_id, hop.state]).toEqual([SIM.l1, SIM.move, 'OPINIT_TRANSFER_RECEIVED']);
    expect(hop.txs.receive_tx.chain_id).toBe(SIM.move);
  });

  it('OPinit deposit with a failed hook (success=false) → COMPLETED_ERROR, funds released on L2', async () => {
    const tx = h.simnet.deposit({ l2: SIM.evm, outcome: 'hookFail' });
    await trackOk(tx);
    const d = await h.waitFor(tx.chainId, tx.txHash, terminal);
    expect(d.state).toBe('STATE_COMPLETED_ERROR');
    expect(d.error.message).toMatch(/^hook failed; /);
    expect(d.transfer_asset_release).toMatchObject({ chain_id: SIM.evm, released: true });
  });

  it('OPinit deposit that fails (not its hook): its refund withdrawal is followed to its claim, then released on L1', async () => {
    const tx = h.simnet.deposit({ l2: SIM.move, outcome: 'depositFail' });
    await trackOk(tx);
    // The refund (a withdrawal back to the L1 sender, in the finalize message) is a hop of its own: not final yet.
    const refunding = await h.waitFor(tx.chainId, tx.txHash, (b) => b.transfer_sequence?.length === 2, 20_000);
    expect(refunding.state).toBe('STATE_PENDING_ERROR');
    expect(refunding.transfer_sequence[1].op_init_transfer).toMatchObject({
      from_chain_id: SIM.move,
      to_chain_id: SIM.l1,
    });
    expect(refunding.transfer_asset_release).toMatchObject({ chain_id: SIM.l1, released: false });
    const d = await h.waitFor(tx.chainId, tx.txHash, terminal, 30_000);
    expect(d.state).toBe('STATE_COMPLETED_ERROR');
    expect(d.error.message).toMatch(/^deposit failed; /);
    expect(d.transfer_sequence[1].op_init_transfer.state).toBe('OPINIT_TRANSFER_RECEIVED');
    expect(d.transfer_asset_release).toMatchObject({ chain_id: SIM.l1, released: true });
  }, 60_000);

  it('OPinit withdrawal waits out the finalization period on a durable timer, then the claim completes it', async () => {
    const started = Date.now();
    const tx = h.simnet.withdraw({ l2: SIM.evm });
    await trackOk(tx);
    const pending = await h.waitFor(tx.chainId, tx.txHash, (b) => b.state === 'STATE_PENDING');
    expect(pending.transfer_sequence[0].op_init_transfer.state).toBe('OPINIT_TRANSFER_SENT');
    // The covering output, found from L1's propose_output event: claimable at its L1 block time (from L1 REST)
    // plus the bridge's 4 s finalization period; the state clients know stays SENT meanwhile.
    const proposed = await h.waitFor(
      tx.chainId,
      tx.txHash,
      (b) => b.transfer_sequence?.[0]?.op_init_transfer?.phase === 'output_proposed',
    );
    const op = proposed.transfer_sequence[0].op_init_transfer;
    expect(op).toMatchObject({
      state: 'OPINIT_TRANSFER_SENT',
      bridge_id: '2',
      l2_sequence: expect.stringMatching(/^\d+$/),
    });
    const l1Rest = h.simnet.servers.get(SIM.l1)!.restUrl;
    const out = (await (await fetch(`${l1Rest}/opinit/ophost/v1/bridges/2/outputs/${op.output_index}`)).json()) as any;
    expect(Date.parse(op.claimable_at)).toBe(Date.parse(out.output_proposal.l1_block_time) + 4_000);
    expect(proposed.next_action).toBeUndefined();
    const d = await h.waitFor(tx.chainId, tx.txHash, terminal);
    expect(d.state).toBe('STATE_COMPLETED_SUCCESS');
    expect(d.transfer_sequence[0].op_init_transfer).toMatchObject({ phase: 'claimed', output_index: op.output_index });
    expect(d.next_action).toBeUndefined();
    expect(Date.now() - started).toBeGreaterThanOrEqual(4_000);
    const hop = d.transfer_sequence[0].op_init_transfer;
    expect([hop.from_chain_id, hop.to_chain_id, hop.state]).toEqual([SIM.evm, SIM.l1, 'OPINIT_TRANSFER_RECEIVED']);
  });

  it('LayerZero OFT send → LAYER_ZERO_TRANSFER_RECEIVED', async () => {
    const tx = h.simnet.lzSend();
    expect(tx.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    await trackOk(tx);
    const d = await h.waitFor(tx.chainId, tx.txHash, terminal);
    expect(d.state).toBe('STATE_COMPLETED_SUCCESS');
    const hop = d.transfer_sequence[0].layer_zero_transfer;
    expect([hop.from_chain_id, hop.to_chain_id, hop.state]).toEqual([SIM.evm, SIM.eth, 'LAYER_ZERO_TRANSFER_RECEIVED']);
    expect(hop.txs.receive_tx.chain_id).toBe(SIM.eth);
  });

  it('LayerZero LzReceiveAlert → FAILED (PENDING_ERROR while retriable, then COMPLETED_ERROR)', async () => {
    const tx = h.simnet.lzSend({ outcome: 'fail' });
    await trackOk(tx);
    const pe = await h.waitFor(tx.chainId, tx.txHash, (b) => b.state === 'STATE_PENDING_ERROR' || terminal(b));
    expect(pe.transfer_sequence[0].layer_zero_transfer.state).toBe('LAYER_ZERO_TRANSFER_FAILED');
    const d = await h.waitFor(tx.chainId, tx.txHash, terminal);
    expect(d.state).toBe('STATE_COMPLETED_ERROR');
    expect(d.error.message).toContain('insufficient balance');
    expect(d.transfer_sequence[0].layer_zero_transfer.txs.error_tx.chain_id).toBe(SIM.eth);
  });
});

describe.concurrent('failures, abandonment and registration', () => {
  it('failed source tx → COMPLETED_ERROR / TRANSACTION_EXECUTION; tracking it again answers 400', async () => {
    const tx = h.simnet.failedTx();
    await trackOk(tx);
    const d = await h.waitFor(tx.chainId, tx.txHash, terminal);
    expect(d).toMatchObject({
      state: 'STATE_COMPLETED_ERROR',
      status: 'STATE_FAILED',
      transfer_sequence: [],
      error: { type: 'STATUS_ERROR_TRANSACTION_EXECUTION' },
    });
    expect(d.error.message).toContain('Subtraction overflow');
    const again = await h.track(tx.chainId, tx.txHash);
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ code: 3, message: 'tx is invalid on chain' });
  });

  it('a tx never included is abandoned after the source timeout', async () => {
    const hash = 'AB'.repeat(32);
    await trackOk({ chainId: SIM.l1, txHash: hash });
    const d = await h.waitFor(SIM.l1, hash, terminal, 20_000);
    expect([d.state, d.status]).toEqual(['STATE_ABANDONED', 'STATE_FAILED']);
  });

  it('a stalled IBC packet (relayer never delivers) is abandoned after the IBC stall window', async () => {
    const tx = h.simnet.ibcTransfer({ from: SIM.l1, channel: 'channel-1', outcome: 'stall' });
    await trackOk(tx);
    const d = await h.waitFor(tx.chainId, tx.txHash, terminal, 30_000);
    expect(d.state).toBe('STATE_ABANDONED');
    expect(d.transfer_sequence[0].ibc_transfer.state).toBe('TRANSFER_PENDING');
  });

  it('registering before inclusion answers STATE_SUBMITTED, then tracks to completion', async () => {
    const tx = h.simnet.ibcTransfer({ from: SIM.l1, channel: 'channel-1', includeAfterMs: 1_500 });
    await trackOk(tx);
    const first = await h.status(tx.chainId, tx.txHash);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ state: 'STATE_SUBMITTED', status: 'STATE_SUBMITTED', transfer_sequence: [] });
    const d = await h.waitFor(tx.chainId, tx.txHash, terminal);
    expect(d.state).toBe('STATE_COMPLETED_SUCCESS');
  });

  it('registering the same tx twice (and with 0x / lowercase hash) reaches one workflow', async () => {
    const tx = h.simnet.deposit({ l2: SIM.move });
    const [a, b, c] = await Promise.all([
      h.track(tx.chainId, tx.txHash),
      h.track(tx.chainId, tx.txHash.toLowerCase()),
      h.track(tx.chainId, tx.txHash),
    ]);
    expect([a.status, b.status, c.status]).toEqual([200, 200, 200]);
    expect(b.body).toEqual(a.body);
    await h.waitFor(tx.chainId, tx.txHash, terminal);
    const again = await h.track(tx.chainId, tx.txHash); // after completion: REJECT_DUPLICATE keeps it finished
    expect(again.status).toBe(200);
    const id = workflowIdOf(tx.chainId, tx.txHash);
    await h.tracking.client.client.workflow.getHandle(id).result();
    let n = 0;
    for (let i = 0; i < 50 && n === 0; i++) {
      // visibility is eventually consistent
      n = 0;
      for await (const _ of h.tracking.client.client.workflow.list({ query: `WorkflowId = '${id}'` })) n++;
      if (n === 0) await new Promise((r) => setTimeout(r, 100));
    }
    expect(n).toBe(1);
    const rows = await h.store.rows<{ n: string; v: string }>(
      `SELECT count() AS n, uniqExact(version) AS v FROM transfer_events WHERE chain_id = {c:String} AND tx_hash = {t:String}`,
      { c: tx.chainId, t: tx.txHash },
    );
    expect(rows[0]!.n).toBe(rows[0]!.v);
  });

  it('a registration whose workflow start was lost (crash after the row) is started by reconcile()', async () => {
    const tx = h.simnet.deposit({ l2: SIM.move });
    await h.tracking.projection.register(tx.chainId, tx.txHash, Date.now()); // row only, no workflow
    await new Promise((r) => setTimeout(r, 1_500));
    expect((await h.status(tx.chainId, tx.txHash)).body.state).toBe('STATE_SUBMITTED');
    expect(await h.tracking.starter.reconcile(h.store)).toBeGreaterThanOrEqual(1);
    const d = await h.waitFor(tx.chainId, tx.txHash, terminal);
    expect(d.state).toBe('STATE_COMPLETED_SUCCESS');
  });

  it('HTTP errors: unsupported chain 404/5, malformed hash 400/3, unregistered tx 404 "tx not found", missing params 400', async () => {
    const unsupported = await h.track('nochain-1', 'AB'.repeat(32));
    expect(unsupported).toEqual({ status: 404, body: { code: 5, message: 'chain ID not supported', details: [] } });
    const bad = await h.track(SIM.l1, 'xyz');
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 3, message: 'tx is invalid on chain' });
    const unknown = await h.status(SIM.l1, 'CD'.repeat(32));
    expect(unknown).toEqual({ status: 404, body: { code: 5, message: 'tx not found', details: [] } });
    const missing = await fetch(`${h.url}/v2/tx/status?chain_id=${SIM.l1}`);
    expect(missing.status).toBe(400);
    const huge = await h.track(SIM.l1, 'A'.repeat(5000));
    expect(huge.status).toBe(400);
    const notJson = await fetch(`${h.url}/v2/tx/track`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{',
    });
    expect(notJson.status).toBe(400);
  });

  it('GET /v2/tx/claim_msgs: 404 unknown tx, 400 malformed parameters, 400 NOTHING_TO_CLAIM without a claimable withdrawal', async () => {
    const claim = async (q: string) => {
      const r = await fetch(`${h.url}/v2/tx/claim_msgs?${q}`);
      return { status: r.status, body: (await r.json()) as Record<string, any> };
    };
    expect(await claim(`chain_id=${SIM.evm}&tx_hash=${'CD'.repeat(32)}`)).toEqual({
      status: 404,
      body: { code: 5, message: 'tx not found', details: [] },
    });
    expect((await claim(`chain_id=${SIM.evm}&tx_hash=xyz`)).status).toBe(400);
    expect((await claim(`chain_id=${SIM.evm}`)).status).toBe(400);
    const tx = h.simnet.deposit({ l2: SIM.move });
    await trackOk(tx);
    await h.waitFor(tx.chainId, tx.txHash, terminal);
    const badSigner = await claim(`chain_id=${tx.chainId}&tx_hash=${tx.txHash}&signer_address=${'x'.repeat(200)}`);
    expect(badSigner.status).toBe(400);
    const nothing = await claim(`chain_id=${tx.chainId}&tx_hash=${tx.txHash}`);
    expect(nothing.status).toBe(400);
    expect(nothing.body).toMatchObject({ code: 3, reason: 'NOTHING_TO_CLAIM' });
    expect(nothing.body.message).toMatch(/^nothing to claim: the transfer is STATE_COMPLETED_SUCCESS/);
  });
});

// Alone (not beside the concurrent scenarios): the L1 makes no block here unless this test includes one.
describe('OPinit claimability follows the L1 clock', () => {
  it('a withdrawal is claimable only once an L1 block has reached claimable_at, not when our clock has', async () => {
    // `stall`: the relayer proposes the output and never claims, so only this test moves the L1
    const tx = h.simnet.withdraw({ l2: SIM.evm, outcome: 'stall' });
    await trackOk(tx);
    const phase = (b: Record<string, any>) => b.transfer_sequence?.[0]?.op_init_transfer?.phase;
    const proposed = await h.waitFor(tx.chainId, tx.txHash, (b) => phase(b) === 'output_proposed');
    const claimableAt = Date.parse(proposed.transfer_sequence[0].op_init_transfer.claimable_at);
    const l1 = h.simnet.chain(SIM.l1);
    const l1Time = () => Date.parse(l1.block(l1.latestHeight())!.time);
    // Our clock passes claimable_at; the L1's latest block is still older (a claim now would fail on chain).
    await new Promise((r) => setTimeout(r, Math.max(0, claimableAt - Date.now()) + 2_500));
    expect(l1Time()).toBeLessThan(claimableAt);
    const waiting = (await h.status(tx.chainId, tx.txHash)).body;
    expect(phase(waiting)).toBe('output_proposed');
    expect(waiting.next_action).toBeUndefined();
    const early = await fetch(`${h.url}/v2/tx/claim_msgs?chain_id=${tx.chainId}&tx_hash=${tx.txHash}`);
    expect([early.status, ((await early.json()) as Record<string, any>).reason]).toEqual([400, 'NOTHING_TO_CLAIM']);
    // An L1 block at the wall clock (≥ claimable_at): now a claim lands in a later block, which passes.
    h.simnet.include(SIM.l1, []);
    expect(l1Time()).toBeGreaterThanOrEqual(claimableAt);
    const claimable = await h.waitFor(tx.chainId, tx.txHash, (b) => phase(b) === 'claimable', 10_000);
    expect(claimable.state).toBe('STATE_PENDING');
    expect(claimable.next_action).toMatchObject({ type: 'CLAIM_WITHDRAWAL', chain_id: SIM.l1, ready: true });
    // Left unclaimed past the withdrawal stall window: still claimable, never abandoned (it was, after a day by
    // default), and the claim can still be built.
    await new Promise((r) => setTimeout(r, FAST.withdrawalStallMs + 3_000));
    const later = (await h.status(tx.chainId, tx.txHash)).body;
    expect([later.state, phase(later)]).toEqual(['STATE_PENDING', 'claimable']);
    const claim = await fetch(`${h.url}/v2/tx/claim_msgs?chain_id=${tx.chainId}&tx_hash=${tx.txHash}`);
    expect(claim.status).toBe(200);
  }, 90_000);
});
