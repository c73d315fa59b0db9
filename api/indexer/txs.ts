// Tx endpoints (docs/indexer.md): /txs, /txs/by_account/{account}, /txs/by_height/{height}, /txs/{tx_hash}, and
// the NFT tx list, which has the same item and cursor. Items are the stored JSON documents, spliced into the
// response as text. Reads: api/indexer/read/txs.ts.
import type { Request, Response, Router } from 'express';
import type { TxList } from '../../clickhouse/queries/txs.js';
import { badRequest, notFound } from '../http/errors.js';
import type { Served } from '../http/edge.js';
import { handle, sendJson, str, type IndexerContext } from './context.js';
import { type PaginationObject, parsePage, type RawPageQuery } from './read/page.js';
import { parseAccount, parseBool, parseCollectionAddr, parseMsgs, parseTxHash, parseTxHeight } from './params.js';

function sendTxs(res: Response, docs: readonly string[], pagination: PaginationObject): void {
  sendJson(res, `{"txs":[${docs.join(',')}],"pagination":${JSON.stringify(pagination)}}`);
}

export function registerTxs(r: Router, ctx: IndexerContext): void {
  const list = async (req: Request, res: Response, served: Served, which: TxList, msgs: string[] | null) => {
    const page = parsePage(req.query as RawPageQuery, ['sequence']);
    const got = await ctx.read.txs.page(which, msgs, page, served);
    sendTxs(res, got.docs, got.pagination);
  };

  r.get(
    '/indexer/tx/v1/txs',
    handle((req, res, served) => list(req, res, served, { kind: 'all' }, parseMsgs(req.query.msgs))),
  );

  r.get(
    '/indexer/tx/v1/txs/by_account/:account',
    handle(async (req, res, served) => {
      const account = parseAccount(str(req.params.account), ctx.bech32Prefix);
      const isSigner = parseBool(req.query.is_signer, 'is_signer');
      await list(req, res, served, { kind: 'account', account, isSigner }, parseMsgs(req.query.msgs));
    }),
  );

  r.get(
    '/indexer/tx/v1/txs/by_height/:height',
    handle(async (req, res, served) => {
      const height = parseTxHeight(req.params.height);
      await list(req, res, served, { kind: 'height', height }, parseMsgs(req.query.msgs));
    }),
  );

  r.get(
    '/indexer/tx/v1/txs/:tx_hash',
    handle(async (req, res, served) => {
      const raw = str(req.params.tx_hash);
      // `/txs/by_account` or `/txs/by_height` without their value land here: say what is missing.
      if (raw === 'by_account' || raw === 'by_height')
        throw badRequest(
          `${raw === 'by_account' ? 'account' : 'height'} is missing: use /indexer/tx/v1/txs/${raw}/{${raw.slice(3)}}`,
        );
      const hash = parseTxHash(raw);
      // Hex of the wrong length cannot name a tx: not found, as upstream (no query needed).
      if (hash === null) throw notFound('[NOT_FOUND] transaction not found');
      const doc = await ctx.read.txs.byHash(hash, served);
      if (doc === undefined) throw notFound('[NOT_FOUND] transaction not found');
      sendJson(res, `{"tx":${doc}}`);
    }),
  );

  r.get(
    '/indexer/nft/v1/txs/:collection_addr/:token_id',
    handle(async (req, res, served) => {
      const collection = parseCollectionAddr(str(req.params.collection_addr), ctx.vm, ctx.bech32Prefix);
      const tokenId = str(req.params.token_id);
      // A missing or burned NFT has no txs to show (§7.3): the page's own statement checks (clickhouse/queries/txs.ts).
      await list(req, res, served, { kind: 'nft', collection, tokenId }, null);
    }),
  );
}
