// Analytics API (docs/analytics.md): GET /indexer/stats/v1/… over the aggregates the ingest maintains
// (clickhouse/migrations/200_analytics.sql). Every input is bounded; a bad one is a JSON 400 naming it.
import type { Router } from 'express';
import { badRequest, ApiError } from '../http/errors.js';
import type { Interval } from '../../clickhouse/queries/analytics.js';
import type { Served } from '../http/edge.js';
import { handle, str, type IndexerContext } from './context.js';
import { normaliseDenom, parseCollectionAddr, parseMsgs } from './params.js';

export const MAX_BUCKETS = 2000;
/** Longest window of the ranking endpoints (message mix, top accounts, top contracts). */
export const MAX_WINDOW_DAYS = 400;
const DEFAULT_BUCKETS = 100;
const HOUR = 3600;
const MAX_TIME = 2 ** 32 - 1;
const DAY = 86_400;

/** A time as unix seconds or an RFC 3339 / ISO 8601 date; null when absent. */
export function parseTime(v: unknown, name: string): number | null {
  if (v === undefined || v === '') return null;
  const s = str(v).trim();
  let t: number;
  if (/^\d{1,12}$/.test(s)) t = Number(s);
  else if (/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(s)) {
    const ms = Date.parse(/[T ]\d{2}:\d{2}/.test(s) && !/(Z|[+-]\d{2}:?\d{2})$/.test(s) ? `${s}Z` : s);
    // Date.parse rolls a day past its month's end over (2025-02-30 is March 2nd): such a date is refused.
    const [y, m, d] = s.slice(0, 10).split('-').map(Number) as [number, number, number];
    const day = new Date(Date.UTC(y, m - 1, d));
    if (Number.isNaN(ms) || day.getUTCMonth() !== m - 1 || day.getUTCDate() !== d)
      throw badRequest(`${name}: invalid date '${s.slice(0, 40)}'`);
    t = Math.floor(ms / 1000);
  } else throw badRequest(`${name}: give unix seconds or an RFC 3339 time, e.g. 2025-04-25T00:00:00Z`);
  if (t < 0 || t >= 2 ** 32) throw badRequest(`${name}: out of range (1970-01-01 .. 2106-02-07)`);
  return t;
}

/** An interval name among the aggregates' resolutions (`AnalyticsReads.resolutions`: name → seconds). */
export function parseInterval(
  v: unknown,
  fallback: Interval,
  resolutions: Readonly<Record<Interval, number>>,
): Interval {
  if (v === undefined) return fallback;
  const s = str(v);
  if (s in resolutions) return s as Interval;
  throw badRequest(`interval: must be one of ${Object.keys(resolutions).join(', ')}`);
}

export function parseLimit(v: unknown, fallback: number, max: number): number {
  if (v === undefined) return fallback;
  const s = str(v);
  if (!/^\d{1,6}$/.test(s) || Number(s) < 1 || Number(s) > max) throw badRequest(`limit: an integer 1..${max}`);
  return Number(s);
}

/**
 * [from, to) aligned outward to `step` seconds. Missing ends: `to` = the end of the bucket of the last indexed
 * block (or now), `from` = `to` minus `defaultSpan`. Refuses from ≥ to and windows over `maxSpan`.
 */
async function window(
  ctx: IndexerContext,
  served: Served,
  q: Record<string, unknown>,
  step: number,
  defaultSpan: number,
  maxSpan: number,
  what: string,
): Promise<{ from: number; to: number }> {
  const fromQ = parseTime(q.from, 'from');
  let toQ = parseTime(q.to, 'to');
  if (toQ === null) {
    if (fromQ !== null) toQ = fromQ + defaultSpan;
    else {
      const span = await ctx.read.analytics.chainSpan(served);
      toQ = (span ? span.last : Math.floor(Date.now() / 1000)) + 1;
    }
  }
  if (fromQ !== null && fromQ >= toQ) throw badRequest('from: must be before to');
  // Bucket starts are UInt32 seconds: never align past the last representable bucket.
  const to = Math.min(Math.ceil(toQ / step) * step, Math.floor(MAX_TIME / step) * step);
  const from = Math.floor((fromQ ?? to - defaultSpan) / step) * step;
  if (from >= to) throw badRequest('from: must be before to');
  if (from < 0) return { from: 0, to };
  if (to - from > maxSpan) throw badRequest(`from/to: the window is at most ${what}`);
  return { from, to };
}

const iso = (t: number) => new Date(t * 1000).toISOString().replace('.000Z', 'Z');

