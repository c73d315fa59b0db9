// NFT tokens (by account and by collection), ordered by (token_id, height) or (height, token_id) (text order on
// token_id, as upstream), with a keyset cursor. Pages come from the tokens held at the tip (token-memory.ts) when
// held, else from one statement with its total per tip (page.ts). Collection names ride along for rendering.
import type { Store } from '../../../clickhouse/client.js';
import { collectionLabels } from '../../../clickhouse/queries/collections.js';
import {
  allTokens,
  countTokens,
  countTokensThrough,
  listTokens,
  type TokenOrder,
  type TokenRow,
  type TokenScope,
  type TokenStateRow,
  tokenStateRows,
  tokensChangedAbove,
} from '../../../clickhouse/queries/tokens.js';
import type { Served } from '../../http/edge.js';
import { type PageRequest, type PaginationObject, pageResult } from './page.js';
import { type KeyedCache, listId } from './cache.js';
import type { CollectionMemory } from './collection-memory.js';
import { heldAt } from './held.js';
import { readCounted, windowOf } from './page.js';
import type { TokenMemory, TokenSource, TokenState } from './token-memory.js';

const stateOf = ({ burned, ...row }: TokenStateRow): TokenState => ({ ...row, burned: Number(burned) !== 0 });

/** What the token memory reads from the engine. */
export function tokenSource(store: Store): TokenSource {
  return {
    stateRows: () => tokenStateRows(store),
    all: async (max) => (await allTokens(store, max))?.map(stateOf) ?? null,
    changedAbove: async (height) => (await tokensChangedAbove(store, height)).map(stateOf),
  };
}

export interface TokensPage {
  rows: TokenRow[];
  pagination: PaginationObject;
  /** Names of the collections on the page (a collection without a row is absent: its fields render empty). */
  labels: ReadonlyMap<string, { name: string; origin_name: string }>;
}

export interface TokenReads {
  page(scope: TokenScope, order: TokenOrder, page: PageRequest, served: Served): Promise<TokensPage>;
}

export function tokenReads(d: {
  store: Store;
  tip(): Promise<number>;
  totals: KeyedCache<string>;
  collections: CollectionMemory;
  tokens: TokenMemory;
}): TokenReads {
  return {
    async page(scope, order, page, served) {
      const c = page.cursor?.kind === 'token' ? page.cursor : null;
      const cursor = c ? { height: c.height, tokenId: c.tokenId, collection: c.collection } : null;
      const tip = await d.tip();
      const held = d.collections.at(tip); // the collection names, alongside the page
      const index = await heldAt(d.tokens, tip, served);
      const got = index
        ? (() => {
            const q = {
              order,
              desc: page.reverse,
              cursor: cursor && { ...cursor, collection: cursor.collection ?? '' },
              offset: page.offset,
              limit: page.limit + 1,
            };
            const h =
              scope.kind === 'collection'
                ? index.collectionPage(scope.collection, scope.tokenId, q)
                : index.ownerPage(scope.owner, scope.collection, scope.tokenId, q);
            return { rows: h.rows, total: page.countTotal ? String(h.total) : '0', through: h.through };
          })()
        : await readCounted(d.totals, served, {
            family: 'tokens',
            list: listId(scope),
            tip,
            page,
            fetch: (withTotal) => {
              served.engine();
              return listTokens(d.store, scope, order, windowOf(page), cursor, withTotal);
            },
            count: () => countTokens(d.store, scope),
            through: () => countTokensThrough(d.store, scope, order, page.reverse, cursor!),
          });
      const multi = scope.kind === 'owner';
      const { rows, pagination } = pageResult(
        page,
        got.rows,
        got.total,
        (t: TokenRow) => ({
          kind: 'token',
          height: Number(t.height),
          tokenId: t.token_id,
          collection: multi ? t.collection : null,
        }),
        true,
        got.through,
      );
      const snap = await held;
      if (snap) served.held(d.collections.name);
      else served.engine();
      const labels = snap?.byAddr ?? (await collectionLabels(d.store, [...new Set(rows.map((t) => t.collection))]));
      return { rows, pagination, labels };
    },
  };
}
