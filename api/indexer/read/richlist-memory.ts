// The latest rich-list snapshot of each token, held in memory so a page (any offset, either direction) is a slice
// instead of an engine query (embedded chDB runs parameterised queries one at a time, so engine time per page caps
// throughput). docs/indexer.md, "Rich list".
//
// - Compact form: one Buffer per snapshot with every holder as a record `[tag][account][amount]` in rank order,
//   plus a Uint32Array of record starts (n + 1 entries). `tag` is the account's UTF-8 length (< 128), or 0x80 when
//   the account is `0x` + 40 lowercase hex digits, stored as its 20 bytes. The amount is its decimal text. About
//   48 bytes per EVM holder with its offset (1 M holders ≈ 48 MB); a page builds its ≤ 1000 row objects on demand.
// - Loading: the first request for a token at a snapshot not held queues a background load and is answered by the
//   engine, as are all requests until the load is complete. Loads run one at a time, in chunks of `chunkRows`
//   ranks, one query each, yielding to requests in between, so the serialized engine is never held for long.
//   A snapshot is served only once every rank 1..n is in memory; a chunk of the wrong size (the snapshot was
//   dropped under the load) fails the load.
// - A newer snapshot for a token drops the held one at once: the route only ever asks for the latest snapshot,
//   whose pages go to the engine until the new load completes. Serving the old one meanwhile was tried and left
//   out: once /status reports `rich_list_height` H, every page must be at H (devnet/minievm/verify-state.ts
//   checks pages against the bank at H right after), and the old snapshot's engine rows are already dropped.
// - A failed load is logged (`indexer.richlist_memory_load_failed`) and retried by a request after `retryMs`.
// - Bound: `budgetBytes` over all held snapshots (INDEXER_RICHLIST_MEMORY_MB), least recently used token out
//   first; a snapshot larger than the budget is never held (found while loading, remembered for that snapshot);
//   0 turns the whole thing off. A load in progress also counts against the budget, so the bound holds while it
//   runs, apart from the final join of its chunks (briefly twice the snapshot's size). Each held snapshot also
//   counts a fixed 256 bytes, and at most 10,000 tokens are known at once (least recently used forgotten first),
//   so requests for many unknown tokens (each an empty snapshot) stay bounded too.
import type { Store } from '../../../clickhouse/client.js';
import { holdersByRank, holdersTotal, type HolderPage, type HolderRow } from '../../../clickhouse/queries/richlist.js';
import { log } from '../../../platform/log.js';
import { metrics } from '../../../platform/metrics.js';
import type { Held } from './held.js';

/** A snapshot in compact form: record i (rank i + 1) is `data[starts[i] .. starts[i + 1])`. */
export interface HeldSnapshot {
  readonly holders: number;
  readonly data: Buffer;
  readonly starts: Uint32Array;
}

const HEX_TAG = 0x80;
const HEX_ACCOUNT = /^0x[0-9a-f]{40}$/;
const DECIMAL = /^\d+$/;
const MAX_BYTES = 0xffff_ffff;
/** Counted per held snapshot besides its arrays (objects, map entry), so many tiny ones stay bounded too. */
const OVERHEAD_BYTES = 256;
/** Tokens known at once (held or not): requests for many unknown tokens must not grow the map without end. */
const MAX_TOKENS_KNOWN = 10_000;

/** Memory a held snapshot takes (its records, its offsets and a fixed overhead). */
export const heldBytes = (h: HeldSnapshot): number => h.data.length + h.starts.byteLength + OVERHEAD_BYTES;

