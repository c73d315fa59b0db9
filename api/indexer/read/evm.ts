// EVM receipts and internal txs (the /indexer/tx/v1/evm-txs and /evm-internal-txs families). Every page is one
// statement bounded by the tip, its total counted beside it once per list and tip (page.ts).
import type { Store } from '../../../clickhouse/client.js';
import {
  EVM_SEQ_PER_HEIGHT,
  evmTxByHash,
  evmTxExists,
  type EvmTxRow,
  type EvmTxScope,
  type InternalTxRow,
  type InternalTxScope,
  internalPosition,
  listEvmTxs,
  listInternalTxs,
} from '../../../clickhouse/queries/evm.js';
import type { Served } from '../../http/edge.js';
import { type PageRequest, type PaginationObject, pageResult } from './page.js';
import { type KeyedCache, listId } from './cache.js';
import { readCounted, windowOf } from './page.js';

export interface EvmReads {
  receipts(
    scope: EvmTxScope,
    page: PageRequest,
    served: Served,
  ): Promise<{ rows: EvmTxRow[]; pagination: PaginationObject }>;
  receipt(hash: string, served: Served): Promise<EvmTxRow | undefined>;
  internal(
    scope: InternalTxScope,
    page: PageRequest,
    served: Served,
  ): Promise<{ rows: InternalTxRow[]; pagination: PaginationObject }>;
  /** Whether an EVM tx of this hash is indexed. */
  exists(hash: string, served: Served): Promise<boolean>;
}

/** The shape both EVM list statements share: a page at a tip after a cursor (or from the offset), with its total. */
type ListAt<Scope, Row> = (
  store: Store,
  scope: Scope,
  w: ReturnType<typeof windowOf>,
  tip: number,
  cursor: number | null,
  withTotal: boolean,
) => Promise<{ rows: Row[]; total: string }>;

export function evmReads(d: { store: Store; tip(): Promise<number>; totals: KeyedCache<string> }): EvmReads {
  /** A page of one EVM list at the tip, its total counted once per list and tip (readCounted). */
  const readList = async <Scope, Row>(
    family: string,
    list: ListAt<Scope, Row>,
    scope: Scope,
    page: PageRequest,
    served: Served,
  ) => {
    const tip = await d.tip();
    const cursor = page.cursor?.kind === 'sequence' ? page.cursor.sequence : null;
    const w = windowOf(page);
    const got = await readCounted(d.totals, served, {
      family,
      list: listId(scope),
      tip,
      page,
      fetch: async (withTotal) => {
        served.engine();
        const r = await list(d.store, scope, w, tip, cursor, withTotal);
        return { rows: r.rows, total: withTotal ? r.total : null };
      },
      count: async () => (await list(d.store, scope, { ...w, limit: 1 }, tip, null, true)).total,
    });
    return { ...got, tip };
  };

  return {
    async receipts(scope, page, served) {
      const got = await readList('evm_txs', listEvmTxs, scope, page, served);
      return pageResult(page, got.rows, got.total, (t) => ({
        kind: 'sequence',
        sequence: Number(t.height) * EVM_SEQ_PER_HEIGHT + Number(t.tx_index),
      }));
    },

    async receipt(hash, served) {
      const tip = await d.tip();
      served.engine();
      return evmTxByHash(d.store, hash, tip);
    },

    async internal(scope, page, served) {
      const got = await readList('evm_internal_txs', listInternalTxs, scope, page, served);
      const { tip } = got;
      // The next cursor needs the last shown row's position in its block (one count, only when more follow).
      const shown = got.rows.slice(0, page.limit);
      const last = shown[shown.length - 1];
      const lastSeq =
        got.rows.length > page.limit && last
          ? Number(last.height) * EVM_SEQ_PER_HEIGHT + (await internalPosition(d.store, last, tip))
          : 0;
      return pageResult(page, got.rows, got.total, () => ({ kind: 'sequence', sequence: lastSeq }));
    },

    async exists(hash, served) {
      served.engine();
      return evmTxExists(d.store, hash, await d.tip());
    },
  };
}
