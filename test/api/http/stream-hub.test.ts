// The stream hub's protocol (api/http/stream-hub.ts) over an in-memory list whose reads yield to the event loop,
// so catch-ups, joins and tip advances interleave: every client must get exactly the items after its resume point,
// in order; a client that stops reading is ended with its resume point and holds nobody back; a rewind, the
// lifetime and the admission limits end or refuse streams as documented. The HTTP and engine side is covered by
// test/api/indexer/streams.test.ts.
import { afterEach, describe, expect, it } from 'vitest';
import { type SharedFrames, type SseEvent, sseComment, sseFrame, sseRetry } from '../../../api/http/sse.js';
import { type StreamConn, StreamHub, type StreamSource } from '../../../api/http/stream-hub.js';
import { type ParsedEvent, parseEvents } from '../../support/sse.js';
import { until } from '../../support/until.js';

type Parsed = ParsedEvent;

const parseStream = (text: string): Parsed[] => parseEvents(text).events;

class MemConn implements StreamConn {
  text = '';
  open = true;
  private unread = 0;
  private readonly listeners: (() => void)[] = [];
  constructor(
    private readonly maxBuffer = Number.POSITIVE_INFINITY,
    /** false: a client that never reads (everything stays buffered). */
    private readonly reads = true,
  ) {}
  offer(frames: string | SharedFrames): boolean {
    if (!this.open || this.unread > this.maxBuffer) return false;
    const text = typeof frames === 'string' ? frames : frames.bytes.toString();
    this.text += text;
    if (!this.reads) this.unread += text.length;
    return true;
  }
  drained(): Promise<void> {
    return new Promise((r) => setImmediate(r));
  }
  onClose(l: () => void): void {
    if (!this.open) l();
    else this.listeners.push(l);
  }
  end(last?: SseEvent): void {
    if (!this.open) return;
    if (last) this.text += sseFrame(last);
    this.open = false;
    for (const l of this.listeners.splice(0)) l();
  }
  events(): Parsed[] {
    return parseStream(this.text);
  }
}

/** A list of items, three per height (positions height * 10 + i), growing as heights are "indexed". */
class MemList {
  items: { pos: number; height: number }[] = [];
  reads = 0;
  grow(toHeight: number): void {
    const from = this.items.length === 0 ? 1 : this.items[this.items.length - 1]!.height + 1;
    for (let h = from; h <= toHeight; h++) for (let i = 0; i < 3; i++) this.items.push({ pos: h * 10 + i, height: h });
  }
  source(): StreamSource {
    return {
      key: 'mem',
      event: 'item',
      edge: (tip) => tip * 10 + 9,
      idOf: (pos) => `c${pos}`,
      read: async (after, through, limit) => {
        this.reads++;
        await new Promise((r) => setImmediate(r));
        return this.items
          .filter((x) => x.pos > after && x.height <= through)
          .slice(0, limit)
          .map((x) => ({ pos: x.pos, data: JSON.stringify({ pos: x.pos }) }));
      },
    };
  }
}

const hubs: StreamHub[] = [];
function hubOver(tip: () => number, o: Partial<ConstructorParameters<typeof StreamHub>[0]> = {}) {
  const hub = new StreamHub({
    tip: async () => tip(),
    pageSize: 4,
    heartbeatMs: 60_000,
    maxLifetimeMs: 60_000,
    maxStreams: 10_000,
    maxPerClient: 10_000,
    ...o,
  });
  hubs.push(hub);
  return hub;
}
afterEach(() => {
  for (const h of hubs.splice(0)) h.stop();
});

describe('SSE framing', () => {
  it('frames id, event and multi-line data as the event-stream format; refuses line breaks in id and event', () => {
    expect(sseFrame({ id: 'k1', event: 'tx', data: '{"a":1}' })).toBe('id: k1\nevent: tx\ndata: {"a":1}\n\n');
    expect(sseFrame({ data: 'a\nb\r\nc' })).toBe('data: a\ndata: b\ndata: c\n\n');
    expect(parseStream(sseFrame({ id: 'x', data: 'a\nb' }))).toEqual([{ id: 'x', data: 'a\nb' }]);
    expect(sseComment('heartbeat')).toBe(': heartbeat\n\n');
    expect(sseRetry(1500)).toBe('retry: 1500\n\n');
    expect(() => sseFrame({ id: 'a\nb', data: '' })).toThrow(/id/);
    expect(() => sseFrame({ event: 'a\rb', data: '' })).toThrow(/event/);
  });
});

