// In-process LRU of answers that can no longer change. CometBFT has instant finality: below the indexed tip a tx
// by hash, a block by height, a page reached by a descending cursor below the tip, the txs of a height at or
// below the tip never change (only list totals do; they are kept apart, keyed by the tip). Entries are keyed by
// the full query and bounded by bytes; concurrent loads of one key share one engine call. A load that finds
// nothing (a 404) is never kept. This is not the upstream-style response cache (api/indexer/cache.ts): it
// applies with or without it, and keeps no answer that a new block could change.

export interface ImmutableCacheStats {
  entries: number;
  bytes: number;
  hits: number;
  misses: number;
}

/** Rough memory of a value: strings by length, arrays/objects by their JSON text. */
const sizeOf = (v: unknown): number => (typeof v === 'string' ? v.length : JSON.stringify(v).length) + 64;

export class ImmutableCache {
  private readonly map = new Map<string, { value: unknown; bytes: number }>();
  private readonly loading = new Map<string, Promise<unknown>>();
  private total = 0;
  private hits = 0;
  private misses = 0;

  /** maxBytes 0 turns the cache off (every call loads). */
  constructor(readonly maxBytes: number) {}

  get enabled(): boolean {
    return this.maxBytes > 0;
  }

  has(key: string): boolean {
    return this.map.has(key);
  }

  stats(): ImmutableCacheStats {
    return { entries: this.map.size, bytes: this.total, hits: this.hits, misses: this.misses };
  }

  clear(): void {
    this.map.clear();
    this.total = 0;
  }

  /** The value of `key` if kept (a hit moves it to the young end). */
  get<T>(key: string): T | undefined {
    if (!this.enabled) return undefined;
    const hit = this.map.get(key);
    if (!hit) {
      this.misses++;
      return undefined;
    }
    this.map.delete(key);
    this.map.set(key, hit);
    this.hits++;
    return hit.value as T;
  }

  /** Keep a value the caller knows to be final. */
  set(key: string, value: unknown): void {
    if (this.enabled) this.put(key, value);
  }

  /**
   * The value of `key`, loading it on a miss. `undefined` (not found) is returned and never stored; a value
   * bigger than 1/16 of the budget is returned and not stored either.
   */
  async through<T>(key: string, load: () => Promise<T | undefined>): Promise<T | undefined> {
    if (!this.enabled) return load();
    const hit = this.map.get(key);
    if (hit) {
      // LRU: a hit moves to the young end (Map keeps insertion order).
      this.map.delete(key);
      this.map.set(key, hit);
      this.hits++;
      return hit.value as T;
    }
    const pending = this.loading.get(key);
    if (pending) return pending as Promise<T | undefined>;
    this.misses++;
    const p = load().then((value) => {
      if (value !== undefined) this.put(key, value);
      return value;
    });
    this.loading.set(key, p);
    const done = () => this.loading.delete(key);
    p.then(done, done);
    return p;
  }

  private put(key: string, value: unknown): void {
    const bytes = sizeOf(value);
    if (bytes > this.maxBytes / 16) return;
    const old = this.map.get(key);
    if (old) {
      this.total -= old.bytes;
      this.map.delete(key);
    }
    this.map.set(key, { value, bytes });
    this.total += bytes;
    for (const [k, e] of this.map) {
      if (this.total <= this.maxBytes) break;
      this.map.delete(k);
      this.total -= e.bytes;
    }
  }
}
