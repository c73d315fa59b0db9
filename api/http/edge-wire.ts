// The edge's wire front: a lane's answer (api/http/edge.ts) written straight to the socket, before node's HTTP
// parser sees the request. Node's HTTP server costs a cache hit more CPU than everything else the edge does for it
// (request and response objects, header maps; docs/decisions/014-the-wire-front.md), and the clients this is for
// (an explorer's polls, a bridge UI's status polls) send the same plain GET again and again on a keep-alive
// connection.
//
// The front reads only such requests: complete heads within the bytes received, `GET`, HTTP/1.1, an origin-form
// target, no body, exactly one Host, at most one Origin, keep-alive, every header line well formed. It answers them
// while a lane does. A plain GET no lane answers goes to node's HTTP server through an in-process connection
// (edge-relay.ts) and the front keeps the client's socket: node's response is written to it, and the hits after it
// are the front's again once node has answered everything it was given (until then, requests go to node in order,
// so responses keep their order). Anything the front does not read (a partial or over-long head, another method, a
// body, an upgrade, a backed-up socket, a connection idle before its first request), and an event stream (its
// frames go straight to the client's socket, decision 013), makes the connection node's for good: the socket itself
// with every byte not yet answered when node holds nothing of it, else the rest of it through the relay. An answer
// is byte for byte what node writes for the same lane answer (test/api/http/edge-wire.test.ts).
import { type IncomingMessage, maxHeaderSize, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { EdgeAnswer, EdgeAnswerCount, EdgeLane } from './edge.js';
import { RelaySocket } from './edge-relay.js';

/** Node's limit of a request head (`--max-http-header-size`, 16 KB by default); a longer one is node's to refuse. */
export const MAX_HEAD_BYTES = maxHeaderSize;
/** Unsent response bytes past which the connection goes to node, whose server applies backpressure to pipelining. */
const MAX_UNSENT_BYTES = 256 * 1024;
/**
 * Header lines the front reads (a browser sends 10–30). Node keeps only the first `server.maxHeadersCount` (1,000 by
 * default) and drops the rest, so a head with more must be node's; the front is not installed on a server that
 * keeps fewer than this.
 */
export const MAX_HEADER_LINES = 64;
/** Node 20 closes an idle keep-alive connection this long after the `Keep-Alive: timeout` it advertises. */
const KEEP_ALIVE_BUFFER_MS = 1000;
const INSTALLED = Symbol('edge-wire');

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** A field value as the front takes it: visible ASCII, spaces and tabs (node also allows obs-text; it gets those). */
const FIELD_VALUE = /^[\t\x20-\x7e]*$/;
/** An origin-form target: a path and query of visible ASCII. */
const TARGET = /^\/[\x21-\x7e]*$/;
const REQUEST_LINE_END = ' HTTP/1.1';
/** A field value without its optional whitespace around it (spaces and tabs), as node gives it. */
const withoutOws = (raw: string) => raw.replace(/^[\t ]+|[\t ]+$/g, '');

/** What the front needs of a request head it may answer; null when it is node's to serve. */
export interface WireRequest {
  url: string;
  origin: string | undefined;
  /** It accepts `text/event-stream`: a response that may last, whose frames are written to the client's socket. */
  eventStream: boolean;
}
const EVENT_STREAM = /text\/event-stream/i;

/** Read one request head (without its final empty line); null hands the request to node. Pure. */
export function readHead(head: string): WireRequest | null {
  const lines = head.split('\r\n');
  if (lines.length > MAX_HEADER_LINES + 1) return null;
  const first = lines[0]!;
  if (!first.startsWith('GET ') || !first.endsWith(REQUEST_LINE_END)) return null;
  const url = first.slice(4, -REQUEST_LINE_END.length);
  if (!TARGET.test(url)) return null;
  let hosts = 0;
  let origins = 0;
  let origin: string | undefined;
  let eventStream = false;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    const colon = line.indexOf(':');
    if (colon <= 0) return null;
    const name = line.slice(0, colon);
    const raw = line.slice(colon + 1);
    if (!TOKEN.test(name) || !FIELD_VALUE.test(raw)) return null;
    switch (name.toLowerCase()) {
      case 'host':
        hosts++;
        break;
      case 'origin':
        origins++;
        origin = withoutOws(raw);
        break;
      case 'accept':
        if (EVENT_STREAM.test(raw)) eventStream = true;
        break;
      case 'proxy-connection': // llhttp reads it as `Connection`
        return null;
      case 'connection':
        if (withoutOws(raw).toLowerCase() !== 'keep-alive') return null;
        break;
      case 'content-length':
      case 'transfer-encoding':
      case 'expect':
      case 'upgrade':
        return null;
    }
  }
  return hosts === 1 && origins <= 1 ? { url, origin, eventStream } : null;
}

/**
 * `readHead` of heads seen lately, by the head's text: a poller sends the same head again and again. Bounded in
 * number and in the length of a head kept, since heads are the client's to choose.
 */
