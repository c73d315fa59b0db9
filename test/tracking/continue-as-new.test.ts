// Long-running tracking keeps its history bounded: with a tiny history limit the workflow continues as new
// (carrying hop state and its webhook) while a slow withdrawal and a slow IBC packet are in flight, and still
// completes, its webhook having received every version once, in order.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Receiver } from '../support/webhook-receiver.js';
import { startHarness, terminal, type Harness } from './harness.js';
import { SIM } from '../../devnet/simnet/index.js';
import { workflowIdOf } from '../../tracking/client.js';

let h: Harness;
const secret = `whsec_${randomBytes(32).toString('base64')}`;
const receiver = new Receiver(secret);
beforeAll(async () => {
  await receiver.up();
  h = await startHarness({
    webhooks: { secret, hosts: ['127.0.0.1'], privateAddresses: true },
    // Low enough that both transfers continue as new: a status write is now one local-activity marker, not three events.
    timings: { pollWindowMs: 500, historyEventLimit: 20 },
    simnet: { delays: { recvMs: 4_000, ackMs: 2_000 }, finalizationPeriodS: 3 },
  });
});
afterAll(async () => {
  await h?.close();
  await receiver.down();
});

describe('continue-as-new', () => {
  it.each([
    ['IBC', () => h.simnet.ibcTransfer({ from: SIM.l1, channel: 'channel-1' })],
    ['withdrawal', () => h.simnet.withdraw({ l2: SIM.move })],
  ])(
    '%s transfer survives several continue-as-new runs and completes',
    async (_name, send) => {
      const tx = send();
      expect((await h.track(tx.chainId, tx.txHash, { webhook_url: receiver.url })).status).toBe(200);
      const d = await h.waitFor(tx.chainId, tx.txHash, terminal, 40_000);
      expect(d.state).toBe('STATE_COMPLETED_SUCCESS');
      const id = workflowIdOf(tx.chainId, tx.txHash);
      await h.tracking.client.client.workflow.getHandle(id).result();
      let statuses: string[] = [];
      // Visibility is eventually consistent: wait until it lists the closed final run.
      for (let i = 0; i < 50 && !statuses.includes('COMPLETED'); i++) {
        statuses = [];
        for await (const r of h.tracking.client.client.workflow.list({ query: `WorkflowId = '${id}'` }))
          statuses.push(r.status.name);
        if (!statuses.includes('COMPLETED')) await new Promise((r) => setTimeout(r, 100));
      }
      expect(statuses.filter((s) => s === 'CONTINUED_AS_NEW').length).toBeGreaterThanOrEqual(1);
      expect(statuses.filter((s) => s === 'COMPLETED')).toHaveLength(1);
      // Versions stay contiguous across runs: the projection saw every change exactly once.
      const [v] = await h.store.rows<{ n: string; mx: string }>(
        `SELECT count() AS n, max(version) AS mx FROM transfer_events WHERE tx_hash = {t:String}`,
        { t: tx.txHash },
      );
      expect(Number(v!.n)).toBe(Number(v!.mx) + 1);
      // The webhook got each version once, in order, across the runs (the workflow returns after the last one).
      const got = receiver.of(tx);
      expect(got.every((r) => r.signed)).toBe(true);
      expect(got.map((r) => r.event)).toEqual(Array.from({ length: Number(v!.mx) }, (_, i) => i + 1));
    },
    60_000,
  );
});
