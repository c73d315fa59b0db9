// The indexer's event streams (docs/streams.md): Server-Sent Events of new txs and blocks, with the REST lists'
// filters. Each event is the REST item's JSON and its id is the item's REST cursor (`pagination.key`), so a stream
// resumes from `Last-Event-ID` (what a browser's EventSource sends when it reconnects) or from a REST page's key.
// Fan-out, pacing and limits: api/http/stream-hub.ts; the reads: api/indexer/read/streams.ts.
import type { Request, Response, Router } from 'express';
import type { CommittedItems, HandedLists } from '../../clickhouse/committed-items.js';
import type { BlockRow } from '../../clickhouse/queries/blocks.js';
import type { TxDoc, TxList } from '../../clickhouse/queries/txs.js';
import { SEQUENCE_STRIDE, sequenceOf } from '../../chain/sequence.js';
import { metrics } from '../../platform/metrics.js';
import { CommittedKeys, CommittedTail } from '../http/committed-tail.js';
import { badRequest } from '../http/errors.js';
import { Served } from '../http/edge.js';
import { SseConnection } from '../http/sse.js';
import { admitClient, type StreamSettings } from '../http/stream-admission.js';
import { StreamHub, type StreamSource } from '../http/stream-hub.js';
import { renderBlock } from './blocks.js';
import { handle, str, type IndexerContext } from './context.js';
import { parseAccount, parseBool, parseCollectionAddr, parseMsgs } from './params.js';
import { type Cursor, decodeKey, encodeCursor } from './read/page.js';
import { listHolds } from './read/streams.js';

/** Items read per statement by a catch-up or a tip advance. */
const PAGE_SIZE = 500;

/**
 * Bytes of committed items held per list, the newest batch included (which is always held, however large): a few
 * batches, enough for a tip advance that spans more than one commit, and for a client a little behind to catch up
 * from memory.
 */
const TAIL_BYTES = 32 * 2 ** 20;

/**
 * Characters of filter keys held: a dense batch of 4,000 txs has a few thousand distinct keys of ~50 characters, so
 * this holds dozens of batches.
 */
const KEYS_BYTES = 8 * 2 ** 20;

/**
 * With the ingest in this process, how long after the status feed sees a new tip the streams are advanced to it,
 * if the ingest's commit has not done so already (it always does, but for a lost message).
 */
const STATUS_FALLBACK_MS = 5_000;

/** A block row's size as the tail counts it: ten short fields. */
const BLOCK_ROW_BYTES = 400;

/** The highest tx sequence a height can hold (its last possible index). */
const lastSequenceOf = (height: number) => sequenceOf(height, SEQUENCE_STRIDE - 1);

/** The indexer's streams: the hub, and what the ingest in this process commits. */
export interface IndexerStreams {
  hub: StreamHub;
  /**
   * A batch is committed up to `height`: hold its items (when the ingest handed them), then advance every list.
   */
  committed(height: number, items?: CommittedItems): void;
}

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

