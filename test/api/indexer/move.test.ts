// The indexer over the recorded Move sample chain: NFT objects with 32-byte addresses, the recorded mint's
// owner, object and uri, Move txs by account, and the rich list refused on a non-EVM rollup.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAccount } from '../../../api/indexer/params.js';
import { loadFixture, txResponse } from '../../support/fixtures.js';
import { ingestSampleChain, type IngestedSample } from '../../support/sample.js';
import { startIndexer, walk, type Running } from './helpers.js';
import { indexerConfig } from '../../support/indexer-config.js';

let s: IngestedSample;
let api: Running;

beforeAll(async () => {
  s = await ingestSampleChain('move');
  api = await startIndexer({
    store: s.store,
    config: indexerConfig('move', s.sample.manifest.chainId),
    chain: { restUrl: s.sample.restUrl },
  });
}, 180_000);
afterAll(async () => {
  await api?.close();
  await s?.cleanup();
});

/** The recorded Move NFT mint: collection, token id and NFT object from 0x1::collection::MintEvent, owner from the object's CreateEvent. */
function recordedMint() {
  const tx = txResponse('cosmos/move/nft/nft-mint.json', 'mockMsgNftMint');
  const data = (tag: string) =>
    JSON.parse(
      tx.events
        .find((e) => e.type === 'move' && e.attributes.some((a) => a.key === 'type_tag' && a.value === tag))!
        .attributes.find((a) => a.key === 'data')!.value,
    );
  const mint = data('0x1::collection::MintEvent') as { collection: string; token_id: string; nft: string };
  const created = data('0x1::object::CreateEvent') as { object: string; owner: string };
  const raw = loadFixture<{ mockMsgNftMint: { tx: { body: { messages: { args: string[] }[] } } } }>(
    'initia-tx-decoder/cosmos/move/nft/nft-mint.json',
  );
  const uri = JSON.parse(raw.mockMsgNftMint.tx.body.messages[0]!.args[3]!) as string;
  return { tx, mint, created, uri };
}

describe('Move sample chain', () => {
  it('/status has no EVM-only heights', async () => {
    const { body } = await api.get('/status');
    expect(body).toEqual({
      version: 'dev',
      commit_hash: 'unknown',
      chain_id: s.sample.manifest.chainId,
      height: s.sample.manifest.latestHeight,
    });
  });

  it('the recorded NFT mint is served with its collection, object, uri and owner', async () => {
    const { tx, mint, created, uri } = recordedMint();
    expect(created.object).toBe(mint.nft);
    const collection = `0x${mint.collection.slice(2).padStart(64, '0')}`;
    // the recorded (leading-zero-trimmed) form and the padded form address the same collection
    for (const form of [mint.collection, collection]) {
      const { body } = await api.get(`/indexer/nft/v1/tokens/by_collection/${form}?token_id=${mint.token_id}`);
      expect(body.tokens).toHaveLength(1);
      expect(body.tokens[0]).toMatchObject({
        collection_addr: collection,
        object_addr: mint.nft,
        owner: parseAccount(created.owner, 'init'),
        nft: { token_id: mint.token_id, uri },
      });
      expect(body.tokens[0].timestamp).toMatch(/Z$/);
    }
    const owned = await walk<{ object_addr: string }>(
      api,
      `/indexer/nft/v1/tokens/by_account/${created.owner}?pagination.limit=1`,
      'tokens',
    );
    expect(owned.items.map((t) => t.object_addr)).toContain(mint.nft);
    const hash = s.sample.manifest.hashByOriginal[tx.txhash]!;
    const txs = await api.get(`/indexer/nft/v1/txs/${collection}/${mint.token_id}`);
    expect(txs.body.txs.map((t: { txhash: string }) => t.txhash)).toContain(hash);
  });

  it('a Move tx by hash carries its recorded events and message types', async () => {
    const { tx } = recordedMint();
    const hash = s.sample.manifest.hashByOriginal[tx.txhash]!;
    const { body } = await api.get(`/indexer/tx/v1/txs/${hash}`);
    expect(body.tx.events).toEqual(tx.events);
    expect(body.tx.tx.body.messages[0]['@type']).toBe('/initia.move.v1.MsgExecuteJSON');
    const mt = s.sample.manifest.txs.find((t) => t.hash === hash)!;
    expect(body.tx.height).toBe(String(mt.height));
    const signed = await api.get(
      `/indexer/tx/v1/txs/by_account/${mt.signer}?is_signer=true&msgs=initia.move.v1.MsgExecuteJSON&pagination.limit=1000`,
    );
    expect(signed.body.txs.map((t: { txhash: string }) => t.txhash)).toContain(hash);
  });

  it('every tx is listed once by cursor walk, both directions', async () => {
    const order = [...s.sample.manifest.txs]
      .sort((a, b) => a.height - b.height || a.index - b.index)
      .map((t) => t.hash);
    expect(
      (await walk<{ txhash: string }>(api, '/indexer/tx/v1/txs?pagination.limit=4', 'txs')).items.map((t) => t.txhash),
    ).toEqual([...order].reverse());
    expect(
      (
        await walk<{ txhash: string }>(api, '/indexer/tx/v1/txs?pagination.limit=5&pagination.reverse=false', 'txs')
      ).items.map((t) => t.txhash),
    ).toEqual(order);
  });

  it('the rich list is refused with a clear JSON error on a Move rollup', async () => {
    const res = await api.get('/indexer/richlist/v1/uinit');
    expect(res.status).toBe(404);
    expect(res.body.code).toBe(404);
    expect(res.body.message).toMatch(/EVM rollups only/);
  });
});
