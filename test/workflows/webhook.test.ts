// The webhook target policy and signatures (workflows/webhook.ts), and the delivery activity's own check of where a
// host resolves (activities/webhook.ts) against a loopback receiver.
import { createHmac, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkWebhookUrl,
  isPublicAddress,
  secretIsWellFormed,
  signWebhook,
  verifyWebhook,
  webhookId,
  type WebhookPolicy,
} from '../../workflows/webhook.js';
import { createWebhookActivities } from '../../activities/webhook.js';
import { closeServer } from '../../api/http/app.js';
import { submittedDocument } from '../../workflows/status.js';

const open: WebhookPolicy = { hosts: ['*'], privateAddresses: false };

describe('webhook target policy', () => {
  it('classifies addresses: only globally reachable ones are public', () => {
    for (const a of [
      '8.8.8.8',
      '1.1.1.1',
      '2606:4700:4700::1111',
      '2a00:1450:4001:80b::200e',
      '100.63.255.255',
      '2002:808:808::1', // 6to4 of 8.8.8.8
      '::ffff:8.8.8.8',
      '3fff:1000::1', // just past 3fff::/20
    ])
      expect({ a, public: isPublicAddress(a) }).toEqual({ a, public: true });
    for (const a of [
      '127.0.0.1',
      '127.255.0.9',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '198.18.0.1',
      '::',
      '::1',
      'fe80::1',
      'fd00::5',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:10.0.0.1',
      '64:ff9b::a9fe:a9fe',
      '2001:db8::1',
      '::7f00:1', // http://[::127.0.0.1]/
      '::ffff:0:a00:1',
      '64:ff9b:1::a00:1',
      '2002:a00:1::1', // 6to4 of 10.0.0.1
      '2002:7f00:1::1',
      '2001::1', // Teredo
      'fec0::1',
      '100::1',
      '3fff::1', // documentation (RFC 9637)
      '3fff:fff:ffff::1',
      'not-an-address',
    ])
      expect({ a, public: isPublicAddress(a) }).toEqual({ a, public: false });
  });

  it('checks scheme, credentials, length, the host patterns and literal addresses', () => {
    expect(checkWebhookUrl('https://hooks.example.com/x', open)).toMatchObject({ ok: true });
    expect(checkWebhookUrl('http://8.8.8.8:8080/x?y=1', open)).toMatchObject({ ok: true });
    const refused = (u: string, p: WebhookPolicy = open) => {
      const c = checkWebhookUrl(u, p);
      return c.ok ? 'accepted' : c.reason;
    };
    expect(refused('http://127.0.0.1/x')).toContain('not a public address');
    expect(refused('http://[::1]:9/x')).toContain('not a public address');
    expect(refused('http://[::ffff:169.254.169.254]/x')).toContain('not a public address');
    expect(refused('http://0x7f000001/x')).toContain('not a public address'); // WHATWG parses it as 127.0.0.1
    expect(refused('file:///etc/passwd')).toContain('http or https');
    expect(refused('https://u:p@example.com/')).toContain('credentials');
    expect(refused('/relative')).toContain('absolute URL');
    expect(refused(`https://example.com/${'a'.repeat(2048)}`)).toContain('at most 2048');
    const listed: WebhookPolicy = { hosts: ['hooks.example.com', '*.partner.org'], privateAddresses: false };
    expect(checkWebhookUrl('https://HOOKS.example.com/a', listed)).toMatchObject({ ok: true });
    expect(checkWebhookUrl('https://a.b.partner.org/a', listed)).toMatchObject({ ok: true });
    expect(refused('https://partner.org/a', listed)).toContain('allow-list');
    expect(refused('https://evilpartner.org/a', listed)).toContain('allow-list');
    expect(refused('https://example.com/a', listed)).toContain('allow-list');
    const loopback: WebhookPolicy = { hosts: ['127.0.0.1'], privateAddresses: true };
    expect(checkWebhookUrl('http://127.0.0.1:9000/a', loopback)).toMatchObject({ ok: true });
    expect(refused('http://10.0.0.1/a', loopback)).toContain('allow-list');
    // Ports of other protocols are refused, whatever the host; the schemes' own and 1024 and above are not.
    expect(refused('http://1.1.1.1:25/x')).toContain('port 25 is refused');
    expect(refused('https://hooks.example.com:22/x')).toContain('port 22 is refused');
    expect(refused('http://127.0.0.1:1023/a', loopback)).toContain('port 1023 is refused');
    for (const u of ['http://8.8.8.8:80/x', 'https://8.8.8.8:443/x', 'https://8.8.8.8:1024/x', 'http://8.8.8.8:443/x'])
      expect(checkWebhookUrl(u, open), u).toMatchObject({ ok: true });
  });
});