export function registerStreams(
  r: Router,
  ctx: IndexerContext,
  settings: StreamSettings,
  /** The ingest in this process: told which lists' committed items to hand over (those with a stream open). */
  handLists?: (lists: HandedLists) => void,
): IndexerStreams {
  let unwatch: (() => void) | null = null;
  // The unfiltered lists' latest committed items (decision 020): a tip advance's read, answered from memory.
  const blockTail = new CommittedTail<BlockRow>(
    TAIL_BYTES,
    (b) => Number(b.height),
    () => BLOCK_ROW_BYTES,
  );
  const txTail = new CommittedTail<TxDoc>(
    TAIL_BYTES,
    (d) => Number(d.sequence),
    (d) => d.json.length + 32,
  );
  // The filtered tx lists' keys of the latest batches (decision 021): a tip advance that brings none of a list's keys
  // brings it no item, and reads nothing.
  const keysTail = new CommittedKeys(KEYS_BYTES);
  const allTxsKey = txListKey({ kind: 'all' }, null);
  // Handlers import the store's modules for types only (the import rules): the no-lists value is spelled here.
  let handed: HandedLists = { blocks: false, txs: false, keys: false };
  /** Rewinds seen: a status advance scheduled before one is dropped. */
  let rewinds = 0;
  const hub = new StreamHub({
    tip: () => ctx.read.tip(),
    pageSize: PAGE_SIZE,
    heartbeatMs: settings.heartbeatMs,
    maxLifetimeMs: settings.lifetimeMs,
    maxStreams: settings.maxStreams,
    maxPerClient: settings.maxPerClient,
    onLists: (keys) => {
      if (!handLists) return;
      const next = {
        blocks: keys.has(BLOCKS_KEY),
        txs: keys.has(allTxsKey),
        keys: [...keys].some((k) => k !== allTxsKey && k.startsWith(TX_LIST_PREFIX)),
      };
      if (next.blocks === handed.blocks && next.txs === handed.txs && next.keys === handed.keys) return;
      handed = next;
      if (!next.blocks) blockTail.clear();
      if (!next.txs) txTail.clear();
      if (!next.keys) keysTail.clear();
      handLists(next);
    },
  });
  // Resolved once (prom-client hashes labels on every call).
  const reads = {
    block: {
      committed: metrics.streamReads.labels('block', 'committed'),
      engine: metrics.streamReads.labels('block', 'engine'),
    },
    tx: {
      committed: metrics.streamReads.labels('tx', 'committed'),
      engine: metrics.streamReads.labels('tx', 'engine'),
      skipped: metrics.streamReads.labels('tx', 'skipped'),
    },
  };
  /** The tail's items when it covers the read whole, else null: the engine reads (counted either way). */
  const fromTail = <T>(
    list: keyof typeof reads,
    tail: CommittedTail<T> | null,
    after: number,
    through: number,
    limit: number,
  ): T[] | null => {
    const held = tail?.slice(after, through, limit) ?? null;
    (held ? reads[list].committed : reads[list].engine).inc();
    return held;
  };

  const open = async (req: Request, res: Response, source: StreamSource, after: number | null) => {
    // The tip first: an engine that cannot answer is a JSON error before any byte of the stream is sent.
    await ctx.read.tip();
    const release = admitClient(hub, req, res);
    if (!release) return;
    // The tip is watched while any stream is open: each new indexed height advances the streams at once.
    unwatch ??= ctx.read.status.watch((tip, rewound) => {
      if (rewound) {
        rewinds++;
        blockTail.clear();
        txTail.clear();
        keysTail.clear();
        return hub.rewind(tip);
      }
      if (!handLists) return hub.advance(tip);
      // The ingest in this process advances the streams itself, with each commit and its items and keys. The status
      // feed reads the same checkpoint and can see it first, before the commit's message comes: it would send every
      // filtered list to the engine for heights whose keys are on their way. So its advance is a later fallback, and
      // none after a rewind (its tip may have been taken back).
      const at = rewinds;
      setTimeout(() => at === rewinds && hub.advance(tip), STATUS_FALLBACK_MS).unref();
    });
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

  const txSource = (list: TxList, msgs: string[] | null): StreamSource => {
    const key = txListKey(list, msgs);
    const unfiltered = key === allTxsKey;
    const holds = unfiltered ? null : listHolds(list, msgs);
    return {
      key,
      event: 'tx',
      edge: lastSequenceOf,
      idOf: (pos) => encodeCursor({ kind: 'sequence', sequence: pos }),
      read: async (after, through, limit) => {
        // The heights whose txs may come after `after`: its own height too unless `after` is that height's edge.
        const from = Math.floor(after / SEQUENCE_STRIDE);
        if (holds && !keysTail.mayHold(after === lastSequenceOf(from) ? from : from - 1, through, holds)) {
          reads.tx.skipped.inc();
          return [];
        }
        return (
          fromTail('tx', unfiltered ? txTail : null, after, lastSequenceOf(through), limit) ??
          (await ctx.read.streams.txs(list, msgs, after, through, limit))
        ).map((d) => ({ pos: Number(d.sequence), data: d.json }));
      },
    };
  };

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
    key: BLOCKS_KEY,
    event: 'block',
    edge: (tip) => tip,
    idOf: (pos) => encodeCursor({ kind: 'height', height: pos }),
    read: async (after, through, limit) => {
      const rows =
        fromTail('block', blockTail, after, through, limit) ?? (await ctx.read.streams.blocks(after, through, limit));
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
  return {
    hub,
    committed(height, items) {
      // Only lists still wanted: a batch handed before the ingest learnt that the last stream closed is dropped (it
      // would be held with no stream open, where no rewind clears it).
      if (items?.blocks && handed.blocks) blockTail.add(items.from - 1, items.to, items.blocks);
      if (items?.txs && handed.txs) txTail.add(lastSequenceOf(items.from - 1), lastSequenceOf(items.to), items.txs);
      if (items?.keys && handed.keys) keysTail.add(items.from - 1, items.to, items.keys);
      hub.advance(height);
    },
  };
}

const BLOCKS_KEY = 'blocks';
const TX_LIST_PREFIX = 'txs:';

/** A tx list's stream key: lists with the same filter share one group. */
function txListKey(list: TxList, msgs: string[] | null): string {
  return `${TX_LIST_PREFIX}${JSON.stringify([list, msgs === null ? null : [...msgs].sort()])}`;
}
