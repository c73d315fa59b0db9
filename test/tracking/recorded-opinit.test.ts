// Our OPinit tracking against the recorded answers of a real bridge (L1 initiad, L2 minievm, executor opinitd;
// test/fixtures/opinit-devnet/README.md): the pure hop machines read the real txs to their end states, and the
// simnet's OPinit answers (events, L1 REST bridge and outputs, the executor's withdrawal) have the real field
// sets, attribute keys in order and encodings.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BRIDGES, SIM, Simnet } from '../../devnet/simnet/index.js';
import {
  coveringCandidates,
  depositFinalized,
  deriveHops,
  sameOutput,
  withdrawalFinalized,
} from '../../workflows/evidence.js';
import type { OpDepositHop, OpWithdrawalHop } from '../../workflows/model.js';
import { statusDocument } from '../../workflows/status.js';
import { asTx, attr, keysOf, recordedResolver, shape, type CometTx } from '../support/recorded-answers.js';

const dir = path.join(__dirname, '../fixtures/opinit-devnet');
// Recorded answers are untyped JSON (any: read field by field below).
const rec = (f: string): any => JSON.parse(readFileSync(path.join(dir, f), 'utf8'));
const first = (f: string) => rec(f).result.txs[0] as CometTx;
const real = {
  deposit: first('l1-tx-search-initiate-token-deposit.json'),
  finalizeDeposit: first('l2-tx-search-finalize-token-deposit.json'),
  withdrawal: first('l2-tx-search-initiate-token-withdrawal.json'),
  propose: first('l1-tx-search-propose-output.json'),
  claim: first('l1-tx-search-finalize-token-withdrawal.json'),
  hookDeposit: first('l1-tx-search-initiate-token-deposit-hook.json'),
  hookOk: first('l2-tx-search-finalize-token-deposit-hook-ok.json'),
  hookFailed: first('l2-tx-search-finalize-token-deposit-hook-failed.json'),
};
const L1 = 'opinit-l1-1';
const L2 = 'opinit-l2-1';
const resolver = recordedResolver({
  l2ByBridgeId: (id) => (id === '1' ? L2 : undefined),
  l1Of: (c) => (c === L2 ? { l1ChainId: L1, bridgeId: '1' } : undefined),
});

describe('hop machines on the recorded real OPinit txs', () => {
  it('deposit: initiate_token_deposit on L1 → finalize_token_deposit (success) on L2', () => {
    const [hop] = deriveHops(asTx(L1, real.deposit), resolver) as OpDepositHop[];
    expect(hop).toMatchObject({ kind: 'op_deposit', toChainId: L2, bridgeId: '1', l1Sequence: '1', l1Denom: 'uinit' });
    const done = depositFinalized(hop!, asTx(L2, real.finalizeDeposit), resolver);
    expect(done).toMatchObject({ state: 'OPINIT_TRANSFER_RECEIVED', success: true });
    expect(done!.receiveTx?.txHash).toBe(real.finalizeDeposit.hash);
    // the executor's finalize names the deposit's L1 height
    expect(attr(real.finalizeDeposit.tx_result.events, 'finalize_token_deposit', 'finalize_height')).toBe(
      real.deposit.height,
    );
  });

  it('withdrawal: initiate_token_withdrawal on L2 (its height kept) → finalize_token_withdrawal on L1', () => {
    const [hop] = deriveHops(asTx(L2, real.withdrawal), resolver) as OpWithdrawalHop[];
    expect(hop).toMatchObject({
      kind: 'op_withdrawal',
      toChainId: L1,
      bridgeId: '1',
      l2Sequence: '1',
      baseDenom: 'uinit',
      l2Height: Number(real.withdrawal.height),
    });
    const done = withdrawalFinalized(hop!, asTx(L1, real.claim), resolver);
    expect(done?.state).toBe('OPINIT_TRANSFER_RECEIVED');
    expect(done?.receiveTx?.txHash).toBe(real.claim.hash);
  });
});

