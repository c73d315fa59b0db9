// GET /v2/stats/transfers (docs/analytics.md): transfer statistics of the tracking projection over a window.
import type { Router } from 'express';
import type { Store } from '../../clickhouse/client.js';
import { transferStats } from '../../clickhouse/queries/transfer-stats.js';
import { badRequest } from '../http/errors.js';

const DAY = 86_400;
export const MAX_TRANSFER_WINDOW_DAYS = 400;

function time(v: unknown, name: string): number | null {
  if (v === undefined || v === '') return null;
  const s = String(v).trim();
  let t: number;
  if (/^\d{1,12}$/.test(s)) t = Number(s);
  else {
    const ms = /^\d{4}-\d{2}-\d{2}/.test(s) ? Date.parse(s) : Number.NaN;
    if (Number.isNaN(ms)) throw badRequest(`${name}: give unix seconds or an RFC 3339 time, e.g. 2025-04-25T00:00:00Z`);
    t = Math.floor(ms / 1000);
  }
  if (t < 0 || t >= 2 ** 32) throw badRequest(`${name}: out of range (1970-01-01 .. 2106-02-07)`);
  return t;
}

export function mountTransferStats(router: Router, store: Store): void {
  router.get('/v2/stats/transfers', async (req, res, next) => {
    try {
      const q = req.query as Record<string, unknown>;
      const fromQ = time(q.from, 'from');
      const toQ = time(q.to, 'to');
      const to = Math.min(toQ ?? (fromQ !== null ? fromQ + 7 * DAY : Math.floor(Date.now() / 1000) + 1), 2 ** 32 - 1);
      const from = fromQ ?? Math.max(0, to - 7 * DAY);
      if (from >= to) throw badRequest('from: must be before to');
      if (to - from > MAX_TRANSFER_WINDOW_DAYS * DAY)
        throw badRequest(`from/to: the window is at most ${MAX_TRANSFER_WINDOW_DAYS} days`);
      const iso = (t: number) => new Date(t * 1000).toISOString().replace('.000Z', 'Z');
      res.json({ from: iso(from), to: iso(to), ...(await transferStats(store, from, to)) });
    } catch (e) {
      next(e);
    }
  });
}

const num = { type: 'number', nullable: true };
const int = { type: 'integer', minimum: 0 };
const obj = (properties: Record<string, object>) => ({
  type: 'object',
  required: Object.keys(properties),
  additionalProperties: false,
  properties,
});
const timeParam = (name: string, what: string) => ({
  name,
  in: 'query',
  required: false,
  allowReserved: true,
  description: `${what}: unix seconds or RFC 3339. Default: the 7 days up to now; at most 400 days.`,
  schema: { type: 'string', maxLength: 40 },
  example: name === 'from' ? '2025-04-18T00:00:00Z' : '2025-04-25T00:00:00Z',
});

export const transferStatsPaths = {
  '/v2/stats/transfers': {
    get: {
      operationId: 'transferStats',
      summary: 'Transfer statistics over a window (tracking projection)',
      description:
        'Transfers registered for tracking in [from, to): counts by state, by bridge kind (hop kinds of the transfer sequence) and by route (first source chain → last destination chain); per bridge kind, completion time p50/p95/max in seconds (registration → first terminal state, tracking clock) over completed transfers, failure rate (failed / finished) and timeout rate (IBC packet timeouts / finished).',
      parameters: [timeParam('from', 'Window start (inclusive)'), timeParam('to', 'Window end (exclusive)')],
      responses: {
        '200': {
          description: 'OK',
          content: {
            'application/json': {
              schema: { $ref: '#/components/schemas/TransferStats' },
              example: {
                from: '2025-04-18T00:00:00Z',
                to: '2025-04-25T00:00:00Z',
                total: 3,
                by_state: [
                  { state: 'STATE_COMPLETED_SUCCESS', transfers: 2 },
                  { state: 'STATE_COMPLETED_ERROR', transfers: 1 },
                ],
                by_bridge: [
                  {
                    bridge: 'ibc_transfer',
                    transfers: 3,
                    completed: 2,
                    failed: 1,
                    pending: 0,
                    timed_out: 1,
                    failure_rate: 0.3333,
                    timeout_rate: 0.3333,
                    completion_seconds: { p50: 12.5, p95: 20.1, max: 21 },
                  },
                ],
                by_route: [
                  { bridge: 'ibc_transfer', route: 'initiation-2 → minievm-1', transfers: 3, completed: 2, failed: 1 },
                ],
              },
            },
          },
        },
        '400': {
          description: 'Bad parameter',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        },
      },
    },
  },
};

export const transferStatsSchemas = {
  TransferStats: obj({
    from: { type: 'string' },
    to: { type: 'string' },
    total: int,
    by_state: { type: 'array', items: obj({ state: { type: 'string' }, transfers: int }) },
    by_bridge: {
      type: 'array',
      items: obj({
        bridge: { type: 'string' },
        transfers: int,
        completed: int,
        failed: int,
        pending: int,
        timed_out: int,
        failure_rate: num,
        timeout_rate: num,
        completion_seconds: obj({ p50: num, p95: num, max: num }),
      }),
    },
    by_route: {
      type: 'array',
      items: obj({
        bridge: { type: 'string' },
        route: { type: 'string' },
        transfers: int,
        completed: int,
        failed: int,
      }),
    },
  }),
};
