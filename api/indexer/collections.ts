// NFT collection endpoints (docs/indexer.md). Lists are ordered by (height, object_addr) and continue with a keyset
// cursor; an explicit offset is still honoured. Reads: api/indexer/read/collections.ts.
import type { Router } from 'express';
import type { CollectionRow } from '../../clickhouse/queries/collections.js';
import { badRequest, notFound } from '../http/errors.js';
import { handle, str, type IndexerContext } from './context.js';
import { parsePage, type RawPageQuery } from './read/page.js';
import { parseAccount, parseCollectionAddr, rfc3339Micro } from './params.js';
import { normaliseName } from './read/collections.js';

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

export function registerCollections(r: Router, ctx: IndexerContext): void {
  r.get(
    '/indexer/nft/v1/collections',
    handle(async (req, res, served) => {
      const page = parsePage(req.query as RawPageQuery, ['collection']);
      const got = await ctx.read.collections.page({ kind: 'all' }, page, served);
      res.json({ collections: got.rows.map(renderCollection), pagination: got.pagination });
    }),
  );

  r.get(
    '/indexer/nft/v1/collections/by_account/:account',
    handle(async (req, res, served) => {
      const owner = parseAccount(str(req.params.account), ctx.bech32Prefix);
      const page = parsePage(req.query as RawPageQuery, ['collection']);
      const got = await ctx.read.collections.page({ kind: 'owner', owner }, page, served);
      res.json({ collections: got.rows.map(renderCollection), pagination: got.pagination });
    }),
  );

  r.get(
    '/indexer/nft/v1/collections/by_name/:name',
    handle(async (req, res, served) => {
      const page = parsePage(req.query as RawPageQuery, ['collection']);
      const got = await ctx.read.collections.byName(normaliseName(str(req.params.name)), page, served);
      res.json({ collections: got.rows.map(renderCollection), pagination: got.pagination });
    }),
  );

  r.get(
    '/indexer/nft/v1/collections/:collection_addr',
    handle(async (req, res, served) => {
      const raw = str(req.params.collection_addr);
      if (raw === 'by_account' || raw === 'by_name')
        throw badRequest(
          `${raw === 'by_account' ? 'account' : 'name'} is missing: use /indexer/nft/v1/collections/${raw}/{${raw.slice(3)}}`,
        );
      const addr = parseCollectionAddr(raw, ctx.vm, ctx.bech32Prefix);
      const [c] = await ctx.read.collections.byAddrs([addr], served);
      if (!c) throw notFound('nft collection not found');
      res.json({ collection: renderCollection(c) });
    }),
  );
}
