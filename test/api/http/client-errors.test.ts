// Node's own answers to unparsable requests (api/http/client-errors.ts), on a real server read by raw loopback
// sockets: a malformed request and over-long headers get the services' JSON error shape, and garbage pipelined
// behind a response still in flight (an open event stream) closes the connection instead of writing a second
// response into the first one's chunked body.
import { createServer, type Server } from 'node:http';
import type net from 'node:net';
import express from 'express';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { installJsonClientErrors } from '../../../api/http/client-errors.js';
import { SseConnection, sseFrame } from '../../../api/http/sse.js';
import { rawExchange } from '../../support/raw-http.js';

let server: Server;
let port = 0;
const streams: SseConnection[] = [];

beforeAll(async () => {
  const app = express();
  app.get('/plain', (_req, res) => res.json({ ok: true }));
  app.get('/stream', (_req, res) => {
    const conn = new SseConnection(res, { maxBufferBytes: 64 * 1024, retryMs: 1000 });
    conn.offer(sseFrame({ id: '1', data: '{"n":1}' }));
    streams.push(conn);
  });
  server = createServer(app);
  installJsonClientErrors(server);
  server.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  port = (server.address() as net.AddressInfo).port;
});

afterAll(() => {
  server.closeAllConnections();
  server.close();
});

const exchange = (parts: string[]) => rawExchange(port, parts);

it('answers a malformed request with a JSON 400 and closes', async () => {
  const received = await exchange(['GET /plain HTTP/1.1\r\nHost x\r\n\r\n']);
  expect(received).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
  expect(received).toMatch(/Content-Type: application\/json/);
  expect(JSON.parse(received.slice(received.indexOf('\r\n\r\n') + 4))).toEqual({
    code: 400,
    message: 'malformed HTTP request',
  });
});

it('answers over-long headers with a JSON 431', async () => {
  const received = await exchange([`GET /plain HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`]);
  expect(received).toMatch(/^HTTP\/1\.1 431 /);
  expect(JSON.parse(received.slice(received.indexOf('\r\n\r\n') + 4)).code).toBe(431);
});

it('answers a request head not received in time with a JSON 408, not as a malformed request', async () => {
  const slow = createServer({ connectionsCheckingInterval: 50 }, (_req, res) => res.end());
  slow.headersTimeout = 300;
  slow.requestTimeout = 300;
  installJsonClientErrors(slow);
  slow.listen(0, '127.0.0.1');
  await new Promise((r) => slow.once('listening', r));
  try {
    const received = await rawExchange((slow.address() as net.AddressInfo).port, ['GET / HTTP/1.1\r\nHost: x\r\n']);
    expect(received).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(JSON.parse(received.slice(received.indexOf('\r\n\r\n') + 4))).toEqual({
      code: 408,
      message: 'the request was not received in time',
    });
  } finally {
    slow.closeAllConnections();
    slow.close();
  }
});

it('answers garbage after a finished response with a JSON 400 on the same connection', async () => {
  const received = await exchange(['GET /plain HTTP/1.1\r\nHost: x\r\n\r\n', 'NOT HTTP\r\n\r\n']);
  expect(received).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*\{"ok":true\}HTTP\/1\.1 400 Bad Request\r\n/);
});

it('closes a connection whose open event stream is followed by garbage, writing nothing into the stream', async () => {
  streams.length = 0;
  const received = await exchange(['GET /stream HTTP/1.1\r\nHost: x\r\n\r\n', 'NOT HTTP\r\n\r\n']);
  expect(streams).toHaveLength(1);
  const head = received.indexOf('\r\n\r\n');
  expect(received.slice(0, head)).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*Transfer-Encoding: chunked/i);
  const body = received.slice(head + 4);
  // Only whole chunks of the stream: no second status line inside the body.
  expect(body).not.toContain('HTTP/1.1');
  expect(body).toContain('data: {"n":1}');
  // The stream learns its client is gone.
  await new Promise<void>((r) => (streams[0]!.open ? streams[0]!.onClose(r) : r()));
  expect(streams[0]!.open).toBe(false);
});
