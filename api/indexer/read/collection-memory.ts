// Every NFT collection's summary, held in memory per indexed tip: the collection endpoints and the collection names
// of token rows read it instead of asking the engine per request (one statement per tip, shared by the requests of
// that tip). Collections are few next to tokens; past MAX_COLLECTIONS the list is not held and every request reads
// the engine (clickhouse/queries/collections.ts), so memory stays bounded (~300 bytes a collection).
import type { CollectionRow } from '../../../clickhouse/queries/collections.js';
import type { Held } from './held.js';

/** The most collections held (≈ 6 MB). */
export const MAX_COLLECTIONS = 20_000;

export interface CollectionSnapshot {
  /** Ordered by (height, collection) ascending, as the lists are. */
  ordered: readonly CollectionRow[];
  byAddr: ReadonlyMap<string, CollectionRow>;
}

export class CollectionMemory implements Held<CollectionSnapshot> {
  readonly name = 'collections';
  private rows = 0;
  private held: { tip: number; value: Promise<CollectionSnapshot | null> } | null = null;

  /**
   * `load(max)` returns every collection in list order, or null when there are more than `max`; `max` is
   * MAX_COLLECTIONS unless given (tests give 0 to serve every request from the engine).
   */
  constructor(
    private readonly load: (max: number) => Promise<CollectionRow[] | null>,
    private readonly max = MAX_COLLECTIONS,
  ) {}

  /** The snapshot at this tip (loaded once per tip), or null when there are too many collections to hold. */
  at(tip: number): Promise<CollectionSnapshot | null> {
    if (this.held?.tip === tip) return this.held.value;
    const value = (this.max > 0 ? this.load(this.max) : Promise.resolve(null)).then((rows) => {
      this.rows = rows?.length ?? 0;
      return rows === null ? null : { ordered: rows, byAddr: new Map(rows.map((r) => [r.collection, r])) };
    });
    const held = { tip, value };
    this.held = held;
    value.catch(() => {
      if (this.held === held) this.held = null;
    });
    return value;
  }

  /** Forget the snapshot (the index was rewound). */
  clear(): void {
    this.held = null;
    this.rows = 0;
  }

  /** About 300 bytes a collection (its row and its map entry). */
  bytes(): number {
    return this.rows * 300;
  }
}

/** Rows of an ordered list strictly after the cursor in the direction, or from the offset; `limit` rows at most. */
export function collectionPage(
  ordered: readonly CollectionRow[],
  desc: boolean,
  cursor: { height: number; collection: string } | null,
  offset: number,
  limit: number,
): { rows: CollectionRow[]; through: number | undefined } {
  const list = desc ? [...ordered].reverse() : ordered;
  if (!cursor) return { rows: list.slice(offset, offset + limit), through: undefined };
  const cmp = (r: CollectionRow) => {
    const h = Number(r.height);
    if (h !== cursor.height) return h < cursor.height ? -1 : 1;
    return r.collection < cursor.collection ? -1 : r.collection > cursor.collection ? 1 : 0;
  };
  // rows up to and including the cursor in the list's direction
  let through = 0;
  for (const r of list) if (desc ? cmp(r) >= 0 : cmp(r) <= 0) through++;
  return { rows: list.slice(through, through + limit), through };
}
