// Ingest progress for the dashboard: indexed height vs the chain's head (Cosmos REST), blocks per second over
// the last minute, and the ETA to the head at that rate.
import type { Store } from '../../../clickhouse/client.js';
import type { Served } from '../../http/edge.js';

export interface IngestProgress {
  indexed_height: number;
  chain_height: number | null;
  blocks_per_second: number | null;
  eta_seconds: number | null;
  first_block_time: string | null;
  last_block_time: string | null;
}

async function chainHead(restUrl: string | undefined): Promise<number | null> {
  if (!restUrl) return null;
  try {
    const res = await fetch(`${restUrl.replace(/\/+$/, '')}/cosmos/base/tendermint/v1beta1/blocks/latest`, {
      signal: AbortSignal.timeout(2000),
      headers: { accept: 'application/json' },
    });
    if (!res.ok) return null;
    const body = (await res.json()) as { block?: { header?: { height?: string } } };
    const h = Number(body.block?.header?.height);
    return Number.isSafeInteger(h) && h > 0 ? h : null;
  } catch {
    return null; // the head is optional: the rest of the progress is still served
  }
}

/**
 * Blocks a second over the last minute (at most the newest 1,000 checkpoints), or null with fewer than two in it:
 * an ingest that stopped has no rate, not the rate it had when it stopped.
 */
export async function ingestRate(store: Store): Promise<number | null> {
  const [r] = await store.rows<{ dh: string; dt: number; n: string }>(
    // The newest checkpoints by key (the newest is the last written: a rewind deletes those above it first), not a
    // scan of every checkpoint ever written (one a batch, so one a block at the head): at most the last 1,000.
    `SELECT max(height) - min(height) AS dh, dateDiff('millisecond', min(written_at), max(written_at)) / 1000 AS dt,
            count() AS n
     FROM (SELECT height, written_at FROM ingest_checkpoints ORDER BY height DESC LIMIT 1000)
     WHERE written_at >= now64(3) - INTERVAL 60 SECOND`,
  );
  if (!r || Number(r.n) < 2 || Number(r.dt) <= 0) return null;
  return Number(r.dh) / Number(r.dt);
}

export async function ingestProgress(
  d: { store: Store; tip(): Promise<number> },
  restUrl: string | undefined,
  served: Served,
): Promise<IngestProgress> {
  served.engine();
  const [indexed, head, rate, [times]] = await Promise.all([
    d.tip(),
    chainHead(restUrl),
    ingestRate(d.store),
    d.store.rows<{ first: string | null; last: string | null; n: string }>(
      `SELECT (SELECT time FROM blocks ORDER BY height LIMIT 1) AS first,
              (SELECT time FROM blocks ORDER BY height DESC LIMIT 1) AS last, (SELECT count() FROM (SELECT 1 FROM blocks LIMIT 1)) AS n`,
    ),
  ]);
  const behind = head !== null ? Math.max(0, head - indexed) : null;
  const has = Number(times?.n ?? 0) > 0;
  return {
    indexed_height: indexed,
    chain_height: head,
    blocks_per_second: rate,
    eta_seconds: behind === null ? null : behind === 0 ? 0 : rate ? behind / rate : null,
    first_block_time: has ? (times?.first ?? null) : null,
    last_block_time: has ? (times?.last ?? null) : null,
  };
}
