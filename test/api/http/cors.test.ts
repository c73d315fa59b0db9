// CORS on both services (issue 12): real HTTP on loopback, the browser's view of the headers.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStore, type Store } from '../../../clickhouse/client.js';
import { migrate } from '../../../clickhouse/migrate.js';
import { closeServer, listen } from '../../../api/http/app.js';
import { corsFromConfig, type CorsSettings } from '../../../api/http/cors.js';
import { createIndexerApp } from '../../../api/indexer/app.js';
import { createRouterApp } from '../../../api/router/app.js';
import { loadRouterRegistry } from '../../../routing/registry.js';
import { loadConfig } from '../../../platform/config.js';
import { indexerConfig } from '../../support/indexer-config.js';

let dir: string;
let store: Store;
const servers: Server[] = [];
const base = (s: Server) => `http://127.0.0.1:${(s.address() as AddressInfo).port}`;

async function indexer(cors?: CorsSettings): Promise<string> {
  const s = await listen(
    createIndexerApp({ store, config: indexerConfig('evm', 'cors-1'), cors, responseCache: false }),
    0,
  );
  servers.push(s);
  return base(s);
}
async function router(cors?: CorsSettings): Promise<string> {
  const s = await listen(createRouterApp({ registry: loadRouterRegistry({ ROUTER_NETWORK: 'mainnet' }), cors }), 0);
  servers.push(s);
  return base(s);
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'cors-'));
  store = createStore({ dataDir: dir });
  await migrate(store);
});
afterAll(async () => {
  for (const s of servers) await closeServer(s);
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('default settings: any origin', () => {
  it('indexer GETs carry Access-Control-Allow-Origin: *, on success and on errors', async () => {
    const b = await indexer();
    const ok = await fetch(`${b}/indexer/tx/v1/txs`, { headers: { Origin: 'http://localhost:3000' } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe('*');
    const bad = await fetch(`${b}/indexer/tx/v1/txs?pagination.limit=0`, { headers: { Origin: 'https://x.test' } });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('access-control-allow-origin')).toBe('*');
    const missing = await fetch(`${b}/nope`, { headers: { Origin: 'https://x.test' } });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('indexer preflight is answered 204 with methods and the requested headers', async () => {
    const b = await indexer();
    const res = await fetch(`${b}/indexer/tx/v1/txs`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'https://scan.example.com',
        'Access-Control-Request-Method': 'GET',
        'Access-Control-Request-Headers': 'x-custom, content-type',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-methods')).toContain('GET');
    expect(res.headers.get('access-control-allow-headers')).toBe('x-custom, content-type');
    expect(res.headers.get('access-control-max-age')).toBe('600');
  });

  it('router JSON POST preflight and response', async () => {
    const b = await router();
    const pre = await fetch(`${b}/v2/fungible/route`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'https://app.example.com',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'content-type',
      },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-methods')).toContain('POST');
    const post = await fetch(`${b}/v2/fungible/route`, {
      method: 'POST',
      headers: { Origin: 'https://app.example.com', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(post.status).toBe(400); // an empty body is a validation error, still readable by the page
    expect(post.headers.get('access-control-allow-origin')).toBe('*');
  });
});

describe('configured through platform/config.ts', () => {
  it('an allow-list of exact and wildcard origins; others get no header', async () => {
    const c = loadConfig({
      CORS_ALLOW_ORIGINS: 'https://scan.initia.xyz, https://*.example.com',
      CORS_ALLOW_METHODS: 'get,options',
      CORS_ALLOW_HEADERS: 'Content-Type',
      CORS_MAX_AGE: '0',
    });
    const settings = corsFromConfig(c);
    expect(settings).toEqual({
      enabled: true,
      origins: ['https://scan.initia.xyz', 'https://*.example.com'],
      methods: ['GET', 'OPTIONS'],
      headers: ['Content-Type'],
      maxAge: 0,
    });
    const b = await indexer(settings);
    const allowed = await fetch(`${b}/status`, { headers: { Origin: 'https://scan.initia.xyz' } });
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://scan.initia.xyz');
    expect(allowed.headers.get('vary')).toContain('Origin');
    const wild = await fetch(`${b}/status`, { headers: { Origin: 'https://a.example.com' } });
    expect(wild.headers.get('access-control-allow-origin')).toBe('https://a.example.com');
    const other = await fetch(`${b}/status`, { headers: { Origin: 'https://evil.test' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    const pre = await fetch(`${b}/status`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://a.example.com', 'Access-Control-Request-Method': 'GET' },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-methods')).toBe('GET,OPTIONS');
    expect(pre.headers.get('access-control-allow-headers')).toBe('Content-Type');
    expect(pre.headers.get('access-control-max-age')).toBeNull();
  });

  it('CORS_ENABLED=false sends no CORS header; bad values are refused at start-up', async () => {
    const b = await indexer(corsFromConfig(loadConfig({ CORS_ENABLED: 'false' })));
    const res = await fetch(`${b}/status`, { headers: { Origin: 'https://a.example.com' } });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(() => loadConfig({ CORS_ALLOW_METHODS: 'GET;DROP' })).toThrow(/CORS_ALLOW_METHODS/);
    expect(() => loadConfig({ CORS_MAX_AGE: '-1' })).toThrow(/CORS_MAX_AGE/);
  });
});
