// The ClickHouse side of tracking: append status versions (projection activity) and read the latest one
// (status API). Rows are keyed by (chain_id, tx_hash, version) with deterministic content.
//
// Embedded chDB answers one statement at a time (~4 ms each idle, tens of ms under load), so status must not
// wait on SQL. Hence:
//   - writes are batched (one INSERT per ~5 ms window) and de-duplicated against existing keys, so a
//     retried activity never adds a second row for the same version;
//   - reads go through a bounded in-memory map of the latest document per tx that every local write updates
//     (write-through, newest version wins); misses are loaded in coalesced batches (one SELECT for all keys
//     asked meanwhile). ClickHouse stays the source of truth: the map is a read cache, a restart repopulates
//     it on miss, and an evicted key is simply loaded again.
//   - sole writer (embedded chDB: one process owns the directory, so every write goes through this object):
//     cached documents never expire, a hit never touches the engine.
//   - shared writers (a ClickHouse server, standalone workers also writing): an entry older than `ttlMs` is
//     still answered at once and reloaded in the background (stale-while-revalidate), so staleness is about
//     one TTL plus one batch; an entry older than `maxStaleMs` waits for the reload.
import { Context } from '@temporalio/activity';
import type { Store } from '../clickhouse/client.js';
import {
  type HistoryCursor,
  type HistoryRow,
  insertTransferEvents,
  insertTransferParties,
  insertTransferWebhooks,
  latestTransferDocs,
  rolesOf,
  storedVersionKeys,
  type TransferEventRow,
  type TransferPartyRow,
  type TransferWebhookRow,
  transfersOf,
  webhooksOf,
} from '../clickhouse/transfer-events.js';
import { accountKey } from '../chain/address.js';
import type { TransferParties } from '../workflows/model.js';
import type { LocalProjectionActivities, ProjectionActivities, RecordStatusArgs } from '../workflows/transfer.js';
import { isTerminalState, submittedDocument, type StatusDocument, type TxState } from '../workflows/status.js';
import type { WebhookSettings } from '../workflows/webhook.js';
import { postEvent, webhookTarget } from './webhook.js';

type EventRow = TransferEventRow;

export interface LatestStatus {
  version: number;
  doc: StatusDocument;
  /** The document exactly as stored: served verbatim, no re-serialisation per request. */
  json: string;
}

const ts = (ms: number) => new Date(ms).toISOString().replace('T', ' ').replace('Z', '');
const keyOf = (chainId: string, txHash: string) => `${chainId}\u0000${txHash}`;

function row(
  chainId: string,
  txHash: string,
  version: number,
  phase: string,
  doc: StatusDocument,
  atMs: number,
): EventRow {
  return {
    chain_id: chainId,
    tx_hash: txHash,
    version,
    event_id: `${chainId}:${txHash}:${version}`,
    phase,
    state: doc.state,
    status: doc.status,
    doc: JSON.stringify(doc),
    recorded_at: ts(atMs),
  };
}

interface Waiter<T> {
  resolve(v: T): void;
  reject(e: unknown): void;
}

/** A newer version of one of a followed account's transfers. */
export type AccountListener = (t: { chainId: string; txHash: string; roles: string[]; status: LatestStatus }) => void;

export interface ProjectionOptions {
  /**
   * Every write to these rows goes through this object (default: the store is embedded chDB, which one
   * process owns). Cached documents then never expire.
   */
  soleWriter?: boolean;
  /**
   * Shared writers: age after which a cached document is reloaded (in the background, still answered);
   * sole writer: lifetime of a cached "never registered" answer.
   */
  ttlMs?: number;
  /** Shared writers: age after which a cached document is no longer answered while it is reloaded. */
  maxStaleMs?: number;
  /** Max cached keys (oldest evicted first). */
  maxEntries?: number;
  /** Batching window of writes and reads. */
  batchMs?: number;
}

