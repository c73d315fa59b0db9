// Live event streams over ordered lists (docs/streams.md). A stream is a list read in ascending order of a
// position (a tx's sequence, a block's height) from a resume point, then kept open: each time the indexed tip moves,
// the items that came into the list are sent. Invariants, for every stream:
// - it sends each item of its list with a position above its resume point exactly once, in position order, and
//   only items at or below the indexed tip (the tip is the last committed checkpoint, so only committed items);
// - the id of every event is the item's list cursor, so a client that reconnects with the last id it got (or with a
//   `pagination.key` from a REST page) continues with no gap and no duplicate.
// How: clients of one list share a *group*. A group has delivered every item at or below its tip `through` to each
// of its members. A new client first catches up alone, page by page, paced by its own socket, reading up to the
// group's `through`; when a page comes back short and the group has not moved meanwhile (checked synchronously,
// so no push can slip between), it joins. When the tip moves, the group reads the new items once and offers the
// same frames to every member. A member whose send buffer passes its bound is ended with a last event naming its
// resume point; it never holds the group or the ingest back.
import { metrics } from '../../platform/metrics.js';
import { type Refusal, StreamAdmission } from './stream-admission.js';
import { SharedFrames, type SseEvent, sseComment, sseFrame } from './sse.js';

/** One client's open stream, as the hub uses it (api/http/sse.ts `SseConnection` on a response). */
export interface StreamConn {
  readonly open: boolean;
  /** Queue frames; false, writing nothing, when closed or the client still has more than its bound unread. */
  offer(frames: string | SharedFrames): boolean;
  /** Resolves when the client has taken most of its buffer (or is gone). */
  drained(): Promise<void>;
  onClose(listener: () => void): void;
  /** Send a last event and close. */
  end(last?: SseEvent): void;
}

export interface StreamItem {
  /** Position in the list (ascending); integer below 2^53. */
  pos: number;
  /** The event's payload (the REST item's JSON). */
  data: string;
}

/** One list as a stream. Sources with the same `key` are the same list (their clients share reads). */
export interface StreamSource {
  key: string;
  /** The event type of its items (`tx`, `block`). */
  event: string;
  /** The highest position an item at or below `tip` can have. */
  edge(tip: number): number;
  /** The id (REST cursor) of a position. */
  idOf(pos: number): string;
  /** Items with `after < pos <= edge(through)`, ascending, at most `limit`. */
  read(after: number, through: number, limit: number): Promise<StreamItem[]>;
}

export interface StreamHubOptions {
  /** The current indexed tip (fresh enough: it bounds what a catch-up reads). */
  tip(): Promise<number>;
  /** Items per read. */
  pageSize: number;
  /** A comment is sent on every stream this often. */
  heartbeatMs: number;
  /** A stream is ended (resumable) after this long, so no connection lives forever. */
  maxLifetimeMs: number;
  /** Streams open at once in this process, and per client address. */
  maxStreams: number;
  maxPerClient: number;
  onError?(message: string, fields: Record<string, unknown>): void;
  /** The keys of the lists with a stream open (live or catching up), each time that set changes. */
  onLists?(keys: ReadonlySet<string>): void;
}

export type EndReason = 'overflow' | 'lifetime' | 'rewind' | 'error';

interface Member {
  source: StreamSource;
  conn: StreamConn;
  /** `indexer_stream_events_total{list}` of its list, resolved once (prom-client hashes labels on every call). */
  events: { inc(n: number): void };
  /** Position of the last item sent (or the resume point). */
  after: number;
}

interface Group {
  source: StreamSource;
  /** Every item at or below this tip has been offered to every member. */
  through: number;
  members: Set<Member>;
  /** Clients still catching up towards `through`. */
  joining: number;
  /** The tip a running advance should reach next. */
  target: number;
  running: boolean;
}

