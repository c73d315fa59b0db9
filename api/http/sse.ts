// Server-Sent Events on a response: the wire framing (pure, below) and `SseConnection`, one open stream with a
// bounded send buffer. The framing follows the HTML living standard's event-stream format: fields `id`, `event`,
// `data` (one `data:` line per line of the payload), `retry`, a line starting with `:` is a comment (our
// heartbeat), and a blank line ends an event. A browser's `EventSource` reconnects on its own after a close and
// sends the last `id` it received as `Last-Event-ID`, so every close of ours is a resumable one.
import type { Socket } from 'node:net';
import type { Response } from 'express';

export interface SseEvent {
  /** The resume point of this event (the stream's `Last-Event-ID` after it). */
  id?: string;
  /** The event's type; the browser's default is `message`. */
  event?: string;
  /** The payload, usually one line of JSON. */
  data: string;
}

/**
 * One event as it goes on the wire. A value holding a line break would end its field early: `id` and `event` must
 * not (the caller's values are cursors and fixed names); `data` is split into one `data:` line per line.
 */
export function sseFrame(e: SseEvent): string {
  let out = '';
  if (e.id !== undefined) out += `id: ${oneLine(e.id, 'id')}\n`;
  if (e.event !== undefined) out += `event: ${oneLine(e.event, 'event')}\n`;
  for (const line of e.data.split(/\r\n|\r|\n/)) out += `data: ${line}\n`;
  return `${out}\n`;
}

/**
 * The OpenAPI schema of one event of a `text/event-stream` response, as SSE-aware tools (the fuzzer) check each event:
 * its fields, `data` as text.
 */
export function sseEventSchema(events: readonly string[], data: string): Record<string, unknown> {
  return {
    type: 'object',
    required: ['data'],
    properties: {
      id: { type: 'string', description: 'the resume point (Last-Event-ID)' },
      event: { type: 'string', enum: [...events] },
      data: { type: 'string', description: data },
      retry: { type: 'integer', minimum: 0 },
    },
  };
}

/** A comment line: ignored by clients, it keeps an idle connection (and the proxies on its way) open. */
export const sseComment = (text: string): string => `: ${oneLine(text, 'comment')}\n\n`;

/** How long a client waits before reconnecting after a close (ms), as the stream's first field. */
export const sseRetry = (ms: number): string => `retry: ${Math.max(0, Math.trunc(ms))}\n\n`;

function oneLine(v: string, field: string): string {
  if (/[\r\n\0]/.test(v)) throw new Error(`SSE ${field} must be one line without NUL`);
  return v;
}

/**
 * Frames offered to many connections: the bytes once, and (built on first use) once more as one HTTP/1.1 chunk, so a
 * fan-out to N connections is N socket writes of the same Buffer, with no copy or framing per connection.
 */
export class SharedFrames {
  private framed: Buffer | undefined;
  constructor(readonly bytes: Buffer) {}
  /** The bytes as one chunk; empty when there are none (a zero-length chunk would end the body). */
  get chunk(): Buffer {
    this.framed ??=
      this.bytes.length === 0
        ? this.bytes
        : Buffer.concat([Buffer.from(`${this.bytes.length.toString(16)}\r\n`), this.bytes, CRLF]);
    return this.framed;
  }
}

const CRLF = Buffer.from('\r\n');

/** A string as one chunk of HTTP/1.1 chunked framing; empty for an empty string (that chunk would end the body). */
const chunkOf = (s: string): string => (s === '' ? '' : `${Buffer.byteLength(s).toString(16)}\r\n${s}\r\n`);

export interface SseConnectionOptions {
  /** Bytes buffered for this client (written, not yet taken by the socket) past which `offer` refuses. */
  maxBufferBytes: number;
  /** Reconnection delay sent to the client (EventSource `retry`). */
  retryMs: number;
}

/**
 * One open event stream on an HTTP response. Writes never wait: `offer` queues frames unless the client has left more
 * than `maxBufferBytes` unread since its last chance, so a client that reads keeps up however large one tip move
 * is, and one that does not is bounded by the limit plus one write. `drained` resolves when the client has taken
 * its buffer back under the limit (for a reader that paces itself: a catch-up). After `end` nothing more is written;
 * the close listeners (the admission slot's release among them) run when the connection is really done: the last
 * bytes taken, or the socket destroyed.
 */
export class SseConnection {
  private ended = false;
  private closed = false;
  private readonly closeListeners: (() => void)[] = [];
  /**
   * The socket the frames go to directly, framed as chunks here, or null to write through the response. Node's
   * own write corks the socket, writes each chunk's size line, data and line end separately, and flushes on the next
   * tick: at 1,000 clients that was about a third of a fan-out's time (decision 013). Direct only when:
   * - the response has a socket (a response pipelined behind another has none until its turn);
   * - it holds nothing of its own unwritten (its headers went straight to that socket);
   * - it frames its body in chunks (every HTTP/1.1 GET; HTTP/1.0 and HEAD have no chunks).
   * The response still ends itself, which writes the last chunk after ours on the same socket.
   */
  private readonly socket: Socket | null;

