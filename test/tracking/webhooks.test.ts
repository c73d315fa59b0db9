// Transfer webhooks under faults (issue 30): real chDB, a real Temporal dev server, the standalone chain worker in
// a child process, simnet transfers, and a loopback receiver that refuses its first three deliveries and is down
// while the worker is SIGKILLed. The receiver must end up with every state change of each transfer, in order
// (repeats only as exact copies of an event), each signed; and the track route refuses targets outside the policy.
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveRouter, startHarness, startWorkerProcess, terminal, type Harness } from './harness.js';
import { killProcess } from '../support/tracking-worker.js';
import { closeServer } from '../../api/http/app.js';
import { Receiver } from '../support/webhook-receiver.js';
import { SIM, type SentTx } from '../../devnet/simnet/index.js';
import type { WebhookSettings } from '../../workflows/webhook.js';
import { until } from '../support/until.js';
import { workflowIdOf } from '../../tracking/client.js';

const settings: WebhookSettings = {
  secret: `whsec_${randomBytes(32).toString('base64')}`,
  hosts: ['127.0.0.1'],
  privateAddresses: true,
};

let h: Harness;
let worker: ChildProcess | undefined;
const receiver = new Receiver(settings.secret, 3);
const workerEnv = {
  WEBHOOK_SECRET: settings.secret,
  WEBHOOK_HOSTS: settings.hosts.join(','),
  WEBHOOK_PRIVATE_ADDRESSES: 'true',
};

/** The stored status documents of a transfer, by version. */
async function storedDocs(tx: SentTx): Promise<Map<number, string>> {
  const rows = await h.store.rows<{ version: number; doc: string }>(
    `SELECT version, any(doc) AS doc FROM transfer_events WHERE chain_id = {c:String} AND tx_hash = {t:String} GROUP BY version`,
    { c: tx.chainId, t: tx.txHash },
  );
  return new Map(rows.map((r) => [Number(r.version), r.doc]));
}

/**
 * What the receiver got for one transfer is every stored version from `first` on, in order, each signed and equal to
 * the stored document; a repeat is only an exact copy of an event already received.
 */
async function expectEveryChange(tx: SentTx, first: number): Promise<void> {
  const got = receiver.of(tx);
  const stored = await storedDocs(tx);
  const last = Math.max(...stored.keys());
  const seen = new Map<number, string>();
  const order: number[] = [];
  for (const r of got) {
    expect(r.signed).toBe(true);
    expect(r.id).toBe(`${tx.chainId}:${tx.txHash}:${r.event}`);
    const before = seen.get(r.event);
    if (before !== undefined) {
      expect(r.body).toBe(before); // a repeat is an exact copy
      continue;
    }
    seen.set(r.event, r.body);
    order.push(r.event);
  }
  expect(order).toEqual(Array.from({ length: last - first + 1 }, (_, i) => first + i));
  for (const [v, body] of seen) expect(body).toBe(stored.get(v));
  expect(terminal(JSON.parse(seen.get(last)!))).toBe(true);
}

/** The transfer's workflow result: it returns once tracking has finished and every webhook event is delivered. */
async function finished(tx: SentTx): Promise<void> {
  const handle = h.tracking.client.client.workflow.getHandle(workflowIdOf(tx.chainId, tx.txHash));
  const outcome = (await handle.result()) as { state: string };
  expect(terminal(outcome)).toBe(true);
}

beforeAll(async () => {
  await receiver.up();
  h = await startHarness({
    runChainWorker: false,
    webhooks: settings,
    timings: { webhookMaxBackoffMs: 1_000, sourceTimeoutMs: 60_000, withdrawalStallMs: 60_000, ibcStallMs: 60_000 },
    simnet: {
      delays: { recvMs: 2_000, ackMs: 1_500, outputMs: 1_500, claimMs: 500 },
      finalizationPeriodS: 3,
    },
  });
  worker = await startWorkerProcess(h, workerEnv);
}, 180_000);
afterAll(async () => {
  if (worker) await killProcess(worker);
  await receiver.down();
  await h?.close();
});

