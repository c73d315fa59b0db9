// Which hops can stall (workflows/model.ts hopCanStall): silence means a stuck hop, except while the hop waits on
// its rollup's executor (an operator's outage: the deposit lands once the executor is back, docs/tracking.md says it
// is never failed) and once a withdrawal is claimable (the funds wait for the user's claim, which never expires).
import { describe, expect, it } from 'vitest';
import { hopCanStall, type OpDepositHop, type OpWithdrawalHop } from '../../workflows/model.js';

const sendTx = { chainId: 'l1', txHash: 'S', explorerLink: '' };
const deposit: OpDepositHop = {
  kind: 'op_deposit',
  fromChainId: 'l1',
  toChainId: 'l2',
  bridgeId: '1',
  l1Sequence: '7',
  l1Denom: 'uinit',
  l2Denom: 'l2/x',
  amount: '1',
  state: 'OPINIT_TRANSFER_SENT',
  sendTx,
};
const withdrawal: OpWithdrawalHop = {
  kind: 'op_withdrawal',
  fromChainId: 'l2',
  toChainId: 'l1',
  bridgeId: '1',
  l2Sequence: '3',
  denom: 'l2/x',
  baseDenom: 'uinit',
  amount: '1',
  state: 'OPINIT_TRANSFER_SENT',
  sendTx: { ...sendTx, chainId: 'l2' },
  l2Height: 10,
};
const output = { index: '4', l2BlockNumber: 12, outputRoot: 'ab'.repeat(32), l1BlockTime: '2026-11-29T00:00:00Z' };

describe('hopCanStall', () => {
  it('a deposit stalls, except while its executor does not answer', () => {
    expect(hopCanStall(deposit)).toBe(true);
    expect(hopCanStall({ ...deposit, waitReason: 'EXECUTOR_UNREACHABLE' })).toBe(false);
  });
  it('a withdrawal stalls before its output and in its proposed phase, never once claimable', () => {
    expect(hopCanStall(withdrawal)).toBe(true);
    expect(hopCanStall({ ...withdrawal, waitReason: 'EXECUTOR_UNREACHABLE' })).toBe(false);
    expect(hopCanStall({ ...withdrawal, output })).toBe(true);
    expect(hopCanStall({ ...withdrawal, output, claimable: true })).toBe(false);
  });
});
