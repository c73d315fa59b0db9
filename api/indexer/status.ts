// GET /status (docs/indexer.md). Answered from memory: the facts come from the status feed (refreshed in the
// background, api/indexer/status-feed.ts) and the body is serialised once per refresh.
import type { Router } from 'express';
import { ApiError } from '../http/errors.js';
import type { StatusFacts } from '../../clickhouse/queries/status.js';
import { handle, sendJson, type IndexerContext } from './context.js';

export function registerStatus(r: Router, ctx: IndexerContext): void {
  let last: { facts: StatusFacts; body: string } | null = null;
  const bodyOf = (f: StatusFacts, height: number): string => {
    const body: Record<string, unknown> = {
      version: ctx.version,
      commit_hash: ctx.commitHash,
      chain_id: ctx.chainId ?? f.latestChainId,
      height,
    };
    // Traces are written with their block, before its checkpoint: with internal-tx indexing on, internal txs
    // are indexed exactly up to the indexed height. Without it the field is absent (it would mean nothing).
    if (ctx.vm === 'evm' && ctx.evmInternalTxs) body.internal_tx_height = height;
    if (ctx.vm === 'evm' && f.richListHeight > 0) body.rich_list_height = f.richListHeight;
    const text = JSON.stringify(body);
    last = { facts: f, body: text };
    return text;
  };
  r.get(
    '/status',
    handle(async (_req, res, served) => {
      const f = await ctx.read.status.facts();
      served.held(ctx.read.status.name);
      // Upstream answers an empty database with a 500; we keep the status and say why, as JSON.
      if (f.height === null) throw new ApiError(500, 'no block has been indexed yet');
      sendJson(res, last?.facts === f ? last.body : bodyOf(f, f.height));
    }),
  );
}
