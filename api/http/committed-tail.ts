// What the ingest in this process handed over with its latest commits (clickhouse/committed-items.ts), so a stream's
// tip advance answers from memory instead of reading back what was just written. Pure: no I/O.
// - `CommittedTail`: one list's items (decision 020);
// - `CommittedKeys`: the batches' filter keys, for the filtered lists (decision 021).
// Both hold a contiguous run of ranges of positions (`HeldRanges`), added in commit order; a range that does not
// continue the held run (a gap while no stream wanted it, or a re-ingest from lower) replaces it. A question about
// positions not held whole gets no answer, and the caller reads the engine.

/**
 * What a held range costs beside its value's bytes, counted against the bound: about its record and an empty value
 * (array or set) on the heap. A quiet chain hands over one empty range a block at the head, and those must be
 * bounded too, not only the ranges that carry items.
 */
export const RANGE_BYTES = 256;

/**
 * A contiguous run of ranges (lo, hi], each with its value and size, bounded in bytes (each range's value plus
 * RANGE_BYTES): older ranges go first, and the newest is always kept (a tip advance asks at least about it).
 */
class HeldRanges<V> {
  private chunks: { lo: number; hi: number; value: V; bytes: number }[] = [];
  private held = 0;

  constructor(private readonly maxBytes: number) {}

  /** Hold `value` for (lo, hi]. A range that does not continue the held run replaces it. */
  add(lo: number, hi: number, value: V, bytes: number): void {
    if (this.chunks.at(-1)?.hi !== lo) this.clear();
    this.chunks.push({ lo, hi, value, bytes: bytes + RANGE_BYTES });
    this.held += bytes + RANGE_BYTES;
    while (this.chunks.length > 1 && this.held > this.maxBytes) this.held -= this.chunks.shift()!.bytes;
  }

  /** The values of the held ranges overlapping (lo, hi], oldest first; null unless every position of it is held. */
  overlapping(lo: number, hi: number): V[] | null {
    const first = this.chunks[0];
    if (!first || lo < first.lo || hi > this.chunks.at(-1)!.hi) return null;
    // The first range ending above `lo` (the run is contiguous and ascending): a tip advance asks about the newest
    // few ranges, so it must not walk every range held.
    let a = 0;
    let b = this.chunks.length - 1;
    while (a < b) {
      const m = (a + b) >> 1;
      if (this.chunks[m]!.hi <= lo) a = m + 1;
      else b = m;
    }
    const out: V[] = [];
    for (let i = a; i < this.chunks.length; i++) {
      const c = this.chunks[i]!;
      if (c.lo >= hi) break;
      out.push(c.value);
    }
    return out;
  }

  get bytes(): number {
    return this.held;
  }

  clear(): void {
    this.chunks = [];
    this.held = 0;
  }
}

/**
 * One list's latest committed items. Invariant: it holds *every* item of the list with a position in the held run,
 * ascending, and nothing else.
 */
export class CommittedTail<T> {
  private readonly ranges: HeldRanges<readonly T[]>;

  /** `maxBytes` bounds what is held, the newest range always kept. `sizeOf` estimates an item's bytes. */
  constructor(
    maxBytes: number,
    private readonly posOf: (item: T) => number,
    private readonly sizeOf: (item: T) => number,
  ) {
    this.ranges = new HeldRanges(maxBytes);
  }

  /** Hold the items of positions (lo, hi]: every item of that range, ascending. */
  add(lo: number, hi: number, items: readonly T[]): void {
    let bytes = 0;
    for (const i of items) bytes += this.sizeOf(i);
    this.ranges.add(lo, hi, items, bytes);
  }

  /**
   * Items with `after < pos <= through`, ascending, at most `limit`; null unless the held run covers all of
   * (after, through].
   */
  slice(after: number, through: number, limit: number): T[] | null {
    const held = this.ranges.overlapping(after, through);
    if (!held) return null;
    const out: T[] = [];
    for (const items of held)
      for (const item of items) {
        const pos = this.posOf(item);
        if (pos <= after) continue;
        if (pos > through || out.length === limit) return out;
        out.push(item);
      }
    return out;
  }

  /** Bytes held (estimated). */
  get bytes(): number {
    return this.ranges.bytes;
  }

  clear(): void {
    this.ranges.clear();
  }
}

/**
 * The filter keys of the latest committed batches, by height range (clickhouse/committed-items.ts `filterKeys`), so a
 * filtered list's tip advance can tell it has nothing new without a statement. Invariant: each range's keys include
 * every key of a row committed in it.
 */
export class CommittedKeys {
  private readonly ranges: HeldRanges<ReadonlySet<string>>;

  /** `maxBytes` bounds the keys held (their characters), the newest range always kept. */
  constructor(maxBytes: number) {
    this.ranges = new HeldRanges(maxBytes);
  }

  /** Hold the keys of heights (lo, hi]. */
  add(lo: number, hi: number, keys: ReadonlySet<string>): void {
    let bytes = 0;
    for (const k of keys) bytes += k.length;
    this.ranges.add(lo, hi, keys, bytes);
  }

  /**
   * false only when every height of (lo, hi] is held and no held range overlapping it passes `holds`: then no row
   * of those heights has the keys `holds` looks for. true otherwise (a height not held, or a range that may).
   */
  mayHold(lo: number, hi: number, holds: (keys: ReadonlySet<string>) => boolean): boolean {
    return this.ranges.overlapping(lo, hi)?.some(holds) ?? true;
  }

  /** Characters of the keys held. */
  get bytes(): number {
    return this.ranges.bytes;
  }

  clear(): void {
    this.ranges.clear();
  }
}
