// The NFT endpoints answer the same whether collections and tokens are held in memory per tip
// (api/indexer/collection-memory.ts, api/indexer/token-memory.ts, the default) or every request reads the engine
// (what happens past MAX_COLLECTIONS / DEFAULT_TOKENS_HELD): page by page, walking cursors both ways and in both token
// orders, by offset, with filters, by account, by name and by address, and the collection names of token pages.
// Over each sample chain (EVM, Move, Wasm).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestSampleChain, type IngestedSample } from '../../support/sample.js';
import { KeyedCache, keys } from '../../../api/indexer/read/cache.js';
import { TokenMemory } from '../../../api/indexer/read/token-memory.js';
import { tokenSource } from '../../../api/indexer/read/tokens.js';
import { startIndexer, type Running } from './helpers.js';
import { indexerConfig } from '../../support/indexer-config.js';

describe.each(['evm', 'move', 'wasm'] as const)('NFTs held in memory vs read from the engine (%s)', (kind) => {
  let s: IngestedSample;
  let held: Running;
  let engine: Running;
  let memory: TokenMemory;
  let immutable: KeyedCache<unknown>;

  beforeAll(async () => {
    s = await ingestSampleChain(kind);
    const opts = {
      store: s.store,
      config: indexerConfig(kind, s.sample.manifest.chainId),
      chain: { restUrl: s.sample.restUrl },
      responseCache: false,
    };
    memory = new TokenMemory(tokenSource(s.store));
    immutable = new KeyedCache<unknown>({ name: 'final', maxBytes: 64 * 2 ** 20 });
    held = await startIndexer({ ...opts, tokenMemory: memory, finalCache: immutable });
    engine = await startIndexer({ ...opts, collectionsHeld: 0, tokensHeld: 0 });
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

  /** Every way of paging a token list: both orders, both directions, by cursor and by offset. */
  async function sameTokens(path: string): Promise<{ nft: { token_id: string }; collection_addr: string }[]> {
    const q = path.includes('?') ? '&' : '?';
    const all = (await same(`${path}${q}pagination.limit=2`, 'tokens')) as {
      nft: { token_id: string };
      collection_addr: string;
    }[];
    for (const order of ['token_id', 'height'])
      for (const reverse of ['true', 'false']) {
        const items = await same(
          `${path}${q}order_by=${order}&pagination.reverse=${reverse}&pagination.limit=1`,
          'tokens',
        );
        expect(items.length).toBe(all.length);
      }
    await same(`${path}${q}pagination.offset=1&pagination.limit=2`, 'tokens');
    await same(`${path}${q}pagination.offset=999`, 'tokens');
    await same(`${path}${q}pagination.count_total=false&pagination.limit=1`, 'tokens');
    return all;
  }

  it('collections: lists, pages and lookups are identical', async () => {
    const all = (await same('/indexer/nft/v1/collections?pagination.limit=1', 'collections')) as {
      object_addr: string;
      collection: { name: string };
    }[];
    expect(all.length).toBeGreaterThan(0);
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
    }
  }, 120_000);

  it('tokens by collection: every order, direction, cursor, offset and token_id filter is identical', async () => {
    // the held app really answers from memory
    const [tip] = await s.store.rows<{ h: string }>('SELECT max(height) AS h FROM blocks');
    expect((await memory.at(Number(tip!.h)))?.size).toBeGreaterThan(0);
    const cols = (await same('/indexer/nft/v1/collections', 'collections')) as { object_addr: string }[];
    let seen = 0;
    for (const c of cols) {
      const tokens = await sameTokens(`/indexer/nft/v1/tokens/by_collection/${c.object_addr}`);
      seen += tokens.length;
      for (const t of tokens.slice(0, 3))
        await same(
          `/indexer/nft/v1/tokens/by_collection/${c.object_addr}?token_id=${encodeURIComponent(t.nft.token_id)}`,
          'tokens',
        );
      await same(`/indexer/nft/v1/tokens/by_collection/${c.object_addr}?token_id=no-such-token`, 'tokens');
    }
    expect(seen).toBeGreaterThan(0);
  }, 180_000);

  it("an NFT's txs: every token, burned and unknown ones included, both directions, by cursor and by offset", async () => {
    const nfts = await s.store.rows<{ collection: string; token_id: string; burned: number }>(
      `SELECT collection, token_id, max(burned_v).3 AS burned FROM nft_token_state GROUP BY collection, token_id
       UNION ALL SELECT any(collection), 'no-such-token', 0 FROM nft_token_state`,
    );
    let txs = 0;
    for (const n of nfts) {
      const base = `/indexer/nft/v1/txs/${n.collection}/${encodeURIComponent(n.token_id)}`;
      const all = await same(`${base}?pagination.limit=1`, 'txs');
      if (n.burned || n.token_id === 'no-such-token') expect(all).toEqual([]);
      txs += all.length;
      await same(`${base}?pagination.limit=1&pagination.reverse=false`, 'txs');
      await same(`${base}?pagination.offset=1`, 'txs');
      await same(`${base}?pagination.count_total=false`, 'txs');
    }
    expect(txs).toBeGreaterThan(0);
    // the held app paged live tokens' histories from memory, kept by their latest event's height
    const live = nfts.find((n) => !n.burned && n.token_id !== 'no-such-token')!;
    const [st] = await s.store.rows<{ h: string }>(
      'SELECT max(last_height) AS h FROM nft_token_state WHERE collection = {c:String} AND token_id = {t:String}',
      { c: live.collection, t: live.token_id },
    );
    expect(immutable.has(keys.nftHistory(live.collection, live.token_id, Number(st!.h)))).toBe(true);
  }, 180_000);

  it('tokens and collections by account: identical for every holder, with and without filters', async () => {
    const owners = await s.store.rows<{ owner: string }>(
      'SELECT DISTINCT owner FROM nft_holdings ORDER BY owner LIMIT 20',
    );
    expect(owners.length).toBeGreaterThan(0);
    let seen = 0;
    for (const { owner } of owners) {
      await same(`/indexer/nft/v1/collections/by_account/${owner}?pagination.limit=1`, 'collections');
      const tokens = await sameTokens(`/indexer/nft/v1/tokens/by_account/${owner}`);
      seen += tokens.length;
      const t = tokens[0];
      if (!t) continue;
      await same(`/indexer/nft/v1/tokens/by_account/${owner}?collection_addr=${t.collection_addr}`, 'tokens');
      await same(
        `/indexer/nft/v1/tokens/by_account/${owner}?token_id=${encodeURIComponent(t.nft.token_id)}&pagination.limit=1`,
        'tokens',
      );
    }
    expect(seen).toBeGreaterThan(0);
  }, 180_000);
});