export class TrackingProjection {
  private readonly cache = new Map<string, { v: LatestStatus | null; at: number }>();
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly batchMs: number;
  /** Every write to the rows goes through this object (see ProjectionOptions.soleWriter). */
  readonly soleWriter: boolean;
  private readonly maxStaleMs: number;
  private pendingRows: { row: EventRow; doc: StatusDocument; w: Waiter<void> }[] = [];
  private pendingReads = new Map<string, { chainId: string; txHash: string; ws: Waiter<LatestStatus | null>[] }>();
  /**
   * Rows of the side tables, written in the same flush as the versions and before them (a version is never
   * visible before its transfer's parties). Batched like the versions: one statement per table per flush, since
   * every statement waits its turn in embedded chDB.
   */
  private pendingParties: { rows: TransferPartyRow[]; w: Waiter<void> }[] = [];
  private pendingWebhooks: { row: TransferWebhookRow; w: Waiter<void> }[] = [];
  /** Sole writer: each transfer's webhook URL as stored (or being stored) by this process. */
  private readonly webhookUrls = new Map<string, { url: string; stored: Promise<void> }>();
  /**
   * Sole writer: transfers whose registration row this process wrote and which have no webhook yet, so none can be
   * stored. A URL held in memory (or one that failed to store) removes the mark.
   */
  private readonly registeredHere = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private busy = false;
  /** Transfers whose parties this process has written (each is written once; a retry after a restart collapses). */
  private readonly partiesWritten = new Set<string>();
  /** Who wants to hear of a transfer's newer versions (its status streams), by key. */
  private readonly watchers = new Map<string, Set<(v: LatestStatus) => void>>();
  /** Accounts someone follows (history streams): their listeners, by account key. */
  private readonly accountWatchers = new Map<string, Set<AccountListener>>();
  /** Transfers of followed accounts: transfer key → account key → that account's roles in it. */
  private readonly followed = new Map<string, Map<string, string[]>>();
  /** Statements issued (the bench reports them). */
  readonly stats = {
    inserts: 0,
    selects: 0,
    cacheHits: 0,
    /** Hits answered from an expired entry while it was reloaded (shared writers). */
    staleHits: 0,
    flushes: 0,
    flushMs: 0,
    maxFlushMs: 0,
  };

  constructor(
    private readonly store: Store,
    o: ProjectionOptions = {},
  ) {
    this.soleWriter = o.soleWriter ?? store.kind === 'chdb';
    this.ttlMs = o.ttlMs ?? 1_000;
    this.maxStaleMs = Math.max(this.ttlMs, o.maxStaleMs ?? 10_000);
    this.maxEntries = o.maxEntries ?? 200_000;
    this.batchMs = o.batchMs ?? 5;
  }

  /**
   * The latest status when it can be answered without waiting on ClickHouse (a cached document, or a fresh
   * "never registered"); undefined when only `latest()` can answer. Schedules a background reload of an
   * expired entry (shared writers).
   */
  peek(chainId: string, txHash: string): LatestStatus | null | undefined {
    const k = keyOf(chainId, txHash);
    const hit = this.cache.get(k);
    if (!hit) return undefined;
    const age = Date.now() - hit.at;
    if (hit.v === null) {
      if (age >= this.ttlMs) return undefined;
      this.stats.cacheHits++;
      return null;
    }
    if (this.soleWriter || age < this.ttlMs) {
      this.stats.cacheHits++;
      return hit.v;
    }
    if (age >= this.maxStaleMs) return undefined;
    this.stats.staleHits++;
    this.enqueueRead(k, chainId, txHash);
    return hit.v;
  }

  /** Latest status document of a registered tx, or null when it was never registered. */
  latest(chainId: string, txHash: string): Promise<LatestStatus | null> {
    const now = this.peek(chainId, txHash);
    if (now !== undefined) return Promise.resolve(now);
    const k = keyOf(chainId, txHash);
    return new Promise((resolve, reject) => this.enqueueRead(k, chainId, txHash, { resolve, reject }));
  }

  private enqueueRead(k: string, chainId: string, txHash: string, w?: Waiter<LatestStatus | null>): void {
    const p = this.pendingReads.get(k) ?? { chainId, txHash, ws: [] };
    if (w) p.ws.push(w);
    this.pendingReads.set(k, p);
    this.schedule();
  }

  /** Append one status version; resolves once it is durably in ClickHouse (and visible to reads). */
  append(
    chainId: string,
    txHash: string,
    version: number,
    phase: string,
    doc: StatusDocument,
    atMs: number,
  ): Promise<void> {
    return new Promise((resolve, reject) => {
      this.pendingRows.push({ row: row(chainId, txHash, version, phase, doc, atMs), doc, w: { resolve, reject } });
      this.schedule();
    });
  }