export function registerStats(r: Router, ctx: IndexerContext): void {
  const a = ctx.read.analytics;
  /** The interval asked (else `fallback`) and its window: at most MAX_BUCKETS buckets, DEFAULT_BUCKETS by default. */
  const bucketWindow = async (served: Served, q: Record<string, unknown>, fallback: Interval) => {
    const interval = parseInterval(q.interval, fallback, a.resolutions);
    const step = a.resolutions[interval];
    const what = `${MAX_BUCKETS} buckets (${MAX_BUCKETS * step}s at ${interval})`;
    const w = await window(ctx, served, q, step, DEFAULT_BUCKETS * step, MAX_BUCKETS * step, what);
    return { interval, step, ...w };
  };
  r.get(
    '/indexer/stats/v1/activity',
    handle(async (req, res, served) => {
      const q = req.query as Record<string, unknown>;
      const { interval, step, from, to } = await bucketWindow(served, q, '1h');
      const msgs = parseMsgs(q.msgs);
      const buckets = await a.activity(served, step, from, to, msgs);
      res.json({
        interval,
        from: iso(from),
        to: iso(to),
        msgs: msgs ?? [],
        buckets: buckets.map(({ t, ...b }) => ({ time: iso(t), ...b })),
      });
    }),
  );

  const rankWindow = (served: Served, q: Record<string, unknown>, step: number) =>
    window(ctx, served, q, step, 30 * DAY, MAX_WINDOW_DAYS * DAY, `${MAX_WINDOW_DAYS} days`);

  r.get(
    '/indexer/stats/v1/msg_types',
    handle(async (req, res, served) => {
      const { from, to } = await rankWindow(served, req.query as Record<string, unknown>, 60);
      const rows = await a.msgMix(served, from, to);
      const total = rows.reduce((s, x) => s + x.txs, 0);
      res.json({
        from: iso(from),
        to: iso(to),
        msg_types: rows.map((x) => ({ ...x, share: total > 0 ? x.txs / total : 0 })),
      });
    }),
  );

  r.get(
    '/indexer/stats/v1/top_accounts',
    handle(async (req, res, served) => {
      const q = req.query as Record<string, unknown>;
      const limit = parseLimit(q.limit, 10, 100);
      const { from, to } = await rankWindow(served, q, HOUR);
      const got = await a.topAccounts(served, from, to, limit);
      res.json({ from: iso(from), to: iso(to), ...got });
    }),
  );

  r.get(
    '/indexer/stats/v1/top_contracts',
    handle(async (req, res, served) => {
      const q = req.query as Record<string, unknown>;
      const limit = parseLimit(q.limit, 10, 100);
      const kind = q.kind === undefined ? null : str(q.kind);
      if (kind !== null && !['evm', 'move', 'wasm'].includes(kind)) throw badRequest('kind: one of evm, move, wasm');
      const { from, to } = await rankWindow(served, q, HOUR);
      res.json({ from: iso(from), to: iso(to), contracts: await a.topContracts(served, from, to, limit, kind) });
    }),
  );

  const evmOnly = () => {
    if (ctx.vm !== 'evm')
      throw new ApiError(
        404,
        `token distribution is not available on this chain: the rich list is offered on EVM rollups only (this is a ${ctx.vm ?? 'non-EVM'} rollup)`,
      );
  };

  r.get(
    '/indexer/stats/v1/tokens',
    handle(async (req, res, served) => {
      evmOnly();
      const limit = parseLimit((req.query as Record<string, unknown>).limit, 10, 100);
      const height = await a.latestSnapshot(served);
      res.json({ snapshot_height: height, tokens: await a.snapshotTokens(served, height, limit) });
    }),
  );

  r.get(
    '/indexer/stats/v1/tokens/:denom/distribution',
    handle(async (req, res, served) => {
      evmOnly();
      const d = normaliseDenom(str(req.params.denom));
      const token = 'erc20' in d ? d.erc20 : await ctx.read.lookups.erc20ForDenom(d.denom, served);
      const height = await a.latestSnapshot(served);
      res.json({ denom: str(req.params.denom), token, ...(await a.distribution(served, token, height)) });
    }),
  );

  r.get(
    '/indexer/stats/v1/nft/:collection_addr',
    handle(async (req, res, served) => {
      const q = req.query as Record<string, unknown>;
      const collection = parseCollectionAddr(str(req.params.collection_addr), ctx.vm, ctx.bech32Prefix);
      const { interval, step, from, to } = await bucketWindow(served, q, '1d');
      const got = await a.nftStats(served, collection, step, from, to);
      res.json({
        collection_addr: collection,
        interval,
        from: iso(from),
        to: iso(to),
        supply: got.supply,
        holders: got.holders,
        buckets: got.buckets.map(({ t, ...b }) => ({ time: iso(t), ...b })),
      });
    }),
  );

  r.get(
    '/indexer/stats/v1/progress',
    handle(async (_req, res, served) => {
      res.json(await ctx.read.progress(served));
    }),
  );
}
