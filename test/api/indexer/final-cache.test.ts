// The read model's cache of final answers (a KeyedCache, api/indexer/read/cache.ts) on the recorded EVM sample chain:
// an app with it and one without serve the same bytes (first pass = misses, second pass = hits); a 404 and a block
// above the tip are never kept; the byte bound evicts the least recently used entries; X-Served-By says memo.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CacheKey, KeyedCache, keys } from '../../../api/indexer/read/cache.js';
import type { EvmSampleManifest } from '../../../devnet/sample-chains/evm.js';
import { ingestSampleChain, type IngestedSample } from '../../support/sample.js';
import { startIndexer, type Running } from './helpers.js';

let s: IngestedSample;
let m: EvmSampleManifest;
let plain: Running;
let cached: Running;
const cache = new KeyedCache<unknown>({ name: 'final', maxBytes: 8 * 2 ** 20 });
const k = (s: string) => s as CacheKey;

beforeAll(async () => {
  s = await ingestSampleChain('evm');
  m = s.sample.manifest as EvmSampleManifest;
  const config = {
    CHAIN_ID: m.chainId,
    VM: 'evm' as const,
    BECH32_PREFIX: 'init',
    VERSION: 'v1',
    COMMIT_HASH: 'abc',
    EVM_INTERNAL_TXS: false,
  };
  const common = { store: s.store, config, chain: { restUrl: s.sample.restUrl }, responseCache: false };
  plain = await startIndexer({ ...common, finalCacheBytes: 0 });
  cached = await startIndexer({ ...common, finalCache: cache });
}, 180_000);
afterAll(async () => {
  await plain?.close();
  await cached?.close();
  await s?.cleanup();
});

const text = async (r: Running, p: string) => {
  const res = await fetch(r.base + p);
  return { status: res.status, body: await res.text() };
};

/** Every URL a walk of the list visits (first page, then next_key until the end), as served by `plain`. */
async function walkUrls(path: string): Promise<string[]> {
  const urls = [path];
  for (;;) {
    const { body } = await text(plain, urls[urls.length - 1]!);
    const next = (JSON.parse(body) as { pagination: { next_key: string | null } }).pagination.next_key;
    if (next === null) return urls;
    urls.push(`${path}${path.includes('?') ? '&' : '?'}pagination.key=${encodeURIComponent(next)}`);
  }
}

