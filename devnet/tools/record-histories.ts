// Records Temporal histories of the tracking workflow for the replay test (test/workflows/replay.test.ts).
// Rerun after an intentional workflow change that is guarded by `patched()`:
//   npx tsx devnet/tools/record-histories.ts
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startHarness, terminal } from '../../test/tracking/harness.js';
import { SIM } from '../simnet/index.js';
import { workflowIdOf } from '../../tracking/client.js';

const outDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../test/fixtures/tracking/histories');

async function main(): Promise<void> {
  mkdirSync(outDir, { recursive: true });
  const h = await startHarness({ simnet: { finalizationPeriodS: 2 } });
  try {
    const s = h.simnet;
    const cases = {
      'ibc-success': s.ibcTransfer({ from: SIM.l1, channel: 'channel-1' }),
      'ibc-multihop': s.ibcTransfer({ from: SIM.move, channel: 'channel-0', forward: { channel: 'channel-2' } }),
      'ibc-error-ack': s.ibcTransfer({ from: SIM.l1, channel: 'channel-2', outcome: 'errorAck' }),
      'ibc-timeout': s.ibcTransfer({ from: SIM.l1, channel: 'channel-1', outcome: 'timeout' }),
      'deposit-hook-failure': s.deposit({ l2: SIM.evm, outcome: 'hookFail' }),
      'withdrawal-finalization': s.withdraw({ l2: SIM.move }),
      'layerzero-success': s.lzSend(),
      'layerzero-alert': s.lzSend({ outcome: 'fail' }),
      'source-failed': s.failedTx(),
      abandoned: { chainId: SIM.l1, txHash: 'EF'.repeat(32) },
    };
    for (const tx of Object.values(cases)) await h.track(tx.chainId, tx.txHash);
    for (const [name, tx] of Object.entries(cases)) {
      await h.waitFor(tx.chainId, tx.txHash, terminal, 60_000);
      const handle = h.tracking.client.client.workflow.getHandle(workflowIdOf(tx.chainId, tx.txHash));
      await handle.result();
      const history = await handle.fetchHistory();
      writeFileSync(path.join(outDir, `${name}.json`), JSON.stringify(history));
      process.stdout.write(`recorded ${name}: ${history.events?.length} events\n`);
    }
  } finally {
    await h.close();
  }
}

main().then(
  () => process.exit(0),
  (e) => {
    process.stderr.write(`${(e as Error).stack}\n`);
    process.exit(1);
  },
);