const headsRead = new Map<string, WireRequest | null>();
const HEADS_KEPT = 4096;
const HEAD_KEPT_CHARS = 2048;

/** `readHead`, remembered for short heads (a `WireRequest` is never changed once read). */
export function readHeadKept(head: string): WireRequest | null {
  if (head.length > HEAD_KEPT_CHARS) return readHead(head);
  let r = headsRead.get(head);
  if (r === undefined) {
    r = readHead(head);
    if (headsRead.size >= HEADS_KEPT) headsRead.clear();
    headsRead.set(head, r);
  }
  return r;
}

/** A body this long or longer is written after its head without being copied (one `writev`); a shorter one is copied. */
const COPY_LIMIT = 16 * 1024;

/**
 * The bytes node writes for a lane's answer to a keep-alive HTTP/1.1 GET: its status line, the lane's headers in
 * order, then node's own `Date`, `Connection` and `Keep-Alive`, and the body. Returned as one buffer, or as the head
 * and the body's own bytes when copying the body would cost more than a second iovec.
 */
export function answerBytes(a: EdgeAnswer, date: string, keepAliveMs: number): Buffer | [Buffer, Buffer] {
  let head = 'HTTP/1.1 200 OK\r\n';
  for (let i = 0; i < a.headers.length; i += 2) head += `${a.headers[i]}: ${a.headers[i + 1]}\r\n`;
  head += `Date: ${date}\r\nConnection: keep-alive\r\n`;
  if (keepAliveMs > 0) head += `Keep-Alive: timeout=${Math.floor(keepAliveMs / 1000)}\r\n`;
  head += '\r\n';
  const headBytes = Buffer.byteLength(head, 'latin1');
  if (typeof a.body !== 'string' && a.body.length >= COPY_LIMIT) return [Buffer.from(head, 'latin1'), a.body];
  const bodyBytes = typeof a.body === 'string' ? Buffer.byteLength(a.body) : a.body.length;
  const out = Buffer.allocUnsafe(headBytes + bodyBytes);
  out.write(head, 0, 'latin1');
  if (typeof a.body === 'string') out.write(a.body, headBytes, 'utf8');
  else a.body.copy(out, headBytes);
  return out;
}

/** The bytes of a kept answer (`EdgeAnswer.kept`) as last written: they hold within the same second. */
interface KeptBytes {
  date: string;
  keepAliveMs: number;
  bytes: Buffer | [Buffer, Buffer];
}
const keptBytes = new WeakMap<EdgeAnswer, KeptBytes>();

/** `answerBytes`, made once a second for an answer its lane keeps giving. */
function bytesOf(a: EdgeAnswer, date: string, keepAliveMs: number): Buffer | [Buffer, Buffer] {
  if (!a.kept) return answerBytes(a, date, keepAliveMs);
  const k = keptBytes.get(a);
  if (k !== undefined && k.date === date && k.keepAliveMs === keepAliveMs) return k.bytes;
  const bytes = answerBytes(a, date, keepAliveMs);
  keptBytes.set(a, { date, keepAliveMs, bytes });
  return bytes;
}

/** Write an answer's bytes: a head and an uncopied body leave in one `writev`. */
function writeAnswer(socket: Socket, bytes: Buffer | [Buffer, Buffer]): void {
  if (Buffer.isBuffer(bytes)) {
    socket.write(bytes);
    return;
  }
  socket.cork();
  socket.write(bytes[0]);
  socket.write(bytes[1]);
  socket.uncork();
}

/** The `Date` header's value, made once a second (as node does). */
let dateSecond = -1;
let dateValue = '';
function httpDate(): string {
  const now = Date.now();
  const second = Math.floor(now / 1000);
  if (second !== dateSecond) {
    dateSecond = second;
    dateValue = new Date(now).toUTCString();
  }
  return dateValue;
}

/**
 * Put the front on a node HTTP server before it listens. `answered` counts each answer in the metrics. Returns false,
 * leaving the server as it was, when it is installed already, when the server's connection handling is not node's
 * own single listener, or when the server has settings the front's answers do not follow (a request limit per
 * socket, a `timeout` listener, half-open connections, a header limit of its own or fewer headers kept).
 */
