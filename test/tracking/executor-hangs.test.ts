// An OPinit executor that accepts connections and never answers (a hung process behind a live port): each of its
// requests waits out its 5 s timeout, as long as the chain activities' heartbeat timeout. The polls heartbeat on a
// timer (they used to heartbeat only between rounds, and the wait raced that timeout), and the withdrawal still
// becomes claimable, its claim not ready for EXECUTOR_UNREACHABLE. Real Temporal dev server, real chDB, the simnet
// on loopback.
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SIM } from '../../devnet/simnet/index.js';
import { startHarness, type Harness } from './harness.js';

let h: Harness;
let hung: Server;
const sockets: Socket[] = [];
beforeAll(async () => {
  hung = createServer((s) => void sockets.push(s)); // accepts, reads nothing, answers nothing
  await new Promise<void>((r) => hung.listen(0, '127.0.0.1', r));
  const executor = `http://127.0.0.1:${(hung.address() as { port: number }).port}`;
  h = await startHarness({
    simnet: { finalizationPeriodS: 3 },
    chains: (all) => all.map((c) => (c.chainId === SIM.evm ? { ...c, executorUrl: executor } : c)),
  });
});
afterAll(async () => {
  await h?.close();
  for (const s of sockets) s.destroy();
  await new Promise((r) => hung?.close(r));
});

it('a withdrawal whose executor hangs still becomes claimable, with the claim not ready: EXECUTOR_UNREACHABLE', async () => {
  // `stall`: the relayer proposes the output and never claims; this test makes the L1 block past claimable_at.
  const tx = h.simnet.withdraw({ l2: SIM.evm, outcome: 'stall' });
  expect((await h.track(tx.chainId, tx.txHash)).status).toBe(200);
  const phase = (b: Record<string, any>) => b.transfer_sequence?.[0]?.op_init_transfer?.phase;
  const proposed = await h.waitFor(tx.chainId, tx.txHash, (b) => phase(b) === 'output_proposed', 30_000);
  const claimableAt = Date.parse(proposed.transfer_sequence[0].op_init_transfer.claimable_at);
  await new Promise((r) => setTimeout(r, Math.max(0, claimableAt - Date.now()) + 500));
  h.simnet.include(SIM.l1, []);
  const claimable = await h.waitFor(tx.chainId, tx.txHash, (b) => phase(b) === 'claimable', 40_000);
  expect(claimable.state).toBe('STATE_PENDING');
  expect(claimable.next_action).toMatchObject({
    type: 'CLAIM_WITHDRAWAL',
    ready: false,
    reason: 'EXECUTOR_UNREACHABLE',
  });
}, 90_000);
