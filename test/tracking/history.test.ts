// GET /v2/tx/history on the real router app (OpenAPI validation on) over the tracking harness: real chDB, a real
// Temporal dev server, the simnet on loopback. Transfers of every bridge kind are tracked to their end; some share
// an account as sender in one and receiver in another. The history of each account must hold exactly the transfers
// it took part in (as sender, or as final receiver: the last forward's for a PFM packet), newest first, with their
// current state, under its bech32 and its 0x form alike, page by page; it survives a restart of the router's
// projection (it is read from ClickHouse). Bad input is a JSON 400.
import { toBech32 } from '@cosmjs/encoding';
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TrackingProjection } from '../../activities/projection.js';
import { accountHex, accountKey } from '../../chain/address.js';
import { closeServer } from '../../api/http/app.js';
import { SIM, type SentTx } from '../../devnet/simnet/index.js';
import { transferParties } from '../../workflows/evidence.js';
import { type Harness, serveRouter, startHarness, terminal } from './harness.js';
import { openSse, type SseClient } from '../support/sse.js';
import { until } from '../support/until.js';
import { workflowIdOf } from '../../tracking/client.js';

let h: Harness;
let router: { server: Server; url: string };

beforeAll(async () => {
  h = await startHarness({ simnet: { finalizationPeriodS: 2 } });
  router = await serveRouter(h);
}, 120_000);
afterAll(async () => {
  if (router) await closeServer(router.server);
  await h?.close();
});

type Page = {
  transfers: { chain_id: string; tx_hash: string; registered_at: string; roles: string[]; state: string }[];
  next_cursor: string | null;
};

const history = async (address: string, q = ''): Promise<{ status: number; body: Page & { message?: string } }> => {
  const r = await fetch(`${router.url}/v2/tx/history?address=${encodeURIComponent(address)}${q}`);
  return { status: r.status, body: (await r.json()) as Page & { message?: string } };
};

const account = () => toBech32('init', randomBytes(20));