export function installWireFront(server: Server, lane: EdgeLane, answered: EdgeAnswerCount): boolean {
  const s = server as Server & { [INSTALLED]?: true; maxHeaderSize?: number; httpAllowHalfOpen?: boolean };
  const headersKept = server.maxHeadersCount ?? 1000;
  if (
    s[INSTALLED] ||
    server.maxRequestsPerSocket ||
    server.listenerCount('timeout') > 0 ||
    s.httpAllowHalfOpen ||
    s.maxHeaderSize !== undefined ||
    (headersKept > 0 && headersKept < MAX_HEADER_LINES)
  )
    return false;
  const listeners = server.listeners('connection');
  if (listeners.length !== 1) return false;
  // Node's connection listener reads any duplex stream as a connection (the relay is one); typed so.
  const nodeConnection = listeners[0] as (this: Server, socket: Duplex) => void;
  server.removeListener('connection', nodeConnection);
  s[INSTALLED] = true;
  /**
   * Connections the front holds (node's server knows only their relays, if any), with their relay: closed with the
   * server's. A connection without a relay is idle from HTTP's point of view (the front answers a request at once or
   * passes it on); one with a relay is idle when node's server says its relay is.
   */
  const held = new Map<Socket, RelaySocket | null>();
  const closeIdle = server.closeIdleConnections.bind(server);
  const closeAll = server.closeAllConnections.bind(server);
  server.closeIdleConnections = () => {
    for (const [socket, relay] of held) if (relay === null) socket.destroy();
    closeIdle(); // destroys the idle relays, and so their clients' sockets
  };
  server.closeAllConnections = () => {
    for (const socket of held.keys()) socket.destroy();
    closeAll();
  };
  // Node's server started a response on a relay: counted there, so the front knows when node has answered it all.
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    if (req.socket instanceof RelaySocket) req.socket.responding(res);
  });

  server.on('connection', (socket: Socket) => {
    held.set(socket, null);
    let pending = ''; // bytes received and not answered, as latin1 (one character per byte)
    let answers = 0;
    let relay: RelaySocket | null = null;
    let passing = false; // node's server reads the rest of the connection through the relay
    const onData = (chunk: Buffer) => {
      if (relay?.destroyed) return; // node closed the connection: the socket closes once written, nothing is read
      if (passing) {
        relay!.pass(chunk);
        return;
      }
      pending += chunk.toString('latin1');
      for (;;) {
        const end = pending.indexOf('\r\n\r\n');
        if (end < 0 || end + 4 > MAX_HEAD_BYTES || socket.writableLength > MAX_UNSENT_BYTES) {
          if (pending.length > 0) toNode();
          return;
        }
        const start = process.hrtime.bigint();
        const request = readHeadKept(pending.slice(0, end));
        if (request === null || request.eventStream) {
          toNode();
          return;
        }
        // Behind a request node still serves, even a hit is node's: responses leave in the order of requests.
        const a = relay?.busy ? null : lane(request.url, request.origin);
        if (a === null) {
          relay ??= relayFor(socket);
          relay.give(Buffer.from(pending.slice(0, end + 4), 'latin1'));
        } else {
          writeAnswer(socket, bytesOf(a, httpDate(), server.keepAliveTimeout));
          answers++;
          answered(a.route, start);
        }
        pending = pending.slice(end + 4);
      }
    };
    const relayFor = (client: Socket) => {
      const r = new RelaySocket(client);
      held.set(client, r);
      nodeConnection.call(server, r);
      return r;
    };
    // Idle for the keep-alive time after an answer: closed, as node closes it. Idle before any request (or a server
    // without a keep-alive timeout): node's, whose own timeouts apply from then on. While node serves a request,
    // node's request timeouts apply, not this one.
    const onIdle = () => {
      if (relay?.busy) return;
      // Node may hold part of a request read through the relay: the connection closes rather than lose it.
      if ((answers === 0 && relay === null) || (server.keepAliveTimeout <= 0 && !passing)) toNode();
      else socket.destroy();
    };
    // The client ended its side: so does node's server on the relay (it ends the connection as it would end a
    // socket's), or the front, which holds nothing unanswered.
    const onEnd = () => (relay ? relay.push(null) : socket.end());
    const onError = () => socket.destroy();
    const onClose = () => {
      held.delete(socket);
      relay?.destroy();
    };
    /** The rest of the connection is node's: through the relay while node serves a request on it, else the socket. */
    const toNode = () => {
      if (relay?.busy) {
        passing = true;
        relay.pass(Buffer.from(pending, 'latin1'));
        pending = '';
        return;
      }
      relay?.detach();
      relay = null;
      handOver();
    };
    const handOver = () => {
      socket.removeListener('data', onData);
      socket.removeListener('timeout', onIdle);
      socket.removeListener('end', onEnd);
      socket.removeListener('error', onError);
      socket.removeListener('close', onClose);
      socket.setTimeout(0);
      held.delete(socket);
      socket.pause();
      if (pending.length > 0) socket.unshift(Buffer.from(pending, 'latin1'));
      pending = '';
      nodeConnection.call(server, socket);
      // Node's server reads the unanswered bytes first (they are at the head of the socket's buffer), then the rest.
      process.nextTick(() => socket.resume());
    };
    socket.on('data', onData);
    socket.on('end', onEnd);
    socket.on('error', onError);
    socket.on('close', onClose);
    socket.on('timeout', onIdle);
    socket.setTimeout(server.keepAliveTimeout > 0 ? server.keepAliveTimeout + KEEP_ALIVE_BUFFER_MS : 5_000);
  });
  return true;
}
