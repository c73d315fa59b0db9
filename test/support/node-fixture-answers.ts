// The field-by-field comparison of chain-sim with a real node's recorded answers for one tx (block,
// block_results, REST tx), shared by the minievm and the minimove/miniwasm fixture tests: chain-sim's answers for
// the replayed tx must equal the node's, except the fields that name the chain position (height, time), which the
// simulated block cannot share.
import { expect, it } from 'vitest';
import { cometBlockJson, cometBlockResultsJson, lcdTxResponseJson } from '../../devnet/chain-sim/render.js';
import type { SealedBlock } from '../../devnet/chain-sim/types.js';
import type { RecordedRestTx } from '../../devnet/minievm/mirror.js';

export interface RecordedTxAnswers {
  tx_hash: string;
  tx_index: number;
  block: { block: { header: Record<string, unknown>; data: { txs: string[] } } };
  block_results: { txs_results: Record<string, unknown>[] } & Record<string, unknown>;
  rest_tx: RecordedRestTx;
}

/** Registers the three tests (REST tx, block_results, block) for the recorded tx replayed as `b`'s only tx. */
export function itAnswersLikeTheNode(fx: RecordedTxAnswers, b: () => SealedBlock): void {
  it('REST txs/{hash}: the same tx, hash, code, gas, data, log and events', () => {
    const sim = JSON.parse(lcdTxResponseJson(b(), b().txs[0]!)) as Record<string, unknown>;
    const node = fx.rest_tx.tx_response;
    expect(Object.keys(sim).sort()).toEqual(Object.keys(node).sort());
    // chain position: the simulated block is not the recorded one
    const { height: _h, timestamp: _t, ...simRest } = sim;
    const { height: _nh, timestamp: _nt, ...nodeRest } = node;
    expect(simRest).toEqual(nodeRest);
    expect(sim.txhash).toBe(fx.tx_hash);
    // timestamps: both RFC 3339 seconds in UTC
    expect(String(sim.timestamp)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(String(node.timestamp)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  it('block_results: the same envelope keys and the same tx result', () => {
    const sim = JSON.parse(cometBlockResultsJson(b())) as RecordedTxAnswers['block_results'];
    expect(Object.keys(sim).sort()).toEqual(Object.keys(fx.block_results).sort());
    expect(sim.txs_results[0]).toEqual(fx.block_results.txs_results[fx.tx_index]);
  });

  it('block: the same header and data keys; time with nanoseconds', () => {
    const sim = JSON.parse(cometBlockJson(b())) as RecordedTxAnswers['block'];
    expect(Object.keys(sim).sort()).toEqual(Object.keys(fx.block).sort());
    expect(Object.keys(sim.block.header).sort()).toEqual(Object.keys(fx.block.block.header).sort());
    expect(sim.block.header.time).toBe(fx.block.block.header.time);
    expect(sim.block.data.txs).toEqual([fx.block.block.data.txs[fx.tx_index]]);
  });
}
