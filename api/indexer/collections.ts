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
  type CollectionRow,
  type CollectionScope,
} from '../../clickhouse/queries/collections.js';
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

/** The list of all collections behind by_name, refreshed at most every 3 s as upstream. */
function nameIndex(ctx: IndexerContext, ttlMs = 3000): () => Promise<NameEntry[]> {
  let value: Promise<NameEntry[]> | null = null;
  let at = 0;
  return () => {
    if (!value || Date.now() - at > ttlMs) {
      at = Date.now();
      const next = collectionNames(ctx.store).then((rows) =>
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
    const [rows, total, through] = await Promise.all([
      listCollections(ctx.store, scope, { desc: page.reverse, limit: page.limit + 1, offset: page.offset }, cursor),
      // The total is kept apart, keyed by the list and the tip: one count per list per block.
      page.countTotal
        ? ctx.totals
            .through(`collections|${JSON.stringify(scope)}|${tip}`, () => countCollections(ctx.store, scope))
            .then((n) => n ?? '0')
        : Promise.resolve('0'),
      cursor ? countCollectionsThrough(ctx.store, scope, page.reverse, cursor) : Promise.resolve(undefined),
    ]);
    const { rows: shown, pagination } = pageResult(page, rows, total, cursorOf, true, through);
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
      const rows = await collectionsByAddr(
        ctx.store,
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
      const [c] = await collectionsByAddr(ctx.store, [addr]);
      if (!c) throw notFound('nft collection not found');
      res.json({ collection: renderCollection(c) });
    }),
  );
}
