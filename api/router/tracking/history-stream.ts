// GET /v2/tx/history_stream?address=…&limit=… (docs/streams.md): an account's transfers as Server-Sent Events. It
// opens with the account's `limit` newest transfers as they are now (oldest of them first), then sends each newer
// status version of any of the account's transfers, new ones included, as `event: transfer` with
// {"chain_id","tx_hash","roles","version","status"}, `status` byte for byte what GET /v2/tx/status answers at that
// version. Events carry no id: a reconnect opens with the snapshot again, which brings the client up to date.
//
// Pushed from the projection in this process (its own writes, and transfers whose parties it records while the
// account is followed). With shared writers (a ClickHouse server, other processes writing too) the stream also
// re-reads the snapshot every `checkMs` × 5, so another writer's changes arrive within a few seconds.
import type { Request, Response, Router } from 'express';
import { notFound } from '../../http/errors.js';
import { keepAlive, SseConnection, sseFrame } from '../../http/sse.js';
import { admitClient, type StreamAdmission } from '../../http/stream-admission.js';
import { accountParam, parseHistoryLimit } from './history.js';
import type { AccountTransferVersion, TrackingService } from './service.js';
import type { StatusStreamSettings } from './status-stream.js';

/** The data of one `transfer` event: the status document's JSON spliced in as is. */
export function transferEventData(t: AccountTransferVersion): string {
  return `{"chain_id":${JSON.stringify(t.chainId)},"tx_hash":${JSON.stringify(t.txHash)},"roles":${JSON.stringify(
    t.roles,
  )},"version":${t.version},"status":${t.json}}`;
}

export function mountHistoryStream(
  router: Router,
  service: TrackingService,
  settings: StatusStreamSettings,
  admission: StreamAdmission,
): void {
  router.get('/v2/tx/history_stream', async (req: Request, res: Response, next) => {
    try {
      const address = accountParam(req.query.address);
      const limit = parseHistoryLimit(req.query.limit);
      const { history, latestStatus, watchAccount, followTransfer } = service;
      if (!history || !latestStatus || !watchAccount || !followTransfer)
        throw notFound('history streams are not served here');
      const release = admitClient(admission, req, res);
      if (!release) return;

      let conn: SseConnection | undefined;
      /** The version last sent per transfer: a version is sent once, and never after a newer one. */
      const sent = new Map<string, number>();
      /** Changes heard before the stream opened (while the snapshot was read), sent after it. */
      let early: AccountTransferVersion[] | undefined = [];
      const end = (reason: string) => conn?.end({ event: 'end', data: JSON.stringify({ reason, resume: null }) });
      const send = (t: AccountTransferVersion) => {
        if (early) return void early.push(t);
        if (!conn?.open) return;
        const k = `${t.chainId}\u0000${t.txHash}`;
        if (t.version <= (sent.get(k) ?? -1)) return;
        sent.set(k, t.version);
        if (!conn.offer(sseFrame({ event: 'transfer', data: transferEventData(t) }))) end('overflow');
      };
      // Listen first, then read: a change between the read and the subscription cannot fall in between.
      const unwatch = watchAccount(address, send);
      const snapshot = async () => {
        const rows = await history(address, limit, null);
        for (const r of rows) followTransfer(address, r.chain_id, r.tx_hash, r.roles);
        const docs = await Promise.all(rows.map((r) => latestStatus(r.chain_id, r.tx_hash)));
        return rows
          .map((r, i) => {
            const d = docs[i];
            return d && { chainId: r.chain_id, txHash: r.tx_hash, roles: r.roles, version: d.version, json: d.json };
          })
          .filter((t): t is AccountTransferVersion => !!t)
          .reverse();
      };
      let first: AccountTransferVersion[];
      try {
        first = await snapshot();
      } catch (e) {
        unwatch();
        release();
        throw e; // before the stream opened: a JSON error
      }
      conn = new SseConnection(res, { maxBufferBytes: settings.bufferBytes, retryMs: settings.retryMs });
      const heard = early;
      early = undefined;
      for (const t of [...first, ...heard]) send(t);
      const check = service.accountChangesPushed
        ? undefined
        : setInterval(() => {
            snapshot().then(
              (ts) => {
                for (const t of ts) send(t);
              },
              () => undefined,
            );
          }, settings.checkMs * 5);
      keepAlive(conn, settings, () => end('lifetime'));
      conn.onClose(() => {
        unwatch();
        if (check) clearInterval(check);
        release();
      });
    } catch (e) {
      next(e);
    }
  });
}