export class StreamHub {
  private readonly groups = new Map<string, Group>();
  /** Every open stream, live or catching up. */
  private readonly open = new Map<StreamConn, Member>();
  private readonly admission: StreamAdmission;
  /** Bumped by each rewind: an advance that read before it must not deliver. */
  private epoch = 0;
  private readonly heartbeat: NodeJS.Timeout;

  constructor(private readonly opts: StreamHubOptions) {
    this.admission = new StreamAdmission(opts.maxStreams, opts.maxPerClient, 'indexer');
    this.heartbeat = setInterval(() => {
      const beat = sseComment('heartbeat');
      for (const c of this.open.keys()) c.offer(beat);
    }, opts.heartbeatMs);
    this.heartbeat.unref();
  }

  /** Streams admitted and not yet released. */
  get size(): number {
    return this.admission.size;
  }

  /** Count a stream against the limits before it opens (StreamAdmission). */
  admit(client: string): (() => void) | Refusal {
    return this.admission.admit(client);
  }

  /**
   * Serve one stream until it closes: catch up from `after` (null: from the tip, new items only), then follow the
   * tip. Resolves when the client is live or gone; the stream itself lives on in its group.
   */
  async serve(source: StreamSource, after: number | null, conn: StreamConn): Promise<void> {
    let tip: number;
    try {
      tip = await this.opts.tip();
    } catch (e) {
      this.opts.onError?.('stream.tip_failed', { list: source.key, error: (e as Error).message });
      conn.end({ event: 'end', data: JSON.stringify({ reason: 'error', resume: null }) });
      return;
    }
    if (!conn.open) return;
    let group = this.groups.get(source.key);
    if (!group) {
      group = { source, through: tip, members: new Set(), joining: 0, target: tip, running: false };
      this.groups.set(source.key, group);
      this.listsChanged();
    }
    const g = group;
    const member: Member = {
      source,
      conn,
      events: metrics.streamEvents.labels(source.event),
      after: after ?? source.edge(g.through),
    };
    this.open.set(conn, member);
    const lifetime = setTimeout(() => this.finish(member, 'lifetime'), this.opts.maxLifetimeMs);
    lifetime.unref();
    conn.onClose(() => {
      clearTimeout(lifetime);
      this.open.delete(conn);
      if (g.members.delete(member)) this.forget(g);
    });
    g.joining++;
    try {
      await this.catchUp(g, member);
    } catch (e) {
      this.opts.onError?.('stream.catch_up_failed', { list: source.key, error: (e as Error).message });
      this.finish(member, 'error');
    } finally {
      g.joining--;
      this.forget(g);
    }
  }

  private async catchUp(g: Group, m: Member): Promise<void> {
    while (m.conn.open) {
      const through = g.through;
      if (m.after >= g.source.edge(through)) {
        // Nothing can lie between its position and the group's tip (a client from the tip, or one resuming at it):
        // it joins with no read. Clients that all (re)connect at once, after a restart, would otherwise each send
        // the engine an empty read, and a tip advance's read would queue behind them.
        g.members.add(m);
        return;
      }
      const items = await g.source.read(m.after, through, this.opts.pageSize);
      if (!m.conn.open) return;
      if (items.length > 0 && !this.offer(m, items, framesOf(g.source, items))) return;
      if (items.length < this.opts.pageSize && g.through === through) {
        // Everything up to the group's tip is sent and the group has not moved: from now on its pushes cover us.
        g.members.add(m);
        return;
      }
      await m.conn.drained();
    }
  }

  /**
   * Every row at or below `tip` is committed: the status feed read it, or the ingest in this process said so. Each
   * list reads its new items and offers them to its live clients. A tip at or below where a list is does nothing
   * (two sources of the tip may report it out of order).
   */
  advance(tip: number): void {
    for (const g of this.groups.values()) {
      if (tip > g.target) g.target = tip;
      if (!g.running && g.target > g.through) {
        g.running = true;
        void this.run(g);
      }
    }
  }