  /**
   * Index a transfer by its sender and final receiver (history by address), once per transfer. Addresses that are
   * not accounts (an empty or opaque field) are left out.
   */
  async recordParties(chainId: string, txHash: string, parties: TransferParties): Promise<void> {
    const k = keyOf(chainId, txHash);
    // Written already and no account followed: nothing to do (the common case of every later version).
    if (this.partiesWritten.has(k) && this.accountWatchers.size === 0) return;
    const rows: TransferPartyRow[] = [];
    for (const role of ['sender', 'receiver'] as const) {
      const address = parties[role] ? accountKey(parties[role]) : null;
      if (address) rows.push({ address, chain_id: chainId, tx_hash: txHash, role });
    }
    // Every version of a transfer comes with its parties, so a followed account hears of any of its transfers
    // that changes, however old, not only of those written while it was followed.
    for (const r of rows)
      this.follow(
        r.address,
        chainId,
        txHash,
        rows.filter((x) => x.address === r.address).map((x) => x.role),
      );
    if (this.partiesWritten.has(k)) return;
    if (rows.length > 0)
      await new Promise<void>((resolve, reject) => {
        this.pendingParties.push({ rows, w: { resolve, reject } });
        this.schedule();
      });
    if (this.partiesWritten.size >= this.maxEntries) this.partiesWritten.clear();
    this.partiesWritten.add(k);
  }

  /**
   * Record `url` as the transfer's webhook, unless it has one: then that one is returned as `conflict` when it
   * differs. Sole writer: URLs this process stored are answered from memory, and a transfer whose registration row
   * this process wrote has none stored yet, so neither asks ClickHouse; shared writers always ask.
   */
  async attachWebhook(
    chainId: string,
    txHash: string,
    url: string,
    atMs: number,
  ): Promise<{ conflict?: string; already?: boolean }> {
    const k = keyOf(chainId, txHash);
    const answer = async (held: { url: string; stored: Promise<void> }) => {
      await held.stored; // a URL claimed by a concurrent attach counts once it is stored
      return held.url === url ? { already: true } : { conflict: held.url };
    };
    const held = this.soleWriter ? this.webhookUrls.get(k) : undefined;
    if (held) return answer(held);
    if (!(this.soleWriter && this.registeredHere.has(k))) {
      const existing = (await webhooksOf(this.store, [{ chainId, txHash }])).get(`${chainId}|${txHash}`);
      const claimed = this.soleWriter ? this.webhookUrls.get(k) : undefined;
      if (claimed) return answer(claimed);
      if (existing !== undefined) {
        if (this.soleWriter) this.rememberWebhook(k, existing, Promise.resolve());
        return existing === url ? { already: true } : { conflict: existing };
      }
    }
    const row: TransferWebhookRow = { chain_id: chainId, tx_hash: txHash, url, registered_at: ts(atMs) };
    const stored = new Promise<void>((resolve, reject) => {
      this.pendingWebhooks.push({ row, w: { resolve, reject } });
      this.schedule();
    });
    // Claimed before the write is awaited: a concurrent attach of this transfer here waits for it.
    if (this.soleWriter) this.rememberWebhook(k, url, stored);
    try {
      await stored;
    } catch (e) {
      if (this.webhookUrls.get(k)?.stored === stored) this.webhookUrls.delete(k);
      throw e;
    }
    return {};
  }

  /** The transfer's stored webhook URL, if it has one (memory first when this process is the sole writer). */
  async webhookOf(chainId: string, txHash: string): Promise<string | undefined> {
    const held = this.soleWriter ? this.webhookUrls.get(keyOf(chainId, txHash)) : undefined;
    if (held) {
      await held.stored;
      return held.url;
    }
    return (await webhooksOf(this.store, [{ chainId, txHash }])).get(`${chainId}|${txHash}`);
  }

  /** Hold a transfer's webhook URL; from now on memory answers for it, so the registration mark is dropped. */
  private rememberWebhook(k: string, url: string, stored: Promise<void>): void {
    if (this.webhookUrls.size >= this.maxEntries) this.webhookUrls.delete(this.webhookUrls.keys().next().value!);
    this.webhookUrls.set(k, { url, stored });
    this.registeredHere.delete(k);
  }