describe('history by address', () => {
  it('lists exactly the transfers each account took part in, newest first, under either address form', async () => {
    const alice = account();
    const bob = account();
    const sent: SentTx[] = [];
    // One at a time, so the registration order is known: alice sends, bob receives through a PFM forward, alice
    // deposits to bob, bob withdraws to alice, and two transfers neither of them is in.
    const run = async (tx: SentTx) => {
      expect((await h.track(tx.chainId, tx.txHash)).status).toBe(200);
      sent.push(tx);
      await h.waitFor(tx.chainId, tx.txHash, terminal, 60_000);
    };
    await run(h.simnet.ibcTransfer({ from: SIM.move, channel: 'channel-0', sender: alice }));
    await run(
      h.simnet.ibcTransfer({ from: SIM.move, channel: 'channel-0', forward: { channel: 'channel-2' }, receiver: bob }),
    );
    await run(h.simnet.deposit({ l2: SIM.move, from: alice, to: bob }));
    await run(h.simnet.withdraw({ l2: SIM.move, from: bob, to: alice }));
    await run(h.simnet.deposit({ l2: SIM.evm }));
    await run(h.simnet.lzSend());

    // What the source txs say (the simnet's own record of whom it sent for), per account
    const tookPart = new Map<string, { address: string; list: { tx: SentTx; roles: string[] }[] }>();
    for (const tx of sent)
      for (const role of ['sender', 'receiver'] as const) {
        const address = tx[role];
        if (!address) continue;
        const key = accountKey(address)!;
        const entry = tookPart.get(key) ?? { address, list: [] };
        const mine = entry.list.find((x) => x.tx === tx);
        if (mine) mine.roles.push(role);
        else entry.list.push({ tx, roles: [role] });
        tookPart.set(key, entry);
      }
    expect(tookPart.get(accountKey(alice)!)?.list).toHaveLength(3);
    expect(tookPart.get(accountKey(bob)!)?.list).toHaveLength(3);

    for (const { address, list } of tookPart.values()) {
      const { status, body } = await history(address);
      expect(status).toBe(200);
      const want = [...list].reverse(); // newest registration first
      expect(body.transfers.map((t) => [t.chain_id, t.tx_hash, t.roles])).toEqual(
        want.map((x) => [x.tx.chainId, x.tx.txHash, x.roles.sort()]),
      );
      for (const t of body.transfers) {
        const now = await h.status(t.chain_id, t.tx_hash);
        expect(t.state).toBe(now.body.state); // the current overall state
      }
      expect(body.next_cursor).toBeNull();
    }

    // The 0x form of a bech32 account (and the bech32 of another chain's prefix) is the same account.
    const aliceHex = accountHex(alice)!;
    expect((await history(aliceHex)).body).toEqual((await history(alice)).body);
    const { fromBech32 } = await import('@cosmjs/encoding');
    expect((await history(toBech32('osmo', fromBech32(alice).data))).body).toEqual((await history(alice)).body);

    // Page by page: limit 1 walks the same list with next_cursor.
    const whole = (await history(bob)).body.transfers;
    const walked: Page['transfers'] = [];
    let cursor: string | null = null;
    do {
      const page: { status: number; body: Page } = await history(bob, `&limit=1${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.status).toBe(200);
      walked.push(...page.body.transfers);
      cursor = page.body.next_cursor;
    } while (cursor !== null);
    expect(walked).toEqual(whole);

    // From ClickHouse, not from memory: a new projection over the same store (a restarted router) answers the same.
    const fresh = new TrackingProjection(h.store);
    const rows = await fresh.history(accountKey(alice)!, 10, null);
    expect(rows.map((r) => r.tx_hash)).toEqual((await history(alice)).body.transfers.map((t) => t.tx_hash));

    // An account in no transfer has an empty history.
    expect((await history(account())).body).toEqual({ transfers: [], next_cursor: null });
  }, 240_000);

  it('streams an account: its newest transfers at once, then every version of its transfers, new ones included', async () => {
    const carol = account();
    const first = h.simnet.ibcTransfer({ from: SIM.move, channel: 'channel-0', sender: carol });
    expect((await h.track(first.chainId, first.txHash)).status).toBe(200);
    // Its workflow has returned: every version is stored (the last one follows the terminal state).
    await h.waitFor(first.chainId, first.txHash, terminal, 60_000); // its workflow is started by then
    await h.tracking.client.client.workflow.getHandle(workflowIdOf(first.chainId, first.txHash)).result();
    const stored = async (tx: SentTx) =>
      new Map(
        (
          await h.store.rows<{ version: number; doc: string }>(
            `SELECT version, any(doc) AS doc FROM transfer_events WHERE chain_id = {c:String} AND tx_hash = {t:String} GROUP BY version`,
            { c: tx.chainId, t: tx.txHash },
          )
        ).map((r) => [Number(r.version), r.doc]),
      );
    type TransferEvent = { chain_id: string; tx_hash: string; roles: string[]; version: number; status: unknown };
    const events = (c: SseClient) =>
      c.events.filter((e) => e.event === 'transfer').map((e) => JSON.parse(e.data) as TransferEvent);
    // The 0x form names the same account.
    const stream = await openSse(`${router.url}/v2/tx/history_stream?address=${accountHex(carol)}`);
    try {
      expect(stream.status).toBe(200);
      await until(() => events(stream).length >= 1, 10_000, 'the opening snapshot');
      const firstDocs = await stored(first);
      const opening = events(stream)[0]!;
      expect(opening).toMatchObject({ chain_id: first.chainId, tx_hash: first.txHash, roles: ['sender'] });
      expect(opening.version).toBe(Math.max(...firstDocs.keys()));
      expect(JSON.stringify(opening.status)).toBe(firstDocs.get(opening.version));

      // A new transfer to carol: every version from the one its parties are recorded with to the last, in order.
      const next = h.simnet.deposit({ l2: SIM.move, to: carol });
      expect((await h.track(next.chainId, next.txHash)).status).toBe(200);
      await h.waitFor(next.chainId, next.txHash, terminal, 60_000); // its workflow is started by then
      await h.tracking.client.client.workflow.getHandle(workflowIdOf(next.chainId, next.txHash)).result();
      const nextDocs = await stored(next);
      const last = Math.max(...nextDocs.keys());
      await until(
        () => events(stream).some((e) => e.tx_hash === next.txHash && e.version === last),
        10_000,
        'the last version of the new transfer',
      );
      const mine = events(stream).filter((e) => e.tx_hash === next.txHash);
      expect(mine.map((e) => e.version)).toEqual(Array.from({ length: last }, (_, i) => i + 1));
      for (const e of mine) {
        expect(e.roles).toEqual(['receiver']);
        expect(JSON.stringify(e.status)).toBe(nextDocs.get(e.version)); // byte for byte what status answered
      }
      expect(events(stream).filter((e) => e.tx_hash === first.txHash)).toHaveLength(1); // nothing re-sent
    } finally {
      stream.close();
    }
    // A reconnect opens with the snapshot again: the newest `limit` transfers, oldest of them first.
    const again = await openSse(`${router.url}/v2/tx/history_stream?address=${carol}&limit=2`);
    try {
      await until(() => events(again).length >= 2, 10_000, 'the snapshot of a reconnect');
      expect(events(again).map((e) => e.roles)).toEqual([['sender'], ['receiver']]);
    } finally {
      again.close();
    }
    for (const q of ['', '?address=nope', `?address=${carol}&limit=0`, `?address=${carol}&limit=x`]) {
      const r = await fetch(`${router.url}/v2/tx/history_stream${q}`);
      expect({ q, status: r.status }).toEqual({ q, status: 400 });
      expect(((await r.json()) as { code: number }).code).toBe(3);
    }
  }, 120_000);

  it('derives the parties from the source tx: sender, and the receiver at the end of the forwards', () => {
    const tx = (events: { type: string; attributes: { key: string; value: string }[] }[]) => ({
      chainId: 'c',
      hash: 'H',
      height: 1,
      time: '2026-01-01T00:00:00Z',
      code: 0,
      events,
    });
    const packet = (data: object) =>
      tx([
        {
          type: 'send_packet',
          attributes: [{ key: 'packet_data', value: JSON.stringify(data) }],
        },
      ]);
    expect(transferParties(packet({ sender: 'a', receiver: 'b', memo: '' }))).toEqual({ sender: 'a', receiver: 'b' });
    // two forwards, the inner one given as a JSON string (both forms occur)
    const memo = JSON.stringify({
      forward: { receiver: 'hub', next: JSON.stringify({ forward: { receiver: 'final', channel: 'channel-9' } }) },
    });
    expect(transferParties(packet({ sender: 'a', receiver: 'pfm', memo }))).toEqual({ sender: 'a', receiver: 'final' });
    expect(
      transferParties(
        tx([
          {
            type: 'initiate_token_deposit',
            attributes: [
              { key: 'from', value: 'x' },
              { key: 'to', value: 'y' },
            ],
          },
        ]),
      ),
    ).toEqual({ sender: 'x', receiver: 'y' });
    expect(transferParties(tx([{ type: 'transfer', attributes: [] }]))).toEqual({});
  });

  it('answers a missing or malformed address, limit or cursor with a JSON 400', async () => {
    const cases: [string, RegExp][] = [
      ['/v2/tx/history', /address/],
      ['/v2/tx/history?address=notanaddress', /address/],
      [`/v2/tx/history?address=${account()}&limit=0`, /limit/],
      [`/v2/tx/history?address=${account()}&limit=101`, /limit/],
      [`/v2/tx/history?address=${account()}&cursor=%%%`, /cursor/],
      [`/v2/tx/history?address=${account()}&cursor=${Buffer.from('{"a":1}').toString('base64url')}`, /cursor/],
    ];
    for (const [path, message] of cases) {
      const r = await fetch(`${router.url}${path}`);
      expect(r.status, path).toBe(400);
      const body = (await r.json()) as { code: number; message: string };
      expect(body.code).toBe(3);
      expect(body.message).toMatch(message);
    }
  });
});