  /**
   * The indexed height went down (a re-ingest moved the checkpoint back): every stream is ended at the point it
   * reached (its client resumes from there), and every list starts again from `tip`.
   */
  rewind(tip: number): void {
    this.epoch++;
    for (const m of [...this.open.values()]) this.finish(m, 'rewind');
    for (const g of this.groups.values()) {
      g.through = Math.min(g.through, tip);
      g.target = g.through;
    }
  }

  private async run(g: Group): Promise<void> {
    try {
      while (g.target > g.through) {
        const target = g.target;
        const epoch = this.epoch;
        if (g.members.size === 0) {
          g.through = target; // nobody is live: the joining read for themselves
          continue;
        }
        const items: StreamItem[] = [];
        const reading = performance.now();
        let after = g.source.edge(g.through);
        for (;;) {
          const page = await g.source.read(after, target, this.opts.pageSize);
          items.push(...page);
          if (page.length < this.opts.pageSize) break;
          after = page[page.length - 1]!.pos;
        }
        const started = performance.now();
        metrics.streamReadSeconds.observe((started - reading) / 1000);
        if (epoch !== this.epoch) continue; // a rewind happened meanwhile: these items may be gone
        // Synchronously from here: `through` moves and every member gets the items, with no await between.
        g.through = target;
        if (items.length > 0) {
          const frames = framesOf(g.source, items);
          for (const m of [...g.members]) this.offer(m, items, frames);
          // Frames go straight to each socket (api/http/sse.ts), except a response's written through node's
          // chunked framing, which corks its socket until the next tick: a tick queued after those sees every
          // client's bytes handed to the kernel.
          process.nextTick(() => metrics.streamFanoutSeconds.observe((performance.now() - started) / 1000));
        }
      }
    } catch (e) {
      this.opts.onError?.('stream.advance_failed', { list: g.source.key, error: (e as Error).message });
    } finally {
      g.running = false;
      this.forget(g);
    }
  }

  /**
   * Offer items to a member (those past its position). false when it is gone, or was ended because it had left more
   * than its bound unread (overflow: nothing of these items was written, its resume point is the last item it got).
   */
  private offer(m: Member, items: readonly StreamItem[], frames: Frames): boolean {
    if (!m.conn.open) return false;
    let start = 0;
    while (start < items.length && items[start]!.pos <= m.after) start++;
    if (start === items.length) return true;
    if (!m.conn.offer(start === 0 ? frames.all : frames.each.slice(start).join(''))) {
      this.finish(m, 'overflow');
      return false;
    }
    m.after = items[items.length - 1]!.pos;
    m.events.inc(items.length - start);
    return true;
  }

  /** End a stream with a last `end` event saying why and where to resume (its id is the resume point too). */
  private finish(m: Member, reason: EndReason): void {
    if (!m.conn.open) return;
    metrics.streamEnds.inc({ reason });
    const resume = m.source.idOf(m.after);
    m.conn.end({ id: resume, event: 'end', data: JSON.stringify({ reason, resume }) });
  }

  private forget(g: Group): void {
    if (g.members.size === 0 && g.joining === 0 && !g.running && this.groups.get(g.source.key) === g) {
      this.groups.delete(g.source.key);
      this.listsChanged();
    }
  }

  private listsChanged(): void {
    this.opts.onLists?.(new Set(this.groups.keys()));
  }

  /** Stop the heartbeat (tests; a server's shutdown closes the connections themselves). */
  stop(): void {
    clearInterval(this.heartbeat);
  }
}

interface Frames {
  /** Every item's frame, shared: every connection queues the same bytes (no copy per client). */
  all: SharedFrames;
  each: string[];
}

function framesOf(source: StreamSource, items: readonly StreamItem[]): Frames {
  const each = items.map((i) => sseFrame({ id: source.idOf(i.pos), event: source.event, data: i.data }));
  return { all: new SharedFrames(Buffer.from(each.join(''))), each };
}
