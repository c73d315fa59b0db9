// The claim of a finalized OPinit withdrawal (routing/claim.ts) on real answers of a devnet bridge
// (test/fixtures/opinit-devnet/README.md): the message we build from the executor's proof is the one L1 accepted.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { decodeTxRaw } from '@cosmjs/proto-signing';
import { describe, expect, it } from 'vitest';
import { opinitMsgAny } from '../../devnet/opinit/messages.js';
import { RouteError } from '../../routing/errors.js';
import {
  claimMessages,
  FINALIZE_WITHDRAWAL_TYPE_URL,
  parseWithdrawalProof,
  proofOutputRoot,
  type ClaimTarget,
} from '../../routing/claim.js';

const dir = path.join(__dirname, '../fixtures/opinit-devnet');
const fixture = (f: string) => JSON.parse(readFileSync(path.join(dir, f), 'utf8'));
const claimTx = fixture('l1-tx-search-finalize-token-withdrawal.json').result.txs[0];
const target: ClaimTarget = { bridgeId: '1', l2Sequence: '1', outputIndex: '6', l1ChainId: 'l1-1', l2ChainId: 'l2-1' };

function reason(f: () => unknown): string | undefined {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(RouteError);
    expect((e as RouteError).kind).toBe('unavailable');
    return (e as RouteError).extra.reason as string;
  }
  throw new Error('expected a RouteError');
}

describe('MsgFinalizeTokenWithdrawal from the executor proof', () => {
  it('equals the claim L1 accepted, as JSON and as protobuf bytes', () => {
    expect(claimTx.tx_result.code).toBe(0);
    const sent = decodeTxRaw(Buffer.from(claimTx.tx, 'base64')).body.messages[0]!;
    expect(sent.typeUrl).toBe(FINALIZE_WITHDRAWAL_TYPE_URL);
    const sender = 'init1wzvhjux9rqfdcwspp37srdgwp5tac7wg9ql75y';
    const out = claimMessages(parseWithdrawalProof(fixture('executor-withdrawal.json')), target, sender);
    const tx = out.txs[0]!.cosmos_tx;
    expect(tx).toMatchObject({ chain_id: 'l1-1', path: ['l2-1', 'l1-1'], signer_address: sender });
    expect(tx.msgs).toHaveLength(1);
    expect(out.msgs[0]!.multi_chain_msg).toMatchObject({ chain_id: 'l1-1', msg: tx.msgs[0]!.msg });
    // the same bytes as the accepted tx's message: nothing lost or reordered on the way through our JSON
    expect(Buffer.from(opinitMsgAny(tx.msgs[0]!).value).toString('hex')).toBe(Buffer.from(sent.value).toString('hex'));
    // and the claim carries what the finalize_token_withdrawal event then reported
    const ev = claimTx.tx_result.events.find((e: { type: string }) => e.type === 'finalize_token_withdrawal');
    const attr = (k: string) => ev.attributes.find((a: { key: string }) => a.key === k).value;
    const msg = JSON.parse(tx.msgs[0]!.msg);
    expect([msg.bridge_id, msg.output_index, msg.sequence, msg.amount.amount]).toEqual([
      attr('bridge_id'),
      attr('output_index'),
      attr('l2_sequence'),
      attr('amount'),
    ]);
  });

  it('the signer defaults to the withdrawal recipient (anyone may claim)', () => {
    const out = claimMessages(parseWithdrawalProof(fixture('executor-withdrawal.json')), target);
    expect(out.txs[0]!.cosmos_tx.signer_address).toBe(JSON.parse(out.txs[0]!.cosmos_tx.msgs[0]!.msg).to);
  });

  it('before its output the executor answers output_index 0 and null proofs: not yet claimable (PROOF_PENDING)', () => {
    const early = parseWithdrawalProof(fixture('executor-withdrawal-before-output.json'));
    expect(early.outputIndex).toBe('0');
    expect(early.withdrawalProofs).toEqual([]);
    expect(reason(() => claimMessages(early, target))).toBe('PROOF_PENDING');
    // a proof for another output (the executor lagging a re-proposed output) is not used either
    const other = parseWithdrawalProof(fixture('executor-withdrawal.json'));
    expect(reason(() => claimMessages(other, { ...target, outputIndex: '7' }))).toBe('PROOF_PENDING');
  });

  it("a proof hashes to its output's root (ophost's check): a proof for a deleted output at a reused index is refused", () => {
    const proof = parseWithdrawalProof(fixture('executor-withdrawal.json'));
    // The recorded executor answer hashes to the root L1 recorded for output 6 (REST prints it in base64).
    const live = fixture('l1-rest-output.json').output_proposal.output_root as string;
    expect(proofOutputRoot(proof)).toBe(Buffer.from(live, 'base64').toString('hex'));
    const rooted = { ...target, outputRoot: Buffer.from(live, 'base64').toString('hex') };
    expect(claimMessages(proof, rooted).txs).toHaveLength(1);
    // Index 6 re-proposed after a challenger's deletion (another root): the executor's old proof would fail on L1.
    expect(reason(() => claimMessages(proof, { ...rooted, outputRoot: 'ab'.repeat(32) }))).toBe('PROOF_PENDING');
  });

  it('an executor answer that is not a proof is refused, never passed on to be signed', () => {
    const good = fixture('executor-withdrawal.json');
    for (const bad of [
      null,
      'failed to query withdrawal',
      { ...good, sequence: -1 },
      { ...good, bridge_id: '1 OR 1=1' },
      { ...good, withdrawal_proofs: ['not base64!'] },
      { ...good, withdrawal_proofs: Array.from({ length: 65 }, () => 'AA==') },
      { ...good, amount: { denom: 'uinit', amount: '1e9' } },
      { ...good, to: 'x'.repeat(300) },
    ])
      expect(reason(() => parseWithdrawalProof(bad))).toBe('EXECUTOR_BAD_ANSWER');
  });
});
