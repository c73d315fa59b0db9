// GET /v2/tx/status_stream on the real router app (OpenAPI validation on) over the tracking harness: real chDB, a
// real Temporal dev server, the simnet on loopback. A client that opens the stream right after tracking a two-hop
// IBC transfer must receive every change of its status document from then on, in order, each byte-equal to the version stored in
// the projection (what GET /v2/tx/status answered at that version), and a last `end` (terminal). Reconnects with
// Last-Event-ID get only newer versions; bad input and too many streams are JSON 4xx.
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeServer } from '../../api/http/app.js';
import { createTrackingRoutes } from '../../api/router/tracking/index.js';
import { SIM } from '../../devnet/simnet/index.js';
import { workflowIdOf } from '../../tracking/client.js';
import { openSse, type SseClient } from '../support/sse.js';
import { type Harness, serveRouter, startHarness, terminal } from './harness.js';
import { until } from '../support/until.js';

let h: Harness;
let router: { server: Server; url: string };
let strict: { server: Server; url: string };

beforeAll(async () => {
  h = await startHarness();
  router = await serveRouter(h);
  strict = await serveRouter(h, { tracking: createTrackingRoutes(h.tracking.service, { maxPerClient: 1 }) });
}, 120_000);
afterAll(async () => {
  if (router) await closeServer(router.server);
  if (strict) await closeServer(strict.server);
  await h?.close();
});

const streamUrl = (base: string, tx: { chainId: string; txHash: string }) =>
  `${base}/v2/tx/status_stream?chain_id=${encodeURIComponent(tx.chainId)}&tx_hash=${encodeURIComponent(tx.txHash)}`;

const ended = (c: SseClient) => c.events.at(-1)?.event === 'end';

describe('transfer status streams', () => {
  it('sends each change of the status document from the open on, as stored, then ends after the terminal state', async () => {
    const tx = h.simnet.ibcTransfer({ from: SIM.move, channel: 'channel-0', forward: { channel: 'channel-2' } });
    expect((await h.track(tx.chainId, tx.txHash)).status).toBe(200);
    const c = await openSse(streamUrl(router.url, tx));
    expect(c.status).toBe(200);
    expect(c.contentType).toMatch(/^text\/event-stream/);
    await until(() => ended(c), 60_000, 'the end of the stream');
    await c.ended;

    const statuses = c.events.filter((e) => e.event === 'status');
    const versions = statuses.map((e) => Number(e.id));
    expect(versions.length).toBeGreaterThan(2);
    // The workflow may store versions after the first terminal one (a later hop's own settling): read the stored
    // versions once it has finished, so the latest is final.
    await h.tracking.client.client.workflow.getHandle(workflowIdOf(tx.chainId, tx.txHash)).result();
    const stored = await h.store.rows<{ version: number; doc: string }>(
      'SELECT version, doc FROM transfer_events WHERE tx_hash = {h:String} ORDER BY version',
      { h: tx.txHash },
    );
    // Every change of the document from the version current at open to the first terminal one, in order, each once:
    // the stored versions in that range with a repeated document (a version that changed nothing) collapsed.
    const firstTerminal = stored.find((r) => terminal(JSON.parse(r.doc)))!;
    const changes: { version: number; doc: string }[] = [];
    for (const r of stored) {
      const v = Number(r.version);
      if (v < versions[0]! || v > Number(firstTerminal.version)) continue;
      if (changes.at(-1)?.doc !== r.doc) changes.push({ version: v, doc: r.doc });
    }
    expect(statuses.map((e) => [Number(e.id), e.data])).toEqual(changes.map((c) => [c.version, c.doc]));
    const last = JSON.parse(statuses.at(-1)!.data);
    expect(terminal(last)).toBe(true);
    expect(last.state).toBe('STATE_COMPLETED_SUCCESS');
    // the last document is what GET /v2/tx/status answers now, byte for byte
    const now = await fetch(`${router.url}/v2/tx/status?chain_id=${tx.chainId}&tx_hash=${tx.txHash}`);
    expect(statuses.at(-1)!.data).toBe(await now.text());
    expect(JSON.parse(c.events.at(-1)!.data)).toEqual({ reason: 'terminal', resume: String(versions.at(-1)) });

    // Reconnects. At the latest version of a finished transfer: 204, so an EventSource stops reconnecting. After an
    // older version: the latest document, then the end.
    const finalDoc = statuses.at(-1)!.data;
    const latestVersion = Math.max(...stored.map((r) => Number(r.version)));
    const again = await openSse(streamUrl(router.url, tx), { 'Last-Event-ID': String(latestVersion) });
    expect([again.status, again.body]).toEqual([204, '']);
    const older = await openSse(streamUrl(router.url, tx), { 'Last-Event-ID': '0' });
    await older.ended;
    expect(older.events.map((e) => e.event)).toEqual(['status', 'end']);
    expect(older.events[0]!.data).toBe(finalDoc);
  }, 90_000);

  it('answers an unknown tx, bad input and too many streams with JSON 4xx', async () => {
    const tx = h.simnet.deposit({ l2: SIM.move });
    expect((await h.track(tx.chainId, tx.txHash)).status).toBe(200);
    const unknown = await openSse(streamUrl(router.url, { chainId: tx.chainId, txHash: 'CD'.repeat(32) }));
    expect([unknown.status, JSON.parse(unknown.body)]).toEqual([
      404,
      { code: 5, message: 'tx not found', details: [] },
    ]);
    const badHash = await openSse(streamUrl(router.url, { chainId: tx.chainId, txHash: 'xyz' }));
    expect(badHash.status).toBe(400);
    const badId = await openSse(streamUrl(router.url, tx), { 'Last-Event-ID': 'abc' });
    expect(badId.status).toBe(400);
    expect(JSON.parse(badId.body).message).toMatch(/^Last-Event-ID: /);
    const missing = await openSse(`${router.url}/v2/tx/status_stream?chain_id=${tx.chainId}`);
    expect(missing.status).toBe(400);

    await h.waitFor(tx.chainId, tx.txHash, terminal);
    // One stream per client on `strict`. A finished transfer's stream sends its document and ends, freeing its slot,
    // so a second one after it is admitted.
    for (let i = 0; i < 2; i++) {
      const done = await openSse(streamUrl(strict.url, tx));
      expect(done.status).toBe(200);
      await done.ended;
      expect(done.events.map((e) => e.event)).toEqual(['status', 'end']);
    }
    // A tx that is never included stays STATE_SUBMITTED for the source timeout (4 s): its stream stays open.
    const pending = { chainId: tx.chainId, txHash: 'EF'.repeat(32) };
    expect((await h.track(pending.chainId, pending.txHash)).status).toBe(200);
    const open = await openSse(streamUrl(strict.url, pending));
    const refused = await openSse(streamUrl(strict.url, pending));
    expect(open.status).toBe(200);
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.body)).toMatchObject({ code: 8 });
    expect(refused.body).toMatch(/too many open streams from this client \(at most 1\)/);
    await until(() => open.events.length >= 1, 5000, 'the first status');
    expect(JSON.parse(open.events[0]!.data).state).toBe('STATE_SUBMITTED');
    open.close();
  }, 90_000);
});