describe('op-hook deposits on the recorded real bridge', () => {
  const finished = (hop: OpDepositHop) =>
    statusDocument({ chainId: L1, txHash: 'H', phase: 'finished', hops: [hop], version: 2 });

  it('the hook ran: finalized, success, the L2 tx as its receive tx', () => {
    const [hop] = deriveHops(asTx(L1, real.hookDeposit), resolver) as OpDepositHop[];
    expect(attr(real.hookDeposit.tx_result.events, 'initiate_token_deposit', 'data')).toMatch(/^[0-9a-f]{200,}$/);
    const done = depositFinalized(hop!, asTx(L2, real.hookOk), resolver)!;
    expect(done).toMatchObject({ state: 'OPINIT_TRANSFER_RECEIVED', success: true });
    expect(finished(done).state).toBe('STATE_COMPLETED_SUCCESS');
  });

  it('the hook failed: an error the chain names, the INIT released unwrapped on L2 (no refund to L1)', () => {
    // The failed deposit's own L1 tx is not recorded: its hop is the hook deposit's with the failed one's sequence.
    const [hop] = deriveHops(asTx(L1, real.hookDeposit), resolver) as OpDepositHop[];
    const l1Sequence = attr(real.hookFailed.tx_result.events, 'finalize_token_deposit', 'l1_sequence')!;
    const done = depositFinalized({ ...hop!, l1Sequence, amount: '1500000' }, asTx(L2, real.hookFailed), resolver)!;
    const reason = attr(real.hookFailed.tx_result.events, 'finalize_token_deposit', 'reason')!;
    expect(reason).toMatch(/^hook failed; Failed to run AnteHandler: account sequence mismatch/);
    expect(done).toMatchObject({ state: 'OPINIT_TRANSFER_RECEIVED', success: false, reason });
    const d = finished(done);
    expect(d.state).toBe('STATE_COMPLETED_ERROR');
    expect(d.error).toEqual({ message: reason, type: 'STATUS_ERROR_TRANSFER', details: null });
    expect(d.transfer_asset_release).toEqual({
      chain_id: L2,
      denom: attr(real.hookFailed.tx_result.events, 'finalize_token_deposit', 'denom'),
      amount: '1500000',
      released: true,
    });
  });
});