/** Encode rows (in rank order) as consecutive records; `ends[i]` = end of row i's record within the chunk. */
export function encodeRows(rows: readonly HolderRow[]): { data: Buffer; ends: Uint32Array } {
  const ends = new Uint32Array(rows.length);
  let size = 0;
  rows.forEach((r, i) => {
    if (!DECIMAL.test(r.amount)) throw new Error(`rich list amount is not a decimal: ${r.amount.slice(0, 80)}`);
    const accountBytes = HEX_ACCOUNT.test(r.account) ? 20 : Buffer.byteLength(r.account, 'utf8');
    if (!HEX_ACCOUNT.test(r.account) && accountBytes >= HEX_TAG)
      throw new Error(`rich list account too long to hold: ${r.account.slice(0, 80)}`);
    size += 1 + accountBytes + r.amount.length;
    ends[i] = size;
  });
  const data = Buffer.allocUnsafe(size);
  let p = 0;
  for (const r of rows) {
    if (HEX_ACCOUNT.test(r.account)) {
      data[p] = HEX_TAG;
      data.write(r.account.slice(2), p + 1, 20, 'hex');
      p += 21;
    } else {
      const n = data.write(r.account, p + 1, 'utf8');
      data[p] = n;
      p += 1 + n;
    }
    p += data.write(r.amount, p, 'latin1');
  }
  return { data, ends };
}

/** Builds a HeldSnapshot from chunks appended in rank order; knows its size so far. */
export class SnapshotBuilder {
  private readonly chunks: Buffer[] = [];
  private readonly starts: Uint32Array;
  private count = 0;
  private size = 0;
  constructor(readonly holders: number) {
    this.starts = new Uint32Array(holders + 1);
  }
  get rows(): number {
    return this.count;
  }
  /** Bytes the finished snapshot will take with what has been added so far. */
  get bytes(): number {
    return this.size + this.starts.byteLength + OVERHEAD_BYTES;
  }
  add(rows: readonly HolderRow[]): void {
    if (this.count + rows.length > this.holders) throw new Error('more rich-list rows than holders');
    const { data, ends } = encodeRows(rows);
    if (this.size + data.length > MAX_BYTES) throw new Error('rich-list snapshot exceeds 4 GiB');
    for (let i = 0; i < ends.length; i++) this.starts[this.count + i + 1] = this.size + (ends[i] as number);
    this.chunks.push(data);
    this.count += rows.length;
    this.size += data.length;
  }
  finish(): HeldSnapshot {
    if (this.count !== this.holders) throw new Error(`rich-list snapshot incomplete: ${this.count}/${this.holders}`);
    return { holders: this.holders, data: Buffer.concat(this.chunks, this.size), starts: this.starts };
  }
}

/** The holder at rank i + 1. */
export function holderAt(h: HeldSnapshot, i: number): HolderRow {
  const s = h.starts[i] as number;
  const e = h.starts[i + 1] as number;
  const tag = h.data[s] as number;
  if (tag === HEX_TAG)
    return { account: `0x${h.data.toString('hex', s + 1, s + 21)}`, amount: h.data.toString('latin1', s + 21, e) };
  return { account: h.data.toString('utf8', s + 1, s + 1 + tag), amount: h.data.toString('latin1', s + 1 + tag, e) };
}

/**
 * The rows of a page, as clickhouse/queries/richlist.ts holdersPage returns them: skip `offset` holders in the
 * chosen direction (desc = largest first) and take up to `limit`. Ascending pages count from the end.
 */
export function holderPage(h: HeldSnapshot, desc: boolean, offset: number, limit: number): HolderRow[] {
  const n = h.holders;
  const hi = desc ? Math.min(n, offset + limit) : n - offset; // ranks lo+1..hi
  const lo = desc ? offset : Math.max(0, hi - limit);
  const rows: HolderRow[] = [];
  if (desc) for (let i = lo; i < hi; i++) rows.push(holderAt(h, i));
  else for (let i = hi - 1; i >= lo; i--) rows.push(holderAt(h, i));
  return rows;
}

/** Where a snapshot's rows come from (the engine in production). */
export interface HolderSource {
  total(token: string, snapshot: number): Promise<number>;
  /** Holders with lo < rank <= hi, in rank order. */
  range(token: string, snapshot: number, lo: number, hi: number): Promise<HolderRow[]>;
}

export const storeSource = (store: Store): HolderSource => ({
  total: (token, snapshot) => holdersTotal(store, token, snapshot),
  range: (token, snapshot, lo, hi) => holdersByRank(store, token, snapshot, lo, hi),
});