describe('webhook signatures', () => {
  const secret = `whsec_${randomBytes(32).toString('base64')}`;
  it('signs as the Standard Webhooks scheme: base64 HMAC-SHA256 over id.timestamp.body with the decoded key', () => {
    const body = '{"state":"STATE_PENDING"}';
    const sig = signWebhook(secret, 'c:h:3', 1_700_000_000, body);
    const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
    const want = createHmac('sha256', key).update(`c:h:3.1700000000.${body}`).digest('base64');
    expect(sig).toBe(`v1,${want}`);
    expect(verifyWebhook(secret, { id: 'c:h:3', timestamp: '1700000000', signature: sig }, body, 1_700_000_100)).toBe(
      true,
    );
    // Several signatures (a key rotation) separated by spaces: one match is enough.
    expect(
      verifyWebhook(secret, { id: 'c:h:3', timestamp: '1700000000', signature: `v1,AAAA ${sig}` }, body, 1_700_000_000),
    ).toBe(true);
  });
  it('rejects a changed body, id or timestamp, another key, and an old timestamp', () => {
    const body = '{"a":1}';
    const sig = signWebhook(secret, 'x', 100, body);
    const ok = (id: string, ts: string, b: string, now = 100, s = secret) =>
      verifyWebhook(s, { id, timestamp: ts, signature: sig }, b, now);
    expect(ok('x', '100', body)).toBe(true);
    expect(ok('x', '100', '{"a":2}')).toBe(false);
    expect(ok('y', '100', body)).toBe(false);
    expect(ok('x', '101', body, 101)).toBe(false);
    expect(ok('x', '100', body, 100, `whsec_${randomBytes(32).toString('base64')}`)).toBe(false);
    expect(ok('x', '100', body, 100 + 301)).toBe(false);
  });
  it('accepts only whsec_ secrets of at least 24 bytes', () => {
    expect(secretIsWellFormed(secret)).toBe(true);
    expect(secretIsWellFormed(`whsec_${randomBytes(16).toString('base64')}`)).toBe(false);
    expect(secretIsWellFormed(randomBytes(32).toString('base64'))).toBe(false);
  });
});

describe('delivery activity', () => {
  const secret = `whsec_${randomBytes(32).toString('base64')}`;
  let server: http.Server;
  let port = 0;
  const got: { headers: http.IncomingHttpHeaders; body: string }[] = [];
  let answer = 200;
  /** Answers for the next requests, before `answer` applies again. */
  const next: number[] = [];
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        got.push({ headers: req.headers, body });
        const status = next.shift() ?? answer;
        res.writeHead(status, status === 302 ? { location: 'http://10.0.0.1/' } : {}).end();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => closeServer(server));

  const delivery = (url: string) => ({
    url,
    chainId: 'c-1',
    txHash: 'AB',
    events: [{ event: 2, doc: submittedDocument() }],
  });

  it('POSTs the document signed, with the event headers, and resolves on 2xx', async () => {
    const a = createWebhookActivities({ secret, hosts: ['localhost'], privateAddresses: true });
    answer = 200;
    await expect(a.deliverWebhook(delivery(`http://localhost:${port}/h`))).resolves.toEqual({ delivered: 1 });
    const r = got.at(-1)!;
    expect(r.body).toBe(JSON.stringify(submittedDocument()));
    expect(r.headers['webhook-id']).toBe(webhookId('c-1', 'AB', 2));
    expect(r.headers['x-transfer-event']).toBe('2');
    const h = (n: string) => String(r.headers[n]);
    expect(
      verifyWebhook(
        secret,
        { id: h('webhook-id'), timestamp: h('webhook-timestamp'), signature: h('webhook-signature') },
        r.body,
        Math.floor(Date.now() / 1000),
      ),
    ).toBe(true);
  });

  it('fails (retryably) on a non-2xx answer, and does not follow a redirect', async () => {
    const a = createWebhookActivities({ secret, hosts: ['127.0.0.1'], privateAddresses: true });
    answer = 500;
    await expect(a.deliverWebhook(delivery(`http://127.0.0.1:${port}/h`))).rejects.toThrow('answered 500 to event 2');
    answer = 302;
    const before = got.length;
    await expect(a.deliverWebhook(delivery(`http://127.0.0.1:${port}/h`))).rejects.toThrow('answered 302');
    expect(got.length).toBe(before + 1);
  });

  it('sends a batch in order, one request per event, and stops at the first refusal', async () => {
    const a = createWebhookActivities({ secret, hosts: ['127.0.0.1'], privateAddresses: true });
    const events = [3, 4, 5].map((event) => ({ event, doc: { ...submittedDocument(), n: event } }));
    const before = got.length;
    next.push(200, 503);
    await expect(
      a.deliverWebhook({ url: `http://127.0.0.1:${port}/h`, chainId: 'c-1', txHash: 'AB', events }),
    ).rejects.toThrow('answered 503 to event 4');
    expect(got.slice(before).map((r) => r.headers['x-transfer-event'])).toEqual(['3', '4']);
    answer = 200;
    await expect(
      a.deliverWebhook({ url: `http://127.0.0.1:${port}/h`, chainId: 'c-1', txHash: 'AB', events }),
    ).resolves.toEqual({ delivered: 3 });
    expect(got.slice(before + 2).map((r) => [r.headers['x-transfer-event'], JSON.parse(r.body).n])).toEqual([
      ['3', 3],
      ['4', 4],
      ['5', 5],
    ]);
  });

  it('refuses, for good, a host name that now resolves to a non-public address (DNS rebinding)', async () => {
    const a = createWebhookActivities({ secret, hosts: ['*'], privateAddresses: false });
    const before = got.length;
    const e = await a.deliverWebhook(delivery(`http://localhost:${port}/h`)).catch((x: unknown) => x);
    expect(e).toMatchObject({ type: 'WebhookRefused', nonRetryable: true });
    expect(got.length).toBe(before); // nothing was sent
  });

  it('fails retryably when the worker has no secret', async () => {
    await expect(createWebhookActivities(undefined).deliverWebhook(delivery('http://127.0.0.1:1/'))).rejects.toThrow(
      'WEBHOOK_SECRET',
    );
  });
});
