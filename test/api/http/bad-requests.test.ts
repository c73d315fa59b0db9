// Requests that Node, the JSON parser or a stream handler used to answer outside the services' JSON error shape
// (found by a review probing both services on loopback): a request without Host, a POST whose own chunked body is
// broken, a Content-Type naming JSON that does not parse as a media type, a body nested thousands of levels deep,
// and HEAD on an event stream. On the shared scaffolding (api/http/app.ts) both services are built on, served by
// `listen` as they are, and read as raw bytes where fetch would parse the answer away.
import type { Server } from 'node:http';
import type net from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createServiceApp, listen, closeServer, MAX_BODY_DEPTH } from '../../../api/http/app.js';
import { errorHandler } from '../../../api/http/errors.js';
import { SseConnection } from '../../../api/http/sse.js';
import { admitClient, StreamAdmission } from '../../../api/http/stream-admission.js';
import { rawExchange } from '../../support/raw-http.js';

let server: Server;
let port = 0;
const admission = new StreamAdmission(10, 2, 'test');
const echoed: unknown[] = [];

beforeAll(async () => {
  const app = createServiceApp({ service: 'router', openapi: {} });
  app.post('/echo', (req, res) => {
    echoed.push(req.body);
    res.json({ ok: true });
  });
  app.get('/stream', (req, res, next) => {
    try {
      const release = admitClient(admission, req, res);
      if (!release) return;
      const conn = new SseConnection(res, { maxBufferBytes: 1 << 16, retryMs: 1000 });
      conn.onClose(release);
    } catch (e) {
      next(e);
    }
  });
  app.use(errorHandler('router'));
  server = await listen(app, 0);
  port = (server.address() as net.AddressInfo).port;
});
afterAll(async () => {
  if (server) await closeServer(server);
});

/** Until one JSON answer has arrived whole (sized or chunked): the connection may stay open after it. */
const answered = (r: string) => /\}(\r\n0\r\n\r\n)?$/.test(r);

/** Status line, headers and the JSON body of the first response in `raw`. */
function parse(raw: string): { status: number; type: string | undefined; body: Record<string, unknown> } {
  const head = raw.slice(0, raw.indexOf('\r\n\r\n'));
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]);
  const type = /\r\ncontent-type: ([^\r]+)/i.exec(head)?.[1];
  let body = raw.slice(raw.indexOf('\r\n\r\n') + 4);
  if (/\r\ntransfer-encoding: chunked/i.test(head))
    body = body.slice(body.indexOf('\r\n') + 2, body.lastIndexOf('\r\n0\r\n'));
  return { status, type, body: JSON.parse(body) as Record<string, unknown> };
}

it('a request without Host is a JSON 400, not an empty one', async () => {
  const r = parse(await rawExchange(port, 'GET /health HTTP/1.1\r\n\r\n', answered));
  expect(r).toMatchObject({ status: 400, body: { code: 3, message: 'Host header is required' } });
  expect(r.type).toMatch(/^application\/json/);
  // HTTP/1.0 has no Host requirement.
  expect(parse(await rawExchange(port, 'GET /health HTTP/1.0\r\n\r\n', answered)).status).toBe(200);
});

it('a POST whose own chunked body is broken gets a JSON 400, not a closed connection', async () => {
  const raw = await rawExchange(
    port,
    'POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n\r\n',
  );
  expect(parse(raw)).toMatchObject({ status: 400, body: { code: 400, message: 'malformed HTTP request' } });
  expect(echoed).toEqual([]);
});

it('a Content-Type naming JSON that is no media type is a 415 saying so, not a body silently dropped', async () => {
  for (const type of ['application/json;', 'application/json;;charset=utf-8']) {
    const res = await fetch(`http://127.0.0.1:${port}/echo`, {
      method: 'POST',
      headers: { 'content-type': type },
      body: '{"a":1}',
    });
    expect(res.status).toBe(415);
    expect(((await res.json()) as { message: string }).message).toContain('is not a valid media type');
  }
  const ok = await fetch(`http://127.0.0.1:${port}/echo`, {
    method: 'POST',
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: '{"a":1}',
  });
  expect(ok.status).toBe(200);
  expect(echoed).toEqual([{ a: 1 }]);
});

it(`a body nested deeper than ${MAX_BODY_DEPTH} levels is a 400 before any handler recurses into it`, async () => {
  const post = (depth: number) =>
    fetch(`http://127.0.0.1:${port}/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: `{"a":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`,
    });
  const deep = await post(5000);
  expect(deep.status).toBe(400);
  expect(((await deep.json()) as { message: string }).message).toBe(
    `request body nests more than ${MAX_BODY_DEPTH} levels`,
  );
  expect((await post(MAX_BODY_DEPTH)).status).toBe(200);
  expect((await post(MAX_BODY_DEPTH + 1)).status).toBe(400);
});

it('HEAD on an event stream answers its headers at once, takes no slot and leaves the connection usable', async () => {
  const raw = await rawExchange(port, [
    'HEAD /stream HTTP/1.1\r\nHost: x\r\n\r\n',
    'GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
  ]);
  expect(raw).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
  expect(raw).toMatch(/content-type: text\/event-stream/i);
  // The pipelined request behind it is answered on the same connection, long before a stream's lifetime.
  expect(raw).toMatch(/HTTP\/1\.1 200 OK[\s\S]*HTTP\/1\.1 200 OK[\s\S]*"status":"ok"/);
  expect(admission.size).toBe(0);
});
