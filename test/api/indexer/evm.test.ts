// Every indexer endpoint against the recorded EVM sample chain (yominet-1) ingested through the real ingest.
// Expected values come from the sample-chain manifest (computed from the recorded txs, independently of our
// decoders and queries) and from the recorded fixtures themselves. Every response is validated against the
// OpenAPI document by the app (validateResponses), so a shape drift fails as a 500.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAccount } from '../../../api/indexer/params.js';
import type { EvmSampleManifest } from '../../../devnet/sample-chains/evm.js';
import { txResponse } from '../../support/fixtures.js';
import { ingestSampleChain, type IngestedSample } from '../../support/sample.js';
import { startIndexer, walk, type Running } from './helpers.js';

let s: IngestedSample;
let api: Running;
let m: EvmSampleManifest;
const bech = (hex: string) => parseAccount(hex, 'init');

beforeAll(async () => {
  s = await ingestSampleChain('evm');
  m = s.sample.manifest as EvmSampleManifest;
  api = await startIndexer({
    store: s.store,
    config: {
      CHAIN_ID: m.chainId,
      VM: 'evm',
      BECH32_PREFIX: 'init',
      VERSION: 'v1.2.3',
      COMMIT_HASH: 'abc1234',
      EVM_INTERNAL_TXS: false,
    },
    chain: { restUrl: s.sample.restUrl },
  });
}, 180_000);
afterAll(async () => {
  await api?.close();
  await s?.cleanup();
});

const seqOf = (t: { height: number; index: number }) => t.height * 1_000_000 + t.index;
const manifestOrder = () => [...m.txs].sort((a, b) => seqOf(a) - seqOf(b));

