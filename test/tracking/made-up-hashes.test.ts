// What a registered hash that never lands costs the chain: one lookup by hash when its tracking starts (the tx may
// already be in a block), then only a slot in the worker's shared chain feed until the source timeout, and one more
// lookup before it is given up (a tx the node indexed later than the feed read its block is not missed). Measured at
// the chain's own RPC through a counting loopback proxy, with real Temporal, real chDB and the simulated network:
// a poll window of 1 s and a 5 s source timeout would give five lookups a hash if each window looked it up again.
import { randomBytes } from 'node:crypto';
import { createServer, request, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staticDirectory } from '../../activities/chains.js';
import { createStore, type Store } from '../../clickhouse/client.js';
import { SIM, Simnet } from '../../devnet/simnet/index.js';
import { createLogger } from '../../platform/log.js';
import { startTracking, type Tracking } from '../../tracking/index.js';
import { FAST } from './harness.js';

/** A loopback HTTP proxy in front of one RPC URL that counts requests by path. */
async function countingProxy(target: string): Promise<{ url: string; counts: Map<string, number>; server: Server }> {
  const t = new URL(target);
  const counts = new Map<string, number>();
  const server = createServer((req, res) => {
    const p = (req.url ?? '/').split('?')[0]!;
    counts.set(p, (counts.get(p) ?? 0) + 1);
    const up = request(
      { host: t.hostname, port: t.port, path: req.url, method: req.method, headers: req.headers },
      (r) => {
        res.writeHead(r.statusCode ?? 502, r.headers);
        r.pipe(res);
      },
    );
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, counts, server };
}

let dir: string;
let store: Store;
let simnet: Simnet;
let tracking: Tracking;
let proxy: Awaited<ReturnType<typeof countingProxy>>;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'made-up-hashes-'));
  store = createStore({ dataDir: path.join(dir, 'clickhouse') });
  simnet = await Simnet.start();
  const infos = simnet.chainInfos();
  const l1 = infos.find((c) => c.chainId === SIM.l1)!;
  proxy = await countingProxy(l1.rpcUrl!);
  tracking = await startTracking({
    config: { DATA_DIR: dir, TEMPORAL_ADDRESS: undefined, TEMPORAL_NAMESPACE: 'default', TEMPORAL_TASK_QUEUE: 'q' },
    store,
    chains: staticDirectory(infos.map((c) => (c.chainId === SIM.l1 ? { ...c, rpcUrl: proxy.url } : c))),
    log: createLogger({ test: 'made-up-hashes' }),
    timings: { ...FAST, pollWindowMs: 1_000, sourceTimeoutMs: 5_000 },
  });
}, 120_000);

afterAll(async () => {
  await tracking?.stop();
  await new Promise<void>((r) => (proxy ? proxy.server.close(() => r()) : r()));
  await simnet?.stop();
  await store?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
}, 60_000);

describe('made-up hashes', () => {
  it('cost a lookup each when tracking starts and one before giving up, between them only the shared feed', async () => {
    const hashes = Array.from({ length: 40 }, () => randomBytes(32).toString('hex').toUpperCase());
    const started = Date.now();
    for (const h of hashes) {
      await tracking.service.register(SIM.l1, h, Date.now());
      tracking.service.startWorkflow(SIM.l1, h, Date.now());
    }
    const end = Date.now() + 60_000;
    let open = hashes.length;
    while (open > 0 && Date.now() < end) {
      await new Promise((r) => setTimeout(r, 250));
      const states = await Promise.all(hashes.map((h) => tracking.service.latestStatusJson(SIM.l1, h)));
      open = states.filter((s) => !s || JSON.parse(s).state !== 'STATE_ABANDONED').length;
    }
    expect(open).toBe(0);
    const seconds = (Date.now() - started) / 1000;
    // Two lookups by hash per registered hash (start, give-up), not one per poll window.
    expect(proxy.counts.get('/tx') ?? 0).toBe(2 * hashes.length);
    // The shared feed reads the chain's new heights once per feed interval, whatever the number of hashes.
    const feedReads = (proxy.counts.get('/tx_search') ?? 0) + (proxy.counts.get('/status') ?? 0);
    expect(feedReads).toBeGreaterThan(0);
    expect(feedReads).toBeLessThan(seconds * 2 * (1000 / 250) + 20);
  }, 90_000);
});
