// The edge's wire front (api/http/edge-wire.ts): which request heads it reads, and, over loopback sockets, that its
// answers are byte for byte node's answers for the same lane, that it hands a connection to node's server with every
// unanswered byte in order (pipelined requests, partial and over-long heads), and that it closes what node closes.
import { createServer, type Server } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeServer, listen } from '../../../api/http/app.js';
import { installJsonClientErrors } from '../../../api/http/client-errors.js';
import {
  installWireFront,
  MAX_HEAD_BYTES,
  MAX_HEADER_LINES,
  readHead,
  readHeadKept,
} from '../../../api/http/edge-wire.js';
import {
  addEdgeLane,
  edgeHandler,
  edgeLanesOf,
  requestAccounting,
  responseCacheLane,
  transferStatusLane,
} from '../../../api/http/edge.js';
import { registry } from '../../../platform/metrics.js';

const GET = (url: string, ...headers: string[]) => `GET ${url} HTTP/1.1\r\n${headers.map((h) => `${h}\r\n`).join('')}`;
/** A head as the front reads it: without its final empty line. */
const head = (url: string, ...headers: string[]) => GET(url, ...headers).slice(0, -2);

describe('the request heads the front reads', () => {
  it('takes a keep-alive GET with one Host and at most one Origin, and its URL and Origin as sent', () => {
    expect(readHead(head('/status', 'Host: a'))).toEqual({ url: '/status', origin: undefined, eventStream: false });
    expect(readHead(head('/x?a=1&b=%20', 'host:a', 'Origin:  https://o.example  ', 'Connection: Keep-Alive'))).toEqual({
      url: '/x?a=1&b=%20',
      origin: 'https://o.example',
      eventStream: false,
    });
    expect(readHead(head('/x', 'Host: a', 'Accept: */*', 'User-Agent: t\tu'))).toEqual({
      url: '/x',
      origin: undefined,
      eventStream: false,
    });
  });

  it('marks a request for an event stream (its frames go to the socket itself)', () => {
    expect(readHead(head('/s', 'Host: a', 'Accept: Text/Event-Stream'))?.eventStream).toBe(true);
    expect(readHead(head('/s', 'Host: a', 'Accept: application/json, text/event-stream;q=0.5'))?.eventStream).toBe(
      true,
    );
    expect(readHead(head('/s', 'Host: a', 'Accept: application/json'))?.eventStream).toBe(false);
  });

  it.each([
    ['another method', 'HEAD /x HTTP/1.1\r\nHost: a'],
    ['HTTP/1.0', 'GET /x HTTP/1.0\r\nHost: a'],
    ['an absolute-form target', 'GET http://a/x HTTP/1.1\r\nHost: a'],
    ['a space in the target', 'GET /x y HTTP/1.1\r\nHost: a'],
    ['no Host', 'GET /x HTTP/1.1\r\nAccept: */*'],
    ['two Hosts', GET('/x', 'Host: a', 'host: b')],
    ['two Origins', GET('/x', 'Host: a', 'Origin: https://a', 'Origin: https://b')],
    ['Connection: close', GET('/x', 'Host: a', 'Connection: close')],
    ['Connection: upgrade', GET('/x', 'Host: a', 'Connection: Upgrade', 'Upgrade: websocket')],
    ['a body length', GET('/x', 'Host: a', 'Content-Length: 0')],
    ['a chunked body', GET('/x', 'Host: a', 'Transfer-Encoding: chunked')],
    ['Expect', GET('/x', 'Host: a', 'Expect: 100-continue')],
    ['a folded line', GET('/x', 'Host: a', 'X-A: b', ' c')],
    ['a line without a colon', GET('/x', 'Host: a', 'X-A b')],
    ['a bad header name', GET('/x', 'Host: a', 'X A: b')],
    ['a non-ASCII value', GET('/x', 'Host: a', 'X-A: \u00e9')],
    ['a control character in a value', GET('/x', 'Host: a', 'X-A: b\u0001')],
    ['Proxy-Connection (node reads it as Connection)', GET('/x', 'Host: a', 'Proxy-Connection: close')],
    [
      'more header lines than the front reads',
      GET('/x', ...Array.from({ length: MAX_HEADER_LINES }, (_, i) => `X-${i}: 1`), 'Host: a'),
    ],
  ])('hands %s to node', (_name, h) => {
    expect(readHead(h.replace(/\r\n$/, ''))).toBeNull();
    // Remembered or not, the same answer.
    expect(readHeadKept(h.replace(/\r\n$/, ''))).toBeNull();
    expect(readHeadKept(h.replace(/\r\n$/, ''))).toBeNull();
  });

  it('remembers what it read of a head, past the number of heads it keeps too', () => {
    const heads = Array.from({ length: 2_500 }, (_, i) =>
      i % 3 === 0 ? head(`/p/${i}`, 'Host: a', `Origin: https://o${i}.example`) : head(`/p/${i}`, 'Host: a', 'Host: b'),
    );
    for (const round of [1, 2]) {
      for (const h of heads) expect(readHeadKept(h), `round ${round}`).toEqual(readHead(h));
    }
    const long = head('/x', 'Host: a', `X-Long: ${'v'.repeat(4_000)}`);
    expect(readHeadKept(long)).toEqual({ url: '/x', origin: undefined, eventStream: false });
  });
});

