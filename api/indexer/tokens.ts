// NFT token endpoints (docs/indexer.md): by account and by collection, ordered by (token_id, height) or
// (height, token_id) with a keyset cursor. Reads: api/indexer/read/tokens.ts.
import type { Request, Router } from 'express';
import type { TokenScope } from '../../clickhouse/queries/tokens.js';
import type { Served } from '../http/edge.js';
import { handle, str, type IndexerContext } from './context.js';
import { parsePage, type RawPageQuery } from './read/page.js';
import { parseAccount, parseCollectionAddr, parseOrderBy, rfc3339Micro } from './params.js';

/** An absent or empty filter (`token_id=`, `collection_addr=`) means no filter, as upstream. */
const filterValue = (v: unknown): string | null => (v === undefined || v === '' ? null : str(v));

export function registerTokens(r: Router, ctx: IndexerContext): void {
  const page = async (req: Request, served: Served, scope: TokenScope) => {
    const p = parsePage(req.query as RawPageQuery, ['token']);
    const got = await ctx.read.tokens.page(scope, parseOrderBy(req.query.order_by), p, served);
    // A token whose collection row is missing is still returned, with empty collection fields (§7.3).
    const tokens = got.rows.map((t) => ({
      collection_addr: t.collection,
      collection_name: got.labels.get(t.collection)?.name ?? '',
      collection_origin_name: got.labels.get(t.collection)?.origin_name ?? '',
      object_addr: t.object_addr,
      owner: t.owner,
      nft: { token_id: t.token_id, uri: t.uri },
      height: Number(t.height),
      timestamp: rfc3339Micro(t.time),
    }));
    return { tokens, pagination: got.pagination };
  };

  r.get(
    '/indexer/nft/v1/tokens/by_account/:account',
    handle(async (req, res, served) => {
      const owner = parseAccount(str(req.params.account), ctx.bech32Prefix);
      const wanted = filterValue(req.query.collection_addr);
      const collection = wanted === null ? null : parseCollectionAddr(wanted, ctx.vm, ctx.bech32Prefix);
      const tokenId = filterValue(req.query.token_id);
      res.json(await page(req, served, { kind: 'owner', owner, collection, tokenId }));
    }),
  );

  r.get(
    '/indexer/nft/v1/tokens/by_collection/:collection_addr',
    handle(async (req, res, served) => {
      const collection = parseCollectionAddr(str(req.params.collection_addr), ctx.vm, ctx.bech32Prefix);
      res.json(await page(req, served, { kind: 'collection', collection, tokenId: filterValue(req.query.token_id) }));
    }),
  );
}
