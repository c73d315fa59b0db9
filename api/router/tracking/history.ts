// GET /v2/tx/history?address=…&limit=…&cursor=… (docs/tracking.md): every registered transfer whose source sender or
// final receiver is the account, newest registration first, keyset-paged, each with its current overall state.
// The account is matched by its bytes (chain/address.ts accountKey): its bech32 on any chain and its 0x form are one
// account. Served from the tracking projection in ClickHouse, so it is the same after a restart and on every device.
import type { Request, Response, Router } from 'express';
import { accountKey } from '../../../chain/address.js';
import { badRequest } from '../../http/errors.js';
import type { HistoryPosition, TrackingService } from './service.js';

export const HISTORY_DEFAULT_LIMIT = 20;
export const HISTORY_MAX_LIMIT = 100;

/** The `cursor` of the next page: base64url of the last transfer's position. */
export function encodeHistoryCursor(p: HistoryPosition): string {
  return Buffer.from(JSON.stringify([p.atMs, p.chainId, p.txHash])).toString('base64url');
}

export function decodeHistoryCursor(v: string): HistoryPosition {
  const bad = () => badRequest('cursor: must be the next_cursor of a previous page');
  if (v.length > 512 || !/^[A-Za-z0-9_-]+$/.test(v)) throw bad();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(v, 'base64url').toString('utf8'));
  } catch {
    throw bad();
  }
  if (!Array.isArray(parsed) || parsed.length !== 3) throw bad();
  const [atMs, chainId, txHash] = parsed as unknown[];
  if (!Number.isSafeInteger(atMs) || (atMs as number) < 0) throw bad();
  if (typeof chainId !== 'string' || chainId.length > 64 || typeof txHash !== 'string' || txHash.length > 130)
    throw bad();
  return { atMs: atMs as number, chainId, txHash };
}

/** The `address` parameter as an account key (chain/address.ts accountKey), else a JSON 400. */
export function accountParam(raw: unknown): string {
  if (typeof raw !== 'string' || raw === '') throw badRequest('address: is required');
  if (raw.length > 128) throw badRequest('address: must be at most 128 characters');
  const address = accountKey(raw);
  if (address === null) throw badRequest('address: must be an account, bech32 (any prefix) or 0x hex');
  return address;
}

/** The `limit` parameter: 1 to HISTORY_MAX_LIMIT, default HISTORY_DEFAULT_LIMIT. */
export function parseHistoryLimit(v: unknown): number {
  if (v === undefined) return HISTORY_DEFAULT_LIMIT;
  const n = typeof v === 'string' && /^\d{1,4}$/.test(v) ? Number(v) : Number.NaN;
  if (!Number.isInteger(n) || n < 1 || n > HISTORY_MAX_LIMIT)
    throw badRequest(`limit: must be an integer from 1 to ${HISTORY_MAX_LIMIT}`);
  return n;
}

export function mountHistory(router: Router, service: TrackingService): void {
  router.get('/v2/tx/history', async (req: Request, res: Response, next) => {
    try {
      const address = accountParam(req.query.address);
      const limit = parseHistoryLimit(req.query.limit);
      const after =
        typeof req.query.cursor === 'string' && req.query.cursor !== '' ? decodeHistoryCursor(req.query.cursor) : null;
      const rows = service.history ? await service.history(address, limit + 1, after) : [];
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      res.json({
        transfers: page.map((t) => ({
          chain_id: t.chain_id,
          tx_hash: t.tx_hash,
          registered_at: new Date(t.registeredAtMs).toISOString(),
          roles: t.roles,
          state: t.state,
          status: t.status,
        })),
        next_cursor:
          rows.length > limit && last
            ? encodeHistoryCursor({ atMs: last.registeredAtMs, chainId: last.chain_id, txHash: last.tx_hash })
            : null,
      });
    } catch (e) {
      next(e);
    }
  });
}
