// The NFT collection endpoints answer the same whether every collection is held in memory per tip
// (api/indexer/collection-memory.ts, the default) or every request reads the engine (what happens past
// MAX_COLLECTIONS): page by page, walking cursors both ways, by offset, by account, by name and by address, and the
// collection names of token pages. Over the EVM sample chain.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestSampleChain, type IngestedSample } from '../../support/sample.js';
import { startIndexer, type Running } from './helpers.js';

let s: IngestedSample;
let held: Running;
let engine: Running;

beforeAll(async () => {
  s = await ingestSampleChain('evm');
  const opts = {
    store: s.store,
    config: {
      CHAIN_ID: s.sample.manifest.chainId,
      VM: 'evm' as const,
      BECH32_PREFIX: 'init',
      VERSION: 'dev',
      COMMIT_HASH: 'unknown',
      EVM_INTERNAL_TXS: false,
    },
    chain: { restUrl: s.sample.restUrl },
    responseCache: false,
  };
  held = await startIndexer(opts);
  engine = await startIndexer({ ...opts, collectionsHeld: 0 });
}, 180_000);
afterAll(async () => {
  await held?.close();
  await engine?.close();
  await s?.cleanup();
});

/** Walk a list on both apps from its first page, comparing every page; returns the pages' items. */
async function same(path: string, key: string): Promise<unknown[]> {
  const items: unknown[] = [];
  let url: string | null = path;
  let pages = 0;
  while (url !== null && pages < 200) {
    const [a, b] = await Promise.all([held.get(url), engine.get(url)]);
    expect(b, url).toEqual(a);
    expect(a.status, url).toBe(200);
    items.push(...(a.body[key] as unknown[]));
    const next = a.body.pagination?.next_key as string | null | undefined;
    url = next ? `${path}${path.includes('?') ? '&' : '?'}pagination.key=${encodeURIComponent(next)}` : null;
    pages++;
  }
  return items;
}

describe('NFT collections held in memory vs read from the engine', () => {
  it('lists, pages and lookups are identical', async () => {
    const all = (await same('/indexer/nft/v1/collections?pagination.limit=1', 'collections')) as {
      object_addr: string;
      collection: { name: string };
    }[];
    expect(all.length).toBeGreaterThan(1);
    await same('/indexer/nft/v1/collections?pagination.limit=2&pagination.reverse=false', 'collections');
    await same('/indexer/nft/v1/collections?pagination.limit=1&pagination.offset=1', 'collections');
    await same('/indexer/nft/v1/collections?pagination.offset=99', 'collections');
    await same('/indexer/nft/v1/collections?pagination.count_total=false&pagination.limit=1', 'collections');
    for (const c of all) {
      const [a, b] = await Promise.all([
        held.get(`/indexer/nft/v1/collections/${c.object_addr}`),
        engine.get(`/indexer/nft/v1/collections/${c.object_addr}`),
      ]);
      expect(b).toEqual(a);
      const name = c.collection.name.replace(/[^\p{L}\p{N}]/gu, '').slice(0, 3);
      if (name)
        await same(`/indexer/nft/v1/collections/by_name/${encodeURIComponent(name)}?pagination.limit=1`, 'collections');
      await same(`/indexer/nft/v1/tokens/by_collection/${c.object_addr}?pagination.limit=2`, 'tokens');
    }
    const owners = await s.store.rows<{ owner: string }>(
      'SELECT DISTINCT owner FROM nft_holdings ORDER BY owner LIMIT 20',
    );
    expect(owners.length).toBeGreaterThan(0);
    for (const { owner } of owners) {
      await same(`/indexer/nft/v1/collections/by_account/${owner}?pagination.limit=1`, 'collections');
      await same(`/indexer/nft/v1/tokens/by_account/${owner}?pagination.limit=2&pagination.reverse=false`, 'tokens');
    }
  });
});
