// The chain worker as a child process of the main job (tracking/worker-process.ts, `npm start`'s default):
// transfers complete with no chain worker in the test process, their status written through the main job's
// projection over IPC (no projection activity in their histories); a SIGKILLed child is restarted and the
// in-flight transfers still complete exactly once; stop() ends the child.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChainWorkerProcess, type ChainWorkerProcess } from '../../tracking/worker-process.js';
import { createLogger } from '../../platform/log.js';
import { SIM } from '../../devnet/simnet/index.js';
import { projectionSink } from '../../activities/projection.js';
import { workflowIdOf } from '../../tracking/client.js';
import { startHarness, terminal, type Harness } from './harness.js';

let h: Harness;
let worker: ChainWorkerProcess;
beforeAll(async () => {
  h = await startHarness({ runChainWorker: false, simnet: { delays: { recvMs: 1_500, ackMs: 500 } } });
  const chainsFile = path.join(h.dataDir, 'chains.json');
  writeFileSync(chainsFile, JSON.stringify(h.simnet.chainInfos()));
  worker = await startChainWorkerProcess({
    address: h.tracking.address,
    namespace: 'default',
    taskQueue: 'transfer-tracking',
    log: createLogger({ test: 'worker-process' }),
    env: { TRACKING_CHAINS_FILE: chainsFile, LOG_LEVEL: 'warn' },
    projection: projectionSink(h.tracking.projection),
  });
}, 180_000);
afterAll(async () => {
  await worker?.stop();
  await h?.close();
});

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('chain worker child process', () => {
  it('tracks transfers, survives SIGKILL (restarted, nothing lost or doubled), stops with stop()', async () => {
    const first = h.simnet.deposit({ l2: SIM.move });
    expect((await h.track(first.chainId, first.txHash)).status).toBe(200);
    expect((await h.waitFor(first.chainId, first.txHash, terminal)).state).toBe('STATE_COMPLETED_SUCCESS');

    // Transfers in flight while the child is killed.
    const txs = Array.from({ length: 6 }, (_, i) =>
      i % 2 ? h.simnet.deposit({ l2: SIM.move }) : h.simnet.ibcTransfer({ from: SIM.l1, channel: 'channel-1' }),
    );
    for (const tx of txs) expect((await h.track(tx.chainId, tx.txHash)).status).toBe(200);
    const pid = worker.pid!;
    process.kill(pid, 'SIGKILL');
    const end = Date.now() + 60_000;
    while ((worker.restarts === 0 || worker.pid === pid) && Date.now() < end)
      await new Promise((r) => setTimeout(r, 100));
    expect(worker.restarts).toBe(1);
    expect(worker.pid).not.toBe(pid);
    await worker.ready();
    for (const tx of txs)
      expect((await h.waitFor(tx.chainId, tx.txHash, terminal, 90_000)).state).toBe('STATE_COMPLETED_SUCCESS');
    const rows = await h.store.rows<{ n: string; u: string }>(
      `SELECT count() AS n, uniqExact(chain_id, tx_hash, version) AS u FROM transfer_events WHERE tx_hash IN {hs:Array(String)}`,
      { hs: txs.map((t) => t.txHash) },
    );
    expect(rows[0]!.n).toBe(rows[0]!.u);
    // Every version went over IPC as a local activity: no projection activity was scheduled.
    for (const tx of [first, ...txs]) {
      const history = await h.tracking.client.client.workflow
        .getHandle(workflowIdOf(tx.chainId, tx.txHash))
        .fetchHistory();
      const events = history.events ?? [];
      const scheduled = events.flatMap((e) => e.activityTaskScheduledEventAttributes?.activityType?.name ?? []);
      expect(scheduled).not.toContain('recordStatus');
      expect(
        events.filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_local_activity').length,
      ).toBeGreaterThanOrEqual(2);
    }

    const last = worker.pid!;
    await worker.stop();
    expect(alive(last)).toBe(false);
  }, 240_000);

  it('a child that cannot start fails the start with its exit, without restarts', async () => {
    const missing = path.join(h.dataDir, `missing-${process.pid}.json`);
    await expect(
      startChainWorkerProcess({
        address: h.tracking.address,
        namespace: 'default',
        taskQueue: 'transfer-tracking',
        log: createLogger({ test: 'worker-process' }),
        env: { TRACKING_CHAINS_FILE: missing, LOG_LEVEL: 'warn' },
      }),
    ).rejects.toThrow(/exited during start-up \(code 2/);
    // No restart after the first back-off (1 s): no process carries that chains file in its environment.
    await new Promise((r) => setTimeout(r, 2_000));
    const carriers = readdirSync('/proc')
      .filter((d) => /^\d+$/.test(d))
      .filter((d) => {
        try {
          return readFileSync(`/proc/${d}/environ`, 'utf8').includes(missing);
        } catch {
          return false;
        }
      });
    expect(carriers).toEqual([]);
  }, 60_000);
});
