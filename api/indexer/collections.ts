// NFT collection endpoints (docs/indexer.md). Lists are ordered by (height, object_addr) and
// continue with a keyset cursor; an explicit offset is still honoured, as Celatone pages that way.
import type { Router } from 'express';
import { badRequest, notFound } from '../http/errors.js';
import {
  collectionNames,
  collectionsByAddr,
  countCollections,
  countCollectionsThrough,
  listCollections,
  ownedCollections,
  type CollectionRow,
  type CollectionScope,
} from '../../clickhouse/queries/collections.js';
import { collectionPage } from './collection-memory.js';
import { handle, str, type IndexerContext } from './context.js';
import { pageResult, parsePage, type Cursor, type RawPageQuery } from './pagination.js';
import { parseAccount, parseCollectionAddr, rfc3339Micro } from './params.js';

export function renderCollection(c: CollectionRow) {
  return {
    object_addr: c.collection,
    collection: {
      creator: c.creator,
      name: c.name,
      origin_name: c.origin_name,
      nfts: { handle: '', length: Number(c.length) },
    },
    height: Number(c.height),
    timestamp: rfc3339Micro(c.time),
  };
}

const cursorOf = (c: { height: string | number; collection: string }): Cursor => ({
  kind: 'collection',
  height: Number(c.height),
  collection: c.collection,
});

/** Letters, marks and digits only, lowercased: how by_name compares both sides (§7.3). */
export const normaliseName = (s: string): string => s.toLowerCase().replace(/[^\p{L}\p{M}\p{N}]/gu, '');

type NameEntry = { collection: string; height: number; key: string };

/** Every collection's name, origin name and height: from the held collections, else from the engine. */
async function namesAtTip(
  ctx: IndexerContext,
): Promise<{ collection: string; name: string; origin_name: string; height: number }[]> {
  const snap = await ctx.collections.at(await ctx.tip());
  if (!snap) return collectionNames(ctx.store);
  return snap.ordered.map((r) => ({ ...r, height: Number(r.height) }));
}

/** The collections of these addresses: from the held collections, else from the engine. */
async function byAddrs(ctx: IndexerContext, addrs: string[]): Promise<CollectionRow[]> {
  const snap = await ctx.collections.at(await ctx.tip());
  if (!snap) return collectionsByAddr(ctx.store, addrs);
  return addrs.flatMap((a) => {
    const c = snap.byAddr.get(a);
    return c ? [c] : [];
  });
}

/** The list of all collections behind by_name, refreshed at most every 3 s as upstream. */
function nameIndex(ctx: IndexerContext, ttlMs = 3000): () => Promise<NameEntry[]> {
  let value: Promise<NameEntry[]> | null = null;
  let at = 0;
  return () => {
    if (!value || Date.now() - at > ttlMs) {
      at = Date.now();
      const next = namesAtTip(ctx).then((rows) =>
        rows.map((r) => ({
          collection: r.collection,
          height: r.height,
          key: `${normaliseName(r.name)}\u0000${normaliseName(r.origin_name)}`,
        })),
      );
      value = next;
      next.catch(() => {
        if (value === next) value = null;
      });
    }
    return value;
  };
}

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

export function registerCollections(r: Router, ctx: IndexerContext): void {
  const names = nameIndex(ctx);

  const list = async (scope: CollectionScope, query: RawPageQuery) => {
    const page = parsePage(query, ['collection']);
    const cursor = page.cursor?.kind === 'collection' ? page.cursor : null;
    const tip = await ctx.tip();
    const snap = await ctx.collections.at(tip);
    if (snap) {
      // Held in memory: an account's list needs only the collections it holds.
      let ordered = snap.ordered;
      if (scope.kind === 'owner') {
        // The collections of the account's held tokens, else one key-range read of the holdings ledger.
        const tokens = await ctx.tokens.at(tip);
        const owned = new Set(
          tokens ? tokens.collectionsOf(scope.owner) : await ownedCollections(ctx.store, scope.owner),
        );
        ordered = ordered.filter((c) => owned.has(c.collection));
      }
      const got = collectionPage(ordered, page.reverse, cursor, page.offset, page.limit + 1);
      const total = page.countTotal ? String(ordered.length) : '0';
      const { rows: shown, pagination } = pageResult(page, got.rows, total, cursorOf, true, got.through);
      return { collections: shown.map(renderCollection), pagination };
    }
    // The total is kept apart, keyed by the list and the tip: the first page asked at a tip counts it (a window
    // count in the page's own statement), the others reuse it. One statement per page either way.
    const totalKey = `collections|${JSON.stringify(scope)}|${tip}`;
    let total = page.countTotal ? ctx.totals.get<string>(totalKey) : '0';
    const got = await listCollections(
      ctx.store,
      scope,
      { desc: page.reverse, limit: page.limit + 1, offset: page.offset },
      cursor,
      total === undefined,
    );
    // An empty page (a cursor or offset past the end) cannot carry its counts: ask for them apart.
    // An empty first page is an empty list.
    const emptyList = got.rows.length === 0 && !cursor && page.offset === 0;
    if (total === undefined) total = got.total ?? (emptyList ? '0' : await countCollections(ctx.store, scope));
    if (page.countTotal) ctx.totals.set(totalKey, total);
    const through = cursor
      ? (got.through ?? (await countCollectionsThrough(ctx.store, scope, page.reverse, cursor)))
      : undefined;
    const { rows: shown, pagination } = pageResult(page, got.rows, total, cursorOf, true, through);
    return { collections: shown.map(renderCollection), pagination };
  };

  r.get(
    '/indexer/nft/v1/collections',
    handle(async (req, res) => {
      res.json(await list({ kind: 'all' }, req.query as RawPageQuery));
    }),
  );

  r.get(
    '/indexer/nft/v1/collections/by_account/:account',
    handle(async (req, res) => {
      const owner = parseAccount(str(req.params.account), ctx.bech32Prefix);
      res.json(await list({ kind: 'owner', owner }, req.query as RawPageQuery));
    }),
  );

  r.get(
    '/indexer/nft/v1/collections/by_name/:name',
    handle(async (req, res) => {
      const page = parsePage(req.query as RawPageQuery, ['collection']);
      const needle = normaliseName(str(req.params.name));
      const cursor = page.cursor?.kind === 'collection' ? page.cursor : null;
      const all = await names();
      const picked = pageNameMatches(all, needle, page.reverse, cursor, page.offset, page.limit + 1);
      // Upstream reports the number of matches whatever count_total says (the differential test against it).
      const total = String(all.filter((e) => e.key.split('\u0000').some((p) => p.includes(needle))).length);
      const rows = await byAddrs(
        ctx,
        picked.map((e) => e.collection),
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
      const { rows: shown, pagination } = pageResult(page, ordered, total, cursorOf, true, through);
      res.json({ collections: shown.map(renderCollection), pagination });
    }),
  );

  r.get(
    '/indexer/nft/v1/collections/:collection_addr',
    handle(async (req, res) => {
      const raw = str(req.params.collection_addr);
      if (raw === 'by_account' || raw === 'by_name')
        throw badRequest(
          `${raw === 'by_account' ? 'account' : 'name'} is missing: use /indexer/nft/v1/collections/${raw}/{${raw.slice(3)}}`,
        );
      const addr = parseCollectionAddr(raw, ctx.vm, ctx.bech32Prefix);
      const [c] = await byAddrs(ctx, [addr]);
      if (!c) throw notFound('nft collection not found');
      res.json({ collection: renderCollection(c) });
    }),
  );
}
