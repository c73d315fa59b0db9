// The one cache type of the read model. A KeyedCache keeps values under typed keys (read/keys.ts), bounded by
// bytes or entries, least recently used out first, with an optional time to live (per cache or per entry).
// Concurrent loads of one key share one call; a load that finds nothing (undefined) or fails is never kept.
// Every cache reports hits, misses, evictions and bytes by name at /metrics (platform/metrics.ts), and marks
// the request's `Served` tracker (api/http/served.ts) with `memo` on a hit.
import { reportCaches, type CacheReport } from '../../../platform/metrics.js';
import { Served } from '../../http/edge.js';

/** A cache key: only the builders of read/keys.ts make them, so two caches never spell one key two ways. */
export type CacheKey = string & { readonly __cacheKey: unique symbol };

/** Makes a cache the read model owns (it clears every cache it made on a rewind: read/model.ts). */
export type CacheFactory = <V>(opts: KeyedCacheOptions<V>) => KeyedCache<V>;

export interface KeyedCacheOptions<V> {
  /** The metric label, e.g. `final`, `totals`, `response`. */
  name: string;
  /** Bound on the summed sizes (`sizeOf`); 0 turns the cache off (every call loads). */
  maxBytes?: number;
  /** Bound on the number of entries; 0 turns the cache off. */
  maxEntries?: number;
  /** Time to live, for every entry or by value; none = until evicted or cleared. */
  ttlMs?: number | ((value: V) => number);
  /**
   * Which entry goes first when over a bound: the least recently used (default), or the oldest written
   * (`insertion`: a hit does not reorder, for a cache whose entries expire within seconds anyway).
   */
  order?: 'lru' | 'insertion';
  /** Size of a value in bytes; default: a string's length, else its JSON's, plus 64. A value over 1/16 of maxBytes is not kept. */
  sizeOf?: (value: V) => number;
}

interface Entry<V> {
  value: V;
  bytes: number;
  expires: number;
}

/** What an entry costs beside its value and key (its record and its slot in the map), in bytes. */
const ENTRY_BYTES = 48;

const defaultSize = (v: unknown): number => (typeof v === 'string' ? v.length : JSON.stringify(v).length) + 64;

/** Every live cache, for the metrics (weak: an app that is dropped takes its caches with it). */
const live = new Set<WeakRef<KeyedCache<unknown>>>();
/** Every held state (read/held.ts), reported by bytes under `held:<name>`. */
const liveHeld = new Set<WeakRef<{ name: string; bytes(): number }>>();

/** Report a held state's bytes at /metrics beside the caches. */
export function reportHeld(held: { name: string; bytes(): number }): void {
  liveHeld.add(new WeakRef(held));
}

reportCaches(() => {
  const byName = new Map<string, CacheReport>();
  for (const ref of liveHeld) {
    const h = ref.deref();
    if (!h) {
      liveHeld.delete(ref);
      continue;
    }
    const name = `held:${h.name}`;
    const r = byName.get(name) ?? { name, hits: 0, misses: 0, evictions: 0, entries: 0, bytes: 0 };
    r.bytes += h.bytes();
    byName.set(name, r);
  }
  for (const ref of live) {
    const c = ref.deref();
    if (!c) {
      live.delete(ref);
      continue;
    }
    const s = c.stats();
    const r = byName.get(c.name) ?? { name: c.name, hits: 0, misses: 0, evictions: 0, entries: 0, bytes: 0 };
    r.hits += s.hits;
    r.misses += s.misses;
    r.evictions += s.evictions;
    r.entries += s.entries;
    r.bytes += s.bytes;
    byName.set(c.name, r);
  }
  return [...byName.values()];
});

export class KeyedCache<V> {
  readonly name: string;
  readonly maxBytes: number;
  readonly maxEntries: number;
  private readonly ttlMs: number | ((value: V) => number) | undefined;
  private readonly sizeOf: (value: V) => number;
  private readonly touch: boolean;
  private readonly map = new Map<CacheKey, Entry<V>>();
  private readonly loading = new Map<CacheKey, { p: Promise<V | undefined>; witness: Served }>();
  private total = 0;
  /** Counts clear() calls: a load stores its value only if none came while it ran. */
  private generation = 0;
  private hits = 0;
  private misses = 0;
  private evictions = 0;

  constructor(opts: KeyedCacheOptions<V>) {
    this.name = opts.name;
    this.maxBytes = opts.maxBytes ?? Number.POSITIVE_INFINITY;
    this.maxEntries = opts.maxEntries ?? Number.POSITIVE_INFINITY;
    this.ttlMs = opts.ttlMs;
    this.sizeOf = opts.sizeOf ?? defaultSize;
    this.touch = opts.order !== 'insertion';
    live.add(new WeakRef(this as KeyedCache<unknown>));
  }

  get enabled(): boolean {
    return this.maxBytes > 0 && this.maxEntries > 0;
  }

  has(key: CacheKey): boolean {
    const e = this.map.get(key);
    return e !== undefined && e.expires > Date.now();
  }

  bytes(): number {
    return this.total;
  }

  stats(): { entries: number; bytes: number; hits: number; misses: number; evictions: number } {
    return {
      entries: this.map.size,
      bytes: this.total,
      hits: this.hits,
      misses: this.misses,
      evictions: this.evictions,
    };
  }

  /**
   * Forget every value, and every load under way: a load that began before (a read at the tip a rewind took back)
   * neither stores its value nor is joined by a later request.
   */
  clear(): void {
    this.map.clear();
    this.total = 0;
    this.loading.clear();
    this.generation++;
  }

