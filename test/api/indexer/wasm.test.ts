// The indexer over the recorded Wasm sample chain: the recorded CW721 mint (bech32 contract addressed as
// 32-byte hex), its owner, collections by account, and the rich list refused on a non-EVM rollup.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromBech32, toHex } from '@cosmjs/encoding';
import { txResponse } from '../../support/fixtures.js';
import { ingestSampleChain, type IngestedSample } from '../../support/sample.js';
import { startIndexer, type Running } from './helpers.js';
import { indexerConfig } from '../../support/indexer-config.js';

let s: IngestedSample;
let api: Running;

beforeAll(async () => {
  s = await ingestSampleChain('wasm');
  api = await startIndexer({
    store: s.store,
    config: indexerConfig('wasm', undefined),
    chain: { restUrl: s.sample.restUrl },
  });
}, 180_000);
afterAll(async () => {
  await api?.close();
  await s?.cleanup();
});

function recordedMint() {
  const tx = txResponse('cosmos/wasm/cw721-mint.json', 'mockCw721Mint');
  const ev = tx.events.find(
    (e) => e.type === 'wasm' && e.attributes.some((a) => a.key === 'action' && a.value === 'mint'),
  )!;
  const attr = (k: string) => ev.attributes.find((a) => a.key === k)!.value;
  return { tx, contract: attr('_contract_address'), tokenId: attr('token_id'), owner: attr('owner') };
}

describe('Wasm sample chain', () => {
  it('/status takes the chain id from the indexed blocks when none is configured', async () => {
    const { body } = await api.get('/status');
    expect(body.chain_id).toBe(s.sample.manifest.chainId);
    expect(body.height).toBe(s.sample.manifest.latestHeight);
  });

  it('the recorded CW721 mint: token, owner, collection, collections by account, NFT txs', async () => {
    const { tx, contract, tokenId, owner } = recordedMint();
    const hex = `0x${toHex(fromBech32(contract).data)}`;
    for (const form of [contract, hex]) {
      const { body } = await api.get(`/indexer/nft/v1/tokens/by_collection/${form}`);
      expect(body.tokens.map((t: { nft: { token_id: string } }) => t.nft.token_id)).toContain(tokenId);
      const t = body.tokens.find((x: { nft: { token_id: string } }) => x.nft.token_id === tokenId);
      expect(t).toMatchObject({ collection_addr: hex, owner, object_addr: '' });
    }
    const col = await api.get(`/indexer/nft/v1/collections/${contract}`);
    expect(col.body.collection.object_addr).toBe(hex);
    expect(col.body.collection.collection.nfts.length).toBeGreaterThanOrEqual(1);
    const mine = await api.get(`/indexer/nft/v1/collections/by_account/${owner}`);
    expect(mine.body.collections.map((c: { object_addr: string }) => c.object_addr)).toContain(hex);
    const hash = s.sample.manifest.hashByOriginal[tx.txhash]!;
    const txs = await api.get(`/indexer/nft/v1/txs/${hex}/${tokenId}`);
    expect(txs.body.txs.map((t: { txhash: string }) => t.txhash)).toEqual([hash]);
    expect(txs.body.txs[0].events).toEqual(tx.events);
  });

  it('the rich list is refused on a Wasm rollup', async () => {
    const res = await api.get('/indexer/richlist/v1/uinit');
    expect(res.status).toBe(404);
    expect(res.body.message).toMatch(/EVM rollups only/);
  });
});