  constructor(
    private readonly res: Response,
    private readonly opts: SseConnectionOptions,
  ) {
    res.status(200);
    res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
    res.setHeader('Cache-Control', 'no-cache, no-transform');
    res.setHeader('Connection', 'keep-alive');
    // Reverse proxies (nginx) buffer responses unless told not to; an event must leave at once.
    res.setHeader('X-Accel-Buffering', 'no');
    res.flushHeaders();
    res.socket?.setNoDelay(true);
    const socket = res.socket;
    this.socket = socket && res.chunkedEncoding && res.writableLength === socket.writableLength ? socket : null;
    // A client that left while the stream was being prepared (an awaited read before this) closed the response
    // already, and 'close' will not come again: the connection is done from the start, so onClose runs at once.
    if (res.destroyed || res.closed) {
      this.ended = true;
      this.closed = true;
      return;
    }
    this.write(sseRetry(opts.retryMs));
    res.on('close', () => {
      this.ended = true;
      this.closed = true;
      for (const l of this.closeListeners.splice(0)) l();
    });
  }

  get open(): boolean {
    return !this.ended && !this.res.destroyed && !this.res.writableEnded;
  }

  /** Whether frames go straight to the socket (see `socket`), decided once at the start; false: through the response. */
  get direct(): boolean {
    return this.socket !== null;
  }

  /**
   * Queue frames (shared frames are not copied per connection); false, writing nothing,
   * when the connection is closed or the client still has more than the bound unread.
   */
  offer(frames: string | SharedFrames): boolean {
    if (!this.open || this.unread > this.opts.maxBufferBytes) return false;
    this.write(frames);
    return true;
  }

  /** Resolves once the client's unread bytes are back under the bound, or the connection is done. */
  drained(): Promise<void> {
    const bound = this.opts.maxBufferBytes;
    if (!this.open || this.unread <= bound) return Promise.resolve();
    // `drain` comes once a write returned false (a buffer past the stream's high-water mark) and the buffer is
    // empty; `close` ends the wait otherwise. A bound below the high-water mark (16 KiB on Node 20, more on later
    // versions) can be passed with no `drain` to come, so a timer also looks again meanwhile.
    const writer = this.socket ?? this.res;
    return new Promise((resolve) => {
      const look = setInterval(() => {
        if (!this.open || this.unread <= bound) done();
      }, 20);
      const done = () => {
        clearInterval(look);
        writer.off('drain', done);
        this.res.off('close', done);
        resolve();
      };
      writer.on('drain', done);
      this.res.on('close', done);
    });
  }

  /** Bytes written and not yet taken by the client's socket. */
  private get unread(): number {
    return this.socket ? this.socket.writableLength : this.res.writableLength;
  }

  private write(frames: string | SharedFrames): void {
    if (!this.socket) {
      this.res.write(typeof frames === 'string' ? frames : frames.bytes);
      return;
    }
    // Every write comes before the response's end (`offer` and `end` check `open`; the constructor's comes first).
    // Nothing once the socket is no longer this response's or no longer writable (the client half-closed and the
    // server ended its side): 'close' follows.
    if (this.res.socket !== this.socket || !this.socket.writable) return;
    const bytes = typeof frames === 'string' ? chunkOf(frames) : frames.chunk;
    if (bytes.length > 0) this.socket.write(bytes);
  }

  /** Run `listener` once the connection is done (at once if it already is). */
  onClose(listener: () => void): void {
    if (this.closed) listener();
    else this.closeListeners.push(listener);
  }

  /**
   * Send a last event (if any) and end the response. A client that never takes its buffer is cut off `graceMs` later,
   * so a stalled socket cannot hold its memory (the timer is cleared once the response is done).
   */
  end(last?: SseEvent, graceMs = 30_000): void {
    if (!this.open) return;
    if (last) this.write(sseFrame(last));
    this.ended = true;
    this.res.end();
    if (this.closed) return;
    const socket = this.res.socket;
    const timer = setTimeout(() => socket?.destroy(), graceMs);
    timer.unref();
    this.res.once('close', () => clearTimeout(timer));
  }
}

/**
 * Keep an open stream alive and bounded: a heartbeat comment every `heartbeatMs`, and `onLifetime` (which ends it,
 * resumably) after `lifetimeMs`. Both timers stop when the connection is done.
 */
export function keepAlive(
  conn: SseConnection,
  o: { heartbeatMs: number; lifetimeMs: number },
  onLifetime: () => void,
): void {
  const beat = setInterval(() => conn.offer(sseComment('heartbeat')), o.heartbeatMs);
  const lifetime = setTimeout(onLifetime, o.lifetimeMs);
  conn.onClose(() => {
    clearInterval(beat);
    clearTimeout(lifetime);
  });
}