const BODY = Buffer.from(JSON.stringify({ holders: [{ account: 'init1xyz', amount: '1000000000000000000' }] }));
/** A body past the front's copy limit: its head and body leave in one writev. */
const BIG = Buffer.from(
  JSON.stringify({
    holders: Array.from({ length: 600 }, (_, i) => ({ account: `init1${i}`, amount: '1'.repeat(40) })),
  }),
);
/** A kept body the tests replace, as the response cache replaces a page it computed again. */
let changing = Buffer.from('{"version":1}');
const STATUS = JSON.stringify({ state: 'STATE_COMPLETED_SUCCESS', transfers: [] });
const TX = 'AB'.repeat(32);

/** An app whose lanes answer `/hit` (the response cache's lane) and one transfer status; express answers the rest. */
function appWithLanes(): express.Express {
  const app = express();
  app.set('service', 'router');
  app.use(requestAccounting('router'));
  app.get('/miss', (_req, res) => {
    res.json({ handler: true });
  });
  // What node's request shows of the connection: the client's address and port, and whether it is the socket itself.
  app.get('/whoami', (req, res) => {
    res.json({ ip: req.ip, port: req.socket.remotePort, socket: req.socket instanceof net.Socket });
  });
  app.get('/closing', (_req, res) => {
    res.set('Connection', 'close').json({ closing: true });
  });
  app.get('/slow', (req, res) => {
    setTimeout(() => res.json({ slow: true }), Number(req.query.ms ?? 300));
  });
  app.post('/echo', express.text({ type: '*/*' }), (req, res) => {
    res.json({ body: req.body as string });
  });
  addEdgeLane(
    app,
    responseCacheLane(
      (url) =>
        url === '/hit' || url === '/hit?x=1' ? BODY : url === '/big' ? BIG : url === '/changing' ? changing : undefined,
      {
        enabled: true,
        origins: ['https://*.example.com'],
        methods: ['GET'],
        headers: ['*'],
        maxAge: 0,
      },
    ),
  );
  addEdgeLane(
    app,
    transferStatusLane((c, h) => (c === 'chain-1' && h === TX ? STATUS : undefined)),
  );
  return app;
}

let front: Server; // node's server with the edge handler, and the wire front before it
let nodeOnly: Server; // node's server with the same edge handler and no wire front
/** Answers the wire front gave, by route. */
const onWire: string[] = [];
beforeAll(async () => {
  const app = appWithLanes();
  front = createServer(edgeHandler(app));
  installJsonClientErrors(front);
  expect(installWireFront(front, edgeLanesOf(app)!, (route) => onWire.push(route))).toBe(true);
  front.listen(0, '127.0.0.1');
  await new Promise((r) => front.once('listening', r));
  nodeOnly = createServer(edgeHandler(appWithLanes())).listen(0, '127.0.0.1');
  await new Promise((r) => nodeOnly.once('listening', r));
});
afterAll(async () => {
  await closeServer(front);
  await closeServer(nodeOnly);
});

const portOf = (s: Server) => (s.address() as AddressInfo).port;