describe('status and blocks', () => {
  it('/status reports build, chain, indexed height and rich-list height', async () => {
    const { status, body } = await api.get('/status');
    expect(status).toBe(200);
    expect(body).toEqual({
      version: 'v1.2.3',
      commit_hash: 'abc1234',
      chain_id: 'yominet-1',
      height: m.latestHeight,
      rich_list_height: m.latestHeight,
    });
    expect((await api.get('/status/')).body.height).toBe(m.latestHeight); // non-strict routing
    expect((await api.get('/health')).body).toEqual({
      status: 'ok',
      service: 'indexer',
      indexed_height: m.latestHeight,
    });
  });

  it('/blocks/{height} renders a block with string numbers, second timestamps, fee and resolved proposer', async () => {
    const t = m.txs.find((x) => x.code === 0)!;
    const { status, body } = await api.get(`/indexer/block/v1/blocks/${t.height}`);
    expect(status).toBe(200);
    const b = body.block;
    expect(b.height).toBe(String(t.height));
    expect(b.chain_id).toBe('yominet-1');
    expect(b.tx_count).toBe(String(m.txs.filter((x) => x.height === t.height).length));
    expect(b.hash).toMatch(/^[0-9A-F]{64}$/);
    expect(b.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(Array.isArray(b.total_fee)).toBe(true);
    // The proposer is resolved through the chain REST under the stored (consensus-derived) valoper; when the
    // REST does not know it the block is still served with the fields we know (docs/indexer.md).
    const [stored] = await s.store.rows<{ proposer: string }>('SELECT proposer FROM blocks WHERE height = {h:UInt64}', {
      h: t.height,
    });
    const rest = await fetch(`${s.sample.restUrl}/opinit/opchild/v1/validator/${stored!.proposer}`);
    const known = rest.ok
      ? ((await rest.json()) as { validator: { moniker: string; operator_address: string } }).validator
      : null;
    expect(b.proposer).toEqual(
      known
        ? { moniker: known.moniker, identity: '', operator_address: known.operator_address }
        : { moniker: '', identity: '', operator_address: stored!.proposer },
    );
    const one = await api.get('/indexer/block/v1/blocks/1');
    expect(one.body.block.block_time).toBe('0');
  });

  it('/blocks walks every height once by next_key in both directions; total is the latest height', async () => {
    const heights = Array.from({ length: m.latestHeight }, (_, i) => String(i + 1));
    const desc = await walk<{ height: string }>(api, '/indexer/block/v1/blocks?pagination.limit=4', 'blocks');
    expect(desc.items.map((b) => b.height)).toEqual([...heights].reverse());
    const asc = await walk<{ height: string }>(
      api,
      '/indexer/block/v1/blocks?pagination.limit=5&pagination.reverse=false',
      'blocks',
    );
    expect(asc.items.map((b) => b.height)).toEqual(heights);
    const first = await api.get('/indexer/block/v1/blocks?pagination.limit=2&pagination.count_total=false');
    expect(first.body.pagination).toEqual({
      previous_key: null,
      next_key: Buffer.from(JSON.stringify({ height: m.latestHeight - 1 })).toString('base64'),
      total: String(m.latestHeight),
    });
    // Celatone sends pagination.offset=0 with the key
    const second = await api.get(
      `/indexer/block/v1/blocks?pagination.limit=2&pagination.offset=0&pagination.key=${encodeURIComponent(first.body.pagination.next_key)}`,
    );
    expect(second.body.blocks.map((b: { height: string }) => b.height)).toEqual([
      String(m.latestHeight - 2),
      String(m.latestHeight - 3),
    ]);
  });

  it('/avg_blocktime is the mean interval in seconds of the latest blocks', async () => {
    const { body } = await api.get('/indexer/block/v1/avg_blocktime');
    const times = await s.store.rows<{ ms: string }>(
      'SELECT toString(toUnixTimestamp64Milli(time)) AS ms FROM blocks ORDER BY height DESC LIMIT 100',
    );
    const expected = (Number(times[0]!.ms) - Number(times[times.length - 1]!.ms)) / 1000 / (times.length - 1);
    expect(body.avg_block_time).toBeCloseTo(expected, 6);
    expect(body.avg_block_time).toBeGreaterThan(0.4);
  });
});

describe('txs', () => {
  it('/txs/{hash} returns a recorded tx with its height, code, signer and the recorded events', async () => {
    const rec = txResponse('cosmos/evm/bank-evm.json', 'bankSendWithEvmLogTxResponse');
    const hash = m.hashByOriginal[rec.txhash]!;
    const mt = m.txs.find((t) => t.hash === hash)!;
    for (const form of [hash, hash.toLowerCase(), `0x${hash}`]) {
      const { status, body } = await api.get(`/indexer/tx/v1/txs/${form}`);
      expect(status).toBe(200);
      expect(body.tx.txhash).toBe(hash);
      expect(body.tx.height).toBe(String(mt.height));
      expect(body.tx.code).toBe(rec.code);
      expect(body.tx.gas_used).toBe(rec.gas_used);
      expect(body.tx.events).toEqual(rec.events);
      expect(body.tx.tx['@type']).toBeUndefined();
      expect(body.tx.tx.body.messages.map((x: { '@type': string }) => x['@type'])).toEqual(mt.msgTypes);
      expect(body.tx.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d*[1-9])?Z$/);
    }
    // the signer is known: it is the signer of this tx on by_account?is_signer=true
    const signed = await walk<{ txhash: string }>(
      api,
      `/indexer/tx/v1/txs/by_account/${mt.signer}?is_signer=true&pagination.limit=2`,
      'txs',
    );
    expect(signed.items.map((t) => t.txhash)).toContain(hash);
  });

  it('/txs walks every tx once by key (both directions) and by offset; totals and count_total=false', async () => {
    const order = manifestOrder().map((t) => t.hash);
    const desc = await walk<{ txhash: string }>(api, '/indexer/tx/v1/txs?pagination.limit=7', 'txs');
    expect(desc.items.map((t) => t.txhash)).toEqual([...order].reverse());
    const asc = await walk<{ txhash: string }>(
      api,
      '/indexer/tx/v1/txs?pagination.limit=6&pagination.reverse=false',
      'txs',
    );
    expect(asc.items.map((t) => t.txhash)).toEqual(order);
    const byOffset: string[] = [];
    for (let off = 0; off < order.length; off += 10) {
      const { body } = await api.get(
        `/indexer/tx/v1/txs?pagination.limit=10&pagination.offset=${off}&pagination.reverse=false`,
      );
      expect(body.pagination.total).toBe(String(order.length));
      byOffset.push(...body.txs.map((t: { txhash: string }) => t.txhash));
    }
    expect(byOffset).toEqual(order);
    const byOffsetDesc: string[] = [];
    for (let off = 0; off < order.length; off += 9) {
      const { body } = await api.get(
        `/indexer/tx/v1/txs?pagination.limit=9&pagination.offset=${off}&pagination.count_total=false`,
      );
      expect(body.pagination.total).toBe('0');
      byOffsetDesc.push(...body.txs.map((t: { txhash: string }) => t.txhash));
    }
    expect(byOffsetDesc).toEqual([...order].reverse());
    const noCount = await api.get('/indexer/tx/v1/txs?pagination.count_total=false&pagination.limit=1');
    expect(noCount.body.pagination.total).toBe('0');
    const last = await api.get(`/indexer/tx/v1/txs?pagination.limit=${order.length}`);
    expect(last.body.pagination.next_key).toBeNull();
    // a decimal key is an offset (upstream form)
    const off = await api.get(
      `/indexer/tx/v1/txs?pagination.limit=2&pagination.key=${Buffer.from('3').toString('base64')}&pagination.reverse=false`,
    );
    expect(off.body.txs.map((t: { txhash: string }) => t.txhash)).toEqual(order.slice(3, 5));
  });

  it('/txs/by_height lists one block in index order', async () => {
    for (const h of [...new Set(m.txs.map((t) => t.height))]) {
      const expected = m.txs
        .filter((t) => t.height === h)
        .sort((a, b) => a.index - b.index)
        .map((t) => t.hash);
      const { body } = await api.get(`/indexer/tx/v1/txs/by_height/${h}?pagination.reverse=false`);
      expect(body.txs.map((t: { txhash: string }) => t.txhash)).toEqual(expected);
      expect(body.pagination.total).toBe(String(expected.length));
    }
    // far above the tip, including heights whose sequences pass 2^53 (found by the fuzzer)
    for (const h of [m.latestHeight + 1000, 217372264892, 9007199254740991]) {
      const above = await api.get(`/indexer/tx/v1/txs/by_height/${h}`);
      expect(above.body, String(h)).toEqual({
        txs: [],
        pagination: { previous_key: null, next_key: null, total: '0' },
      });
    }
  });

  it('msgs filters: comma list, repeated, leading slash, OR of types, unknown type → empty', async () => {
    const types = [...new Set(m.txs.flatMap((t) => t.msgTypes))];
    const [a, b] = types;
    const count = (ts: string[]) => m.txs.filter((t) => t.msgTypes.some((x) => ts.includes(x))).length;
    const bare = (t: string) => t.replace(/^\//, '');
    const one = await walk<{ txhash: string; tx: { body: { messages: { '@type': string }[] } } }>(
      api,
      `/indexer/tx/v1/txs?msgs=${bare(a!)}&pagination.limit=3`,
      'txs',
    );
    expect(one.items.length).toBe(count([a!]));
    for (const t of one.items) expect(t.tx.body.messages.map((x) => x['@type'])).toContain(a);
    const forms = [
      `msgs=${bare(a!)},${bare(b!)}`,
      `msgs=${bare(a!)}&msgs=${bare(b!)}`,
      `msgs=${a},${b}`,
      `msgs=${a}&msgs=${bare(b!)},nope.v1.MsgNothing`,
    ];
    for (const f of forms) {
      const { status, body } = await api.get(`/indexer/tx/v1/txs?${f}&pagination.limit=1000`);
      expect(status, f).toBe(200);
      expect(body.txs.length, f).toBe(count([a!, b!]));
      expect(body.pagination.total, f).toBe(String(count([a!, b!])));
    }
    const none = await api.get('/indexer/tx/v1/txs?msgs=cosmos.nothing.v1.MsgUnknown');
    expect(none.body).toEqual({ txs: [], pagination: { previous_key: null, next_key: null, total: '0' } });
  });

  it('/txs/by_account: bech32 and hex forms, is_signer, msgs, walks in both directions', async () => {
    const signer = m.txs.find((t) => t.signer && m.txs.filter((x) => x.signer === t.signer).length > 1)!.signer;
    const signed = manifestOrder()
      .filter((t) => t.signer === signer)
      .map((t) => t.hash);
    const desc = await walk<{ txhash: string }>(
      api,
      `/indexer/tx/v1/txs/by_account/${signer}?is_signer=true&pagination.limit=1`,
      'txs',
    );
    expect(desc.items.map((t) => t.txhash)).toEqual([...signed].reverse());
    const asc = await walk<{ txhash: string }>(
      api,
      `/indexer/tx/v1/txs/by_account/${signer}?is_signer=true&pagination.limit=1&pagination.reverse=false`,
      'txs',
    );
    expect(asc.items.map((t) => t.txhash)).toEqual(signed);
    const all = await api.get(`/indexer/tx/v1/txs/by_account/${signer}?pagination.limit=1000`);
    expect(all.body.txs.length).toBeGreaterThanOrEqual(signed.length);
    expect(all.body.pagination.total).toBe(String(all.body.txs.length));
    // the same account in hex, with and without 0x, gives the same list
    const { fromBech32, toHex } = await import('@cosmjs/encoding');
    const hex = toHex(fromBech32(signer).data);
    for (const form of [hex, `0x${hex}`, `0x${hex.toUpperCase()}`]) {
      const { body } = await api.get(`/indexer/tx/v1/txs/by_account/${form}?pagination.limit=1000`);
      expect(body.txs.map((t: { txhash: string }) => t.txhash)).toEqual(
        all.body.txs.map((t: { txhash: string }) => t.txhash),
      );
    }
    const type = m.txs.find((t) => t.signer === signer)!.msgTypes[0]!;
    const filtered = await api.get(`/indexer/tx/v1/txs/by_account/${signer}?is_signer=true&msgs=${type}`);
    expect(filtered.body.txs.length).toBe(m.txs.filter((t) => t.signer === signer && t.msgTypes.includes(type)).length);
    const unseen = await api.get(`/indexer/tx/v1/txs/by_account/0x${'ab'.repeat(20)}`);
    expect(unseen.body).toEqual({ txs: [], pagination: { previous_key: null, next_key: null, total: '0' } });
  });
});

describe('NFTs', () => {
  it('/tokens/by_collection lists exactly the live tokens with their known owners (burned ones gone)', async () => {
    for (const c of m.nftCollections) {
      const owners = m.expected.nftOwners[c] ?? {};
      const { items } = await walk<{
        nft: { token_id: string };
        owner: string;
        collection_addr: string;
        height: number;
      }>(api, `/indexer/nft/v1/tokens/by_collection/${c}?pagination.limit=2`, 'tokens');
      expect(items.map((t) => t.nft.token_id).sort()).toEqual(Object.keys(owners).sort());
      for (const t of items) {
        expect(t.owner).toBe(bech(owners[t.nft.token_id]!));
        expect(t.collection_addr).toBe(c);
      }
      // default order: token_id descending as text
      const ids = items.map((t) => t.nft.token_id);
      expect(ids).toEqual([...ids].sort().reverse());
      for (const burned of m.expected.nftBurned[c] ?? []) expect(ids).not.toContain(burned);
    }
  });

  it('tokens order_by=height walks both directions, token_id filter, bad order_by', async () => {
    const c = m.nftCollections[0]!;
    const n = Object.keys(m.expected.nftOwners[c] ?? {}).length;
    const desc = await walk<{ nft: { token_id: string }; height: number }>(
      api,
      `/indexer/nft/v1/tokens/by_collection/${c}?order_by=height&pagination.limit=1`,
      'tokens',
    );
    const asc = await walk<{ nft: { token_id: string }; height: number }>(
      api,
      `/indexer/nft/v1/tokens/by_collection/${c}?order_by=%20HEIGHT&pagination.limit=1&pagination.reverse=false`,
      'tokens',
    );
    expect(desc.items).toHaveLength(n);
    expect(asc.items.map((t) => t.nft.token_id)).toEqual(desc.items.map((t) => t.nft.token_id).reverse());
    for (let i = 1; i < asc.items.length; i++)
      expect(asc.items[i]!.height).toBeGreaterThanOrEqual(asc.items[i - 1]!.height);
    const id = asc.items[0]!.nft.token_id;
    const one = await api.get(`/indexer/nft/v1/tokens/by_collection/${c}?token_id=${id}`);
    expect(one.body.tokens.map((t: { nft: { token_id: string } }) => t.nft.token_id)).toEqual([id]);
    expect(one.body.pagination.total).toBe('1');
    const bad = await api.get(`/indexer/nft/v1/tokens/by_collection/${c}?order_by=owner`);
    expect(bad).toEqual({
      status: 400,
      body: { code: 400, message: "invalid order_by value 'owner', must be one of: token_id, height" },
    });
  });

  it('/tokens/by_account and /collections/by_account follow the known owner', async () => {
    const c = m.nftCollections[0]!;
    const [tokenId, ownerHex] = Object.entries(m.expected.nftOwners[c]!)[0]!;
    const owner = bech(ownerHex);
    const expectedTokens = Object.entries(m.expected.nftOwners)
      .flatMap(([col, o]) =>
        Object.entries(o)
          .filter(([, who]) => who === ownerHex)
          .map(([id]) => `${col}/${id}`),
      )
      .sort();
    for (const form of [owner, ownerHex]) {
      const { items } = await walk<{ collection_addr: string; nft: { token_id: string }; owner: string }>(
        api,
        `/indexer/nft/v1/tokens/by_account/${form}?pagination.limit=1`,
        'tokens',
      );
      expect(items.map((t) => `${t.collection_addr}/${t.nft.token_id}`).sort()).toEqual(expectedTokens);
      for (const t of items) expect(t.owner).toBe(owner);
    }
    const filtered = await api.get(
      `/indexer/nft/v1/tokens/by_account/${owner}?collection_addr=${c}&token_id=${tokenId}`,
    );
    expect(filtered.body.tokens).toHaveLength(1);
    const cols = await api.get(`/indexer/nft/v1/collections/by_account/${owner}`);
    expect(cols.body.collections.map((x: { object_addr: string }) => x.object_addr).sort()).toEqual(
      [...new Set(expectedTokens.map((k) => k.split('/')[0]))].sort(),
    );
    expect(cols.body.pagination.total).toBe(String(cols.body.collections.length));
  });

  it('/collections lists every collection with its live NFT count; walks by key and by offset', async () => {
    const { items } = await walk<{
      object_addr: string;
      collection: { nfts: { length: number }; creator: string };
      height: number;
    }>(api, '/indexer/nft/v1/collections?pagination.limit=1', 'collections');
    for (const c of m.nftCollections) {
      const got = items.find((x) => x.object_addr === c)!;
      expect(got.collection.nfts.length).toBe(Object.keys(m.expected.nftOwners[c] ?? {}).length);
      expect(got.collection.creator).toMatch(/^init1/);
    }
    for (let i = 1; i < items.length; i++) expect(items[i]!.height).toBeLessThanOrEqual(items[i - 1]!.height);
    const asc = await walk<{ object_addr: string }>(
      api,
      '/indexer/nft/v1/collections?pagination.limit=2&pagination.reverse=false',
      'collections',
    );
    expect(asc.items.map((x) => x.object_addr)).toEqual(items.map((x) => x.object_addr).reverse());
    const page2 = await api.get('/indexer/nft/v1/collections?pagination.limit=1&pagination.offset=1');
    expect(page2.body.collections[0].object_addr).toBe(items[1]!.object_addr);
    expect(page2.body.pagination.previous_key).toBe(Buffer.from('0').toString('base64'));
    expect(page2.body.pagination.total).toBe(String(items.length));
    const one = await api.get(`/indexer/nft/v1/collections/${m.nftCollections[0]}`);
    expect(one.body.collection).toEqual(items.find((x) => x.object_addr === m.nftCollections[0]));
    expect((await api.get(`/indexer/nft/v1/collections/0x${'12'.repeat(20)}`)).body).toEqual({
      code: 404,
      message: 'nft collection not found',
    });
  });

  it('/nft/v1/txs lists the txs that touched a token; burned or unknown → empty', async () => {
    const c = m.nftCollections[0]!;
    const [tokenId] = Object.entries(m.expected.nftOwners[c]!)[0]!;
    const { items } = await walk<{
      txhash: string;
      events: { type: string; attributes: { key: string; value: string }[] }[];
    }>(api, `/indexer/nft/v1/txs/${c}/${tokenId}?pagination.limit=1`, 'txs');
    expect(items.length).toBeGreaterThan(0);
    const idTopic = `0x${BigInt(tokenId).toString(16).padStart(64, '0')}`;
    for (const t of items) expect(JSON.stringify(t.events)).toContain(idTopic);
    const burned = m.expected.nftBurned[c]?.[0] ?? m.expected.nftBurned[m.nftCollections[1]!]?.[0];
    const burnedCol = m.expected.nftBurned[c]?.length ? c : m.nftCollections[1]!;
    if (burned) expect((await api.get(`/indexer/nft/v1/txs/${burnedCol}/${burned}`)).body.txs).toEqual([]);
    expect((await api.get(`/indexer/nft/v1/txs/${c}/999999999`)).body).toEqual({
      txs: [],
      pagination: { previous_key: null, next_key: null, total: '0' },
    });
  });

  it('/collections/by_name matches a substring of the name case-insensitively', async () => {
    const { items } = await walk<{ object_addr: string; collection: { name: string } }>(
      api,
      '/indexer/nft/v1/collections?pagination.limit=100',
      'collections',
    );
    const named = items.find((x) => x.collection.name.replace(/[^\p{L}\p{N}]/gu, '').length >= 3);
    if (named) {
      const part = named.collection.name
        .replace(/[^\p{L}\p{N}]/gu, '')
        .slice(0, 3)
        .toUpperCase();
      const { body } = await api.get(`/indexer/nft/v1/collections/by_name/${encodeURIComponent(part)}`);
      expect(body.collections.map((x: { object_addr: string }) => x.object_addr)).toContain(named.object_addr);
      // like upstream: the number of matches even when count_total is off
      const off = await api.get(
        `/indexer/nft/v1/collections/by_name/${encodeURIComponent(part)}?pagination.count_total=false`,
      );
      expect(off.body.pagination.total).toBe(body.pagination.total);
      expect(Number(off.body.pagination.total)).toBeGreaterThan(0);
    }
    const none = await api.get('/indexer/nft/v1/collections/by_name/zzzz-no-such-collection');
    expect(none.body).toEqual({ collections: [], pagination: { previous_key: null, next_key: null, total: '0' } });
  });
});

describe('rich list', () => {
  it('lists the known holders with their known balances, amount desc then account asc, by ERC20 address and by denom', async () => {
    const token = m.richListToken;
    const expected = Object.entries(m.expected.erc20Balances[token]!)
      .filter(([, a]) => BigInt(a) > 0n)
      .sort(([a1, x], [a2, y]) => (BigInt(x) === BigInt(y) ? (a1 < a2 ? -1 : 1) : BigInt(y) > BigInt(x) ? 1 : -1))
      .map(([account, amount]) => ({ account, amount }));
    const { items } = await walk<{ account: string; amount: string }>(
      api,
      `/indexer/richlist/v1/${token}?pagination.limit=5`,
      'holders',
    );
    expect(items).toEqual(expected);
    const asc = await walk<{ account: string; amount: string }>(
      api,
      `/indexer/richlist/v1/${token}?pagination.limit=4&pagination.reverse=false`,
      'holders',
    );
    expect(asc.items).toEqual([...expected].reverse());
    // Celatone pages with pagination.offset
    const p2 = await api.get(`/indexer/richlist/v1/${token}?pagination.limit=3&pagination.offset=3`);
    expect(p2.body.holders).toEqual(expected.slice(3, 6));
    expect(p2.body.pagination.total).toBe(String(expected.length));
    expect(p2.body.pagination.previous_key).toBe(Buffer.from('0').toString('base64'));
    // evm/<address> denoms resolve through the chain REST
    const denom = `evm/${token.slice(2).toUpperCase()}`;
    const byDenom = await api.get(`/indexer/richlist/v1/${encodeURIComponent(denom)}?pagination.limit=1000`);
    expect(byDenom.body.holders).toEqual(expected);
    const unknown = await api.get('/indexer/richlist/v1/unknowndenom');
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toMatch(/cannot resolve denom unknowndenom/);
  });
});

describe('errors', () => {
  const cases: [string, number, string | RegExp][] = [
    ['/indexer/block/v1/blocks/abc', 400, '[INVALID_VALUE] invalid value for height: abc (must be a valid integer)'],
    ['/indexer/block/v1/blocks/0', 400, '[INVALID_VALUE] invalid value for height: 0 (must be a positive integer)'],
    ['/indexer/block/v1/blocks/999999', 404, '[NOT_FOUND] block not found'],
    ['/indexer/tx/v1/txs/xyz', 400, 'invalid hash format'],
    [`/indexer/tx/v1/txs/${'AB'.repeat(32)}`, 404, '[NOT_FOUND] transaction not found'],
    ['/indexer/tx/v1/txs/by_account', 400, /account is missing/],
    [
      '/indexer/tx/v1/txs/by_account/init1bad',
      400,
      '[INVALID_VALUE] invalid value for account: init1bad (invalid address format)',
    ],
    [
      '/indexer/tx/v1/txs/by_height/abc',
      400,
      '[INVALID_VALUE] invalid value for height: abc (must be a valid integer)',
    ],
    ['/indexer/tx/v1/txs/by_height/0', 400, '[INVALID_VALUE] invalid value for height: 0 (must be a positive integer)'],
    [
      '/indexer/tx/v1/evm-txs/by_height/abc',
      400,
      '[INVALID_VALUE] invalid value for height: abc (must be a valid integer)',
    ],
    ['/indexer/tx/v1/txs?pagination.limit=0', 400, 'pagination.limit must be between 1 and 1000'],
    ['/indexer/tx/v1/txs?pagination.limit=1001', 400, 'pagination.limit must be between 1 and 1000'],
    ['/indexer/tx/v1/txs?pagination.limit=ten', 400, /pagination\.limit/],
    ['/indexer/tx/v1/txs?pagination.offset=-1', 400, 'pagination.offset cannot be negative'],
    ['/indexer/tx/v1/txs?pagination.key=%25%25', 400, 'pagination.key must be a valid base64 encoded string'],
    [
      `/indexer/tx/v1/txs?pagination.key=${Buffer.from('abc').toString('base64')}`,
      400,
      'pagination.key must decode to a nonnegative integer',
    ],
    [
      `/indexer/tx/v1/txs?pagination.key=${Buffer.from('{bad').toString('base64')}`,
      400,
      'invalid pagination.key format',
    ],
    ['/indexer/tx/v1/txs?pagination.reverse=maybe', 400, /pagination\.reverse/],
    ['/indexer/tx/v1/txs/by_account/init1q?is_signer=yes', 400, /is_signer/],
    [
      '/indexer/nft/v1/collections/0xzz',
      400,
      '[INVALID_VALUE] invalid value for address: 0xzz (invalid address format)',
    ],
    [`/indexer/nft/v1/collections/0x${'a'.repeat(65)}`, 400, /invalid value for address/],
    ['/indexer/nft/v1/collections/by_account', 400, /account is missing/],
    ['/indexer/richlist/v1/0x1234', 400, /invalid denom/],
    ['/no/such/route', 404, 'Cannot GET /no/such/route'],
    // traces off (EVM_INTERNAL_TXS=false): the internal-tx routes say why they are absent
    ['/indexer/tx/v1/evm-internal-txs/by_height/1', 404, /internal txs are not indexed \(EVM_INTERNAL_TXS=false\)/],
  ];
  it.each(cases)('%s → %i', async (path, status, message) => {
    const res = await api.get(path);
    expect(res.status).toBe(status);
    expect(res.body.code).toBe(status);
    if (typeof message === 'string') expect(res.body.message).toBe(message);
    else expect(res.body.message).toMatch(message);
  });

  it('caches 200 answers per raw URL as upstream does (X-Cache miss, then hit, same body)', async () => {
    const url = `${api.base}/indexer/block/v1/blocks?pagination.limit=3&pagination.offset=1`; // a URL no other test asks for
    const first = await fetch(url);
    const second = await fetch(url);
    expect(first.headers.get('x-cache')).toBe('miss');
    expect(second.headers.get('x-cache')).toBe('hit');
    expect(await second.text()).toBe(await first.text());
    const bad = await fetch(`${api.base}/indexer/block/v1/blocks/0`);
    expect(bad.status).toBe(400);
    expect((await fetch(`${api.base}/indexer/block/v1/blocks/0`)).headers.get('x-cache')).toBe('miss');
  });

  it("answers an over-long request line with a JSON error, not Node's empty body", async () => {
    const res = await fetch(`${api.base}/indexer/tx/v1/txs?msgs=${'a'.repeat(20_000)}`);
    expect(res.status).toBe(431);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toEqual({ code: 431, message: 'request line or headers too large' });
  });

  it('serves its OpenAPI document and the Swagger UI', async () => {
    const doc = await api.get('/swagger/doc.json');
    expect(doc.body.info.version).toBe('1.0.0');
    // 16 upstream paths + the 8 EVM tx paths, plus the analytics API (docs/analytics.md) and the 4 event streams
    // (docs/streams.md)
    const paths = Object.keys(doc.body.paths);
    expect(paths.filter((k) => !k.startsWith('/indexer/stats/') && !k.startsWith('/indexer/stream/'))).toHaveLength(24);
    expect(paths.filter((k) => k.startsWith('/indexer/stream/'))).toHaveLength(4);
    const ui = await fetch(`${api.base}/swagger/`);
    expect(ui.status).toBe(200);
    expect(await ui.text()).toContain('swagger-ui');
  });
});
