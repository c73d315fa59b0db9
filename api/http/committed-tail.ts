// The latest committed items of one list, as the ingest in this process handed them over (clickhouse/
// committed-items.ts), so a stream's tip advance takes its new items from memory instead of reading back what was
// just written (decision 020). Pure: no I/O.
// Invariant: the tail holds *every* item of the list with a position in (lo, hi], ascending, and nothing else. A
// read it cannot answer whole (a position at or below lo, or beyond hi) gets null, and the caller reads the engine.
// Ranges are added in commit order; one that does not continue the held range (a gap while no stream wanted the
// items, or a re-ingest from lower) replaces it.

interface Chunk<T> {
  /** Every item with lo < pos <= hi. */
  lo: number;
  hi: number;
  items: readonly T[];
  bytes: number;
}

export class CommittedTail<T> {
  private chunks: Chunk<T>[] = [];
  private held = 0;

  /**
   * `maxBytes` bounds what is held, the newest range included; older ranges go first, and the newest is always kept
   * (a tip advance reads at least it). `sizeOf` estimates an item's bytes.
   */
  constructor(
    private readonly maxBytes: number,
    private readonly posOf: (item: T) => number,
    private readonly sizeOf: (item: T) => number,
  ) {}

  /** Hold the items of positions (lo, hi]: every item of that range, ascending. */
  add(lo: number, hi: number, items: readonly T[]): void {
    if (this.chunks.at(-1)?.hi !== lo) this.clear();
    let bytes = 0;
    for (const i of items) bytes += this.sizeOf(i);
    this.chunks.push({ lo, hi, items, bytes });
    this.held += bytes;
    while (this.chunks.length > 1 && this.held > this.maxBytes) this.held -= this.chunks.shift()!.bytes;
  }

  /**
   * Items with `after < pos <= through`, ascending, at most `limit`; null unless the held range covers all of
   * (after, through].
   */
  slice(after: number, through: number, limit: number): T[] | null {
    const first = this.chunks[0];
    if (!first || after < first.lo || through > this.chunks.at(-1)!.hi) return null;
    const out: T[] = [];
    for (const c of this.chunks) {
      if (c.hi <= after) continue;
      if (c.lo >= through) break;
      for (const item of c.items) {
        const pos = this.posOf(item);
        if (pos <= after) continue;
        if (pos > through || out.length === limit) return out;
        out.push(item);
      }
    }
    return out;
  }

  /** Bytes held (estimated). */
  get bytes(): number {
    return this.held;
  }

  clear(): void {
    this.chunks = [];
    this.held = 0;
  }
}

/**
 * The filter keys of the latest committed batches, by height range (clickhouse/committed-items.ts `filterKeys`), so a
 * filtered list's tip advance can tell it has nothing new without a statement (decision 021).
 * Invariant: the ranges held are contiguous, and each range's keys include every key of a row committed in it. A
 * question about heights not held whole is answered "maybe".
 */
export class CommittedKeys {
  private chunks: { lo: number; hi: number; keys: ReadonlySet<string>; bytes: number }[] = [];
  private held = 0;

  /** `maxBytes` bounds the keys held (their characters), the newest range always kept. */
  constructor(private readonly maxBytes: number) {}

  /** Hold the keys of heights (lo, hi]. A range that does not continue the held one replaces it. */
  add(lo: number, hi: number, keys: readonly string[]): void {
    if (this.chunks.at(-1)?.hi !== lo) this.clear();
    let bytes = 0;
    for (const k of keys) bytes += k.length;
    this.chunks.push({ lo, hi, keys: new Set(keys), bytes });
    this.held += bytes;
    while (this.chunks.length > 1 && this.held > this.maxBytes) this.held -= this.chunks.shift()!.bytes;
  }

  /**
   * false only when every height of (lo, hi] is held and no held range overlapping it passes `holds`: then no row
   * of those heights has the keys `holds` looks for. true otherwise (a height not held, or a range that may).
   */
  mayHold(lo: number, hi: number, holds: (keys: ReadonlySet<string>) => boolean): boolean {
    const first = this.chunks[0];
    if (!first || lo < first.lo || hi > this.chunks.at(-1)!.hi) return true;
    for (const c of this.chunks) {
      if (c.hi <= lo) continue;
      if (c.lo >= hi) break;
      if (holds(c.keys)) return true;
    }
    return false;
  }

  /** Characters of the keys held. */
  get bytes(): number {
    return this.held;
  }

  clear(): void {
    this.chunks = [];
    this.held = 0;
  }
}