export interface RichListMemoryOptions {
  /** Bytes of held snapshots over all tokens; 0 = off. */
  budgetBytes: number;
  /** Ranks per load query (default 50,000: ~50–100 ms of engine time each on the bench machine). */
  chunkRows?: number;
  /** A failed load is retried by a request after this long (default 30 s). */
  retryMs?: number;
}

type State = 'queued' | 'loading' | 'held' | 'failed' | 'too_large';

interface Entry {
  readonly snapshot: number;
  state: State;
  held: HeldSnapshot | null;
  /** failed: not retried before this time. */
  retryAt: number;
  /** loading: bytes taken so far. */
  loadingBytes: number;
}

/** The held snapshots as of one snapshot height: a token's page, or null when that token's snapshot is not held. */
export interface RichListView {
  page(token: string, desc: boolean, offset: number, limit: number): HolderPage | null;
}

export class RichListMemory implements Held<RichListView> {
  readonly name = 'richlist';
  readonly budgetBytes: number;
  private readonly chunkRows: number;
  private readonly retryMs: number;
  /** Per token, least recently used first. */
  private readonly entries = new Map<string, Entry>();
  private readonly queue: string[] = [];
  private worker: Promise<void> | null = null;
  private heldTotal = 0;

  constructor(
    private readonly source: HolderSource,
    opts: RichListMemoryOptions,
  ) {
    this.budgetBytes = Math.max(0, opts.budgetBytes);
    this.chunkRows = Math.max(1, opts.chunkRows ?? 50_000);
    this.retryMs = opts.retryMs ?? 30_000;
  }

  /** Bytes of the snapshots held now. */
  bytes(): number {
    return this.heldTotal;
  }

  /** The view at a snapshot height (null when holding is off). */
  at(snapshot: number): Promise<RichListView | null> {
    if (this.budgetBytes === 0) return Promise.resolve(null);
    return Promise.resolve({ page: (token, desc, offset, limit) => this.page(token, snapshot, desc, offset, limit) });
  }

  /** What is known about a token (tests, diagnostics). */
  status(token: string): { snapshot: number; state: State } | null {
    const e = this.entries.get(token);
    return e ? { snapshot: e.snapshot, state: e.state } : null;
  }

  /**
   * A page from memory when `snapshot` of `token` is held, else null (the caller asks the engine) after queueing
   * a load of that snapshot if there is none yet. `limit` is what the caller fetches (page size + 1).
   */
  page(token: string, snapshot: number, desc: boolean, offset: number, limit: number): HolderPage | null {
    if (this.budgetBytes === 0) return null;
    const e = this.entries.get(token);
    if (e?.held && e.snapshot === snapshot) {
      this.entries.delete(token); // most recently used last
      this.entries.set(token, e);
      return { snapshot, total: e.held.holders, rows: holderPage(e.held, desc, offset, limit) };
    }
    if (!e || e.snapshot < snapshot) this.want(token, snapshot);
    else if (e.snapshot === snapshot && e.state === 'failed' && Date.now() >= e.retryAt) {
      e.state = 'queued';
      this.enqueue(token);
    }
    // An older snapshot than the one known (a height read just before a new one), queued, loading, too large: engine.
    return null;
  }

  /** Forget everything (the indexed height went down: snapshots may be rebuilt). */
  clear(): void {
    this.entries.clear();
    this.heldTotal = 0;
    metrics.richListMemoryBytes.set(0);
  }

  /** Resolves once no load is queued or running (tests). */
  async idle(): Promise<void> {
    while (this.worker) await this.worker;
  }

  /** A newer snapshot of a token (the held one, if any, is dropped at once): load it. */
  private want(token: string, snapshot: number): void {
    this.drop(token);
    this.entries.set(token, { snapshot, state: 'queued', held: null, retryAt: 0, loadingBytes: 0 });
    for (const t of this.entries.keys()) {
      if (this.entries.size <= MAX_TOKENS_KNOWN) break;
      if (this.entries.get(t)?.state !== 'loading') this.drop(t);
    }
    this.enqueue(token);
  }