  /**
   * The transfers of an account (its key: chain/address.ts accountKey), newest first, after `cursor`, at most
   * `limit`, each with its latest state and the account's roles in it. Read from ClickHouse (it survives restarts).
   */
  async history(
    address: string,
    limit: number,
    cursor: HistoryCursor | null,
  ): Promise<(HistoryRow & { roles: string[] })[]> {
    const rows = await transfersOf(this.store, address, limit, cursor);
    const roles = await rolesOf(
      this.store,
      address,
      rows.map((r) => r.tx_hash),
    );
    return rows.map((r) => ({ ...r, roles: roles.get(`${r.chain_id}|${r.tx_hash}`) ?? [] }));
  }

  /** Write the registration row (version 0) unless the tx is already known. */
  async register(chainId: string, txHash: string, atMs: number): Promise<LatestStatus> {
    const existing = await this.latest(chainId, txHash);
    if (existing) return existing;
    const doc = submittedDocument();
    if (this.soleWriter) {
      if (this.registeredHere.size >= this.maxEntries) this.registeredHere.clear();
      this.registeredHere.add(keyOf(chainId, txHash));
    }
    await this.append(chainId, txHash, 0, 'submitted', doc, atMs);
    return { version: 0, doc, json: JSON.stringify(doc) };
  }

