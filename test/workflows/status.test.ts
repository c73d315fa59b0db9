// The pure status projection (docs/router.md / docs/tracking.md): state ↔ status table, hop shapes, releases.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { statusDocument, STATUS_OF, submittedDocument } from '../../workflows/status.js';
import type { IbcHop, LzHop, OpDepositHop, OpWithdrawalHop, TrackingState } from '../../workflows/model.js';

const ref = (chainId: string, txHash: string) => ({
  chainId,
  txHash,
  explorerLink: `https://x/${txHash}`,
  onChainAt: '2025-06-30T04:18:25Z',
});
const ibc = (o: Partial<IbcHop> = {}): IbcHop => ({
  kind: 'ibc',
  fromChainId: 'a-1',
  toChainId: 'b-1',
  srcPort: 'transfer',
  srcChannel: 'channel-0',
  dstPort: 'transfer',
  dstChannel: 'channel-9',
  sequence: '1',
  timeoutTimestamp: '0',
  denom: 'uinit',
  amount: '5',
  state: 'TRANSFER_PENDING',
  sendTx: ref('a-1', 'S'),
  ...o,
});
const st = (hops: TrackingState['hops'], phase: TrackingState['phase'] = 'tracking'): TrackingState => ({
  chainId: 'a-1',
  txHash: 'S',
  phase,
  hops,
  version: 1,
});

