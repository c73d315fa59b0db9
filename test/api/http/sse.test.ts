// One event stream on a real HTTP server (api/http/sse.ts `SseConnection`), read by raw loopback sockets so the
// bytes on the wire are checked: frames written straight to the socket carry HTTP/1.1 chunked framing and the
// response's own end follows them (the connection then serves another request), a stream pipelined behind a slower
// response waits for it (its frames go through the response), an HTTP/1.0 client gets the body unframed, a client
// that stops reading is refused more frames once its bound is passed, then drains, and a client that half-closes gets
// nothing more. Each test also checks which path its stream took (`SseConnection.direct`).
import type { Server } from 'node:http';
import net from 'node:net';
import express from 'express';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SharedFrames, SseConnection, sseFrame, sseRetry } from '../../../api/http/sse.js';
import { rawExchange } from '../../support/raw-http.js';

const events = [
  { id: 'a1', event: 'block', data: '{"height":"1"}' },
  { id: 'a2', event: 'block', data: '{"height":"2"}' },
];
const shared = new SharedFrames(Buffer.from(events.map(sseFrame).join('')));
// A payload beyond ASCII: a chunk's size counts bytes, not characters.
const wide = 'héllo ✓ 世界';
const expected = `${sseRetry(1000)}${sseFrame({ data: wide })}${events.map(sseFrame).join('')}${sseFrame({ event: 'end', data: 'bye' })}`;

let server: Server;
let port = 0;
/** Per stream request in arrival order: whether its frames went straight to the socket. */
const direct: boolean[] = [];
/** The half-closing client's connection. */
const held: { conn?: SseConnection } = {};
/** The stalled client's connection, and what the server saw offering to it. */
const stalled: { conn?: SseConnection; offered: number; refusedAt?: number } = { offered: 0 };

beforeAll(async () => {
  const app = express();
  app.get('/short', (_req, res) => {
    const conn = new SseConnection(res, { maxBufferBytes: 64 * 1024, retryMs: 1000 });
    direct.push(conn.direct);
    expect(conn.offer(sseFrame({ data: wide }))).toBe(true);
    expect(conn.offer('')).toBe(true); // writes nothing (an empty chunk would end the body)
    expect(conn.offer(shared)).toBe(true);
    conn.end({ event: 'end', data: 'bye' });
  });
  app.get('/hold', (_req, res) => {
    held.conn = new SseConnection(res, { maxBufferBytes: 64 * 1024, retryMs: 1000 });
  });
  app.get('/plain', (_req, res) => res.json({ ok: true }));
  app.get('/slow', (_req, res) => setTimeout(() => res.json({ slow: true }), 100));
  app.get('/stall', (_req, res) => {
    const conn = new SseConnection(res, { maxBufferBytes: 64 * 1024, retryMs: 1000 });
    direct.push(conn.direct);
    stalled.conn = conn;
    const big = new SharedFrames(Buffer.from(sseFrame({ data: 'x'.repeat(256 * 1024) })));
    // Offer until refused: the kernel's socket buffers take some, then the bound holds.
    const push = () => {
      for (let i = 0; i < 16; i++) {
        if (!conn.offer(big)) {
          stalled.refusedAt = stalled.offered;
          return;
        }
        stalled.offered += big.bytes.length;
      }
      if (stalled.offered < 512 * 1024 * 1024) setImmediate(push);
    };
    push();
  });
  server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  port = (server.address() as net.AddressInfo).port;
});

afterAll(() => {
  server.closeAllConnections();
  server.close();
});

const exchange = (request: string, done: (received: string) => boolean) => rawExchange(port, request, done);

/** Bytes read as latin1 (one character a byte, so chunk sizes are offsets), as the UTF-8 text they are. */
const utf8 = (latin1: string): string => Buffer.from(latin1, 'latin1').toString('utf8');

/** A chunked body decoded, and what follows its last chunk. */
function dechunk(body: string): { text: string; rest: string } {
  let text = '';
  let at = 0;
  for (;;) {
    const eol = body.indexOf('\r\n', at);
    const size = Number.parseInt(body.slice(at, eol), 16);
    expect(Number.isNaN(size)).toBe(false);
    at = eol + 2;
    if (size === 0) {
      expect(body.slice(at, at + 2)).toBe('\r\n');
      return { text, rest: body.slice(at + 2) };
    }
    text += body.slice(at, at + size);
    expect(body.slice(at + size, at + size + 2)).toBe('\r\n');
    at += size + 2;
  }
}