  /**
   * Call `listener` with each newer version of a transfer this object learns: written here, or loaded (another
   * writer's, on a reload). Returns the unsubscribe.
   */
  watch(chainId: string, txHash: string, listener: (v: LatestStatus) => void): () => void {
    const k = keyOf(chainId, txHash);
    let set = this.watchers.get(k);
    if (!set) this.watchers.set(k, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.watchers.get(k) === set) this.watchers.delete(k);
    };
  }

  /**
   * Hear of every newer version of the transfers of an account (its key) that this object learns: those it is told
   * to `follow`, and any whose parties are recorded here from now on. Returns the unsubscribe.
   */
  watchAccount(address: string, listener: AccountListener): () => void {
    let set = this.accountWatchers.get(address);
    if (!set) this.accountWatchers.set(address, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size > 0 || this.accountWatchers.get(address) !== set) return;
      this.accountWatchers.delete(address);
      for (const [k, accounts] of this.followed)
        if (accounts.delete(address) && accounts.size === 0) this.followed.delete(k);
    };
  }

  /** Tell the watchers of `address` (if any) of this transfer's newer versions too: it is one of the account's. */
  follow(address: string, chainId: string, txHash: string, roles: string[]): void {
    if (!this.accountWatchers.has(address)) return;
    const k = keyOf(chainId, txHash);
    let accounts = this.followed.get(k);
    if (!accounts) this.followed.set(k, (accounts = new Map()));
    accounts.set(address, roles);
  }

  private remember(k: string, v: LatestStatus | null): void {
    const cur = this.cache.get(k)?.v;
    if (cur && v && cur.version > v.version) v = cur; // never go back to an older version
    this.cache.delete(k);
    this.cache.set(k, { v, at: Date.now() });
    if (this.cache.size > this.maxEntries) this.cache.delete(this.cache.keys().next().value!);
    if (!v || (cur && v.version <= cur.version)) return;
    for (const w of this.watchers.get(k) ?? []) w(v);
    const accounts = this.followed.get(k);
    if (accounts) {
      const [chainId, txHash] = k.split('\u0000') as [string, string];
      for (const [address, roles] of accounts)
        for (const w of this.accountWatchers.get(address) ?? []) w({ chainId, txHash, roles, status: v });
      // A finished transfer changes no more: stop following it (the map holds only live transfers).
      if (isTerminalState(v.doc.state as TxState)) this.followed.delete(k);
    }
  }

  private schedule(): void {
    if (this.timer || this.busy) return;
    this.timer = setTimeout(() => void this.flush(), this.batchMs);
  }

  private async flush(): Promise<void> {
    this.timer = undefined;
    this.busy = true;
    const started = performance.now();
    const rows = this.pendingRows;
    const reads = this.pendingReads;
    const parties = this.pendingParties;
    const webhooks = this.pendingWebhooks;
    this.pendingRows = [];
    this.pendingReads = new Map();
    this.pendingParties = [];
    this.pendingWebhooks = [];
    try {
      const failed = await this.writeSide(parties, webhooks);
      // A version whose transfer's parties could not be written waits for them (its write fails and is retried).
      const go: typeof rows = [];
      for (const r of rows)
        if (failed.has(keyOf(r.row.chain_id, r.row.tx_hash)))
          r.w.reject(new Error("the transfer's parties could not be written"));
        else go.push(r);
      if (go.length) await this.writeBatch(go);
      if (reads.size) await this.readBatch(reads);
    } finally {
      const ms = performance.now() - started;
      this.stats.flushes++;
      this.stats.flushMs += Math.round(ms);
      this.stats.maxFlushMs = Math.max(this.stats.maxFlushMs, Math.round(ms));
      this.busy = false;
      if (
        this.pendingRows.length ||
        this.pendingReads.size ||
        this.pendingParties.length ||
        this.pendingWebhooks.length
      )
        this.schedule();
    }
  }

  /**
   * The side tables' rows of one flush, each table in one statement. Returns the transfers whose parties failed
   * (their versions must wait); a failed webhook insert fails only its attaches.
   */
  private async writeSide(
    parties: { rows: TransferPartyRow[]; w: Waiter<void> }[],
    webhooks: { row: TransferWebhookRow; w: Waiter<void> }[],
  ): Promise<Set<string>> {
    const failed = new Set<string>();
    if (
      !(await this.insertQueued(parties, (ps) =>
        insertTransferParties(
          this.store,
          ps.flatMap((p) => p.rows),
        ),
      ))
    )
      for (const p of parties) for (const r of p.rows) failed.add(keyOf(r.chain_id, r.tx_hash));
    await this.insertQueued(webhooks, (hs) =>
      insertTransferWebhooks(
        this.store,
        hs.map((h) => h.row),
      ),
    );
    return failed;
  }

  /** One statement for the queued entries of a table; each entry's waiter hears the outcome. False if it failed. */
  private async insertQueued<E extends { w: Waiter<void> }>(
    queued: E[],
    insert: (entries: E[]) => Promise<void>,
  ): Promise<boolean> {
    if (queued.length === 0) return true;
    this.stats.inserts++;
    try {
      await insert(queued);
    } catch (e) {
      for (const q of queued) q.w.reject(e);
      return false;
    }
    for (const q of queued) q.w.resolve();
    return true;
  }

  private async writeBatch(batch: { row: EventRow; doc: StatusDocument; w: Waiter<void> }[]): Promise<void> {
    try {
      // Drop versions already stored (a retried activity whose first attempt did insert). A key this process has
      // seen (cached) needs no query: a cached version ≥ the row's means a retry, a lower one means a new version.
      // Only keys never seen here (e.g. retries after a restart) are checked in ClickHouse.
      const cachedDup = (r: EventRow) => {
        const c = this.cache.get(keyOf(r.chain_id, r.tx_hash));
        return c?.v ? c.v.version >= r.version : false;
      };
      const hashes = [
        ...new Set(
          batch.filter((b) => !this.cache.has(keyOf(b.row.chain_id, b.row.tx_hash))).map((b) => b.row.tx_hash),
        ),
      ];
      let have = new Set<string>();
      if (hashes.length) {
        this.stats.selects++;
        have = await storedVersionKeys(this.store, hashes);
      }
      const seen = new Set<string>();
      const fresh = batch.filter(({ row: r }) => {
        const k = `${r.chain_id}|${r.tx_hash}|${r.version}`;
        if (have.has(k) || seen.has(k) || cachedDup(r)) return false;
        seen.add(k);
        return true;
      });
      if (fresh.length) {
        this.stats.inserts++;
        await insertTransferEvents(
          this.store,
          fresh.map((f) => f.row),
        );
      }
      for (const { row: r, doc } of batch)
        this.remember(keyOf(r.chain_id, r.tx_hash), { version: r.version, doc, json: r.doc });
      for (const b of batch) b.w.resolve();
    } catch (e) {
      for (const b of batch) b.w.reject(e);
    }
  }

  private async readBatch(
    reads: Map<string, { chainId: string; txHash: string; ws: Waiter<LatestStatus | null>[] }>,
  ): Promise<void> {
    try {
      this.stats.selects++;
      const rows = await latestTransferDocs(this.store, [...new Set([...reads.values()].map((r) => r.txHash))]);
      const found = new Map(
        rows.map((r) => [
          keyOf(r.chain_id, r.tx_hash),
          { version: Number(r.v), doc: JSON.parse(r.d) as StatusDocument, json: r.d },
        ]),
      );
      for (const [k, r] of reads) {
        this.remember(k, found.get(k) ?? null);
        const v = this.cache.get(k)!.v;
        for (const w of r.ws) w.resolve(v);
      }
    } catch (e) {
      for (const r of reads.values()) for (const w of r.ws) w.reject(e);
    }
  }
}

