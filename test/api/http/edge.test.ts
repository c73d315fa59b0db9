// The edge (api/http/edge.ts) against the full stack, on the recorded EVM sample chain: one indexer app served
// twice, by `listen` (the edge first) and by a plain node server over express (no edge). For every URL and every
// CORS setting, the edge's hit must equal express's hit byte for byte (status, headers, body), and carry the body
// the handler computed. The router's status lane has the same check in test/api/router/tracking.test.ts.
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeServer, listen } from '../../../api/http/app.js';
import type { CorsSettings } from '../../../api/http/cors.js';
import { createIndexerApp } from '../../../api/indexer/app.js';
import type { EvmSampleManifest } from '../../../devnet/sample-chains/evm.js';
import { indexerConfig } from '../../support/indexer-config.js';
import { ingestSampleChain, type IngestedSample } from '../../support/sample.js';

let s: IngestedSample;
let m: EvmSampleManifest;
const servers: Server[] = [];

beforeAll(async () => {
  s = await ingestSampleChain('evm');
  m = s.sample.manifest as EvmSampleManifest;
}, 180_000);
afterAll(async () => {
  for (const x of servers) await closeServer(x);
  await s?.cleanup();
});

const url = (x: Server, p: string) => `http://127.0.0.1:${(x.address() as AddressInfo).port}${p}`;
/** Everything a client sees but the per-connection headers. */
async function seen(r: Response) {
  const headers = Object.fromEntries(
    [...r.headers].filter(([k]) => !['date', 'connection', 'keep-alive'].includes(k)).sort(),
  );
  return { status: r.status, headers, body: await r.text() };
}

async function pair(cors: CorsSettings | undefined) {
  const app = createIndexerApp({
    store: s.store,
    config: indexerConfig('evm', m.chainId),
    chain: { restUrl: s.sample.restUrl },
    cors,
  });
  const edge = await listen(app, 0);
  const full = createServer(app).listen(0, '127.0.0.1');
  await new Promise((r) => full.once('listening', r));
  servers.push(edge, full);
  return { edge, full };
}

const CORS: Record<string, { cors: CorsSettings | undefined; origin?: string }> = {
  'any origin (default)': { cors: undefined, origin: 'https://scan.example.com' },
  'allow-list, allowed origin': {
    cors: { enabled: true, origins: ['https://*.example.com'], methods: ['GET'], headers: ['*'], maxAge: 0 },
    origin: 'https://scan.example.com',
  },
  'allow-list, other origin': {
    cors: { enabled: true, origins: ['https://scan.example.com'], methods: ['GET'], headers: ['*'], maxAge: 0 },
    origin: 'https://evil.example.org',
  },
  'allow-list, no origin': {
    cors: { enabled: true, origins: ['https://scan.example.com'], methods: ['GET'], headers: ['*'], maxAge: 0 },
  },
  'CORS off': { cors: { enabled: false, origins: [], methods: [], headers: [], maxAge: 0 }, origin: 'https://a.b' },
};

describe('the edge answers exactly as the full stack', () => {
  it.each(Object.entries(CORS))(
    '%s',
    async (_name, { cors, origin }) => {
      const { edge, full } = await pair(cors);
      const first = await (await fetch(url(full, '/indexer/tx/v1/txs?pagination.limit=4'))).json();
      const { txhash, height } = (first as { txs: { txhash: string; height: string }[] }).txs[0]!;
      const paths = [
        '/status',
        '/indexer/block/v1/blocks?pagination.limit=2',
        '/indexer/block/v1/blocks/1',
        '/indexer/block/v1/avg_blocktime',
        '/indexer/tx/v1/txs?pagination.limit=3',
        `/indexer/tx/v1/txs/${txhash}`,
        `/indexer/tx/v1/txs/by_height/${height}`,
        '/indexer/tx/v1/evm-txs?pagination.limit=2&pagination.reverse=false',
        '/indexer/nft/v1/collections',
        `/indexer/nft/v1/tokens/by_collection/${m.nftCollections[0]}?pagination.limit=2`,
        '/indexer/tx/v1/txs?pagination.limit=3&_=1700000000',
      ];
      const headers = origin ? { origin } : undefined;
      for (const p of paths) {
        const computed = await seen(await fetch(url(full, p), { headers }));
        expect([p, computed.status, computed.headers['x-cache']]).toEqual([p, 200, 'miss']);
        const viaEdge = await seen(await fetch(url(edge, p), { headers }));
        const viaExpress = await seen(await fetch(url(full, p), { headers }));
        expect({ p, ...viaEdge }).toEqual({ p, ...viaExpress });
        expect(viaEdge.headers['x-served-by']).toBe('edge');
        expect(viaEdge.headers['x-cache']).toBe('hit');
        expect(viaEdge.body).toBe(computed.body);
        // apart from the cache's own two headers, the hit is the computed answer
        const strip = (h: Record<string, string>) => {
          const { 'x-cache': _c, 'x-served-by': _s, ...rest } = h;
          return rest;
        };
        expect(strip(viaEdge.headers)).toEqual(strip(computed.headers));
      }
      // What the edge does not answer goes on to express: a miss, a HEAD, an error.
      const miss = await fetch(url(edge, '/indexer/block/v1/blocks/2'), { headers });
      expect([miss.status, miss.headers.get('x-cache'), miss.headers.get('x-served-by')]).toEqual([
        200,
        'miss',
        'engine',
      ]);
      const head = await fetch(url(edge, '/indexer/block/v1/blocks/1'), { method: 'HEAD', headers });
      expect(head.headers.get('x-served-by')).not.toBe('edge');
      // A GET carrying a broken JSON body, on a URL whose answer is kept: express's 400 on both.
      for (const x of [edge, full]) {
        const status = await new Promise<number | undefined>((resolve, reject) => {
          const r = request(url(x, '/indexer/block/v1/blocks/1'), {
            method: 'GET',
            headers: { 'content-type': 'application/json', 'content-length': '1', ...headers },
          });
          r.on('response', (res) => {
            res.resume();
            resolve(res.statusCode);
          });
          r.on('error', reject);
          r.end('{');
        });
        expect(status).toBe(400);
      }
      const bad = await fetch(url(edge, '/indexer/block/v1/blocks/x'), { headers });
      expect([bad.status, bad.headers.get('x-served-by')]).toEqual([400, 'handler']);
      // The layers and the caches are counted at /metrics.
      const metrics = await (await fetch(url(edge, '/metrics'))).text();
      expect(metrics).toMatch(/http_served_total\{service="indexer",layer="edge"\} [1-9]/);
      expect(metrics).toMatch(/indexer_cache_events_total\{cache="response",event="hit"\} [1-9]/);
      expect(metrics).toMatch(/indexer_cache_bytes\{cache="held:status"\} [1-9]/);
      // Every response names its layer, whatever answered it.
      const other = [
        '/health',
        '/metrics',
        '/swagger/doc.json',
        '/no/such/route',
        '/indexer/tx/v1/txs?pagination.limit=0',
      ];
      for (const p of other)
        expect([p, (await fetch(url(edge, p), { headers })).headers.get('x-served-by')]).toEqual([p, 'handler']);
    },
    60_000,
  );
});
