// The rich list (EVM rollups): holders of one ERC20 at the latest snapshot, ranked by the ingest, paged by offset
// (a key range on rank). A snapshot never changes once written: its holder count and pages are kept by
// (token, snapshot); the latest snapshot height is re-read at most once a second. Once a token's latest snapshot
// is held (richlist-memory.ts), its pages are slices of it.
import type { Store } from '../../../clickhouse/client.js';
import { type HolderPage, holdersPage, holdersTotal, latestSnapshot } from '../../../clickhouse/queries/richlist.js';
import type { Served } from '../../http/edge.js';
import { type PageRequest, type PaginationObject, pageResult } from './page.js';
import { type CacheFactory, type KeyedCache, keys } from './cache.js';
import type { RichListMemory } from './richlist-memory.js';

const SNAPSHOT_TTL_MS = 1000;
const MAX_CACHED_PAGES = 2000;

export interface RichListReads {
  /** The latest snapshot height (0: none yet), at most a second old. */
  snapshot(served: Served): Promise<number>;
  page(
    token: string,
    page: PageRequest,
    served: Served,
  ): Promise<{ rows: HolderPage['rows']; pagination: PaginationObject }>;
}

export function richListReads(d: {
  store: Store;
  totals: KeyedCache<string>;
  memory: RichListMemory;
  cache: CacheFactory;
}): RichListReads {
  const latest = d.cache<number>({ name: 'richlist_snapshot', maxEntries: 1, ttlMs: SNAPSHOT_TTL_MS });
  const pages = d.cache<HolderPage>({ name: 'richlist_pages', maxEntries: MAX_CACHED_PAGES });

  const snapshot = async (served: Served) =>
    (await latest.through(
      keys.latestSnapshot(),
      (load) => {
        load.engine();
        return latestSnapshot(d.store);
      },
      served,
    )) ?? 0;

  return {
    snapshot,
    async page(token, page, served) {
      const height = await snapshot(served);
      const limit = page.limit + 1;
      let got: HolderPage;
      if (height === 0) got = { snapshot: 0, total: 0, rows: [] };
      else {
        const view = await d.memory.at(height);
        const fromMemory = view?.page(token, page.reverse, page.offset, limit) ?? null;
        if (fromMemory) served.held(d.memory.name);
        got =
          fromMemory ??
          ((await pages.through(
            keys.holderPage(token, height, page.reverse, page.offset, page.limit),
            async (load) => {
              load.engine();
              // The holder count of a snapshot is final: read once, kept apart from the pages.
              const total = Number(
                (await d.totals.through(keys.total('holders', token, height), async () =>
                  String(await holdersTotal(d.store, token, height)),
                )) ?? 0,
              );
              return holdersPage(d.store, token, height, page.reverse, page.offset, limit, total);
            },
            served,
          )) as HolderPage);
      }
      return pageResult(page, got.rows, page.countTotal ? String(got.total) : '0', 'offset');
    },
  };
}
