// Tx endpoints (docs/indexer.md): /txs, /txs/by_account/{account}, /txs/by_height/{height},
// /txs/{tx_hash}, and the NFT tx list, which has the same item and cursor. Items are the stored JSON
// documents, spliced into the response as text.
import type { Request, Response, Router } from 'express';
import { badRequest, notFound } from '../http/errors.js';
import {
  countTxs,
  nftTxSequences,
  pickTxDocs,
  pickTxPage,
  sequenceAbove,
  txDocByHash,
  txDocsBySequence,
  type TxList,
} from '../../clickhouse/queries/txs.js';
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

/**
 * The documents of picked sequences (all below the tip, so final): from the immutable cache, the rest in one
 * engine call (`followUp`: the request has had one already). Returned in the page's order.
 */
async function docsOf(
  ctx: IndexerContext,
  sequences: readonly string[],
  followUp: boolean,
): Promise<{ sequence: string; json: string }[]> {
  const found = new Map<string, string>();
  const missing: string[] = [];
  for (const q of sequences) {
    const doc = ctx.immutable.get<string>(`doc|${q}`);
    if (doc === undefined) missing.push(q);
    else found.set(q, doc);
  }
  if (missing.length > 0)
    for (const [q, json] of await txDocsBySequence(ctx.store, missing, followUp)) {
      found.set(q, json);
      ctx.immutable.set(`doc|${q}`, json);
    }
  return sequences.flatMap((q) => {
    const json = found.get(q);
    return json === undefined ? [] : [{ sequence: q, json }];
  });
}

/** The most txs of one NFT kept as a whole history (longer ones are paged by the engine). */
const MAX_HELD_HISTORY = 1000;

/**
 * An NFT's whole tx history (ascending sequences) when its current state is held in memory: [] for a burned or
 * unknown token (no statement); else the history read once per token event, since it changes only with the
 * token's own events (keyed by the height of its latest one). undefined: page it on the engine.
 */
async function heldNftHistory(
  ctx: IndexerContext,
  nft: { collection: string; tokenId: string },
  tip: number,
): Promise<string[] | undefined> {
  const index = await ctx.tokens.at(tip);
  if (!index) return undefined;
  const token = index.get(nft.collection, nft.tokenId);
  if (!token) return [];
  const height = Number(token.height);
  if (height > tip) return undefined; // written above the tip: the engine path bounds it by the tip
  const key = `nfttxs|${nft.collection}|${nft.tokenId}|${height}`;
  const kept = ctx.immutable.get<string[] | null>(key);
  if (kept !== undefined) return kept ?? undefined;
  const history = await nftTxSequences(ctx.store, nft.collection, nft.tokenId, MAX_HELD_HISTORY);
  ctx.immutable.set(key, history);
  return history ?? undefined;
}

/** A page of an ascending list of sequences: after the cursor in the direction, or from the offset. */
export function sliceSequences(
  ascending: readonly string[],
  w: { desc: boolean; limit: number; offset: number },
  cursor: number | null,
): string[] {
  const list = w.desc ? [...ascending].reverse() : ascending;
  if (cursor === null) return list.slice(w.offset, w.offset + w.limit);
  const c = BigInt(cursor);
  const start = list.findIndex((q) => (w.desc ? BigInt(q) < c : BigInt(q) > c));
  return start === -1 ? [] : list.slice(start, start + w.limit);
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
  const maxSequence = sequenceAbove(tip);
  const scope = { msgs, maxSequence, cursor };
  const w = { desc: page.reverse, limit: page.limit + 1, offset: page.offset };
  // A page that no new block can change: every page of one height at or below the tip (the caller checked),
  // or a descending page after a cursor at or below the tip. Its sequences are kept by the full query.
  // An NFT's page is never final: the token may be burned later, and then it has no txs to show (its whole
  // history is kept instead, keyed by the token's latest event, while the token state is held: heldNftHistory).
  const final =
    list.kind === 'height' || (list.kind !== 'nft' && cursor !== null && page.reverse && BigInt(cursor) <= maxSequence);
  // Totals are kept apart, keyed by the list and the tip (a height's total is final): the first page asked at a
  // tip pays for it (free when that page ends the list, else one count), the others reuse it.
  const listKey = JSON.stringify([list, msgs]);
  const totalKey = list.kind === 'height' ? `txs|${listKey}` : `txs|${listKey}|${tip}`;
  let total = page.countTotal ? ctx.totals.get<string>(totalKey) : '0';
  const needTotal = total === undefined;
  const pageKey = `txpage|${listKey}|${page.reverse}|${w.limit}|${w.offset}|${cursor}`;
  let sequences = final ? ctx.immutable.get<string[]>(pageKey) : undefined;
  const history = list.kind === 'nft' ? await heldNftHistory(ctx, list, tip) : undefined;
  let docs: { sequence: string; json: string }[] | undefined;
  let engaged = false; // a statement of this request has run: its documents' read is a follow-up
  if (history !== undefined) {
    sequences = sliceSequences(history, w, cursor);
    total = page.countTotal ? String(history.length) : '0';
  } else if (sequences === undefined && (needTotal || cursor !== null)) {
    // A list first asked at this tip, or a page after a cursor not seen before: its documents are unlikely to be
    // cached, so one statement picks and reads them. (A first page asked again at the same tip takes the picker
    // alone and its documents from the cache.)
    const got = await pickTxDocs(ctx.store, list, w, scope, needTotal);
    docs = got.docs;
    sequences = docs.map((d) => d.sequence);
    if (needTotal) total = got.total;
    for (const d of docs) ctx.immutable.set(`doc|${d.sequence}`, d.json);
    if (final) ctx.immutable.set(pageKey, sequences);
  } else if (sequences === undefined) {
    // the total is kept (needTotal is false here): the picker alone
    const got = await pickTxPage(ctx.store, list, w, scope, false);
    engaged = true;
    sequences = got.sequences;
    if (final) ctx.immutable.set(pageKey, sequences);
  } else if (needTotal) {
    total = await countTxs(ctx.store, list, scope);
    engaged = true;
  }
  if (needTotal && total !== undefined) ctx.totals.set(totalKey, total);
  docs ??= await docsOf(ctx, sequences, engaged);
  const { rows, pagination } = pageResult(page, docs, total ?? '0', (d) => ({
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
      // A tx found below the tip is final (instant finality); a miss is never kept.
      const doc = await ctx.immutable.through(`tx|${hash}`, () => txDocByHash(ctx.store, hash, sequenceAbove(tip)));
      if (doc === undefined) throw notFound('[NOT_FOUND] transaction not found');
      sendJson(res, `{"tx":${doc}}`);
    }),
  );

  r.get(
    '/indexer/nft/v1/txs/:collection_addr/:token_id',
    handle(async (req, res) => {
      const collection = parseCollectionAddr(str(req.params.collection_addr), ctx.vm, ctx.bech32Prefix);
      const tokenId = str(req.params.token_id);
      // A missing or burned NFT has no txs to show (§7.3): the page's own statement checks (clickhouse/queries/txs.ts).
      await txPage(ctx, req, res, { kind: 'nft', collection, tokenId }, null);
    }),
  );
}