describe('transfer webhooks', () => {
  it('delivers every state change in order, signed, through refusals, a receiver outage and a worker SIGKILL', async () => {
    const txs = [
      h.simnet.ibcTransfer({ from: SIM.move, channel: 'channel-0', forward: { channel: 'channel-2' } }),
      h.simnet.withdraw({ l2: SIM.move }),
    ];
    for (const tx of txs)
      expect((await h.track(tx.chainId, tx.txHash, { webhook_url: receiver.url })).status).toBe(200);
    // Registering the same webhook again is harmless (a retried track).
    expect((await h.track(txs[0]!.chainId, txs[0]!.txHash, { webhook_url: receiver.url })).status).toBe(200);
    // The first three deliveries are refused; wait for events to flow, then take the receiver down mid-transfer.
    await until(() => receiver.accepted.length >= 2, 30_000, 'first accepted webhook events');
    expect(receiver.requests).toBeGreaterThanOrEqual(5);
    await receiver.down();
    const acceptedBeforeOutage = receiver.accepted.length;
    await killProcess(worker!);
    await new Promise((r) => setTimeout(r, 2_000));
    worker = await startWorkerProcess(h, workerEnv);
    await new Promise((r) => setTimeout(r, 2_000));
    await receiver.up();
    // A workflow returns only after its last delivery is acknowledged (or given up).
    for (const tx of txs) {
      await finished(tx);
      await expectEveryChange(tx, 1);
    }
    for (const tx of txs) expect(new Set(receiver.of(tx).map((r) => r.event)).size).toBeGreaterThanOrEqual(3);
    expect(receiver.accepted.length).toBeGreaterThan(acceptedBeforeOutage); // the outage hit transfers in flight
  }, 240_000);

  it('a webhook given to a transfer already tracked starts at its latest state', async () => {
    const tx = h.simnet.ibcTransfer({ from: SIM.l1, channel: 'channel-1' });
    expect((await h.track(tx.chainId, tx.txHash)).status).toBe(200);
    const pending = await h.waitFor(tx.chainId, tx.txHash, (b) => b.state === 'STATE_PENDING', 30_000);
    expect(pending.state).toBe('STATE_PENDING');
    expect((await h.track(tx.chainId, tx.txHash, { webhook_url: receiver.url })).status).toBe(200);
    // Repeats of the same URL answer 200 and signal nothing more: one webhook signal in the workflow's history.
    for (let i = 0; i < 3; i++)
      expect((await h.track(tx.chainId, tx.txHash, { webhook_url: receiver.url })).status).toBe(200);
    await finished(tx);
    const history = await h.tracking.client.client.workflow
      .getHandle(workflowIdOf(tx.chainId, tx.txHash))
      .fetchHistory();
    const signals = (history.events ?? []).filter((e) => e.workflowExecutionSignaledEventAttributes);
    expect(signals).toHaveLength(1);
    const first = Math.min(...receiver.of(tx).map((r) => r.event));
    expect(first).toBeGreaterThanOrEqual(1);
    await expectEveryChange(tx, first);
    // The transfer has finished: repeating the request that registered its webhook is still a no-op (200, nothing
    // sent again), but another webhook now would receive nothing.
    const events = receiver.of(tx).length;
    expect((await h.track(tx.chainId, tx.txHash, { webhook_url: receiver.url })).status).toBe(200);
    const late = await h.track(tx.chainId, tx.txHash, { webhook_url: `${receiver.url}?late=1` });
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({ code: 9, reason: 'TRANSFER_FINISHED' });
    expect(receiver.of(tx)).toHaveLength(events);
  }, 120_000);

  it('a webhook named after the workflow ended, while the stored state is not terminal yet, is refused 409', async () => {
    // The race between the track route's state read and the start: the workflow has ended (here: terminated
    // by an operator) but the state the route reads is still pending. The route hears it from the start.
    const tx = h.simnet.ibcTransfer({ from: SIM.l1, channel: 'channel-1' });
    expect((await h.track(tx.chainId, tx.txHash)).status).toBe(200);
    await h.waitFor(tx.chainId, tx.txHash, (b) => b.state === 'STATE_PENDING', 30_000);
    await h.tracking.client.client.workflow.getHandle(workflowIdOf(tx.chainId, tx.txHash)).terminate('test');
    expect((await h.status(tx.chainId, tx.txHash)).body.state).toBe('STATE_PENDING');
    const late = await h.track(tx.chainId, tx.txHash, { webhook_url: receiver.url });
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({ code: 9, reason: 'TRANSFER_FINISHED' });
    // Its URL is stored now, but a repeat of the request gets the same answer: no workflow will deliver to it.
    const again = await h.track(tx.chainId, tx.txHash, { webhook_url: receiver.url });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 9, reason: 'TRANSFER_FINISHED' });
    expect(receiver.of(tx)).toEqual([]);
  }, 60_000);

  it("a new run of a transfer whose run is gone numbers its versions on from the stored ones, and its webhook's events with them", async () => {
    // Temporal's store lost (or the retention of a terminated run passed): the next boot's reconcile() starts the
    // transfer again. Its versions used to restart at 1: the projection dropped them as repeats (the terminal state
    // was never stored) and the webhook got event numbers it already had, with other bodies.
    const tx = h.simnet.ibcTransfer({ from: SIM.l1, channel: 'channel-1' });
    expect((await h.track(tx.chainId, tx.txHash, { webhook_url: receiver.url })).status).toBe(200);
    await h.waitFor(tx.chainId, tx.txHash, (b) => b.state === 'STATE_PENDING', 30_000);
    // The lost run got as far as the packet's receipt; the acknowledgement lands while no run follows the transfer,
    // so the new run sees it with the receipt at once and needs fewer versions than the lost run stored.
    const received = (doc: string) =>
      (JSON.parse(doc) as { transfer_sequence: { ibc_transfer?: { packet_txs: { receive_tx: unknown } } }[] })
        .transfer_sequence[0]?.ibc_transfer?.packet_txs.receive_tx != null;
    await until(
      async () => [...(await storedDocs(tx)).values()].some(received),
      30_000,
      'the lost run stored the receipt',
    );
    const workflowId = workflowIdOf(tx.chainId, tx.txHash);
    const client = h.tracking.client.client;
    await client.workflow.getHandle(workflowId).terminate('test: the run is lost');
    await client.workflowService.deleteWorkflowExecution({ namespace: 'default', workflowExecution: { workflowId } });
    await until(
      () =>
        client.workflow
          .getHandle(workflowId)
          .describe()
          .then(
            () => false,
            () => true,
          ),
      // The server deletes a run in the background: a loaded machine takes tens of seconds.
      150_000,
      'the run deleted',
      250,
    );
    // What the lost run stored (its last events may not have been delivered: a terminated run delivers nothing more).
    const lost = Math.max(...(await storedDocs(tx)).keys());
    expect(lost).toBeGreaterThanOrEqual(2);
    await new Promise((r) => setTimeout(r, 3_000)); // past the simnet's acknowledgement delay
    expect(await h.tracking.starter.reconcile(h.store)).toBeGreaterThanOrEqual(1);
    await h.tracking.starter.drained();
    await finished(tx);
    const stored = await storedDocs(tx);
    const last = Math.max(...stored.keys());
    expect(last).toBeGreaterThan(lost);
    expect(terminal(JSON.parse(stored.get(last)!))).toBe(true);
    expect(terminal((await h.status(tx.chainId, tx.txHash)).body)).toBe(true);
    // Each event number has one body, the version stored under it; the new run's events are every version after the
    // lost run's, in order.
    const got = receiver.of(tx);
    for (const r of got) expect([r.event, r.body]).toEqual([r.event, stored.get(r.event)]);
    const fresh = [...new Set(got.filter((r) => r.event > lost).map((r) => r.event))];
    expect(fresh).toEqual(Array.from({ length: last - lost }, (_, i) => lost + 1 + i));
  }, 300_000);

  it('refuses targets outside the allow-list, malformed URLs and a second URL with a clear JSON 4xx', async () => {
    const router = await serveRouter(h);
    try {
      const tx = h.simnet.ibcTransfer({ from: SIM.l1, channel: 'channel-2' });
      const track = async (webhook_url: unknown) => {
        const r = await fetch(`${router.url}/v2/tx/track`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ chain_id: tx.chainId, tx_hash: tx.txHash, webhook_url }),
        });
        return { status: r.status, body: (await r.json()) as { code: number; message: string } };
      };
      for (const [url, wording] of [
        ['http://10.0.0.7/hook', 'allow-list'],
        ['http://169.254.169.254/latest/meta-data', 'allow-list'],
        ['http://localhost:1/hook', 'allow-list'],
        ['ftp://127.0.0.1/hook', 'http or https'],
        ['http://user:secret@127.0.0.1/hook', 'credentials'],
        ['not a url', 'absolute URL'],
        [`http://127.0.0.1/${'a'.repeat(2100)}`, 'webhook_url'],
      ] as const) {
        const r = await track(url);
        expect({ url: url.slice(0, 60), status: r.status }).toEqual({ url: url.slice(0, 60), status: 400 });
        expect(r.body.message).toContain(wording);
      }
      expect((await track(42)).status).toBe(400);
      expect((await track(receiver.url)).status).toBe(200);
      const other = await track(`http://127.0.0.1:${receiver.port}/another`);
      expect(other.status).toBe(409);
      expect(other.body.message).toContain('another webhook_url');
    } finally {
      await closeServer(router.server);
    }
  }, 60_000);
});
