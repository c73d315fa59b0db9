// The indexer's event streams (docs/streams.md): Server-Sent Events of new txs and blocks, with the REST lists'
// filters. Each event is the REST item's JSON and its id is the item's REST cursor (`pagination.key`), so a stream
// resumes from `Last-Event-ID` (what a browser's EventSource sends when it reconnects) or from a REST page's key.
// Fan-out, pacing and limits: api/http/stream-hub.ts; the reads: api/indexer/read/streams.ts.
import type { Request, Response, Router } from 'express';
import type { TxList } from '../../clickhouse/queries/txs.js';
import { SEQUENCE_STRIDE } from '../../chain/sequence.js';
import { badRequest } from '../http/errors.js';
import { Served } from '../http/edge.js';
import { SseConnection } from '../http/sse.js';
import { admitClient, type StreamSettings } from '../http/stream-admission.js';
import { StreamHub, type StreamSource } from '../http/stream-hub.js';
import { renderBlock } from './blocks.js';
import { handle, str, type IndexerContext } from './context.js';
import { parseAccount, parseBool, parseCollectionAddr, parseMsgs } from './params.js';
import { type Cursor, decodeKey, encodeCursor } from './read/page.js';

/** Items read per statement by a catch-up or a tip advance. */
const PAGE_SIZE = 500;

/**
 * The resume point of a stream: `Last-Event-ID` (a reconnect; newer than the URL's key) or `pagination.key`, as a
 * cursor of the list's kind. null: start at the tip (new items only).
 */
export function resumePoint(header: unknown, key: unknown, kind: 'sequence' | 'height'): number | null {
  const raw = typeof header === 'string' && header !== '' ? header : typeof key === 'string' && key !== '' ? key : null;
  if (raw === null) return null;
  const name = raw === header ? 'Last-Event-ID' : 'pagination.key';
  let cursor: Cursor | null;
  try {
    cursor = decodeKey(raw).cursor;
  } catch (e) {
    throw badRequest(`${name}: ${(e as Error).message}`);
  }
  const shape = kind === 'sequence' ? '{"sequence":N}' : '{"height":N}';
  if (cursor?.kind !== kind)
    throw badRequest(
      `${name} must be a cursor of this list: base64 of ${shape}, as the list's next_key or an event id`,
    );
  return kind === 'sequence' ? (cursor as { sequence: number }).sequence : (cursor as { height: number }).height;
}

export function registerStreams(r: Router, ctx: IndexerContext, settings: StreamSettings): StreamHub {
  let unwatch: (() => void) | null = null;
  const hub = new StreamHub({
    tip: () => ctx.read.tip(),
    pageSize: PAGE_SIZE,
    heartbeatMs: settings.heartbeatMs,
    maxLifetimeMs: settings.lifetimeMs,
    maxStreams: settings.maxStreams,
    maxPerClient: settings.maxPerClient,
  });

  const open = async (req: Request, res: Response, source: StreamSource, after: number | null) => {
    // The tip first: an engine that cannot answer is a JSON error before any byte of the stream is sent.
    await ctx.read.tip();
    const release = admitClient(hub, req, res);
    // The tip is watched while any stream is open: each new indexed height advances the streams at once.
    unwatch ??= ctx.read.status.watch((tip, rewound) => (rewound ? hub.rewind(tip) : hub.advance(tip)));
    const conn = new SseConnection(res, { maxBufferBytes: settings.bufferBytes, retryMs: settings.retryMs });
    conn.onClose(() => {
      release();
      if (hub.size === 0) {
        unwatch?.();
        unwatch = null;
      }
    });
    await hub.serve(source, after, conn);
  };

  const txSource = (list: TxList, msgs: string[] | null): StreamSource => ({
    key: `txs:${JSON.stringify([list, msgs === null ? null : [...msgs].sort()])}`,
    event: 'tx',
    edge: (tip) => (tip + 1) * SEQUENCE_STRIDE - 1,
    idOf: (pos) => encodeCursor({ kind: 'sequence', sequence: pos }),
    read: async (after, through, limit) =>
      (await ctx.read.streams.txs(list, msgs, after, through, limit)).map((d) => ({
        pos: Number(d.sequence),
        data: d.json,
      })),
  });

  const txStream = (req: Request, res: Response, list: TxList, msgs: string[] | null) =>
    open(
      req,
      res,
      txSource(list, msgs),
      resumePoint(req.get('last-event-id'), req.query['pagination.key'], 'sequence'),
    );

  r.get(
    '/indexer/stream/v1/txs',
    handle((req, res) => txStream(req, res, { kind: 'all' }, parseMsgs(req.query.msgs))),
  );

  r.get(
    '/indexer/stream/v1/txs/by_account/:account',
    handle(async (req, res) => {
      const account = parseAccount(str(req.params.account), ctx.bech32Prefix);
      const isSigner = parseBool(req.query.is_signer, 'is_signer');
      await txStream(req, res, { kind: 'account', account, isSigner }, parseMsgs(req.query.msgs));
    }),
  );

  r.get(
    '/indexer/stream/v1/nft/txs/:collection_addr/:token_id',
    handle(async (req, res) => {
      const collection = parseCollectionAddr(str(req.params.collection_addr), ctx.vm, ctx.bech32Prefix);
      await txStream(req, res, { kind: 'nft', collection, tokenId: str(req.params.token_id) }, null);
    }),
  );

  const blocks: StreamSource = {
    key: 'blocks',
    event: 'block',
    edge: (tip) => tip,
    idOf: (pos) => encodeCursor({ kind: 'height', height: pos }),
    read: async (after, through, limit) => {
      const rows = await ctx.read.streams.blocks(after, through, limit);
      const served = new Served();
      return Promise.all(
        rows.map(async (b) => ({ pos: Number(b.height), data: JSON.stringify(await renderBlock(ctx, b, served)) })),
      );
    },
  };

  r.get(
    '/indexer/stream/v1/blocks',
    handle((req, res) =>
      open(req, res, blocks, resumePoint(req.get('last-event-id'), req.query['pagination.key'], 'height')),
    ),
  );
  return hub;
}