describe('status document', () => {
  it('registration row answers STATE_SUBMITTED with an empty sequence and one transfers element', () => {
    const d = submittedDocument();
    expect(d).toMatchObject({
      state: 'STATE_SUBMITTED',
      status: 'STATE_SUBMITTED',
      transfer_sequence: [],
      next_blocking_transfer: null,
    });
    // @skip-go/client's subscribeToRouteStatus reads transfers[0].state from the first answer on.
    expect(d.transfers).toEqual([{ state: 'STATE_SUBMITTED', transfer_sequence: [], next_blocking_transfer: null }]);
    // Skip's OpenAPI declares both as objects: absent, never null.
    expect('error' in d).toBe(false);
    expect('transfer_asset_release' in d).toBe(false);
  });
  it('every document has exactly one transfers element that agrees with the top level', () => {
    for (const s of [st([ibc()]), st([], 'source_failed'), st([ibc({ state: 'TRANSFER_SUCCESS' })], 'finished')]) {
      const d = statusDocument(s);
      const { status: _status, transfers, ...top } = d;
      expect(transfers).toEqual([top]);
    }
  });
  it('pending hop: STATE_PENDING, next_blocking_transfer 0, unseen slots null', () => {
    const d = statusDocument(st([ibc()]));
    expect(d.state).toBe('STATE_PENDING');
    expect(d.next_blocking_transfer).toEqual({ transfer_sequence_index: 0 });
    expect((d.transfer_sequence[0] as any).ibc_transfer.packet_txs).toMatchObject({
      receive_tx: null,
      acknowledge_tx: null,
      timeout_tx: null,
    });
    expect((d.transfer_sequence[0] as any).ibc_transfer.packet_txs.send_tx).toEqual({
      chain_id: 'a-1',
      tx_hash: 'S',
      explorer_link: 'https://x/S',
      on_chain_at: '2025-06-30T04:18:25Z',
    });
  });
  it('error ack not yet relayed back → STATE_PENDING_ERROR (status PENDING); relayed → COMPLETED_ERROR / FAILED', () => {
    const failing = ibc({
      state: 'TRANSFER_FAILURE',
      receiveTx: ref('b-1', 'R'),
      error: { type: 'PACKET_ERROR_ACKNOWLEDGEMENT', message: 'x' },
    });
    const d1 = statusDocument(st([failing]));
    expect([d1.state, d1.status]).toEqual(['STATE_PENDING_ERROR', 'STATE_PENDING']);
    expect(d1.transfer_asset_release).toEqual({ chain_id: 'a-1', denom: 'uinit', amount: '5', released: false });
    const d2 = statusDocument(st([{ ...failing, acknowledgeTx: ref('a-1', 'A') }], 'finished'));
    expect([d2.state, d2.status]).toEqual(['STATE_COMPLETED_ERROR', 'STATE_FAILED']);
    expect(d2.error?.type).toBe('STATUS_ERROR_TRANSFER');
    expect(d2.next_blocking_transfer).toBeNull();
    expect(d2.transfer_asset_release?.released).toBe(true);
  });
  it('forwarded hop failed and settled on the middle chain, previous hop not yet failed → PENDING_ERROR, nothing released', () => {
    const first = ibc({ state: 'TRANSFER_RECEIVED', receiveTx: ref('b-1', 'R'), forwardsDerived: true });
    const failed = ibc({
      fromChainId: 'b-1',
      toChainId: 'c-1',
      srcChannel: 'channel-2',
      sendTx: ref('b-1', 'R'),
      state: 'TRANSFER_FAILURE',
      acknowledgeTx: ref('b-1', 'A'),
      error: { type: 'PACKET_ERROR_ACKNOWLEDGEMENT', message: 'forward failed' },
    });
    const mid = statusDocument(st([first, failed]));
    expect(mid.state).toBe('STATE_PENDING_ERROR');
    expect(mid.transfer_asset_release).toMatchObject({ released: false });
    // The middle chain's error ack for the first hop, relayed back to the origin: both failed, refund on a-1.
    const back = { ...first, state: 'TRANSFER_FAILURE' as const, acknowledgeTx: ref('a-1', 'B') };
    const done = statusDocument(st([back, failed]));
    expect(done.state).toBe('STATE_COMPLETED_ERROR');
    expect(done.transfer_asset_release).toMatchObject({ chain_id: 'a-1', released: true });
    // The other order (the chains' feeds are independent): the first hop's error ack is seen while the forwarded
    // hop is still pending. Not terminal yet: a client would stop polling with that hop pending forever.
    const pendingForward = {
      ...failed,
      state: 'TRANSFER_PENDING' as const,
      acknowledgeTx: undefined,
      error: undefined,
    };
    const early = statusDocument(st([back, pendingForward]));
    expect([early.state, early.status]).toEqual(['STATE_PENDING_ERROR', 'STATE_PENDING']);
    expect(early.transfer_asset_release).toMatchObject({ chain_id: 'a-1', released: true });
  });
  it('a settled failure is not terminal while an earlier, independent hop is still open', () => {
    // One tx starting two transfers: the second failed and was refunded while the first is still on its way.
    const open = ibc({ sequence: '7' });
    const refunded = ibc({
      sequence: '8',
      srcChannel: 'channel-1',
      state: 'TRANSFER_FAILURE',
      timeoutTx: ref('a-1', 'T'),
      error: { type: 'PACKET_ERROR_TIMEOUT', message: 'timed out' },
    });
    const d = statusDocument(st([open, refunded]));
    expect([d.state, d.status]).toEqual(['STATE_PENDING_ERROR', 'STATE_PENDING']);
    expect(d.next_blocking_transfer).toEqual({ transfer_sequence_index: 0 });
    const settled = statusDocument(st([{ ...open, state: 'TRANSFER_SUCCESS' }, refunded], 'finished'));
    expect(settled.state).toBe('STATE_COMPLETED_ERROR');
  });
  it('a transfer no hop follows (its channel unknown here) is never a success: COMPLETED_ERROR, INDEXING', () => {
    const lost = { ...st([], 'finished'), unfollowed: ['send_packet on transfer/channel-99'] };
    const d = statusDocument(lost);
    expect([d.state, d.status]).toEqual(['STATE_COMPLETED_ERROR', 'STATE_FAILED']);
    expect(d.error).toMatchObject({ type: 'STATUS_ERROR_INDEXING' });
    expect(d.error?.message).toContain('send_packet on transfer/channel-99');
    // With a followed hop beside it: pending while that hop is, and no success once it succeeds.
    expect(statusDocument({ ...st([ibc()]), unfollowed: lost.unfollowed }).state).toBe('STATE_PENDING');
    const both = { ...st([ibc({ state: 'TRANSFER_SUCCESS' })], 'finished'), unfollowed: lost.unfollowed };
    expect(statusDocument(both).state).toBe('STATE_COMPLETED_ERROR');
    // A tx that starts no transfer at all (a swap on one chain) stays a success.
    expect(statusDocument(st([], 'finished')).state).toBe('STATE_COMPLETED_SUCCESS');
  });
  it('source tx failure → COMPLETED_ERROR with TRANSACTION_EXECUTION and no hops', () => {
    const d = statusDocument({
      ...st([], 'source_failed'),
      sourceTx: { ...ref('a-1', 'S'), code: 1, log: 'out of gas' },
    });
    expect(d).toMatchObject({
      state: 'STATE_COMPLETED_ERROR',
      status: 'STATE_FAILED',
      transfer_sequence: [],
      error: { type: 'STATUS_ERROR_TRANSACTION_EXECUTION', message: 'out of gas' },
    });
  });
  it('hook failure releases on L2 (released), deposit failure on L1 (not yet released)', () => {
    const dep = (reason: string): OpDepositHop => ({
      kind: 'op_deposit',
      fromChainId: 'l1',
      toChainId: 'l2',
      bridgeId: '1',
      l1Sequence: '3',
      l1Denom: 'uinit',
      l2Denom: 'l2/ab',
      amount: '9',
      state: 'OPINIT_TRANSFER_RECEIVED',
      sendTx: ref('l1', 'S'),
      receiveTx: ref('l2', 'R'),
      success: false,
      reason,
    });
    expect(statusDocument(st([dep('hook failed; x')], 'finished')).transfer_asset_release).toEqual({
      chain_id: 'l2',
      denom: 'l2/ab',
      amount: '9',
      released: true,
    });
    expect(statusDocument(st([dep('deposit failed; bad recipient')], 'finished')).transfer_asset_release).toEqual({
      chain_id: 'l1',
      denom: 'uinit',
      amount: '9',
      released: false,
    });
  });
  it('LayerZero failure stays PENDING_ERROR while retriable and becomes COMPLETED_ERROR when the workflow gives up', () => {
    const lz: LzHop = {
      kind: 'layer_zero',
      fromChainId: 'e1',
      toChainId: 'e2',
      guid: '0x1',
      srcEid: 1,
      dstEid: 2,
      amountSent: '1',
      amountReceived: '1',
      state: 'LAYER_ZERO_TRANSFER_FAILED',
      sendTx: ref('e1', 'S'),
      errorTx: ref('e2', 'E'),
    };
    expect(statusDocument(st([lz])).state).toBe('STATE_PENDING_ERROR');
    expect(statusDocument(st([lz], 'finished')).state).toBe('STATE_COMPLETED_ERROR');
    expect((statusDocument(st([lz])).transfer_sequence[0] as any).layer_zero_transfer.txs.error_tx.tx_hash).toBe('E');
  });
  it('property: status always follows the state table, terminal states never have a blocking hop, keys are known', () => {
    const hopArb = fc
      .record({
        state: fc.constantFrom(
          'TRANSFER_PENDING',
          'TRANSFER_RECEIVED',
          'TRANSFER_SUCCESS',
          'TRANSFER_FAILURE',
        ) as fc.Arbitrary<IbcHop['state']>,
        acked: fc.boolean(),
      })
      .map(({ state, acked }) => ibc({ state, ...(acked ? { acknowledgeTx: ref('a-1', 'A') } : {}) }));
    fc.assert(
      fc.property(
        fc.array(hopArb, { maxLength: 4 }),
        fc.constantFrom('tracking', 'finished', 'abandoned') as fc.Arbitrary<TrackingState['phase']>,
        (hops, phase) => {
          const d = statusDocument(st(hops, phase));
          expect(d.status).toBe(STATUS_OF[d.state]);
          if (['STATE_COMPLETED_SUCCESS', 'STATE_COMPLETED_ERROR', 'STATE_ABANDONED'].includes(d.state))
            expect(d.next_blocking_transfer).toBeNull();
          for (const e of d.transfer_sequence) expect(Object.keys(e)).toEqual(['ibc_transfer']);
          expect(d.transfer_sequence).toHaveLength(hops.length);
        },
      ),
    );
  });
});

