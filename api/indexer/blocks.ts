// Block endpoints (docs/indexer.md): /blocks (height cursor, total = latest height), /blocks/{height},
// /avg_blocktime (seconds over the latest 100 blocks). Reads: api/indexer/read/blocks.ts.
import type { Router } from 'express';
import type { BlockRow } from '../../clickhouse/queries/blocks.js';
import { notFound } from '../http/errors.js';
import type { Served } from '../http/edge.js';
import { handle, str, type IndexerContext } from './context.js';
import { parsePage, type RawPageQuery } from './read/page.js';
import { parseBlockHeight, rfc3339Seconds } from './params.js';

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

/** A block as the REST lists and the block stream show it. */
export async function renderBlock(ctx: IndexerContext, b: BlockRow, served: Served) {
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
    proposer: await ctx.read.lookups.proposer(b.proposer, served),
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
    handle(async (_req, res, served) => {
      res.json({ avg_block_time: averageBlockTime(await ctx.read.blocks.latestTimes(served)) });
    }),
  );

  r.get(
    '/indexer/block/v1/blocks',
    handle(async (req, res, served) => {
      const page = parsePage(req.query as RawPageQuery, ['height']);
      const { rows, pagination } = await ctx.read.blocks.page(page, served);
      res.json({ blocks: await Promise.all(rows.map((b) => renderBlock(ctx, b, served))), pagination });
    }),
  );

  r.get(
    '/indexer/block/v1/blocks/:height',
    handle(async (req, res, served) => {
      const b = await ctx.read.blocks.at(parseBlockHeight(str(req.params.height)), served);
      if (!b) throw notFound('[NOT_FOUND] block not found');
      res.json({ block: await renderBlock(ctx, b, served) });
    }),
  );
}