describe('StreamHub', () => {
  it('sends every item after each resume point exactly once and in order, while catch-ups and advances interleave', async () => {
    const list = new MemList();
    let tip = 5;
    list.grow(tip);
    const hub = hubOver(() => tip);
    const source = list.source();
    const clients: { conn: MemConn; after: number | null }[] = [];
    // Clients arrive while the tip moves: some from the tip, some from old positions (catch-ups of several pages).
    for (let step = 0; step < 40; step++) {
      const after = step % 3 === 0 ? null : (step * 7) % (tip * 10);
      const conn = new MemConn();
      clients.push({ conn, after });
      if (after === null) (conn as MemConn & { startTip?: number }).startTip = tip;
      void hub.serve(source, after, conn);
      tip += step % 2;
      list.grow(tip);
      hub.advance(tip);
      await new Promise((r) => setImmediate(r));
    }
    // every client has the last item (a new-items client that opened at the last tip has nothing)
    await until(
      () => clients.every((c) => c.conn.events().length === 0 || c.conn.events().at(-1)?.id === `c${tip * 10 + 2}`),
      5000,
      'every client at the last item',
      2,
    );
    await new Promise((r) => setTimeout(r, 20));
    for (const c of clients) {
      const got = c.conn.events();
      const positions = got.map((e) => JSON.parse(e.data).pos as number);
      let from: number;
      if (c.after !== null) from = c.after;
      else {
        // new items only: from the tip the stream saw when it opened (at or after the one before serve), so a
        // whole-height suffix of the list
        const startTip = (c.conn as MemConn & { startTip?: number }).startTip as number;
        from = positions.length === 0 ? tip * 10 + 9 : positions[0]! - 1;
        expect(from % 10).toBe(9);
        expect((from - 9) / 10).toBeGreaterThanOrEqual(startTip);
      }
      const want = list.items.filter((x) => x.pos > from).map((x) => x.pos);
      expect(positions).toEqual(want);
      expect(got.map((e) => e.id)).toEqual(want.map((p) => `c${p}`));
      expect(got.every((e) => e.event === 'item')).toBe(true);
    }
  });

  it('reads the new items once per advance for all live clients of a list', async () => {
    const list = new MemList();
    let tip = 1;
    list.grow(tip);
    const hub = hubOver(() => tip);
    const conns = Array.from({ length: 50 }, () => new MemConn());
    await Promise.all(conns.map((c) => hub.serve(list.source(), null, c)));
    const before = list.reads;
    tip = 3; // 6 items: two pages of 4
    list.grow(tip);
    hub.advance(tip);
    await until(() => conns.every((c) => c.events().length === 6), 5000, 'every client', 2);
    expect(list.reads - before).toBe(2);
  });

  it('a client from the tip, or resuming at it, joins with no read; one behind it catches up by reading', async () => {
    const list = new MemList();
    let tip = 4;
    list.grow(tip);
    const hub = hubOver(() => tip);
    const source = list.source();
    const live = Array.from({ length: 20 }, () => new MemConn());
    await Promise.all(live.map((c) => hub.serve(source, null, c)));
    const atTip = new MemConn();
    await hub.serve(source, source.edge(tip), atTip); // its last id was the tip's last item
    expect(list.reads).toBe(0);
    const behind = new MemConn();
    await hub.serve(source, 2 * 10 + 9, behind); // heights 3 and 4 to catch up: two pages of 4
    expect(list.reads).toBe(2);
    expect(behind.events().map((e) => e.id)).toEqual(['c30', 'c31', 'c32', 'c40', 'c41', 'c42']);
    tip = 5;
    list.grow(tip);
    hub.advance(tip);
    const want = ['c50', 'c51', 'c52'];
    await until(() => [...live, atTip].every((c) => c.events().length === 3), 5000, 'every live client', 2);
    for (const c of [...live, atTip]) expect(c.events().map((e) => e.id)).toEqual(want);
    await until(() => behind.events().length === 9, 5000, 'the caught-up client', 2);
    expect(
      behind
        .events()
        .slice(6)
        .map((e) => e.id),
    ).toEqual(want);
  });

  it('ends a client that stops reading with its resume point; the others go on', async () => {
    const list = new MemList();
    let tip = 0;
    const hub = hubOver(() => tip);
    const stalled = new MemConn(200, false);
    const reader = new MemConn();
    await hub.serve(list.source(), null, stalled);
    await hub.serve(list.source(), null, reader);
    for (let h = 1; h <= 20; h++) {
      tip = h;
      list.grow(h);
      hub.advance(h);
      await until(() => reader.events().length === h * 3, 5000, 'the reader', 2);
    }
    expect(stalled.open).toBe(false);
    const events = stalled.events();
    const last = events.at(-1)!;
    expect(last.event).toBe('end');
    const body = JSON.parse(last.data) as { reason: string; resume: string };
    expect(body.reason).toBe('overflow');
    // the resume point is the last item it was sent, and the end event's id says the same
    expect(body.resume).toBe(events.at(-2)!.id);
    expect(last.id).toBe(body.resume);
    expect(reader.open).toBe(true);
    expect(reader.events().map((e) => e.id)).toEqual(list.items.map((x) => `c${x.pos}`));
  });

  it('never cuts a client that reads, however large one tip move is against its bound', async () => {
    const list = new MemList();
    let tip = 0;
    const hub = hubOver(() => tip);
    const small = new MemConn(50); // a 50-byte bound; one tip move below is ~40 items, kilobytes of frames
    await hub.serve(list.source(), null, small);
    for (const h of [13, 14, 30]) {
      tip = h;
      list.grow(h);
      hub.advance(h);
      await until(() => small.events().length === list.items.length, 5000, 'the small client', 2);
    }
    expect(small.open).toBe(true);
    expect(small.events().map((e) => e.id)).toEqual(list.items.map((x) => `c${x.pos}`));
  });

  it('ends a stream whose tip cannot be read with an error event, and serves the next one', async () => {
    const list = new MemList();
    list.grow(2);
    let fail = true;
    const hub = new StreamHub({
      tip: async () => {
        if (fail) throw new Error('engine down');
        return 2;
      },
      pageSize: 4,
      heartbeatMs: 60_000,
      maxLifetimeMs: 60_000,
      maxStreams: 10,
      maxPerClient: 10,
    });
    hubs.push(hub);
    const a = new MemConn();
    await hub.serve(list.source(), 0, a);
    expect(a.open).toBe(false);
    expect(JSON.parse(a.events().at(-1)!.data)).toEqual({ reason: 'error', resume: null });
    fail = false;
    const b = new MemConn();
    await hub.serve(list.source(), 0, b);
    expect(b.events()).toHaveLength(6);
  });

  it('ends every stream on a rewind, at the point each had reached', async () => {
    const list = new MemList();
    const tip = 4;
    list.grow(tip);
    const hub = hubOver(() => tip);
    const a = new MemConn();
    await hub.serve(list.source(), 0, a);
    await until(() => a.events().length === 12, 5000, 'the catch-up', 2);
    hub.advance(2); // a late, lower report of the tip is not a rewind
    expect(a.open).toBe(true);
    hub.rewind(2);
    expect(a.open).toBe(false);
    expect(JSON.parse(a.events().at(-1)!.data)).toEqual({ reason: 'rewind', resume: 'c42' });
  });

  it('ends a stream after its lifetime, resumably', async () => {
    const list = new MemList();
    list.grow(1);
    const hub = hubOver(() => 1, { maxLifetimeMs: 30 });
    const a = new MemConn();
    await hub.serve(list.source(), null, a);
    await until(() => !a.open, 5000, 'the lifetime end', 2);
    expect(JSON.parse(a.events().at(-1)!.data)).toEqual({ reason: 'lifetime', resume: 'c19' });
  });

  it('admits streams up to the per-client and per-process limits, and again after a release', () => {
    const hub = hubOver(() => 0, { maxStreams: 3, maxPerClient: 2 });
    const a1 = hub.admit('a');
    const a2 = hub.admit('a');
    expect(typeof a1).toBe('function');
    expect(typeof a2).toBe('function');
    expect(hub.admit('a')).toEqual({ limit: 'client', max: 2 });
    const b1 = hub.admit('b');
    expect(typeof b1).toBe('function');
    expect(hub.admit('c')).toEqual({ limit: 'process', max: 3 });
    (a1 as () => void)();
    (a1 as () => void)(); // a second release counts once
    expect(hub.size).toBe(2);
    expect(typeof hub.admit('c')).toBe('function');
  });
});
