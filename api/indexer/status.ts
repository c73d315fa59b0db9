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
        internalTxs: evm && ctx.evmInternalTxs,
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
      if (ctx.vm === 'evm' && ctx.evmInternalTxs) {
        const internal = f.internalTxHeight > 0 && f.txBlocksAboveInternal === 0 ? f.height : f.internalTxHeight;
        if (internal > 0) body.internal_tx_height = internal;
      }
      if (ctx.vm === 'evm' && f.richListHeight > 0) body.rich_list_height = f.richListHeight;
      res.json(body);
    }),
  );
}