it('frames an HTTP/1.1 stream as chunks, ends it with the last chunk, and keeps the connection for the next request', async () => {
  const request = `GET /short HTTP/1.1\r\nHost: x\r\n\r\nGET /plain HTTP/1.1\r\nHost: x\r\n\r\n`;
  direct.length = 0;
  const received = await exchange(request, (r) => r.includes('{"ok":true}'));
  expect(direct).toEqual([true]); // framed here, straight to the socket
  const head = received.indexOf('\r\n\r\n');
  expect(received.slice(0, head)).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*Transfer-Encoding: chunked/i);
  expect(received.slice(0, head)).toMatch(/Content-Type: text\/event-stream/i);
  const { text, rest } = dechunk(received.slice(head + 4));
  expect(utf8(text)).toBe(expected);
  // The pipelined request after it got its own whole response on the same connection.
  expect(rest).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*\r\n\r\n\{"ok":true\}$/);
});

it('queues a stream pipelined behind a slower response and sends it whole after that one', async () => {
  const request = `GET /slow HTTP/1.1\r\nHost: x\r\n\r\nGET /short HTTP/1.1\r\nHost: x\r\n\r\n`;
  direct.length = 0;
  const received = await exchange(request, (r) => r.endsWith('0\r\n\r\n'));
  expect(direct).toEqual([false]); // through the response, which waits for its turn on the socket
  expect(received).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*?\r\n\r\n\{"slow":true\}HTTP\/1\.1 200 OK\r\n/);
  const second = received.slice(received.indexOf('{"slow":true}') + '{"slow":true}'.length);
  const { text, rest } = dechunk(second.slice(second.indexOf('\r\n\r\n') + 4));
  expect(utf8(text)).toBe(expected);
  expect(rest).toBe('');
});

it('sends an HTTP/1.0 client the same events without chunked framing', async () => {
  direct.length = 0;
  const received = await exchange('GET /short HTTP/1.0\r\n\r\n', () => false);
  expect(direct).toEqual([false]);
  const head = received.indexOf('\r\n\r\n');
  expect(received.slice(0, head)).not.toMatch(/Transfer-Encoding/i);
  expect(utf8(received.slice(head + 4))).toBe(expected);
});

it('refuses frames to a client that stopped reading once its bound is passed, and drains when it reads', async () => {
  direct.length = 0;
  const socket = net.connect(port, '127.0.0.1', () => socket.write('GET /stall HTTP/1.1\r\nHost: x\r\n\r\n'));
  socket.pause(); // reads nothing
  const deadline = Date.now() + 10_000;
  while (stalled.refusedAt === undefined && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  expect(stalled.refusedAt).toBeDefined();
  // What was accepted is what the kernel's loopback buffers held plus at most the bound and one frame.
  expect(stalled.refusedAt!).toBeLessThan(64 * 1024 * 1024);
  expect(direct).toEqual([true]);
  const conn = stalled.conn!;
  expect(conn.open).toBe(true);
  let drained = false;
  const waiting = conn.drained().then(() => {
    drained = true;
  });
  await new Promise((r) => setTimeout(r, 100));
  expect(drained).toBe(false);
  socket.resume(); // reads again
  socket.on('data', () => undefined);
  await waiting;
  expect(conn.open).toBe(true);
  expect(conn.offer(sseFrame({ data: 'again' }))).toBe(true);
  conn.end();
  socket.destroy();
});

it('writes nothing more after the client half-closes, and closes the stream', async () => {
  const socket = net.connect(port, '127.0.0.1', () => socket.write('GET /hold HTTP/1.1\r\nHost: x\r\n\r\n'));
  const received: Buffer[] = [];
  socket.on('data', (b) => received.push(b));
  while (!held.conn) await new Promise((r) => setTimeout(r, 10));
  const conn = held.conn;
  expect(conn.direct).toBe(true);
  const closed = new Promise<void>((r) => conn.onClose(r));
  await new Promise((r) => setTimeout(r, 50));
  socket.end(); // the client's side is done: the server ends its side too
  await new Promise((r) => setTimeout(r, 50));
  // Offers after that write nothing and raise nothing; the connection then closes.
  for (let i = 0; i < 3; i++) conn.offer(sseFrame({ data: `late ${i}` }));
  await closed;
  expect(conn.open).toBe(false);
  expect(Buffer.concat(received).toString('latin1')).not.toContain('late');
});