describe('OPinit withdrawal phases (ours, beside the states clients know)', () => {
  const output = { index: '7', l2BlockNumber: 120, outputRoot: 'cm9vdA==', l1BlockTime: '2026-11-26T01:00:00.000Z' };
  const wd = (o: Partial<OpWithdrawalHop> = {}): OpWithdrawalHop => ({
    kind: 'op_withdrawal',
    fromChainId: 'l2-1',
    toChainId: 'l1-1',
    bridgeId: '3',
    l2Sequence: '9',
    denom: 'l2/abc',
    baseDenom: 'uinit',
    amount: '5',
    state: 'OPINIT_TRANSFER_SENT',
    sendTx: ref('l2-1', 'S'),
    l2Height: 118,
    ...o,
  });
  const op = (h: OpWithdrawalHop) => statusDocument(st([h])).transfer_sequence[0]!.op_init_transfer as any;
  const claimableAtMs = Date.parse(output.l1BlockTime) + 10_000;

  it('initiated → output_proposed → claimable → claimed; the client-facing state stays SENT until the claim', () => {
    expect(op(wd())).toMatchObject({
      state: 'OPINIT_TRANSFER_SENT',
      phase: 'initiated',
      output_index: null,
      claimable_at: null,
    });
    expect(op(wd({ output, claimableAtMs }))).toMatchObject({
      state: 'OPINIT_TRANSFER_SENT',
      phase: 'output_proposed',
      output_index: '7',
      claimable_at: '2026-11-26T01:00:10.000Z',
      bridge_id: '3',
      l2_sequence: '9',
    });
    expect(op(wd({ output, claimableAtMs, claimable: true, claimProof: 'ready' })).phase).toBe('claimable');
    const claimed = wd({
      output,
      claimableAtMs,
      claimable: true,
      state: 'OPINIT_TRANSFER_RECEIVED',
      receiveTx: ref('l1-1', 'C'),
    });
    expect(op(claimed)).toMatchObject({ state: 'OPINIT_TRANSFER_RECEIVED', phase: 'claimed' });
  });

  it('the claim is the next action only while claimable and unclaimed, with the reason it cannot be built yet', () => {
    expect(statusDocument(st([wd({ output, claimableAtMs })])).next_action).toBeUndefined();
    const ready = statusDocument(st([wd({ output, claimableAtMs, claimable: true, claimProof: 'ready' })]));
    expect(ready.state).toBe('STATE_PENDING');
    expect(ready.next_action).toEqual({
      type: 'CLAIM_WITHDRAWAL',
      transfer_sequence_index: 0,
      chain_id: 'l1-1',
      claimable_at: '2026-11-26T01:00:10.000Z',
      ready: true,
    });
    expect(ready.transfers[0]!.next_action).toEqual(ready.next_action);
    for (const [proof, reason] of [
      ['executor_unknown', 'EXECUTOR_UNKNOWN'],
      ['executor_unreachable', 'EXECUTOR_UNREACHABLE'],
      ['proof_pending', 'PROOF_PENDING'],
    ] as const)
      expect(
        statusDocument(st([wd({ output, claimableAtMs, claimable: true, claimProof: proof })])).next_action,
      ).toMatchObject({
        ready: false,
        reason,
      });
    // a deleted output (cleared by the tracker) takes the claim off the table again
    expect(statusDocument(st([wd({ claimable: true, claimProof: 'ready' })])).next_action).toBeUndefined();
    const done = wd({
      output,
      claimableAtMs,
      claimable: true,
      state: 'OPINIT_TRANSFER_RECEIVED',
      receiveTx: ref('l1-1', 'C'),
    });
    expect(statusDocument(st([done], 'finished')).next_action).toBeUndefined();
  });

  it('a deposit shows its phase: initiated, finalized or failed (success=false)', () => {
    const dep = (o: Partial<OpDepositHop>): OpDepositHop => ({
      kind: 'op_deposit',
      fromChainId: 'l1-1',
      toChainId: 'l2-1',
      bridgeId: '3',
      l1Sequence: '4',
      l1Denom: 'uinit',
      l2Denom: 'l2/abc',
      amount: '5',
      state: 'OPINIT_TRANSFER_SENT',
      sendTx: ref('l1-1', 'S'),
      ...o,
    });
    const phase = (h: OpDepositHop) => (statusDocument(st([h])).transfer_sequence[0]!.op_init_transfer as any).phase;
    expect(phase(dep({}))).toBe('initiated');
    expect(phase(dep({ state: 'OPINIT_TRANSFER_RECEIVED', success: true }))).toBe('finalized');
    expect(phase(dep({ state: 'OPINIT_TRANSFER_RECEIVED', success: false }))).toBe('failed');
    // held by a stopped executor: still pending, with the reason beside the state clients know
    const held = statusDocument(st([dep({ waitReason: 'EXECUTOR_UNREACHABLE' })]));
    expect(held.state).toBe('STATE_PENDING');
    expect(held.transfer_sequence[0]!.op_init_transfer).toMatchObject({
      state: 'OPINIT_TRANSFER_SENT',
      waiting_reason: 'EXECUTOR_UNREACHABLE',
    });
    expect((statusDocument(st([dep({})])).transfer_sequence[0]!.op_init_transfer as any).waiting_reason).toBeNull();
  });
});
