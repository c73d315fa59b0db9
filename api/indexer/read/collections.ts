// NFT collections (the /indexer/nft/v1/collections family). Lists are ordered by (height, object_addr) and continue
// with a keyset cursor; an explicit offset is still honoured (Celatone pages that way). Every collection is held
// at the tip when there are few enough (collection-memory.ts); else one statement per page, its total per tip.
import type { Store } from '../../../clickhouse/client.js';
import {
  type CollectionRow,
  collectionNames,
  collectionsByAddr,
  countCollections,
  countCollectionsThrough,
  listCollections,
  ownedCollections,
} from '../../../clickhouse/queries/collections.js';
import type { Served } from '../../http/edge.js';
import { type Cursor, type PageRequest, type PaginationObject, pageResult } from './page.js';
import { type CacheFactory, type KeyedCache, keys, listId } from './cache.js';
import { type CollectionMemory, collectionPage } from './collection-memory.js';
import { heldAt } from './held.js';
import { readCounted, windowOf } from './page.js';
import type { TokenMemory } from './token-memory.js';

/** The by_name index is rebuilt at most this often, as upstream. */
const NAMES_TTL_MS = 3000;

/** Letters, marks and digits only, lowercased: how by_name compares both sides (§7.3). */
export const normaliseName = (s: string): string => s.toLowerCase().replace(/[^\p{L}\p{M}\p{N}]/gu, '');

export type NameEntry = { collection: string; height: number; key: string };

const cursorOf = (c: { height: string | number; collection: string }): Cursor => ({
  kind: 'collection',
  height: Number(c.height),
  collection: c.collection,
});

/** Page a name-matched list in memory: (height, collection) ascending, reversed when reverse=true. */
export function pageNameMatches(
  all: readonly NameEntry[],
  needle: string,
  desc: boolean,
  cursor: { height: number; collection: string } | null,
  offset: number,
  limit: number,
): NameEntry[] {
  const hits = all.filter((e) => e.key.split('\u0000').some((part) => part.includes(needle)));
  if (desc) hits.reverse();
  const cmp = (e: NameEntry) =>
    e.height !== cursor!.height
      ? e.height - cursor!.height
      : e.collection < cursor!.collection
        ? -1
        : e.collection > cursor!.collection
          ? 1
          : 0;
  const rest = cursor ? hits.filter((e) => (desc ? cmp(e) < 0 : cmp(e) > 0)) : hits.slice(offset);
  return rest.slice(0, limit);
}

export type CollectionList = { kind: 'all' } | { kind: 'owner'; owner: string };
type CollectionPage = { rows: CollectionRow[]; pagination: PaginationObject };

export interface CollectionReads {
  page(list: CollectionList, page: PageRequest, served: Served): Promise<CollectionPage>;
  /** Collections whose name or origin name contains `needle` (normalised). */
  byName(needle: string, page: PageRequest, served: Served): Promise<CollectionPage>;
  /** The collections of these addresses, in no particular order (missing ones left out). */
  byAddrs(addrs: string[], served: Served): Promise<CollectionRow[]>;
}

export function collectionReads(d: {
  store: Store;
  tip(): Promise<number>;
  totals: KeyedCache<string>;
  collections: CollectionMemory;
  tokens: TokenMemory;
  cache: CacheFactory;
}): CollectionReads {
  const names = d.cache<NameEntry[]>({ name: 'collection_names', maxEntries: 1, ttlMs: NAMES_TTL_MS });

  /** Every collection's name, origin name and height: from the held collections, else from the engine. */
  const namesAtTip = async (served: Served) => {
    const snap = await heldAt(d.collections, await d.tip(), served);
    if (snap) return snap.ordered.map((r) => ({ ...r, height: Number(r.height) }));
    served.engine();
    return collectionNames(d.store);
  };

  const nameIndex = async (served: Served): Promise<NameEntry[]> =>
    (await names.through(
      keys.collectionNames(),
      async (load) =>
        (
          await namesAtTip(load)
        ).map((r) => ({
          collection: r.collection,
          height: r.height,
          key: `${normaliseName(r.name)}\u0000${normaliseName(r.origin_name)}`,
        })),
      served,
    )) ?? [];

  const byAddrs = async (addrs: string[], served: Served): Promise<CollectionRow[]> => {
    const snap = await heldAt(d.collections, await d.tip(), served);
    if (!snap) {
      served.engine();
      return collectionsByAddr(d.store, addrs);
    }
    return addrs.flatMap((a) => {
      const c = snap.byAddr.get(a);
      return c ? [c] : [];
    });
  };

  return {
    async page(list, page, served) {
      const cursor = page.cursor?.kind === 'collection' ? page.cursor : null;
      const tip = await d.tip();
      const snap = await heldAt(d.collections, tip, served);
      if (snap) {
        // Held in memory: an account's list needs only the collections it holds.
        let ordered = snap.ordered;
        if (list.kind === 'owner') {
          // The collections of the account's held tokens, else one key-range read of the holdings ledger.
          const tokens = await heldAt(d.tokens, tip, served);
          if (!tokens) served.engine();
          const owned = new Set(
            tokens ? tokens.collectionsOf(list.owner) : await ownedCollections(d.store, list.owner),
          );
          ordered = ordered.filter((c) => owned.has(c.collection));
        }
        const got = collectionPage(ordered, page.reverse, cursor, page.offset, page.limit + 1);
        const total = page.countTotal ? String(ordered.length) : '0';
        return pageResult(page, got.rows, total, cursorOf, true, got.through);
      }
      const got = await readCounted(d.totals, served, {
        family: 'collections',
        list: listId(list),
        tip,
        page,
        fetch: (withTotal) => {
          served.engine();
          return listCollections(d.store, list, windowOf(page), cursor, withTotal);
        },
        count: () => countCollections(d.store, list),
        through: () => countCollectionsThrough(d.store, list, page.reverse, cursor!),
      });
      return pageResult(page, got.rows, got.total, cursorOf, true, got.through);
    },

    async byName(needle, page, served) {
      const cursor = page.cursor?.kind === 'collection' ? page.cursor : null;
      const all = await nameIndex(served);
      const picked = pageNameMatches(all, needle, page.reverse, cursor, page.offset, page.limit + 1);
      // Upstream reports the number of matches whatever count_total says (the differential test against it).
      const total = String(all.filter((e) => e.key.split('\u0000').some((p) => p.includes(needle))).length);
      const rows = await byAddrs(
        picked.map((e) => e.collection),
        served,
      );
      const byAddr = new Map(rows.map((c) => [c.collection, c]));
      const ordered = picked.map((e) => byAddr.get(e.collection)).filter((c): c is CollectionRow => c !== undefined);
      // previous_key on a page reached by cursor: the matches up to and including the cursor
      const through = cursor
        ? pageNameMatches(all, needle, page.reverse, null, 0, Number.MAX_SAFE_INTEGER).filter((e) =>
            page.reverse
              ? e.height > cursor.height || (e.height === cursor.height && e.collection >= cursor.collection)
              : e.height < cursor.height || (e.height === cursor.height && e.collection <= cursor.collection),
          ).length
        : undefined;
      return pageResult(page, ordered, total, cursorOf, true, through);
    },

    byAddrs,
  };
}
