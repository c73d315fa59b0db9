// Contract tests from the explorer's side (issue 12): the calls the Celatone frontend makes to the indexer
// (its src/lib/services/*/sequencer.ts: the same paths and query parameters, including the ones axios sends
// as `param=` when a value is empty), and the shapes its zod schemas parse (src/lib/types/), restated here
// from what they require, on all three sample chains. Also every upstream tolerance of issue 12 with the
// values real clients send. Each chain is ingested through the real ingest into chDB and served on loopback.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  parse,
  qs,
  zBlock,
  zCollection,
  zInternalTx,
  zPagination,
  zToken,
  zTxResponse,
  zTxs,
} from '../../support/celatone-contract.js';
import { ingestSampleChain, type IngestedSample, type SampleKind } from '../../support/sample.js';
import { startIndexer, type Running } from './helpers.js';
import { indexerConfig } from '../../support/indexer-config.js';

const vmOf: Record<SampleKind, 'evm' | 'move' | 'wasm'> = { evm: 'evm', move: 'move', wasm: 'wasm' };

describe.each(['evm', 'move', 'wasm'] as const)('%s sample chain, as the explorer calls it', (kind) => {
  let s: IngestedSample;
  let api: Running;

  beforeAll(async () => {
    s = await ingestSampleChain(kind, { evmTraces: kind === 'evm' });
    api = await startIndexer({
      store: s.store,
      config: indexerConfig(vmOf[kind], s.sample.manifest.chainId, { EVM_INTERNAL_TXS: kind === 'evm' }),
      chain: { restUrl: s.sample.restUrl },
      responseCache: false,
    });
  }, 240_000);
  afterAll(async () => {
    await api?.close();
    await s?.cleanup();
  });

  const ok = async (path: string) => {
    const r = await api.get(path);
    if (r.status !== 200) throw new Error(`${path} → ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };

  it('txs: count, list, by account, by hash, by height (walking next_key with limit "100")', async () => {
    const count = parse(
      zTxs,
      await ok(`/indexer/tx/v1/txs${qs({ 'pagination.count_total': true, 'pagination.limit': 1 })}`),
      'count',
    );
    expect(count.pagination.total).toBe(s.sample.manifest.txs.length);
    const list = parse(
      zTxs,
      await ok(
        `/indexer/tx/v1/txs${qs({ 'pagination.key': undefined, 'pagination.limit': 10, 'pagination.reverse': true })}`,
      ),
      'list',
    );
    expect(list.txs.length).toBe(Math.min(10, s.sample.manifest.txs.length));
    const next = parse(
      zTxs,
      await ok(
        `/indexer/tx/v1/txs${qs({ 'pagination.key': list.pagination.next_key, 'pagination.limit': 10, 'pagination.reverse': true })}`,
      ),
      'next page',
    );
    if (next.txs[0]) expect(Number(next.txs[0].height)).toBeLessThanOrEqual(Number(list.txs.at(-1)!.height));
    const t = s.sample.manifest.txs[0]!;
    parse(
      zTxs,
      await ok(
        `/indexer/tx/v1/txs/by_account/${encodeURI(t.signer)}${qs({ 'pagination.limit': 10, 'pagination.reverse': true })}`,
      ),
      'by account',
    );
    const byHash = parse(z.object({ tx: zTxResponse }), await ok(`/indexer/tx/v1/txs/${encodeURI(t.hash)}`), 'by hash');
    expect(byHash.tx.txhash).toBe(t.hash);
    let key: string | null = null;
    const inBlock: unknown[] = [];
    do {
      const page: z.infer<typeof zTxs> = parse(
        zTxs,
        await ok(`/indexer/tx/v1/txs/by_height/${t.height}${qs({ 'pagination.key': key, 'pagination.limit': '100' })}`),
        'by height',
      );
      inBlock.push(...page.txs);
      key = page.pagination.next_key;
    } while (key);
    expect(inBlock.length).toBe(s.sample.manifest.txs.filter((x) => x.height === t.height).length);
  });

  it('every served tx carries the signer_infos and public keys the chain reported (none dropped)', async () => {
    const heights = [...new Set(s.sample.manifest.txs.map((t) => t.height))];
    for (const h of heights) {
      const rest = (await (await fetch(`${s.sample.restUrl}/cosmos/tx/v1beta1/txs/block/${h}`)).json()) as {
        txs: { auth_info: unknown }[];
      };
      const served = (await ok(`/indexer/tx/v1/txs/by_height/${h}?pagination.reverse=false`)) as {
        txs: { tx: { auth_info: unknown } }[];
      };
      expect(served.txs.map((t) => t.tx.auth_info)).toEqual(rest.txs.map((t) => t.auth_info));
    }
  });

  it('blocks: list by offset then by key, one block, average block time', async () => {
    const zBlocks = z.object({ blocks: z.array(zBlock), pagination: zPagination });
    const first = parse(
      zBlocks,
      await ok(`/indexer/block/v1/blocks${qs({ 'pagination.limit': 10, 'pagination.offset': 0 })}`),
      'blocks',
    );
    expect(first.pagination.total).toBe(s.sample.manifest.latestHeight);
    if (first.pagination.next_key)
      parse(
        zBlocks,
        await ok(
          `/indexer/block/v1/blocks${qs({ 'pagination.limit': 10, 'pagination.offset': 0, 'pagination.key': first.pagination.next_key })}`,
        ),
        'blocks page 2',
      );
    parse(z.object({ block: zBlock }), await ok(`/indexer/block/v1/blocks/${first.blocks[0]!.height}`), 'block');
    parse(z.object({ avg_block_time: z.number() }), await ok('/indexer/block/v1/avg_blocktime'), 'avg');
  });

  it('NFTs: collections (named), by account, one collection, tokens with empty search filters, NFT txs', async () => {
    const zCollections = z.object({ collections: z.array(zCollection), pagination: zPagination });
    const zTokens = z.object({ tokens: z.array(zToken), pagination: zPagination });
    const cols = parse(
      zCollections,
      await ok(
        `/indexer/nft/v1/collections${qs({ 'pagination.limit': 10, 'pagination.offset': 0, 'pagination.count_total': true })}`,
      ),
      'collections',
    );
    expect(cols.collections.length).toBeGreaterThan(0);
    const c = cols.collections[0]!;
    parse(
      z.object({ collection: zCollection }),
      await ok(`/indexer/nft/v1/collections/${c.object_addr}`),
      'collection',
    );
    const supply = parse(
      zTokens,
      await ok(
        `/indexer/nft/v1/tokens/by_collection/${encodeURI(c.object_addr)}${qs({ 'pagination.count_total': true })}`,
      ),
      'supply',
    );
    const tokens = parse(
      zTokens,
      await ok(
        `/indexer/nft/v1/tokens/by_collection/${c.object_addr}${qs({ 'pagination.reverse': true, 'pagination.key': undefined })}`,
      ),
      'tokens',
    );
    expect(tokens.tokens.length).toBe(supply.pagination.total);
    const owned = tokens.tokens[0];
    if (owned) {
      // the account page's search box sends `token_id=` (empty) and no collection: every token of the owner
      const search = parse(
        zTokens,
        await ok(
          `/indexer/nft/v1/tokens/by_account/${encodeURI(owned.owner)}${qs({ 'pagination.count_total': false, 'pagination.reverse': true, 'pagination.limit': 10, token_id: '' })}`,
        ),
        'tokens by account',
      );
      expect(search.tokens.map((t) => t.nft.token_id)).toContain(owned.nft.token_id);
      const inCol = parse(
        zTokens,
        await ok(
          `/indexer/nft/v1/tokens/by_account/${owned.owner}${qs({ 'pagination.reverse': true, collection_addr: c.object_addr })}`,
        ),
        'tokens by account in a collection',
      );
      for (const t of inCol.tokens) expect(t.collection_addr).toBe(c.object_addr);
      parse(
        zCollections,
        await ok(
          `/indexer/nft/v1/collections/by_account/${owned.owner}${qs({ 'pagination.limit': 10, 'pagination.offset': 0 })}`,
        ),
        'collections by account',
      );
      parse(
        zTxs,
        await ok(
          `/indexer/nft/v1/txs/${c.object_addr}/${encodeURIComponent(owned.nft.token_id)}${qs({ 'pagination.limit': 10 })}`,
        ),
        'nft txs',
      );
    }
  });

  it('EVM internal txs by height and by tx hash (EVM), or a JSON 404 (Move, Wasm)', async () => {
    const zInternal = z.object({ internal_txs: z.array(zInternalTx), pagination: zPagination });
    if (kind !== 'evm') {
      for (const p of [
        '/indexer/tx/v1/evm-txs',
        '/indexer/tx/v1/evm-internal-txs/by_height/1',
        `/indexer/tx/v1/evm-txs/0x${'ab'.repeat(32)}`,
      ]) {
        const r = await api.get(p);
        expect(r.status).toBe(404);
        expect(r.body).toEqual({ code: 404, message: 'evm routes are not available on this chain' });
      }
      return;
    }
    // height 1 is not traceable on minievm (nor on the sample chain, like it): take the first EVM tx above it
    const withEvm = s.sample.manifest.txs.find((t) => t.evmTxHashes.length > 0 && t.code === 0 && t.height > 1)!;
    const byHeight = parse(
      zInternal,
      await ok(
        `/indexer/tx/v1/evm-internal-txs/by_height/${withEvm.height}${qs({ 'pagination.key': undefined, 'pagination.limit': 10, 'pagination.reverse': false })}`,
      ),
      'internal by height',
    );
    expect(byHeight.internal_txs.length).toBeGreaterThan(0);
    parse(
      zInternal,
      await ok(
        `/indexer/tx/v1/evm-internal-txs/${byHeight.internal_txs[0]!.hash}${qs({ 'pagination.limit': 10, 'pagination.reverse': false })}`,
      ),
      'internal by hash',
    );
  });

  it('NFT lists reached by cursor carry previous_key (a decimal offset key) that leads back a page', async () => {
    const b64 = (n: number) => Buffer.from(String(n)).toString('base64');
    const cols = (await ok('/indexer/nft/v1/collections?pagination.limit=100')).collections as {
      object_addr: string;
      collection: { name: string };
    }[];
    const richest = (
      await Promise.all(
        cols.map(async (c) => ({
          c,
          n: Number((await ok(`/indexer/nft/v1/tokens/by_collection/${c.object_addr}`)).pagination.total),
        })),
      )
    ).sort((a, b) => b.n - a.n)[0]!.c;
    const needle = encodeURIComponent(cols[0]!.collection.name.slice(0, 1));
    const lists: [string, string][] = [
      ['/indexer/nft/v1/collections?pagination.limit=1', 'collections'],
      [`/indexer/nft/v1/collections/by_name/${needle}?pagination.limit=1`, 'collections'],
      [`/indexer/nft/v1/tokens/by_collection/${richest.object_addr}?pagination.limit=1`, 'tokens'],
      [`/indexer/nft/v1/tokens/by_collection/${richest.object_addr}?pagination.limit=1&order_by=height`, 'tokens'],
    ];
    for (const [path, key] of lists) {
      const pages: { items: unknown[]; previous: string | null }[] = [];
      let next: string | null = null;
      do {
        const body = await ok(next === null ? path : `${path}&pagination.key=${encodeURIComponent(next)}`);
        pages.push({ items: body[key], previous: body.pagination.previous_key });
        next = body.pagination.next_key;
      } while (next !== null && pages.length < 50);
      expect(pages[0]!.previous, path).toBeNull();
      for (let i = 1; i < pages.length; i++) {
        expect(pages[i]!.previous, `${path} page ${i}`).toBe(b64(i - 1)); // limit 1: the page before is offset i-1
        // upstream's decimal keys are accepted and lead to that page
        const back = await ok(`${path}&pagination.key=${encodeURIComponent(pages[i]!.previous!)}`);
        expect(back[key], `${path} back from page ${i}`).toEqual(pages[i - 1]!.items);
      }
    }
    const doc = await ok('/swagger/doc.json');
    const params = doc.paths['/indexer/nft/v1/tokens/by_collection/{collection_addr}'].get.parameters;
    const orderBy = params.find((p: { name: string }) => p.name === 'order_by');
    expect(orderBy.schema.default).toBe('token_id');
    expect(orderBy.schema.anyOf[0].enum).toEqual(['token_id', 'height']);
  });

  describe('tolerances real clients rely on (each also written into /swagger/doc.json)', () => {
    it('unknown query parameters such as the cache-buster `_` are ignored', async () => {
      const plain = await ok('/indexer/tx/v1/txs?pagination.limit=3');
      expect(await ok('/indexer/tx/v1/txs?pagination.limit=3&_=1700000000')).toEqual(plain);
      expect(await ok('/indexer/block/v1/blocks?_=1&foo=bar&pagination.limit=2')).toBeDefined();
      const doc = await ok('/swagger/doc.json');
      expect(doc.info.description).toMatch(/not declared by an operation are ignored/);
    });

    it("booleans take true/false/1/0 (Go's ParseBool) for count_total, reverse and is_signer; garbage is a 400", async () => {
      const t = s.sample.manifest.txs[0]!;
      const desc = await ok('/indexer/tx/v1/txs?pagination.limit=2&pagination.reverse=true');
      expect(await ok('/indexer/tx/v1/txs?pagination.limit=2&pagination.reverse=1')).toEqual(desc);
      const asc = await ok('/indexer/tx/v1/txs?pagination.limit=2&pagination.reverse=false');
      expect(await ok('/indexer/tx/v1/txs?pagination.limit=2&pagination.reverse=0')).toEqual(asc);
      expect((await ok('/indexer/tx/v1/txs?pagination.count_total=0')).pagination.total).toBe('0');
      expect((await ok('/indexer/tx/v1/txs?pagination.count_total=1')).pagination.total).toBe(
        String(s.sample.manifest.txs.length),
      );
      const signer = await ok(`/indexer/tx/v1/txs/by_account/${t.signer}?is_signer=true`);
      expect(await ok(`/indexer/tx/v1/txs/by_account/${t.signer}?is_signer=1`)).toEqual(signer);
      expect(await ok(`/indexer/tx/v1/txs/by_account/${t.signer}?is_signer=0`)).toEqual(
        await ok(`/indexer/tx/v1/txs/by_account/${t.signer}?is_signer=false`),
      );
      const bad = await api.get('/indexer/tx/v1/txs?pagination.count_total=maybe');
      expect(bad.status).toBe(400);
      expect(bad.body.code).toBe(400);
      const doc = await ok('/swagger/doc.json');
      const param = doc.paths['/indexer/tx/v1/txs'].get.parameters.find(
        (p: { name: string }) => p.name === 'pagination.reverse',
      );
      expect(param.schema.enum).toEqual(expect.arrayContaining(['true', 'false', '1', '0']));
    });

    it('empty filters (msgs=, token_id=, collection_addr=) mean no filter', async () => {
      expect(await ok('/indexer/tx/v1/txs?msgs=&pagination.limit=5')).toEqual(
        await ok('/indexer/tx/v1/txs?pagination.limit=5'),
      );
      const col = (await ok('/indexer/nft/v1/collections')).collections[0];
      const token = (await ok(`/indexer/nft/v1/tokens/by_collection/${col.object_addr}`)).tokens[0];
      if (token) {
        expect(await ok(`/indexer/nft/v1/tokens/by_collection/${col.object_addr}?token_id=`)).toEqual(
          await ok(`/indexer/nft/v1/tokens/by_collection/${col.object_addr}`),
        );
        expect(await ok(`/indexer/nft/v1/tokens/by_account/${token.owner}?token_id=&collection_addr=`)).toEqual(
          await ok(`/indexer/nft/v1/tokens/by_account/${token.owner}`),
        );
      }
      const doc = await ok('/swagger/doc.json');
      const msgs = doc.paths['/indexer/tx/v1/txs'].get.parameters.find((p: { name: string }) => p.name === 'msgs');
      expect(msgs.description).toMatch(/empty value .* means no filter/);
    });

    it("a pagination.key of another list's shape falls back to offset paging, as upstream", async () => {
      const blockKey = Buffer.from('{"height":3}').toString('base64');
      expect(await ok(`/indexer/tx/v1/txs?pagination.limit=2&pagination.offset=1&pagination.key=${blockKey}`)).toEqual(
        await ok('/indexer/tx/v1/txs?pagination.limit=2&pagination.offset=1'),
      );
      const txKey = Buffer.from('{"sequence":5000000}').toString('base64');
      expect(await ok(`/indexer/block/v1/blocks?pagination.limit=2&pagination.key=${txKey}`)).toEqual(
        await ok('/indexer/block/v1/blocks?pagination.limit=2'),
      );
      expect(await ok(`/indexer/nft/v1/collections?pagination.limit=1&pagination.key=${txKey}`)).toEqual(
        await ok('/indexer/nft/v1/collections?pagination.limit=1'),
      );
      // still a 400 for keys that are really malformed
      expect((await api.get('/indexer/tx/v1/txs?pagination.key=%25%25')).status).toBe(400);
    });

    it('a tx hash of the wrong length is a 404, as upstream; non-hex stays a 400', async () => {
      for (const h of ['ABCD', `0x${'A'.repeat(66)}`, '0x']) {
        const r = await api.get(`/indexer/tx/v1/txs/${h}`);
        expect(r.status).toBe(404);
        expect(r.body).toEqual({ code: 404, message: '[NOT_FOUND] transaction not found' });
      }
      const bad = await api.get('/indexer/tx/v1/txs/xyz');
      expect(bad.status).toBe(400);
      expect(bad.body.message).toBe('invalid hash format');
    });
  });
});
