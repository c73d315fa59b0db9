// Block endpoints (docs/indexer.md): /blocks (height cursor, total = latest height), /blocks/{height},
// /avg_blocktime (seconds over the latest 100 blocks).
import type { Router } from 'express';
import { notFound } from '../http/errors.js';
import { blockByHeight, latestBlockTimes, listBlocks, type BlockRow } from '../../clickhouse/queries/blocks.js';
import { handle, str, type IndexerContext } from './context.js';
import { pageResult, parsePage, type RawPageQuery } from './pagination.js';
import { parseBlockHeight, rfc3339Seconds } from './params.js';

const AVG_WINDOW = 100;

function parseFee(totalFee: string): { denom: string; amount: string }[] {
  try {
    const v = JSON.parse(totalFee) as unknown;
    if (!Array.isArray(v)) return [];
    return v
      .filter((c): c is { denom: unknown; amount: unknown } => c !== null && typeof c === 'object')
      .map((c) => ({ denom: String(c.denom ?? ''), amount: String(c.amount ?? '0') }));
  } catch {
    return [];
  }
}

async function render(ctx: IndexerContext, b: BlockRow) {
  return {
    chain_id: b.chain_id,
    height: b.height,
    hash: b.hash,
    block_time: b.block_time_ms,
    timestamp: rfc3339Seconds(b.time),
    gas_used: b.gas_used,
    gas_wanted: b.gas_wanted,
    tx_count: b.tx_count_s,
    total_fee: parseFee(b.total_fee),
    proposer: await ctx.chain.proposer(b.proposer),
  };
}

/**
 * Average of the block intervals in seconds: (newest − oldest) / (n − 1); 0 with fewer than 2 blocks. Computed
 * as upstream does, to the last bit: its block times are Postgres timestamps (microseconds, truncated), and Go's
 * Duration.Seconds() adds whole seconds and the nanosecond remainder as two floats.
 */
export function averageBlockTime(nsNewestFirst: readonly string[]): number {
  if (nsNewestFirst.length < 2) return 0;
  const micros = (ns: string) => BigInt(ns) / 1000n;
  const d = (micros(nsNewestFirst[0]!) - micros(nsNewestFirst[nsNewestFirst.length - 1]!)) * 1000n;
  const seconds = Number(d / 1_000_000_000n) + Number(d % 1_000_000_000n) / 1e9;
  return seconds / (nsNewestFirst.length - 1);
}

export function registerBlocks(r: Router, ctx: IndexerContext): void {
  r.get(
    '/indexer/block/v1/avg_blocktime',
    handle(async (_req, res) => {
      const tip = await ctx.tip();
      // Final for a given tip: read once per indexed height.
      const times = await ctx.immutable.through(`avg_blocktime|${tip}`, () =>
        latestBlockTimes(ctx.store, AVG_WINDOW, tip),
      );
      res.json({ avg_block_time: averageBlockTime(times ?? []) });
    }),
  );

  r.get(
    '/indexer/block/v1/blocks',
    handle(async (req, res) => {
      const page = parsePage(req.query as RawPageQuery, ['height']);
      const tip = await ctx.tip();
      const cursor = page.cursor?.kind === 'height' ? page.cursor.height : null;
      const w = { desc: page.reverse, limit: page.limit + 1, offset: page.offset };
      // A descending page after a cursor at or below the tip + 1 holds only final blocks: kept. Any other page
      // is final for a given tip (the first page changes with every block): kept under the tip.
      const key =
        cursor !== null && page.reverse && cursor <= tip + 1
          ? `blocks|${w.limit}|${cursor}`
          : `blocks@${tip}|${w.desc}|${w.limit}|${w.offset}|${cursor}`;
      const rows = (await ctx.immutable.through(key, () => listBlocks(ctx.store, w, cursor, tip))) ?? [];
      // total is the latest height regardless of count_total (§3.5)
      const { rows: shown, pagination } = pageResult(page, rows, String(tip), (b) => ({
        kind: 'height',
        height: Number(b.height),
      }));
      res.json({ blocks: await Promise.all(shown.map((b) => render(ctx, b))), pagination });
    }),
  );

  r.get(
    '/indexer/block/v1/blocks/:height',
    handle(async (req, res) => {
      const height = parseBlockHeight(str(req.params.height));
      const tip = await ctx.tip();
      // A block at or below the tip is final; above it (or not found) nothing is kept.
      const b =
        height <= tip
          ? await ctx.immutable.through(`block|${height}`, () => blockByHeight(ctx.store, height, tip))
          : undefined;
      if (!b) throw notFound('[NOT_FOUND] block not found');
      res.json({ block: await render(ctx, b) });
    }),
  );
}