  /** The value kept under `key` (a hit becomes the youngest entry and marks `served` as `memo`). */
  get(key: CacheKey, served?: Served): V | undefined {
    if (!this.enabled) return undefined;
    const hit = this.map.get(key);
    if (hit === undefined || hit.expires <= Date.now()) {
      if (hit !== undefined) this.drop(key, hit);
      this.misses++;
      return undefined;
    }
    if (this.touch) {
      this.map.delete(key);
      this.map.set(key, hit);
    }
    this.hits++;
    served?.memo();
    return hit.value;
  }

  /** Keep a value (the caller knows it may be kept: final, or keyed by what it depends on). */
  set(key: CacheKey, value: V, ttl = this.ttlMs): void {
    if (!this.enabled) return;
    const ttlMs = typeof ttl === 'function' ? ttl(value) : ttl;
    // The key counts too: a response cache key is a whole request URL (up to 16 KB), often far larger than its
    // body, and clients choose it (`?_=<random>` makes a new one per request).
    const bytes = this.sizeOf(value) + key.length + ENTRY_BYTES;
    if (bytes > this.maxBytes / 16) return;
    const old = this.map.get(key);
    if (old) this.drop(key, old);
    const now = Date.now();
    this.map.set(key, { value, bytes, expires: ttlMs === undefined ? Number.POSITIVE_INFINITY : now + ttlMs });
    this.total += bytes;
    // Oldest first: entries over a bound, and expired ones (which nobody may read again to drop them).
    for (const [k, e] of this.map) {
      const over = this.total > this.maxBytes || this.map.size > this.maxEntries;
      if (!over && e.expires > now) break;
      this.drop(k, e);
      if (over) this.evictions++;
    }
  }

  /** Remove one key (a kept answer that turned out stale). */
  delete(key: CacheKey): void {
    const e = this.map.get(key);
    if (e) this.drop(key, e);
  }

  /**
   * The value of `key`, loading it on a miss; concurrent misses share one load. `undefined` (not found) and
   * failures are returned and never kept. The load marks its own `Served` (the layers it reached); every caller
   * that waited on it, the first and those that joined, is marked with them.
   */
  through(key: CacheKey, load: (served: Served) => Promise<V | undefined>, served?: Served): Promise<V | undefined> {
    if (!this.enabled) return load(served ?? new Served());
    const hit = this.get(key, served);
    if (hit !== undefined) return Promise.resolve(hit);
    let pending = this.loading.get(key);
    if (!pending) {
      const witness = new Served();
      const generation = this.generation;
      const p = load(witness).then((value) => {
        if (value !== undefined && generation === this.generation) this.set(key, value);
        return value;
      });
      const mine = { p, witness };
      pending = mine;
      this.loading.set(key, mine);
      const done = () => {
        if (this.loading.get(key) === mine) this.loading.delete(key);
      };
      p.then(done, done);
    }
    const { p, witness } = pending;
    if (!served) return p;
    return p.then((v) => {
      served.mark(witness.layer);
      return v;
    });
  }

  private drop(key: CacheKey, e: Entry<V>): void {
    this.map.delete(key);
    this.total -= e.bytes;
  }
}

// Every cache key of the read model, built here and only here. A key names what the value depends on: a final
// answer names only its inputs; an answer that changes with new blocks names the tip.
const key = (...parts: readonly (string | number | boolean | null)[]): CacheKey => parts.join('|') as CacheKey;

/** A list's identity (kind and filters) as one stable string. */
export const listId = (list: unknown): string => JSON.stringify(list);

export const keys = {
  /** A tx's stored document, by sequence (final below the tip). */
  txDoc: (sequence: string) => key('doc', sequence),
  /** A tx's document by hash, found below the tip (final). */
  txByHash: (hash: string) => key('tx', hash),
  /** The sequences of a final tx page. */
  txPage: (list: string, desc: boolean, limit: number, offset: number, cursor: number | null) =>
    key('txpage', list, desc, limit, offset, cursor),
  /** An NFT's whole tx history, as of the height of the token's latest event. */
  nftHistory: (collection: string, tokenId: string, height: number) => key('nfttxs', collection, tokenId, height),
  /** A block at or below the tip (final). */
  block: (height: number) => key('block', height),
  /** A descending block page after a cursor at or below the tip + 1 (final). */
  blocksAfter: (limit: number, cursor: number) => key('blocks', limit, cursor),
  /** Any other block page, at one tip. */
  blocksAt: (tip: number, desc: boolean, limit: number, offset: number, cursor: number | null) =>
    key('blocks@', tip, desc, limit, offset, cursor),
  /** The latest block times behind avg_blocktime, at one tip. */
  blockTimes: (tip: number) => key('avg_blocktime', tip),
  /** A list's total: at one tip, or for good (`tip` null: a list no new block can extend, e.g. one height's txs). */
  total: (family: string, list: string, tip: number | null) => key('total', family, list, tip),
  /** A rich-list page of one snapshot. */
  holderPage: (token: string, snapshot: number, desc: boolean, offset: number, limit: number) =>
    key('holders', token, snapshot, desc, offset, limit),
  /** A snapshot's distribution figures. */
  distribution: (token: string, snapshot: number) => key('distribution', token, snapshot),
  /** The latest rich-list snapshot height (one entry, re-read once its TTL runs out). */
  latestSnapshot: () => key('latest_snapshot'),
  /** The by_name index of every collection (one entry, TTL). */
  collectionNames: () => key('collection_names'),
  /** A proposer's moniker lookup, under the stored proposer key. */
  proposer: (valoper: string) => key('proposer', valoper),
  /** A denom's ERC20 lookup. */
  erc20: (denom: string) => key('erc20', denom),
  /** A whole response body, by method and raw URL as sent (api/indexer/response-cache.ts). */
  response: (url: string) => `GET:${url}` as CacheKey,
};
