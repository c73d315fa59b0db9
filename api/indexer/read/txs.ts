// Tx lists and txs by hash (the /indexer/tx/v1/txs family and the NFT tx list). CometBFT finality is instant, so
// below the tip a tx's document, a tx by hash, every page of one height and a descending page after a cursor are
// final and kept in the `final` cache; a list's total is kept per tip (page.ts). Statement choice: a list first
// asked at this tip, or a page after a new cursor, picks and reads its documents in one statement (`pickTxDocs`);
// a page seen before takes the picker alone (`pickTxPage`) and its documents from the cache; a total alone is
// `countTxs`. A second statement of one request is a follow-up (clickhouse/client.ts `ReadOptions.followUp`).
import type { Store } from '../../../clickhouse/client.js';
import {
  countTxs,
  nftTxSequences,
  pickTxDocs,
  pickTxPage,
  sequenceAbove,
  txDocByHash,
  txDocsBySequence,
  type TxList,
} from '../../../clickhouse/queries/txs.js';
import type { Served } from '../../http/edge.js';
import { type PageRequest, type PaginationObject, pageResult } from './page.js';
import { type KeyedCache, keys, listId } from './cache.js';
import { heldAt } from './held.js';
import { readCounted, windowOf } from './page.js';
import type { TokenMemory } from './token-memory.js';

/** The most txs of one NFT kept as a whole history (longer ones are paged by the engine). */
const MAX_HELD_HISTORY = 1000;

export interface TxPage {
  /** The stored JSON documents, in the page's order (spliced into the response as text). */
  docs: string[];
  pagination: PaginationObject;
}

export interface TxReads {
  page(list: TxList, msgs: string[] | null, page: PageRequest, served: Served): Promise<TxPage>;
  /** A tx's document by uppercase hex hash, below the tip; undefined when not found. */
  byHash(hash: string, served: Served): Promise<string | undefined>;
}

export interface TxReadDeps {
  store: Store;
  tip(): Promise<number>;
  final: KeyedCache<unknown>;
  totals: KeyedCache<string>;
  tokens: TokenMemory;
}

const emptyPage = (): TxPage => ({ docs: [], pagination: { previous_key: null, next_key: null, total: '0' } });

