// Which L1 output covers an OPinit withdrawal (workflows/evidence.ts coveringCandidates / sameOutput), on real
// answers of a devnet bridge (test/fixtures/opinit-devnet/README.md).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { coveringCandidates, sameOutput } from '../../workflows/evidence.js';
import type { ChainTx, OpWithdrawalHop } from '../../workflows/model.js';
import { asTx, type CometTx } from '../support/recorded-answers.js';

const dir = path.join(__dirname, '../fixtures/opinit-devnet');
const fixture = (f: string) => JSON.parse(readFileSync(path.join(dir, f), 'utf8'));
const proposals: ChainTx[] = fixture('l1-tx-search-propose-output.json').result.txs.map((t: CometTx) => asTx('l1', t));
const hop = (l2Height: number, bridgeId = '1'): OpWithdrawalHop => ({
  kind: 'op_withdrawal',
  fromChainId: 'l2',
  toChainId: 'l1',
  bridgeId,
  l2Sequence: '2',
  denom: 'l2/x',
  baseDenom: 'uinit',
  amount: '1',
  state: 'OPINIT_TRANSFER_SENT',
  sendTx: { chainId: 'l2', txHash: 'S', explorerLink: '' },
  l2Height,
});
const candidates = (h: OpWithdrawalHop) => coveringCandidates(h, proposals);

describe('the output covering a withdrawal', () => {
  it('is among the propose_output events of its bridge with l2_block_number ≥ its L2 height, lowest index first', () => {
    // the recorded outputs: index 10 at L2 height 99, index 11 at 109
    expect(candidates(hop(99)).map((c) => [c.index, c.l2BlockNumber])).toEqual([
      ['10', 99],
      ['11', 109],
    ]);
    expect(candidates(hop(100)).map((c) => c.index)).toEqual(['11']);
    expect(candidates(hop(110))).toEqual([]);
    expect(candidates(hop(99, '2'))).toEqual([]);
    // the event prints the root in hex
    expect(candidates(hop(100))[0]!.outputRoot).toMatch(/^[0-9a-f]{64}$/);
  });

  it('is still live only while L1 holds the same root at that index (REST prints it in base64)', () => {
    const live = fixture('l1-rest-output-live.json').output_proposal;
    const announced = { l2BlockNumber: 118, outputRoot: Buffer.from(live.output_root, 'base64').toString('hex') };
    expect(sameOutput(announced, live)).toBe(true);
    // the executor re-proposes at a deleted index: another root, or another L2 block, is another output
    expect(sameOutput({ ...announced, outputRoot: 'aa'.repeat(32) }, live)).toBe(false);
    expect(sameOutput({ ...announced, l2BlockNumber: 117 }, live)).toBe(false);
    // deleted: initiad answers HTTP 500 "collections: not found" (the activity reads it as no output)
    expect(fixture('l1-rest-output-deleted.json').message).toMatch(/collections: not found/);
    expect(sameOutput(announced, undefined)).toBe(false);
  });
});
