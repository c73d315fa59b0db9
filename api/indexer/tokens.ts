// NFT token endpoints (docs/indexer.md): by account and by collection, ordered by
// (token_id, height) or (height, token_id) — text order on token_id, as upstream — with a keyset cursor.
// Pages come from the tokens held in memory (api/indexer/token-memory.ts) when held, else from one statement.
import type { Request, Router } from 'express';
import { collectionLabels } from '../../clickhouse/queries/collections.js';
import type { Store } from '../../clickhouse/client.js';
import {
  allTokens,
  countTokens,
  countTokensThrough,
  listTokens,
  tokensChangedAbove,
  tokenStateRows,
  type TokenStateRow,
  type TokenRow,
  type TokenCursor,
  type TokenOrder,
  type TokenScope,
} from '../../clickhouse/queries/tokens.js';
import { handle, str, type IndexerContext } from './context.js';
import { pageResult, parsePage, type RawPageQuery } from './pagination.js';
import { parseAccount, parseCollectionAddr, parseOrderBy, rfc3339Micro } from './params.js';
import type { HeldPage, HeldPageQuery, TokenIndex, TokenSource, TokenState } from './token-memory.js';

const stateOf = ({ burned, ...row }: TokenStateRow): TokenState => ({ ...row, burned: Number(burned) !== 0 });

/** What the token memory reads from the engine. */
export function tokenSource(store: Store): TokenSource {
  return {
    stateRows: () => tokenStateRows(store),
    all: async (max) => (await allTokens(store, max))?.map(stateOf) ?? null,
    changedAbove: async (height) => (await tokensChangedAbove(store, height)).map(stateOf),
  };
}

/** A page from the held tokens (no statement). */
function heldPage(index: TokenIndex, scope: TokenScope, q: HeldPageQuery): HeldPage {
  return scope.kind === 'collection'
    ? index.collectionPage(scope.collection, scope.tokenId, q)
    : index.ownerPage(scope.owner, scope.collection, scope.tokenId, q);
}

/** An absent or empty filter (`token_id=`, `collection_addr=`) means no filter, as upstream. */
const filterValue = (v: unknown): string | null => (v === undefined || v === '' ? null : str(v));
const tokenIdFilter = filterValue;

export function registerTokens(r: Router, ctx: IndexerContext): void {
  const page = async (req: Request, scope: TokenScope) => {
    const p = parsePage(req.query as RawPageQuery, ['token']);
    const order = parseOrderBy(req.query.order_by);
    const c = p.cursor?.kind === 'token' ? p.cursor : null;
    const cursor = c ? { height: c.height, tokenId: c.tokenId, collection: c.collection } : null;
    const tip = await ctx.tip();
    const held = ctx.collections.at(tip); // the collection names, alongside the page
    const index = await ctx.tokens.at(tip);
    const got = index
      ? heldPage(index, scope, {
          order,
          desc: p.reverse,
          cursor: cursor && { ...cursor, collection: cursor.collection ?? '' },
          offset: p.offset,
          limit: p.limit + 1,
        })
      : await enginePage(scope, order, p, cursor, tip);
    const multi = scope.kind === 'owner';
    const { rows: shown, pagination } = pageResult(
      p,
      got.rows,
      p.countTotal ? String(got.total) : '0',
      (t: TokenRow) => ({
        kind: 'token',
        height: Number(t.height),
        tokenId: t.token_id,
        collection: multi ? t.collection : null,
      }),
      true,
      got.through,
    );
    // A token whose collection row is missing is still returned, with empty collection fields (§7.3). Names
    // come from the collections held in memory at this tip, else from the engine.
    const snap = await held;
    const cols: ReadonlyMap<string, { name: string; origin_name: string }> =
      snap?.byAddr ?? (await collectionLabels(ctx.store, [...new Set(shown.map((t) => t.collection))]));
    const tokens = shown.map((t) => ({
      collection_addr: t.collection,
      collection_name: cols.get(t.collection)?.name ?? '',
      collection_origin_name: cols.get(t.collection)?.origin_name ?? '',
      object_addr: t.object_addr,
      owner: t.owner,
      nft: { token_id: t.token_id, uri: t.uri },
      height: Number(t.height),
      timestamp: rfc3339Micro(t.time),
    }));
    return { tokens, pagination };
  };

  /** A page from the engine: one statement, its total kept per list and tip. */
  const enginePage = async (
    scope: TokenScope,
    order: TokenOrder,
    p: ReturnType<typeof parsePage>,
    cursor: TokenCursor | null,
    tip: number,
  ): Promise<{ rows: TokenRow[]; total: string; through: number | undefined }> => {
    // The total is kept apart, keyed by the list and the tip: the first page asked at a tip counts it (a window
    // count in the page's own statement), the others reuse it. One statement per page either way.
    const totalKey = `tokens|${JSON.stringify(scope)}|${tip}`;
    let total = p.countTotal ? ctx.totals.get<string>(totalKey) : '0';
    const got = await listTokens(
      ctx.store,
      scope,
      order,
      { desc: p.reverse, limit: p.limit + 1, offset: p.offset },
      cursor,
      total === undefined,
    );
    // An empty page (a cursor or offset past the end) cannot carry its counts: ask for them apart.
    // An empty first page is an empty list.
    const emptyList = got.rows.length === 0 && !cursor && p.offset === 0;
    if (total === undefined) total = got.total ?? (emptyList ? '0' : await countTokens(ctx.store, scope));
    if (p.countTotal) ctx.totals.set(totalKey, total);
    const through = cursor
      ? (got.through ?? (await countTokensThrough(ctx.store, scope, order, p.reverse, cursor)))
      : undefined;
    return { rows: got.rows, total, through };
  };

  r.get(
    '/indexer/nft/v1/tokens/by_account/:account',
    handle(async (req, res) => {
      const owner = parseAccount(str(req.params.account), ctx.bech32Prefix);
      const wanted = filterValue(req.query.collection_addr);
      const collection = wanted === null ? null : parseCollectionAddr(wanted, ctx.vm, ctx.bech32Prefix);
      res.json(await page(req, { kind: 'owner', owner, collection, tokenId: tokenIdFilter(req.query.token_id) }));
    }),
  );

  r.get(
    '/indexer/nft/v1/tokens/by_collection/:collection_addr',
    handle(async (req, res) => {
      const collection = parseCollectionAddr(str(req.params.collection_addr), ctx.vm, ctx.bech32Prefix);
      res.json(await page(req, { kind: 'collection', collection, tokenId: tokenIdFilter(req.query.token_id) }));
    }),
  );
}