  private drop(token: string): void {
    const e = this.entries.get(token);
    if (!e) return;
    if (e.held) this.heldTotal -= heldBytes(e.held);
    this.entries.delete(token);
    metrics.richListMemoryBytes.set(this.heldTotal);
  }

  private enqueue(token: string): void {
    if (!this.queue.includes(token)) this.queue.push(token);
    this.kick();
  }

  private kick(): void {
    if (this.worker) return;
    this.worker = this.drain().finally(() => {
      this.worker = null;
      if (this.queue.length > 0) this.kick(); // queued after the loop's last look
    });
  }

  private async drain(): Promise<void> {
    for (let token = this.queue.shift(); token !== undefined; token = this.queue.shift()) {
      const e = this.entries.get(token);
      if (e?.state !== 'queued') continue;
      await this.load(token, e);
    }
  }

  /** Still the entry this load is for (a newer snapshot or clear() replaces it). */
  private current(token: string, e: Entry): boolean {
    return this.entries.get(token) === e;
  }

  /** Bytes of held snapshots plus loads in progress. */
  private committed(): number {
    let loading = 0;
    for (const e of this.entries.values()) loading += e.loadingBytes;
    return this.heldTotal + loading;
  }

  private async load(token: string, e: Entry): Promise<void> {
    e.state = 'loading';
    e.loadingBytes = 0;
    const started = Date.now();
    try {
      const n = await this.source.total(token, e.snapshot);
      // The smallest a record can be is 2 bytes (tag, one digit): skip a snapshot that cannot fit at all.
      const fits = (n + 1) * 4 + n * 2 + OVERHEAD_BYTES <= this.budgetBytes;
      const b = new SnapshotBuilder(fits ? n : 0);
      const over = () => !fits || b.bytes > this.budgetBytes;
      while (!over() && b.rows < n && this.current(token, e)) {
        const lo = b.rows;
        const hi = Math.min(n, lo + this.chunkRows);
        const rows = await this.source.range(token, e.snapshot, lo, hi);
        if (rows.length !== hi - lo)
          throw new Error(`ranks ${lo + 1}..${hi}: got ${rows.length} rows (snapshot dropped or rebuilt?)`);
        b.add(rows);
        // Room for this load: least recently used held snapshots of other tokens go first.
        this.evictFor(token, b.bytes - e.loadingBytes);
        e.loadingBytes = b.bytes;
        await new Promise((r) => setImmediate(r)); // let requests through between chunks
      }
      e.loadingBytes = 0;
      if (!this.current(token, e)) return;
      if (over()) {
        e.state = 'too_large';
        metrics.richListMemoryLoads.inc({ result: 'too_large' });
        log.info('indexer.richlist_memory_too_large', {
          token,
          snapshot: e.snapshot,
          holders: n,
          budget_bytes: this.budgetBytes,
        });
        return;
      }
      const held = b.finish();
      e.held = held;
      e.state = 'held';
      this.heldTotal += heldBytes(held);
      this.evictFor(token, 0);
      metrics.richListMemoryBytes.set(this.heldTotal);
      metrics.richListMemoryLoads.inc({ result: 'held' });
      log.info('indexer.richlist_memory_loaded', {
        token,
        snapshot: e.snapshot,
        holders: n,
        bytes: heldBytes(held),
        ms: Date.now() - started,
      });
    } catch (err) {
      e.loadingBytes = 0;
      if (!this.current(token, e)) return;
      e.state = 'failed';
      e.retryAt = Date.now() + this.retryMs;
      metrics.richListMemoryLoads.inc({ result: 'failed' });
      log.warn('indexer.richlist_memory_load_failed', {
        token,
        snapshot: e.snapshot,
        error: (err as Error).message,
        retry_in_ms: this.retryMs,
      });
    }
  }

  /** Drop least recently used held snapshots of other tokens until `more` bytes fit in the budget. */
  private evictFor(token: string, more: number): void {
    for (const [t, x] of this.entries) {
      if (this.committed() + more <= this.budgetBytes) return;
      if (t !== token && x.held) this.drop(t);
    }
  }
}
