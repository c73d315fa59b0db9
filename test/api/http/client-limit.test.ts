// Per-client limits (api/http/client-limit.ts): the token bucket on its own clock, then over real HTTP on the
// router app: a client past its burst gets a JSON 429 with Retry-After while another loopback address is served.
// A client is counted by its address, an IPv6 one by its /64 (it may pick any address in it).
import { request, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeServer, listen } from '../../../api/http/app.js';
import { ClientLimiter, clientKey } from '../../../api/http/client-limit.js';
import { createRouterApp } from '../../../api/router/app.js';
import { loadRouterRegistry } from '../../../routing/registry.js';
import { expectRetryAfter } from '../../support/retry-after.js';

describe('ClientLimiter', () => {
  it('allows the burst, then the sustained rate, per key', () => {
    let now = 0;
    const l = new ClientLimiter({ perMinute: 60, burst: 3 }, () => now);
    expect([l.take('a'), l.take('a'), l.take('a')]).toEqual([0, 0, 0]);
    expect(l.take('a')).toBe(1000); // one token a second
    expect(l.take('b')).toBe(0); // another client has its own bucket
    now += 1000;
    expect(l.take('a')).toBe(0);
    expect(l.take('a')).toBeGreaterThan(0);
  });
  it('is off at 0 a minute and forgets the least recently seen client past its bound', () => {
    expect(new ClientLimiter({ perMinute: 0, burst: 1 }).take('a')).toBe(0);
    const l = new ClientLimiter({ perMinute: 1, burst: 1, maxClients: 2 }, () => 0);
    l.take('a');
    l.take('b');
    l.take('c');
    expect(l.clients).toBe(2);
    expect(l.take('a')).toBe(0); // evicted, so a full bucket again
  });
  it('counts an IPv6 client by its /64 and an IPv4-mapped one as its IPv4 address', () => {
    const key = clientKey('2001:db8:1:2:aaaa::1');
    for (const a of ['2001:db8:1:2::2', '2001:0db8:0001:0002:ffff:ffff:ffff:ffff', '2001:DB8:1:2::9%eth0'])
      expect(clientKey(a), a).toBe(key);
    expect(key).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:db8:1:3::1')).not.toBe(key);
    expect(clientKey('::1')).toBe('0:0:0:0::/64');
    expect(clientKey('::ffff:192.0.2.7')).toBe('192.0.2.7');
    expect(clientKey('64:ff9b::192.0.2.7')).toBe('64:ff9b:0:0::/64');
    expect(clientKey('192.0.2.7')).toBe('192.0.2.7');
    expect(clientKey(undefined)).toBe('unknown');
    const l = new ClientLimiter({ perMinute: 1, burst: 1 }, () => 0);
    expect(l.take(clientKey('2001:db8:1:2::1'))).toBe(0);
    expect(l.take(clientKey('2001:db8:1:2::2'))).toBeGreaterThan(0); // the same network's bucket
  });
});

let server: Server;
let port: number;
beforeAll(async () => {
  const registry = loadRouterRegistry({ ROUTER_NETWORK: 'mainnet' });
  server = await listen(createRouterApp({ registry, clientLimits: { perMinute: 6, burst: 2 } }), 0, '0.0.0.0');
  port = (server.address() as { port: number }).port;
});
afterAll(async () => {
  if (server) await closeServer(server);
});

/** POST from a given loopback source address (127.0.0.0/8 is all loopback on Linux), optionally forwarded for another. */
function post(from: string, path: string, body: unknown, forwardedFor?: string, to = port) {
  return new Promise<{ status: number; retryAfter?: string; body: Record<string, unknown> }>((resolve, reject) => {
    const data = JSON.stringify(body);
    const r = request(
      {
        host: '127.0.0.1',
        port: to,
        path,
        method: 'POST',
        localAddress: from,
        headers: { 'content-type': 'application/json', ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}) },
      },
      (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            retryAfter: res.headers['retry-after'] as string | undefined,
            body: JSON.parse(text) as Record<string, unknown>,
          }),
        );
      },
    );
    r.on('error', reject);
    r.end(data);
  });
}

describe('per-client limits over HTTP', () => {
  it('answers a JSON 429 with Retry-After past the burst, per client address', async () => {
    const body = {
      chains: { 'interwoven-1': { address: 'init1dw49mn7s2r5mskjdmus5hth80zz8wwaywycq06', denoms: ['uinit'] } },
    };
    const a = [];
    const started = Date.now();
    for (let i = 0; i < 3; i++) a.push(await post('127.0.0.2', '/v2/info/balances', body));
    expect(a.map((r) => r.status)).toEqual([200, 200, 429]);
    // A token every 10 s.
    const retryAfter = expectRetryAfter(a[2]!.retryAfter, 10, started);
    expect(a[2]!.body).toMatchObject({ code: 8, details: [], retry_after_seconds: retryAfter });
    expect(String(a[2]!.body.message)).toMatch(/too many balance calls/);
    // Another client is not affected.
    expect((await post('127.0.0.3', '/v2/info/balances', body)).status).toBe(200);
  });

  it('counts the forwarded client behind TRUST_PROXY_HOPS proxies, and ignores X-Forwarded-For without', async () => {
    const body = {
      chains: { 'interwoven-1': { address: 'init1dw49mn7s2r5mskjdmus5hth80zz8wwaywycq06', denoms: ['uinit'] } },
    };
    const registry = loadRouterRegistry({ ROUTER_NETWORK: 'mainnet' });
    const limits = { perMinute: 6, burst: 1 };
    const behind = await listen(createRouterApp({ registry, clientLimits: limits, trustProxyHops: 1 }), 0, '0.0.0.0');
    try {
      const at = (behind.address() as { port: number }).port;
      // One proxy (127.0.0.4) for two clients: each has its own bucket.
      expect((await post('127.0.0.4', '/v2/info/balances', body, '198.51.100.1', at)).status).toBe(200);
      expect((await post('127.0.0.4', '/v2/info/balances', body, '198.51.100.2', at)).status).toBe(200);
      expect((await post('127.0.0.4', '/v2/info/balances', body, '198.51.100.1', at)).status).toBe(429);
    } finally {
      await closeServer(behind);
    }
    // Without trusted proxies a client cannot pick its bucket by the header: the peer address counts.
    expect((await post('127.0.0.5', '/v2/info/balances', body, '198.51.100.1')).status).toBe(200);
    expect((await post('127.0.0.5', '/v2/info/balances', body, '198.51.100.2')).status).toBe(200);
    expect((await post('127.0.0.5', '/v2/info/balances', body, '198.51.100.3')).status).toBe(429);
  });
});