/**
 * The fast path's one attempt (workflows/transfer.ts record), the host's resolution included: short, since the
 * workflow waits on it.
 */
export const WEBHOOK_FAST_ATTEMPT_MS = 2_000;

/**
 * Store one status version, then (the fast path) POST it to the transfer's webhook. `atMs` is the row's
 * recorded_at (when the workflow scheduled the write); a retry whose first attempt stored the row collapses onto it
 * by its key, so the first attempt's time stays.
 * `webhooks`: the signing key and target policy for the fast path (absent: every fast attempt fails).
 */
async function recordStatusVersion(
  projection: TrackingProjection,
  webhooks: WebhookSettings | undefined,
  { chainId, txHash, version, phase, doc, parties, webhook }: RecordStatusArgs,
  atMs: number,
): Promise<{ webhookDelivered?: boolean } | undefined> {
  // Queued together, so one flush writes both, the parties first: once a version is visible, history by address
  // already lists the transfer.
  await Promise.all([
    parties ? projection.recordParties(chainId, txHash, parties) : undefined,
    projection.append(chainId, txHash, version, phase, doc, atMs),
  ]);
  if (!webhook || !webhooks) return webhook ? { webhookDelivered: false } : undefined;
  // After the write: a receiver never hears of a version status cannot show. A crash between the POST and the
  // activity's completion repeats both, the POST as the same webhook-id. The whole attempt is bounded: the
  // host's resolution by its own bound, the request by what is left, and a request past its deadline is torn
  // down, so it cannot POST after the workflow has handed the event to the delivery loop.
  const started = Date.now();
  try {
    const target = await webhookTarget(webhook.url, webhooks);
    const left = WEBHOOK_FAST_ATTEMPT_MS - (Date.now() - started);
    if (left <= 0) return { webhookDelivered: false };
    await postEvent(webhooks, target, chainId, txHash, { event: version, doc }, left);
    return { webhookDelivered: true };
  } catch {
    return { webhookDelivered: false };
  }
}

/** Where a worker's local projection activity sends a version; absent: this worker cannot reach the projection. */
export type ProjectionSink = (a: RecordStatusArgs, atMs: number) => Promise<{ webhookDelivered?: boolean } | undefined>;

/** The sink of a process that holds the projection itself: `recordStatusVersion` on it. */
export function projectionSink(projection: TrackingProjection, webhooks?: WebhookSettings): ProjectionSink {
  return (a, atMs) => recordStatusVersion(projection, webhooks, a, atMs);
}

/** The projection queue's activity (served by the process that owns the store). */
export function createProjectionActivities(
  projection: TrackingProjection,
  webhooks?: WebhookSettings,
): ProjectionActivities {
  const sink = projectionSink(projection, webhooks);
  return {
    // The first schedule time is identical on every attempt, keeping a retried row byte-identical.
    recordStatus: (a) => sink(a, Context.current().info.scheduledTimestampMs),
  };
}

/** The local activity of the worker that runs the workflows (workflows/transfer.ts LocalProjectionActivities). */
export function createLocalProjectionActivities(sink: ProjectionSink | undefined): LocalProjectionActivities {
  return {
    async recordStatusHere(a) {
      if (!sink) return { stored: false };
      // As for the activity: when the workflow scheduled the write (a retry that stores nothing new keeps the row).
      return { stored: true, ...(await sink(a, Context.current().info.scheduledTimestampMs)) };
    },
  };
}
