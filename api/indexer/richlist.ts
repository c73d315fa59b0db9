// GET /indexer/richlist/v1/{denom} (docs/indexer.md). EVM rollups only (product rule); ordered by
// amount then account (the ingest's rank), paged by offset, which is a key range on rank.
// A snapshot never changes once written, so pages are cached by (token, snapshot, direction, offset, limit);
// the latest snapshot height itself is re-read at most once a second. Once the latest snapshot of a token is
// loaded into memory (api/indexer/richlist-memory.ts, INDEXER_RICHLIST_MEMORY_MB), its pages are slices of it.
import type { Router } from 'express';
import { ApiError } from '../http/errors.js';
import { holdersPage, holdersTotal, latestSnapshot, type HolderPage } from '../../clickhouse/queries/richlist.js';
import { handle, str, type IndexerContext } from './context.js';
import { pageResult, parsePage, type RawPageQuery } from './pagination.js';
import { normaliseDenom } from './params.js';
import type { RichListMemory } from './richlist-memory.js';

const SNAPSHOT_TTL_MS = 1000;
const MAX_CACHED_PAGES = 2000;

/** A bounded map that forgets the oldest entry first (insertion order). */
class PageCache {
  private readonly map = new Map<string, Promise<HolderPage>>();
  get(key: string, load: () => Promise<HolderPage>): Promise<HolderPage> {
    const hit = this.map.get(key);
    if (hit) return hit;
    const value = load();
    this.map.set(key, value);
    value.catch(() => this.map.delete(key)); // never keep a failure
    if (this.map.size > MAX_CACHED_PAGES) this.map.delete(this.map.keys().next().value as string);
    return value;
  }
}

export function registerRichList(r: Router, ctx: IndexerContext, memory: RichListMemory): void {
  const pages = new PageCache();
  let snapshot: { at: number; value: Promise<number> } | null = null;
  const currentSnapshot = () => {
    if (!snapshot || Date.now() - snapshot.at > SNAPSHOT_TTL_MS) {
      const value = latestSnapshot(ctx.store);
      snapshot = { at: Date.now(), value };
      value.catch(() => (snapshot = null));
    }
    return snapshot.value;
  };

  r.get(
    '/indexer/richlist/v1/:denom',
    handle(async (req, res) => {
      if (ctx.vm !== 'evm')
        throw new ApiError(
          404,
          `the rich list is not available on this chain: it is offered on EVM rollups only (this is a ${ctx.vm ?? 'non-EVM'} rollup)`,
        );
      // Offset paging only; a JSON cursor is ignored as upstream (no kinds accepted).
      const page = parsePage(req.query as RawPageQuery, []);
      const d = normaliseDenom(str(req.params.denom));
      const token = 'erc20' in d ? d.erc20 : await ctx.chain.erc20ForDenom(d.denom);
      const height = await currentSnapshot();
      const got =
        height > 0
          ? (memory.page(token, height, page.reverse, page.offset, page.limit + 1) ??
            (await pages.get(`${token}|${height}|${page.reverse}|${page.offset}|${page.limit}`, async () => {
              // The holder count of a snapshot is final: read once, kept apart from the pages.
              const total =
                (await ctx.totals.through(`richlist|${token}|${height}`, () =>
                  holdersTotal(ctx.store, token, height),
                )) ?? 0;
              return holdersPage(ctx.store, token, height, page.reverse, page.offset, page.limit + 1, total);
            })))
          : { snapshot: 0, total: 0, rows: [] };
      const { rows, pagination } = pageResult(page, got.rows, page.countTotal ? String(got.total) : '0', 'offset');
      res.json({ holders: rows, pagination });
    }),
  );
}