interface RawResponse {
  head: string;
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Split a byte stream into responses (each with a Content-Length; no HEAD answers). */
function responses(bytes: Buffer): RawResponse[] {
  const out: RawResponse[] = [];
  let at = 0;
  while (at < bytes.length) {
    const end = bytes.indexOf('\r\n\r\n', at);
    if (end < 0) throw new Error(`incomplete response head at byte ${at}`);
    const head = bytes.subarray(at, end).toString('latin1');
    const [statusLine, ...lines] = head.split('\r\n');
    const headers = Object.fromEntries(
      lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
    );
    const length = Number(headers['content-length']);
    const body = bytes.subarray(end + 4, end + 4 + length).toString('utf8');
    out.push({ head, status: Number(statusLine!.split(' ')[1]), headers, body });
    at = end + 4 + length;
  }
  return out;
}

const HIT = `${GET('/hit', 'Host: a')}\r\n`;
const MISS = `${GET('/miss', 'Host: a')}\r\n`;

/** One connection: send requests when the test says, and wait for the answers so far. */
async function open(server: Server) {
  const socket = net.connect(portOf(server), '127.0.0.1');
  const got: Buffer[] = [];
  let closed = false;
  socket.on('data', (d) => got.push(d));
  const onClose = new Promise<void>((r) =>
    socket.once('close', () => {
      closed = true;
      r();
    }),
  );
  await new Promise((r) => socket.once('connect', r));
  return {
    socket,
    send: (bytes: string) => socket.write(bytes, 'latin1'),
    closed: () => closed,
    whenClosed: () => onClose,
    /** The answers once there are `count` of them (or the connection closed, or 10 s passed). */
    until: async (count: number) => {
      const deadline = Date.now() + 10_000;
      for (;;) {
        let n = 0;
        try {
          n = responses(Buffer.concat(got)).length;
        } catch {
          n = -1; // a response still arriving
        }
        if (n >= count || closed || Date.now() > deadline) return responses(Buffer.concat(got));
        await new Promise((r) => setTimeout(r, 5));
      }
    },
  };
}

/** Send the chunks on one connection (each after the previous one's delay), read until `count` answers arrived. */
async function exchange(
  server: Server,
  chunks: (string | { wait: number })[],
  count: number,
): Promise<{ answers: RawResponse[]; closed: boolean }> {
  const c = await open(server);
  for (const chunk of chunks) {
    if (typeof chunk === 'string') c.send(chunk);
    else await new Promise((r) => setTimeout(r, chunk.wait));
  }
  const answers = await c.until(count);
  const closed = c.closed();
  c.socket.destroy();
  return { answers, closed };
}

const withoutDate = (r: RawResponse) => r.head.replace(/\r\nDate: [^\r]*/, '');

describe('the wire front over loopback', () => {
  it.each([
    ['a response-cache hit', GET('/hit', 'Host: a')],
    ['a hit with an allowed Origin', GET('/hit?x=1', 'Host: a', 'Origin: https://scan.example.com')],
    ['a hit with another Origin', GET('/hit', 'Host: a', 'Origin: https://evil.example.org')],
    ['a hit whose body is past the copy limit', GET('/big', 'Host: a')],
    ['a transfer status', GET(`/v2/tx/status?chain_id=chain-1&tx_hash=${TX.toLowerCase()}`, 'Host: a')],
  ])('answers %s byte for byte as node does', async (_name, request) => {
    const wireBefore = onWire.length;
    const [viaFront] = (await exchange(front, [`${request}\r\n`], 1)).answers;
    expect(onWire.length).toBe(wireBefore + 1);
    const [viaNode] = (await exchange(nodeOnly, [`${request}\r\n`], 1)).answers;
    expect(viaFront!.status).toBe(200);
    expect(viaFront!.headers['x-served-by']).toBe('edge');
    expect(viaFront!.headers.date).toMatch(/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
    expect(withoutDate(viaFront!)).toBe(withoutDate(viaNode!));
    expect(viaFront!.body).toBe(viaNode!.body);
  });

  it('answers a kept body again with the CORS headers and Date of each request, and its replacement once replaced', async () => {
    const c = await open(front);
    const hit = (path: string, origin?: string) =>
      c.send(`${origin ? GET(path, 'Host: a', `Origin: ${origin}`) : GET(path, 'Host: a')}\r\n`);
    const origins = ['https://a.example.com', 'https://b.example.com', undefined, 'https://a.example.com'];
    for (const o of origins) hit('/hit', o);
    const first = await c.until(origins.length);
    expect(first.map((r) => r.headers['access-control-allow-origin'])).toEqual([...origins]);
    expect(first.map((r) => r.body)).toEqual(origins.map(() => BODY.toString()));
    // The next second's answer carries the next second's Date.
    const second = Math.floor(Date.now() / 1000);
    await new Promise((r) => setTimeout(r, (second + 1) * 1000 - Date.now() + 20));
    hit('/hit');
    hit('/changing');
    await c.until(origins.length + 2);
    changing = Buffer.from('{"version":2}');
    hit('/changing');
    const later = (await c.until(origins.length + 3)).slice(origins.length);
    c.socket.destroy();
    expect(Date.parse(later[0]!.headers.date!) / 1000).toBeGreaterThan(second);
    expect(later[0]!.headers.date).not.toBe(first[0]!.headers.date);
    expect(later.slice(1).map((r) => [r.body, r.headers['content-length']])).toEqual([
      ['{"version":1}', '13'],
      ['{"version":2}', '13'],
    ]);
  });

  it('gives node a miss and the requests pipelined behind it, in order', async () => {
    const hit = `${GET('/hit', 'Host: a')}\r\n`;
    const sequence = [hit, hit, `${GET('/miss', 'Host: a')}\r\n`, hit, `${GET('/nowhere', 'Host: a')}\r\n`, hit];
    const wireBefore = onWire.length;
    const { answers } = await exchange(front, [sequence.join('')], sequence.length);
    expect(onWire.length - wireBefore).toBe(2);
    expect(answers.map((r) => [r.status, r.headers['x-served-by']])).toEqual([
      [200, 'edge'],
      [200, 'edge'],
      [200, 'handler'],
      [200, 'edge'], // node's request handler, through the same lane: behind a request node serves
      [404, 'handler'],
      [200, 'edge'],
    ]);
    expect(answers[0]!.body).toBe(BODY.toString());
    expect(JSON.parse(answers[2]!.body)).toEqual({ handler: true });
    expect(answers[3]!.body).toBe(BODY.toString());
  });

  it("keeps the connection after a miss: node answers it as it answers alone, and the hits after it are the front's", async () => {
    const c = await open(front);
    const wireBefore = onWire.length;
    try {
      for (const [i, request] of [HIT, MISS, HIT, MISS, HIT].entries()) {
        c.send(request);
        await c.until(i + 1);
      }
      const answers = await c.until(5);
      expect(onWire.length - wireBefore).toBe(3);
      expect(answers.map((r) => [r.status, r.headers['x-served-by']])).toEqual([
        [200, 'edge'],
        [200, 'handler'],
        [200, 'edge'],
        [200, 'handler'],
        [200, 'edge'],
      ]);
      const [alone] = (await exchange(nodeOnly, [MISS], 1)).answers;
      for (const viaRelay of [answers[1]!, answers[3]!]) {
        expect(withoutDate(viaRelay)).toBe(withoutDate(alone!));
        expect(viaRelay.body).toBe(alone!.body);
      }
      expect(c.closed()).toBe(false);
    } finally {
      c.socket.destroy();
    }
  });

  it("shows node's handlers the client's address through the relay, and gives an event stream the socket itself", async () => {
    const c = await open(front);
    try {
      c.send(`${GET('/whoami', 'Host: a')}\r\n`);
      const [relayed] = await c.until(1);
      expect(JSON.parse(relayed!.body)).toEqual({ ip: '127.0.0.1', port: c.socket.localPort, socket: false });
      // From here the connection is node's for good: the hit after it goes through node's server.
      const wireBefore = onWire.length;
      c.send(`${GET('/whoami', 'Host: a', 'Accept: text/event-stream')}\r\n`);
      const [, streamed] = await c.until(2);
      expect(JSON.parse(streamed!.body)).toEqual({ ip: '127.0.0.1', port: c.socket.localPort, socket: true });
      c.send(HIT);
      const [, , hit] = await c.until(3);
      expect(hit!.body).toBe(BODY.toString());
      expect(onWire.length).toBe(wireBefore);
    } finally {
      c.socket.destroy();
    }
  });

  it('keeps order and the connection through a miss slower than the idle time, then closes it when idle', async () => {
    const server = await listen(appWithLanes(), 0);
    server.keepAliveTimeout = 100; // the front's idle timer: 1.1 s, passed while node serves the request
    const c = await open(server);
    try {
      c.send(`${GET('/slow?ms=1500', 'Host: a')}\r\n${HIT}`);
      const answers = await c.until(2);
      expect(answers.map((r) => [r.status, r.body])).toEqual([
        [200, JSON.stringify({ slow: true })],
        [200, BODY.toString()],
      ]);
      expect(c.closed()).toBe(false);
      const t0 = Date.now();
      await c.whenClosed();
      expect(Date.now() - t0).toBeLessThan(3_000);
    } finally {
      c.socket.destroy();
      await closeServer(server);
    }
  });

  it('closing idle connections spares one whose request node is serving, and closes it once answered', async () => {
    const server = await listen(appWithLanes(), 0);
    const c = await open(server);
    try {
      c.send(HIT);
      await c.until(1);
      c.send(`${GET('/slow?ms=300', 'Host: a')}\r\n`);
      await new Promise((r) => setTimeout(r, 100));
      server.closeIdleConnections();
      const [, slow] = await c.until(2);
      expect(JSON.parse(slow!.body)).toEqual({ slow: true });
      expect(c.closed()).toBe(false);
      server.closeIdleConnections();
      await c.whenClosed();
    } finally {
      c.socket.destroy();
      await closeServer(server);
    }
  });

  it('closes the connection after a relayed response that closes it, as node does, with requests pipelined behind', async () => {
    const closing = `${GET('/closing', 'Host: a')}\r\n`;
    for (const behind of [MISS, HIT]) {
      const viaFront = await exchange(front, [`${closing}${behind}`], 2);
      const alone = await exchange(nodeOnly, [`${closing}${behind}`], 2);
      expect(viaFront.closed).toBe(true);
      expect(viaFront.answers.map((r) => [r.status, r.body])).toEqual(alone.answers.map((r) => [r.status, r.body]));
      expect(viaFront.answers.map((r) => r.body)).toEqual([JSON.stringify({ closing: true })]);
    }
    // A client that keeps writing after node's close (half-open) finds the server's side closed, not left
    // half-closed with its reading paused.
    const socket = net.connect({ port: portOf(front), host: '127.0.0.1', allowHalfOpen: true });
    await new Promise((r) => socket.once('connect', r));
    socket.resume();
    socket.write(closing);
    await new Promise((r) => socket.once('end', r));
    socket.write(MISS);
    socket.end();
    const connections = () => new Promise<number>((r) => front.getConnections((_e, n) => r(n)));
    const deadline = Date.now() + 3_000;
    while ((await connections()) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(await connections()).toBe(0);
    socket.destroy();
  });

  it('gives node a request with a body: the connection for good after a miss, the rest of it behind a slow one', async () => {
    const post = `POST /echo HTTP/1.1\r\nHost: a\r\nContent-Type: text/plain\r\nContent-Length: 3\r\n\r\nabc`;
    const afterMiss = await exchange(front, [MISS, { wait: 50 }, post, { wait: 50 }, HIT], 3);
    expect(afterMiss.answers.map((r) => r.body)).toEqual([
      JSON.stringify({ handler: true }),
      JSON.stringify({ body: 'abc' }),
      BODY.toString(),
    ]);
    const behindSlow = await exchange(front, [`${GET('/slow?ms=100', 'Host: a')}\r\n${post}${HIT}`], 3);
    expect(behindSlow.answers.map((r) => r.body)).toEqual([
      JSON.stringify({ slow: true }),
      JSON.stringify({ body: 'abc' }),
      BODY.toString(),
    ]);
  });

  it('hands on a head split across packets, and node answers it', async () => {
    const { answers } = await exchange(front, ['GET /hit HTTP/1.1\r\nHo', { wait: 50 }, 'st: a\r\n\r\n'], 1);
    expect(answers.map((r) => [r.status, r.body])).toEqual([[200, BODY.toString()]]);
  });

  it('answers a burst of pipelined hits in order, past the unsent-bytes bound', async () => {
    const n = 3000; // ~3000 x 180 bytes unsent: node's server takes the rest
    const { answers } = await exchange(front, [`${GET('/hit', 'Host: a')}\r\n`.repeat(n)], n);
    expect(answers.length).toBe(n);
    expect(answers.every((r) => r.status === 200 && r.body === BODY.toString())).toBe(true);
  });

  it("leaves an over-long head to node, which answers it with the services' JSON 431", async () => {
    const big = `${GET('/hit', 'Host: a', `X-Big: ${'a'.repeat(MAX_HEAD_BYTES)}`)}\r\n`;
    const { answers } = await exchange(front, [big], 1);
    expect(answers[0]!.status).toBe(431);
    expect(JSON.parse(answers[0]!.body)).toMatchObject({ code: 431 });
  });

  it('closes a connection idle after an answer when node would, and keeps it open before', async () => {
    const app = appWithLanes();
    const server = await listen(app, 0);
    const plain = createServer(edgeHandler(app)).listen(0, '127.0.0.1');
    await new Promise((r) => plain.once('listening', r));
    for (const x of [server, plain]) x.keepAliveTimeout = 200;
    /** When the server closes an idle connection after one answer (ms), and whether it was open 150 ms in. */
    const idleClose = async (x: Server) => {
      const socket = net.connect(portOf(x), '127.0.0.1');
      await new Promise((r) => socket.once('connect', r));
      socket.write(`${GET('/hit', 'Host: a')}\r\n`);
      await new Promise((r) => socket.once('data', r));
      const t0 = Date.now();
      const closed = new Promise((r) => socket.once('close', r));
      await new Promise((r) => setTimeout(r, 150));
      const openEarly = !socket.destroyed && socket.readyState === 'open';
      await closed;
      return { ms: Date.now() - t0, openEarly };
    };
    try {
      const [front, node] = [await idleClose(server), await idleClose(plain)];
      expect(front.openEarly).toBe(true);
      expect(node.openEarly).toBe(true);
      expect(Math.abs(front.ms - node.ms)).toBeLessThan(400);
    } finally {
      await closeServer(server);
      await closeServer(plain);
    }
  });

  it('is installed once, and not on a server whose settings its answers would not follow', () => {
    const lane = edgeLanesOf(appWithLanes())!;
    const once = createServer();
    expect(installWireFront(once, lane, () => undefined)).toBe(true);
    expect(installWireFront(once, lane, () => undefined)).toBe(false);
    const limited = createServer();
    limited.maxRequestsPerSocket = 10;
    expect(installWireFront(limited, lane, () => undefined)).toBe(false);
    expect(limited.listeners('connection').length).toBe(1);
    const fewHeaders = createServer();
    fewHeaders.maxHeadersCount = 10;
    expect(installWireFront(fewHeaders, lane, () => undefined)).toBe(false);
    const withTimeoutListener = createServer();
    withTimeoutListener.on('timeout', () => undefined);
    expect(installWireFront(withTimeoutListener, lane, () => undefined)).toBe(false);
  });

  it('closes the connections it holds when the server closes', async () => {
    const server = await listen(appWithLanes(), 0);
    const socket = net.connect(portOf(server), '127.0.0.1');
    await new Promise((r) => socket.once('connect', r));
    socket.write(`${GET('/hit', 'Host: a')}\r\n`);
    await new Promise((r) => socket.once('data', r));
    const closed = new Promise((r) => socket.once('close', r));
    const t0 = Date.now();
    await closeServer(server);
    await closed;
    expect(Date.now() - t0).toBeLessThan(1_000);
  });

  it('is what `listen` serves, and counts its answers in the request metrics as edge answers', async () => {
    const server = await listen(appWithLanes(), 0);
    const count = async () =>
      (await registry.getSingleMetric('http_served_total')!.get()).values
        .filter((v) => v.labels.service === 'router' && v.labels.layer === 'edge')
        .reduce((n, v) => n + v.value, 0);
    const before = await count();
    try {
      await exchange(server, [`${GET('/hit', 'Host: a')}\r\n`.repeat(3)], 3);
      expect((await count()) - before).toBe(3);
    } finally {
      await closeServer(server);
    }
  });
});
