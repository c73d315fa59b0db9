// Tx endpoints (docs/indexer.md): /txs, /txs/by_account/{account}, /txs/by_height/{height},
// /txs/{tx_hash}, and the NFT tx list, which has the same item and cursor. Items are the stored JSON
// documents, spliced into the response as text.
import type { Request, Response, Router } from 'express';
import { badRequest, notFound } from '../http/errors.js';
import { listTxDocs, sequenceAbove, txDocByHash, type TxList } from '../../clickhouse/queries/txs.js';
import { tokenExists } from '../../clickhouse/queries/tokens.js';
import { handle, sendJson, str, type IndexerContext } from './context.js';
import { pageResult, parsePage, type PaginationObject, type RawPageQuery } from './pagination.js';
import {
  MAX_HEIGHT,
  parseAccount,
  parseBool,
  parseCollectionAddr,
  parseMsgs,
  parseTxHash,
  parseTxHeight,
} from './params.js';

const emptyPage = (): PaginationObject => ({ previous_key: null, next_key: null, total: '0' });

function sendTxs(res: Response, docs: readonly string[], pagination: PaginationObject): void {
  sendJson(res, `{"txs":[${docs.join(',')}],"pagination":${JSON.stringify(pagination)}}`);
}

async function txPage(
  ctx: IndexerContext,
  req: Request,
  res: Response,
  list: TxList,
  msgs: string[] | null,
): Promise<void> {
  const page = parsePage(req.query as RawPageQuery, ['sequence']);
  const tip = await ctx.tip();
  const cursor = page.cursor?.kind === 'sequence' ? page.cursor.sequence : null;
  const { docs, total } = await listTxDocs(
    ctx.store,
    list,
    { desc: page.reverse, limit: page.limit + 1, offset: page.offset },
    { msgs, maxSequence: sequenceAbove(tip), cursor },
    page.countTotal,
  );
  const { rows, pagination } = pageResult(page, docs, total, (d) => ({
    kind: 'sequence',
    sequence: Number(d.sequence),
  }));
  sendTxs(
    res,
    rows.map((d) => d.json),
    pagination,
  );
}

export function registerTxs(r: Router, ctx: IndexerContext): void {
  r.get(
    '/indexer/tx/v1/txs',
    handle(async (req, res) => txPage(ctx, req, res, { kind: 'all' }, parseMsgs(req.query.msgs))),
  );

  r.get(
    '/indexer/tx/v1/txs/by_account/:account',
    handle(async (req, res) => {
      const account = parseAccount(str(req.params.account), ctx.bech32Prefix);
      const isSigner = parseBool(req.query.is_signer, 'is_signer');
      await txPage(ctx, req, res, { kind: 'account', account, isSigner }, parseMsgs(req.query.msgs));
    }),
  );

  r.get(
    '/indexer/tx/v1/txs/by_height/:height',
    handle(async (req, res) => {
      const height = parseTxHeight(req.params.height);
      const msgs = parseMsgs(req.query.msgs);
      // Above the indexed tip nothing can exist (and no query is needed).
      if (height > MAX_HEIGHT || height > (await ctx.tip())) {
        parsePage(req.query as RawPageQuery, ['sequence']); // still validate the pagination values
        return sendTxs(res, [], emptyPage());
      }
      await txPage(ctx, req, res, { kind: 'height', height }, msgs);
    }),
  );

  r.get(
    '/indexer/tx/v1/txs/:tx_hash',
    handle(async (req, res) => {
      const raw = str(req.params.tx_hash);
      // `/txs/by_account` or `/txs/by_height` without their value land here: say what is missing.
      if (raw === 'by_account' || raw === 'by_height')
        throw badRequest(
          `${raw === 'by_account' ? 'account' : 'height'} is missing: use /indexer/tx/v1/txs/${raw}/{${raw.slice(3)}}`,
        );
      const hash = parseTxHash(raw);
      // Hex of the wrong length cannot name a tx: not found, as upstream (no query needed).
      if (hash === null) throw notFound('[NOT_FOUND] transaction not found');
      const tip = await ctx.tip();
      const doc = await txDocByHash(ctx.store, hash, sequenceAbove(tip));
      if (doc === undefined) throw notFound('[NOT_FOUND] transaction not found');
      sendJson(res, `{"tx":${doc}}`);
    }),
  );

  r.get(
    '/indexer/nft/v1/txs/:collection_addr/:token_id',
    handle(async (req, res) => {
      const collection = parseCollectionAddr(str(req.params.collection_addr), ctx.vm, ctx.bech32Prefix);
      const tokenId = str(req.params.token_id);
      // A missing or burned NFT has no txs to show (§7.3).
      if (!(await tokenExists(ctx.store, collection, tokenId))) {
        parsePage(req.query as RawPageQuery, ['sequence']);
        return sendTxs(res, [], emptyPage());
      }
      await txPage(ctx, req, res, { kind: 'nft', collection, tokenId }, null);
    }),
  );
}