/** A page of an ascending list of sequences: after the cursor in the direction, or from the offset. */
function sliceSequences(
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

export function txReads(d: TxReadDeps): TxReads {
  /**
   * The documents of picked sequences (all below the tip, so final): from the cache, the rest in one engine call
   * (`followUp`: the request has had one already). Returned in the page's order.
   */
  const docsOf = async (sequences: readonly string[], followUp: boolean, served: Served) => {
    const found = new Map<string, string>();
    const missing: string[] = [];
    for (const q of sequences) {
      const doc = d.final.get(keys.txDoc(q), served) as string | undefined;
      if (doc === undefined) missing.push(q);
      else found.set(q, doc);
    }
    if (missing.length > 0) {
      served.engine();
      for (const [q, json] of await txDocsBySequence(d.store, missing, followUp)) {
        found.set(q, json);
        d.final.set(keys.txDoc(q), json);
      }
    }
    return sequences.flatMap((q) => {
      const json = found.get(q);
      return json === undefined ? [] : [{ sequence: q, json }];
    });
  };

  /**
   * An NFT's whole tx history (ascending sequences) when its current state is held: [] for a burned or unknown
   * token (no statement); else the history read once per token event, since it changes only with the token's
   * own events (keyed by the height of its latest one). undefined: page it on the engine.
   */
  const nftHistory = async (nft: { collection: string; tokenId: string }, tip: number, served: Served) => {
    const index = await heldAt(d.tokens, tip, served);
    if (!index) return undefined;
    const token = index.get(nft.collection, nft.tokenId);
    if (!token) return [];
    const height = Number(token.height);
    if (height > tip) return undefined; // written above the tip: the engine path bounds it by the tip
    // Up to the token's latest event, which the held state puts at or below the tip: rows of a batch written above
    // the tip (before its checkpoint) are left out, and what is kept under the key depends on the key alone. null
    // (too long to hold) is kept too: the engine pages it.
    const history = (await d.final.through(
      keys.nftHistory(nft.collection, nft.tokenId, height),
      (load) => {
        load.engine();
        return nftTxSequences(d.store, nft.collection, nft.tokenId, MAX_HELD_HISTORY, sequenceAbove(height));
      },
      served,
    )) as string[] | null | undefined;
    return history ?? undefined;
  };

  return {
    async page(list, msgs, page, served) {
      const tip = await d.tip();
      if (list.kind === 'height' && list.height > tip) return emptyPage(); // nothing exists above the tip
      const cursor = page.cursor?.kind === 'sequence' ? page.cursor.sequence : null;
      const maxSequence = sequenceAbove(tip);
      const scope = { msgs, maxSequence, cursor };
      const w = windowOf(page);
      // A page no new block can change: every page of one height at or below the tip, or a descending page after
      // a cursor at or below the tip; its sequences are kept. An NFT's page is never final (the token may be
      // burned later, and then it has no txs to show); its whole history is kept instead while the token is held.
      const final =
        list.kind === 'height' ||
        (list.kind !== 'nft' && cursor !== null && page.reverse && BigInt(cursor) <= maxSequence);
      const id = listId([list, msgs]);
      const pageKey = keys.txPage(id, page.reverse, w.limit, w.offset, cursor);
      const history = list.kind === 'nft' ? await nftHistory(list, tip, served) : undefined;
      let docs: { sequence: string; json: string }[] | undefined;
      let sequences: string[];
      let total: string;
      let engaged = false; // a statement of this request has run: its documents' read is a follow-up
      if (history !== undefined) {
        sequences = sliceSequences(history, w, cursor);
        total = page.countTotal ? String(history.length) : '0';
      } else {
        const kept = final ? (d.final.get(pageKey, served) as string[] | undefined) : undefined;
        const got = await readCounted(d.totals, served, {
          family: 'txs',
          list: id,
          tip: list.kind === 'height' ? null : tip,
          page,
          fetch: async (withTotal) => {
            if (kept !== undefined) return { rows: kept, total: null };
            served.engine();
            if (withTotal || cursor !== null) {
              // A list first asked at this tip, or a page after a cursor not seen before: its documents are
              // unlikely to be cached, so one statement picks and reads them.
              const picked = await pickTxDocs(d.store, list, w, scope, withTotal);
              docs = picked.docs;
              for (const doc of docs) d.final.set(keys.txDoc(doc.sequence), doc.json);
              const rows = docs.map((doc) => doc.sequence);
              if (final) d.final.set(pageKey, rows);
              return { rows, total: withTotal ? picked.total : null };
            }
            // the total is kept: the picker alone
            const picked = await pickTxPage(d.store, list, w, scope, false);
            engaged = true;
            if (final) d.final.set(pageKey, picked.sequences);
            return { rows: picked.sequences, total: null };
          },
          count: async () => {
            served.engine();
            engaged = true;
            return countTxs(d.store, list, scope);
          },
        });
        sequences = got.rows;
        total = got.total;
      }
      docs ??= await docsOf(sequences, engaged, served);
      const { rows, pagination } = pageResult(page, docs, total, (doc) => ({
        kind: 'sequence',
        sequence: Number(doc.sequence),
      }));
      return { docs: rows.map((doc) => doc.json), pagination };
    },

    async byHash(hash, served) {
      const tip = await d.tip();
      // A tx found below the tip is final (instant finality); a miss is never kept.
      let ran = false;
      const read = async () =>
        (await d.final.through(
          keys.txByHash(hash),
          (load) => {
            ran = true;
            load.engine();
            return txDocByHash(d.store, hash, sequenceAbove(tip));
          },
          served,
        )) as string | undefined;
      const got = await read();
      // A miss of a load another request began, at its own tip (maybe lower), says nothing at this one: once more.
      return got === undefined && !ran ? await read() : got;
    },
  };
}
