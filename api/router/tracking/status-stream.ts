// GET /v2/tx/status_stream (docs/streams.md): a tracked transfer's status as Server-Sent Events. Each event is the
// full status document, byte for byte what GET /v2/tx/status answers at that version, with the version as its id;
// the stream ends after a terminal state. Pushed when the projection in this process learns a newer version (its
// own write, or a reload), and checked every `checkMs` (cheap: from memory when held) for versions other writers
// made. A reconnect with `Last-Event-ID` gets the latest version only if it is newer than that id (so possibly the
// same document once more, when the newer version changed nothing in it).
import type { Request, Response, Router } from 'express';
import { normaliseTxHash } from '../../../chain/hash.js';
import { badRequest, notFound } from '../../http/errors.js';
import { keepAlive, SseConnection, sseFrame } from '../../http/sse.js';
import { admitClient, type StreamAdmission, type StreamSettings } from '../../http/stream-admission.js';
import { isTerminalState, type TxState } from '../../../workflows/status.js';
import { CHAIN_ID, stringParam } from './handlers.js';
import type { TrackingService } from './service.js';

export interface StatusStreamSettings extends StreamSettings {
  /** How often a stream checks for a version it was not told of (another writer's). */
  checkMs: number;
}

const isTerminal = (json: string): boolean => isTerminalState((JSON.parse(json) as { state: TxState }).state);

/** `Last-Event-ID` of a status stream: a version number, or absent. */
export function parseVersionId(v: unknown): number | null {
  if (v === undefined || v === '') return null;
  if (typeof v !== 'string' || !/^\d{1,9}$/.test(v))
    throw badRequest('Last-Event-ID: must be a status version (a decimal integer, an event id of this stream)');
  return Number(v);
}

export interface StatusVersion {
  version: number;
  json: string;
}

/**
 * What a status stream does with each version it learns of (`send`), given its connection's `offer` (false:
 * refused, the client's buffer is full). `resume()` is the last version the client will have: one whose frame was
 * accepted, or one whose document equals the one sent before it. A refused frame does not move it, so a client
 * reconnecting with the end event's id gets that version again (were it terminal, a resume point past it would be
 * answered 204, and the client would never see the final state). `send` answers why the stream must end, if it must.
 */
export function statusSender(
  from: number,
  offer: (frame: string) => boolean,
  terminal: (json: string) => boolean,
): { send(v: StatusVersion): 'overflow' | 'terminal' | null; resume(): number } {
  let sent = from;
  let lastJson: string | undefined;
  return {
    send(v) {
      if (v.version > sent) {
        if (v.json !== lastJson && !offer(sseFrame({ id: String(v.version), event: 'status', data: v.json })))
          return 'overflow';
        sent = v.version;
        lastJson = v.json;
      }
      return terminal(v.json) ? 'terminal' : null;
    },
    resume: () => sent,
  };
}

export function mountStatusStream(
  router: Router,
  service: TrackingService,
  settings: StatusStreamSettings,
  admission: StreamAdmission,
): void {
  router.get('/v2/tx/status_stream', async (req: Request, res: Response, next) => {
    try {
      const chainId = stringParam(req.query.chain_id, 'chain_id', 64);
      const txHash = normaliseTxHash(stringParam(req.query.tx_hash, 'tx_hash', 130));
      if (!txHash) throw badRequest('tx_hash: must be 64 hex characters, optionally 0x-prefixed');
      const sent = parseVersionId(req.get('last-event-id')) ?? -1;
      if (!CHAIN_ID.test(chainId) || !service.latestStatus || !service.watchStatus) throw notFound('tx not found');
      const latestStatus = service.latestStatus.bind(service);
      const watchStatus = service.watchStatus.bind(service);
      const latest = await latestStatus(chainId, txHash);
      if (latest === null) throw notFound('tx not found');
      // Nothing will ever follow: 204, which tells an EventSource to stop reconnecting (a 200 that ends at once
      // would have it reconnect every `retry` for as long as the page is open).
      if (sent >= latest.version && isTerminal(latest.json)) {
        res.status(204).end();
        return;
      }
      const release = admitClient(admission, req, res);
      if (!release) return;

      const conn = new SseConnection(res, { maxBufferBytes: settings.bufferBytes, retryMs: settings.retryMs });
      // The once-a-second check hands the same held document again and again: parse each document once.
      let judged: { json: string; terminal: boolean } | undefined;
      const terminal = (json: string) => {
        if (judged?.json !== json) judged = { json, terminal: isTerminal(json) };
        return judged.terminal;
      };
      const stream = statusSender(sent, (frame) => conn.offer(frame), terminal);
      const end = (reason: string) => {
        const at = stream.resume();
        const resume = at >= 0 ? String(at) : undefined;
        conn.end({ id: resume, event: 'end', data: JSON.stringify({ reason, resume: resume ?? null }) });
      };
      const send = (v: StatusVersion) => {
        if (!conn.open) return;
        const ends = stream.send(v);
        if (ends) end(ends);
      };
      const unwatch = watchStatus(chainId, txHash, send);
      const check = setInterval(() => {
        latestStatus(chainId, txHash).then(
          (v) => v && send(v),
          () => undefined,
        );
      }, settings.checkMs);
      keepAlive(conn, settings, () => end('lifetime'));
      conn.onClose(() => {
        unwatch();
        clearInterval(check);
        release();
      });
      send(latest);
    } catch (e) {
      next(e);
    }
  });
}