describe('cache of final answers', () => {
  it('serves the same bytes as the uncached app, from memory the second time', async () => {
    const txs = JSON.parse((await text(plain, '/indexer/tx/v1/txs?pagination.limit=1000')).body) as {
      txs: { txhash: string; height: string; tx: { body: { messages: { from_address?: string }[] } } }[];
    };
    expect(txs.txs.length).toBeGreaterThan(3);
    const account = txs.txs.map((t) => t.tx.body.messages[0]?.from_address).find((a) => a?.startsWith('init1'));
    const c = m.nftCollections[0]!;
    const [tokenId] = Object.entries(m.expected.nftOwners[c]!)[0]!;
    const urls = [
      ...txs.txs.map((t) => `/indexer/tx/v1/txs/${t.txhash}`),
      ...Array.from({ length: m.latestHeight }, (_, i) => `/indexer/block/v1/blocks/${i + 1}`),
      ...(await walkUrls('/indexer/tx/v1/txs?pagination.limit=2')),
      ...(await walkUrls('/indexer/tx/v1/txs?pagination.limit=2&pagination.count_total=false')),
      ...(await walkUrls('/indexer/block/v1/blocks?pagination.limit=3')),
      ...(await walkUrls('/indexer/block/v1/blocks?pagination.limit=4&pagination.reverse=false')),
      '/indexer/block/v1/blocks?pagination.offset=2&pagination.limit=2',
      '/indexer/block/v1/avg_blocktime',
      ...(await walkUrls(`/indexer/tx/v1/txs/by_height/${txs.txs[0]!.height}?pagination.limit=1`)),
      ...(await walkUrls(`/indexer/nft/v1/txs/${c}/${tokenId}?pagination.limit=1`)),
      ...(account ? await walkUrls(`/indexer/tx/v1/txs/by_account/${account}?pagination.limit=1`) : []),
    ];
    expect(urls.length).toBeGreaterThan(20);
    for (let pass = 0; pass < 2; pass++)
      for (const u of urls) {
        const [a, b] = [await text(plain, u), await text(cached, u)];
        expect({ u, status: b.status, body: b.body }).toEqual({ u, status: a.status, body: a.body });
        expect(a.status).toBe(200);
      }
    const st = cache.stats();
    expect(st.entries).toBeGreaterThan(20);
    expect(st.hits).toBeGreaterThan(urls.length / 2);
    expect(cache.has(keys.txByHash(txs.txs[0]!.txhash))).toBe(true);
    expect(cache.has(keys.block(1))).toBe(true);
    // Which layer answered: the cached app from memory, the uncached one from the engine.
    const servedBy = async (r: Running, p: string) => (await fetch(r.base + p)).headers.get('x-served-by');
    const byHash = `/indexer/tx/v1/txs/${txs.txs[0]!.txhash}`;
    expect(await servedBy(cached, byHash)).toBe('memo');
    expect(await servedBy(plain, byHash)).toBe('engine');
    expect(await servedBy(cached, '/indexer/block/v1/blocks/1')).toBe('memo');
    expect(await servedBy(cached, '/indexer/tx/v1/txs/not-a-hash')).toBe('handler');
  });

  it('never keeps a 404, nor a block above the tip (which becomes visible once its checkpoint lands)', async () => {
    const missing = 'AB'.repeat(32);
    for (let i = 0; i < 2; i++) expect((await text(cached, `/indexer/tx/v1/txs/${missing}`)).status).toBe(404);
    expect(cache.has(keys.txByHash(missing))).toBe(false);
    const above = m.latestHeight + 1;
    await s.store.insert('blocks', [
      {
        height: above,
        hash: 'CD'.repeat(32),
        chain_id: m.chainId,
        time: '2030-01-01 00:00:00',
        block_time_ms: 500,
        proposer: '',
        gas_used: 0,
        gas_wanted: 0,
        tx_count: 0,
        total_fee: '[]',
      },
    ]);
    expect((await text(cached, `/indexer/block/v1/blocks/${above}`)).status).toBe(404);
    expect(cache.has(keys.block(above))).toBe(false);
    await s.store.insert('ingest_checkpoints', [{ height: above }]);
    let status = 404;
    for (let i = 0; i < 40 && status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 50)); // the tip is refreshed in the background
      status = (await text(cached, `/indexer/block/v1/blocks/${above}`)).status;
    }
    expect(status).toBe(200);
    expect(cache.has(keys.block(above))).toBe(true);
  });

  it('counts its keys in its bytes, and drops expired entries as new ones come', async () => {
    // The response cache's keys are request URLs, which clients choose: 20,000 requests of `?_=<i>` + 8,000
    // characters with 123-byte bodies grew the indexer by 1.2 GB with 0 evictions under its 64 MiB bound.
    const c = new KeyedCache<Buffer>({
      name: 'response',
      maxBytes: 256 * 1024,
      sizeOf: (b) => b.length,
      order: 'insertion',
    });
    const body = Buffer.alloc(123);
    for (let i = 0; i < 2000; i++) c.set(k(`GET:/status?_=${i}${'x'.repeat(8000)}`), body, 60_000);
    expect(c.stats().bytes).toBeLessThanOrEqual(256 * 1024);
    expect(c.stats().entries).toBeLessThanOrEqual(32); // 256 KiB / (8 KB key + 123 B body + the entry)
    expect(c.stats().evictions).toBeGreaterThan(1900);
    // Expired entries nobody reads again go as soon as anything is kept after them.
    const short = new KeyedCache<Buffer>({ name: 'response', maxBytes: 1 << 20, sizeOf: (b) => b.length });
    for (let i = 0; i < 100; i++) short.set(k(`GET:/a?${i}`), body, 1);
    await new Promise((r) => setTimeout(r, 10));
    short.set(k('GET:/b'), body, 60_000);
    expect(short.stats().entries).toBe(1);
    expect(short.stats().bytes).toBeLessThan(1024);
  });

  it('is bounded by bytes, least recently used out first; 0 bytes keeps nothing', async () => {
    const c = new KeyedCache<unknown>({ name: 't', maxBytes: 16 * 1024 });
    const v = 'x'.repeat(900);
    for (let i = 0; i < 10; i++) c.set(k(`k${i}`), v);
    expect(c.get(k('k0'))).toBe(v); // touched: now the youngest
    for (let i = 10; i < 20; i++) c.set(k(`k${i}`), v);
    expect(c.stats().bytes).toBeLessThanOrEqual(16 * 1024);
    expect(c.has(k('k0'))).toBe(true);
    expect(c.has(k('k1'))).toBe(false);
    let loads = 0;
    const off = new KeyedCache<unknown>({ name: 't', maxBytes: 0 });
    for (let i = 0; i < 3; i++) await off.through(k('a'), async () => ++loads);
    expect(loads).toBe(3);
    expect(off.stats().entries).toBe(0);
    // concurrent misses of one key share one load; not found is not kept
    let n = 0;
    const slow = () => new Promise<string | undefined>((r) => setTimeout(() => r(++n > 1 ? 'late' : undefined), 20));
    const both = await Promise.all([c.through(k('nf'), slow), c.through(k('nf'), slow)]);
    expect(both).toEqual([undefined, undefined]);
    expect(n).toBe(1);
    expect(c.has(k('nf'))).toBe(false);
  });
});
