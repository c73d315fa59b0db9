// GET /status (docs/indexer.md).
import type { Router } from 'express';
import { ApiError } from '../http/errors.js';
import { statusFacts } from '../../clickhouse/queries/status.js';
import { handle, type IndexerContext } from './context.js';

export function registerStatus(r: Router, ctx: IndexerContext): void {
  r.get(
    '/status',
    handle(async (_req, res) => {
      const evm = ctx.vm === 'evm';
      const f = await statusFacts(ctx.store, {
        internalTxs: false, // see internal_tx_height below
        richList: evm,
        chainId: ctx.chainId === undefined,
      });
      // Upstream answers an empty database with a 500; we keep the status and say why, as JSON.
      if (f.height === null) throw new ApiError(500, 'no block has been indexed yet');
      const body: Record<string, unknown> = {
        version: ctx.version,
        commit_hash: ctx.commitHash,
        chain_id: ctx.chainId ?? f.latestChainId,
        height: f.height,
      };
      // Traces are written with their block, before its checkpoint: with internal-tx indexing on, internal txs
      // are indexed exactly up to the indexed height. Without it the field is absent (it would mean nothing).
      if (ctx.vm === 'evm' && ctx.evmInternalTxs) body.internal_tx_height = f.height;
      if (ctx.vm === 'evm' && f.richListHeight > 0) body.rich_list_height = f.richListHeight;
      res.json(body);
    }),
  );
}
