// GET /indexer/richlist/v1/{denom} (docs/indexer.md). EVM rollups only (product rule); ordered by amount then
// account (the ingest's rank), paged by offset. Reads: api/indexer/read/richlist.ts.
import type { Router } from 'express';
import { ApiError } from '../http/errors.js';
import { handle, str, type IndexerContext } from './context.js';
import { parsePage, type RawPageQuery } from './read/page.js';
import { normaliseDenom } from './params.js';

export function registerRichList(r: Router, ctx: IndexerContext): void {
  r.get(
    '/indexer/richlist/v1/:denom',
    handle(async (req, res, served) => {
      if (ctx.vm !== 'evm')
        throw new ApiError(
          404,
          `the rich list is not available on this chain: it is offered on EVM rollups only (this is a ${ctx.vm ?? 'non-EVM'} rollup)`,
        );
      // Offset paging only; a JSON cursor is ignored as upstream (no kinds accepted).
      const page = parsePage(req.query as RawPageQuery, []);
      const d = normaliseDenom(str(req.params.denom));
      const token = 'erc20' in d ? d.erc20 : await ctx.read.lookups.erc20ForDenom(d.denom, served);
      const { rows, pagination } = await ctx.read.richList.page(token, page, served);
      res.json({ holders: rows, pagination });
    }),
  );
}
