// Finding a withdrawal's covering output among many propose_output events. A challenger's deletion removes every
// output from the one it challenges on, but their propose_output events stay in L1's tx index; the executor then
// proposes again at the same indexes. The search read only the first page (30 events, oldest first), so after more
// than 30 dead proposals the live one was never read and the withdrawal stayed `initiated` until abandoned.
// Real Temporal dev server, real chDB, the simnet on loopback.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { BRIDGES, SIM } from '../../devnet/simnet/index.js';
import * as T from '../../devnet/simnet/templates.js';
import { startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ simnet: { finalizationPeriodS: 600, delays: { outputMs: 1_500 } } });
});
afterAll(async () => {
  await h?.close();
});

it("finds the live covering output after 40 dead proposals of the withdrawal's range", async () => {
  const tx = h.simnet.withdraw({ l2: SIM.evm, outcome: 'stall' });
  // Before the relayer's proposal (1.5 s later): 40 proposals L1 no longer holds (deleted), covering the range.
  const l2Height = String(h.simnet.chain(SIM.evm).latestHeight() + 5);
  for (let i = 0; i < 40; i++)
    h.simnet.include(SIM.l1, [
      T.proposeOutputTx({
        bridgeId: BRIDGES[SIM.evm]!,
        outputIndex: String(900 + i),
        outputRoot: 'cd'.repeat(32),
        l2BlockNumber: l2Height,
        proposer: 'init1qyqszqgpqyqszqgpqyqszqgpqyqszqgpjnp7du',
      }),
    ]);
  expect((await h.track(tx.chainId, tx.txHash)).status).toBe(200);
  const phase = (b: Record<string, any>) => b.transfer_sequence?.[0]?.op_init_transfer?.phase;
  const proposed = await h.waitFor(tx.chainId, tx.txHash, (b) => phase(b) === 'output_proposed', 15_000);
  // The relayer's proposal: the first index of this bridge in the simnet's own outputs.
  expect(Number(proposed.transfer_sequence[0].op_init_transfer.output_index)).toBeLessThan(900);
}, 60_000);