describe('simnet OPinit answers vs the recorded real bridge', () => {
  let net: Simnet;
  let base: Record<string, string>;
  beforeAll(async () => {
    net = await Simnet.start({ delays: { depositMs: 50, outputMs: 300, claimMs: 50 }, finalizationPeriodS: 1 });
    base = Object.fromEntries(net.chainInfos().map((c) => [c.chainId, c.rpcUrl!]));
  });
  afterAll(async () => {
    await net?.stop();
  });

  async function search(chainId: string, query: string): Promise<{ result: { txs: CometTx[] } }> {
    for (let i = 0; i < 200; i++) {
      const u = `${base[chainId]}/tx_search?query=${encodeURIComponent(`"${query}"`)}&prove=false`;
      const body = (await (await fetch(u)).json()) as { result: { txs: CometTx[] } };
      if (body.result?.txs?.length) return body;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`no tx on ${chainId} for ${query}`);
  }
  const get = async (url: string) => {
    const r = await fetch(url);
    return { status: r.status, text: await r.text() };
  };

  it('deposit, withdrawal, output and claim events: the real event names and attribute keys, in order', async () => {
    const bridge = BRIDGES[SIM.evm]!;
    const dep = net.deposit({ l2: SIM.evm });
    const depTx = (await search(SIM.l1, `tx.hash='${dep.txHash}'`)).result.txs[0]!;
    const l1Seq = attr(depTx.tx_result.events, 'initiate_token_deposit', 'l1_sequence');
    const fin = (await search(SIM.evm, `finalize_token_deposit.l1_sequence='${l1Seq}'`)).result.txs[0]!;
    const wd = net.withdraw({ l2: SIM.evm });
    const wdTx = (await search(SIM.evm, `tx.hash='${wd.txHash}'`)).result.txs[0]!;
    const seq = attr(wdTx.tx_result.events, 'initiate_token_withdrawal', 'l2_sequence');
    const prop = (await search(SIM.l1, `propose_output.bridge_id='${bridge}'`)).result.txs[0]!;
    const claim = (await search(SIM.l1, `finalize_token_withdrawal.l2_sequence='${seq}'`)).result.txs[0]!;
    for (const [sim, recorded, type] of [
      [depTx, real.deposit, 'initiate_token_deposit'],
      [fin, real.finalizeDeposit, 'finalize_token_deposit'],
      [wdTx, real.withdrawal, 'initiate_token_withdrawal'],
      [prop, real.propose, 'propose_output'],
      [claim, real.claim, 'finalize_token_withdrawal'],
    ] as const)
      expect({ type, keys: keysOf(sim.tx_result.events, type) }).toEqual({
        type,
        keys: keysOf(recorded.tx_result.events, type),
      });
    // encodings: the output root in hex in the event, base64 on L1 REST; numbers as decimal strings
    const root = attr(prop.tx_result.events, 'propose_output', 'output_root')!;
    expect(root).toMatch(/^[0-9a-f]{64}$/);
    expect(attr(real.propose.tx_result.events, 'propose_output', 'output_root')).toMatch(/^[0-9a-f]{64}$/);
    const index = attr(prop.tx_result.events, 'propose_output', 'output_index')!;
    const out = JSON.parse((await get(`${base[SIM.l1]}/opinit/ophost/v1/bridges/${bridge}/outputs/${index}`)).text);
    expect(shape(out)).toEqual(shape(rec('l1-rest-output.json')));
    const l2Block = Number(attr(prop.tx_result.events, 'propose_output', 'l2_block_number'));
    expect(sameOutput({ l2BlockNumber: l2Block, outputRoot: root }, out.output_proposal)).toBe(true);
    const [hop] = deriveHops(
      { ...asTx(SIM.evm, wdTx), chainId: SIM.evm },
      { ...resolver, l1Of: () => ({ l1ChainId: SIM.l1, bridgeId: bridge }) },
    ) as OpWithdrawalHop[];
    expect(coveringCandidates(hop!, [asTx(SIM.l1, prop)]).map((c) => c.index)).toEqual([index]);
  });

  it('a failed op-hook: the finalize_token_deposit event has the real attribute keys and reason form', async () => {
    const dep = net.deposit({ l2: SIM.evm, outcome: 'hookFail' });
    const depTx = (await search(SIM.l1, `tx.hash='${dep.txHash}'`)).result.txs[0]!;
    const l1Seq = attr(depTx.tx_result.events, 'initiate_token_deposit', 'l1_sequence');
    const fin = (await search(SIM.evm, `finalize_token_deposit.l1_sequence='${l1Seq}'`)).result.txs[0]!;
    const type = 'finalize_token_deposit';
    expect(keysOf(fin.tx_result.events, type)).toEqual(keysOf(real.hookFailed.tx_result.events, type));
    expect(attr(fin.tx_result.events, type, 'success')).toBe('false');
    const form = (r: string) => r.replace(/expected \d+, got \d+/, 'expected N, got M');
    expect(form(attr(fin.tx_result.events, type, 'reason')!)).toBe(
      form(attr(real.hookFailed.tx_result.events, type, 'reason')!),
    );
  });

  it('L1 REST bridge and the executor’s withdrawal answers have the real field sets', async () => {
    const bridge = BRIDGES[SIM.move]!;
    const b = JSON.parse((await get(`${base[SIM.l1]}/opinit/ophost/v1/bridges/${bridge}`)).text);
    expect(shape(b)).toEqual(shape(rec('l1-rest-bridge.json')));
    expect(b.bridge_config.finalization_period).toBe('1s');
    // the executor (served from the L2's address in the simnet): unknown, before the output, after it
    const unknown = await get(`${base[SIM.move]}/withdrawal/999999`);
    expect(unknown).toEqual({ status: 500, text: 'failed to query withdrawal' });
    const wd = net.withdraw({ l2: SIM.move });
    const wdTx = (await search(SIM.move, `tx.hash='${wd.txHash}'`)).result.txs[0]!;
    const seq = attr(wdTx.tx_result.events, 'initiate_token_withdrawal', 'l2_sequence');
    let early: any;
    for (let i = 0; i < 100 && !early; i++) {
      const r = await get(`${base[SIM.move]}/withdrawal/${seq}`);
      if (r.status === 200) early = JSON.parse(r.text);
      else await new Promise((res) => setTimeout(res, 20));
    }
    expect(shape(early)).toEqual(shape(rec('executor-withdrawal-before-output.json')));
    expect([early.output_index, early.withdrawal_proofs, early.storage_root]).toEqual([0, null, null]);
    let late: any = early;
    for (let i = 0; i < 100 && late.output_index === 0; i++) {
      await new Promise((res) => setTimeout(res, 50));
      late = JSON.parse((await get(`${base[SIM.move]}/withdrawal/${seq}`)).text);
    }
    expect(shape(late)).toEqual(shape(rec('executor-withdrawal.json')));
    expect(late.output_index).toBeGreaterThan(0);
    expect(late.tx_hash).toBe(wd.txHash);
  });
});
