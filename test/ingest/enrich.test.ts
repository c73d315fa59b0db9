// The enricher (ingest/enrich.ts) on real chDB. With a node stub that answers eth_call only: what it stores must not
// depend on what this process saw earlier, so a collection whose name() reverts still gets every mint's tokenURI
// (it used to be skipped after the revert, until a restart forgot it, so a restart changed the stored URIs). Against
// chain-sim on loopback: a batch's tokenURI calls go in EVM batches, with reverts, an answer left out and one that
// does not decode each given its own outcome.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { toBech32 } from '@cosmjs/encoding';
import { Interface } from 'ethers';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createStore, type Store } from '../../clickhouse/client.js';
import { startSampleChain } from '../../devnet/sample-chains/serve.js';
import { migrate } from '../../clickhouse/migrate.js';
import type { BlockFacts } from '../../ingest/decode/block.js';
import type { NftEventFact } from '../../ingest/decode/nft.js';
import { createEnricher } from '../../ingest/enrich.js';
import { type ChainSource, createChainSource, type EthCall } from '../../ingest/source.js';
import { createLogger } from '../../platform/log.js';
import { TransientSourceError } from '../../chain/retry.js';

const erc721 = new Interface([
  'function name() view returns (string)',
  'function tokenURI(uint256) view returns (string)',
]);
const COLLECTION = '0x00000000000000000000000000000000000000c1';
const OWNER = 'init1dw49mn7s2r5mskjdmus5hth80zz8wwaywycq06';

let dir: string;
let store: Store;
beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'enrich-'));
  store = createStore({ dataDir: dir });
  await migrate(store);
});
afterAll(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A node whose collection reverts name() (as minievm answers a revert) and answers tokenURI. */
const calls: string[] = [];
const node = {
  async evmCalls(asked: readonly EthCall[]) {
    return asked.map(({ data }) => {
      const fn = erc721.parseTransaction({ data })!;
      calls.push(fn.name);
      if (fn.name === 'name') return { reverted: 'eth_call: execution reverted' };
      return { data: erc721.encodeFunctionResult('tokenURI', [`ipfs://token/${fn.args[0]}`]) };
    });
  },
} as unknown as ChainSource;

/** One block with one tx that creates the collection and mints `ids` (the decoder's facts, before enrichment). */
function block(height: number, ids: string[], creates: boolean, collection = COLLECTION): BlockFacts {
  const events: NftEventFact[] = ids.map((id, i) => ({
    collection,
    token_id: id,
    kind: 'mint',
    from_owner: '',
    to_owner: OWNER,
    uri: '',
    object_addr: '',
    event_index: i,
  }));
  const collections = creates ? [{ collection, name: '', origin_name: '', creator: OWNER, lookup: 'evm' }] : [];
  return { height, txs: [{ nft: { events, collections, objectEvents: [] } }] } as unknown as BlockFacts;
}

it("asks a mint's tokenURI even when its collection's name() reverted", async () => {
  const enricher = createEnricher('evm', store, node, createLogger({ test: 'enrich' }));
  const first = block(5, ['1', '2'], true);
  await enricher.enrich([first]);
  const second = block(6, ['3'], false);
  await enricher.enrich([second]);
  expect(calls.filter((c) => c === 'name')).toHaveLength(1);
  expect(first.txs[0]!.nft.collections.map((c) => c.name)).toEqual(['']);
  const uris = [...first.txs[0]!.nft.events, ...second.txs[0]!.nft.events].map((e) => e.uri);
  expect(uris).toEqual(['ipfs://token/1', 'ipfs://token/2', 'ipfs://token/3']);
});

it("asks a batch's tokenURIs in EVM batches, each call with its own outcome", async () => {
  const chain = await startSampleChain('evm');
  const source = createChainSource({ rpcUrl: chain.rpcUrl, restUrl: chain.restUrl, evmUrl: chain.evmUrl });
  try {
    const collection = '0x00000000000000000000000000000000000000c2';
    const tokenUri = erc721.getFunction('tokenURI')!.selector;
    // tokenURI answers for every id but multiples of 7 (a revert) and 11 (bytes that are no ABI string).
    chain.server.registerEthCall((call) => {
      if (call.to?.toLowerCase() !== collection || !call.data?.startsWith(tokenUri)) return undefined;
      const id = Number(erc721.decodeFunctionData('tokenURI', call.data)[0]);
      if (id % 7 === 0) return undefined;
      if (id % 11 === 0) return '0x1234';
      return erc721.encodeFunctionResult('tokenURI', [`ipfs://c2/${id}`]);
    });
    const ids = Array.from({ length: 120 }, (_, i) => String(i + 1));
    const facts = [block(7, ids.slice(0, 60), false, collection), block(8, ids.slice(60), false, collection)];
    // One batch answer leaves out its last call: that call is asked again, alone.
    chain.server.faults.dropBatchAnswers = 1;
    const posts = chain.server.stats.evm;
    await createEnricher('evm', store, source, createLogger({ test: 'enrich' })).enrich(facts);
    const uris = facts.flatMap((b) => b.txs[0]!.nft.events.map((e) => e.uri));
    expect(uris).toEqual(ids.map((id) => (+id % 7 === 0 || +id % 11 === 0 ? '' : `ipfs://c2/${id}`)));
    expect(chain.server.faults.dropBatchAnswers).toBe(0);
    // 120 calls in three POSTs of at most 50, and one more for the call left out (one POST a call before).
    expect(chain.server.stats.evm - posts).toBe(4);
  } finally {
    source.close();
    await chain.stop();
  }
});

it('gives a collection received over ICS-721 its origin name: a stored one by a new row, one made in the batch directly', async () => {
  const stored = '0x00000000000000000000000000000000000000c3';
  const fresh = '0x00000000000000000000000000000000000000c4';
  await store.insert('nft_collection_events', [
    {
      collection: stored,
      name: 'ibc/AAA',
      origin_name: '',
      creator: OWNER,
      height: 3,
      sequence: 30,
      time: '2026-01-01 00:00:00',
    },
  ]);
  const origins = (name: string, origin_name: string) => ({ name, origin_name });
  // Block 9: a receipt of class ibc/AAA (stored before this batch), and one of ibc/BBB, whose collection this batch
  // makes (its name already read, as name() answers on a real node).
  const b = block(9, [], false);
  const tx = b.txs[0]!;
  tx.nft.origins = [origins('ibc/AAA', 'Jennie'), origins('ibc/BBB', 'Lisa')];
  tx.nft.collections = [{ collection: fresh, name: 'ibc/BBB', origin_name: '', creator: OWNER, lookup: 'evm' }];
  await createEnricher('evm', store, node, createLogger({ test: 'enrich' })).enrich([b]);
  expect(tx.nft.collections).toEqual([
    { collection: fresh, name: 'ibc/BBB', origin_name: 'Lisa', creator: OWNER, lookup: 'evm' },
    { collection: stored, name: 'ibc/AAA', origin_name: 'Jennie', creator: '' },
  ]);
});

it('a Wasm collection event of a contract that is no CW721 makes no collection; a CW721 gets its name and creator', async () => {
  // wasmd answers a smart query the contract does not know with HTTP 500 "… unknown variant `contract_info` …".
  const cw721 = `0x${'c5'.repeat(32)}`;
  const other = `0x${'c6'.repeat(32)}`;
  const wasmNode = {
    async restGet(path: string) {
      if (path.startsWith('/cosmwasm/wasm/v1/contract/')) {
        const isOther = path.includes(toBech32('init', Buffer.from(other.slice(2), 'hex')));
        if (path.includes('/smart/')) {
          if (isOther)
            throw new TransientSourceError(
              'GET …: HTTP 500 {"code":2,"message":"Error parsing into type counter::msg::QueryMsg: unknown variant `contract_info`"}',
            );
          return { data: { name: 'Devnet Wasm fx' } };
        }
        return { contract_info: { creator: OWNER } };
      }
      throw new Error(`unexpected ${path}`);
    },
  } as unknown as ChainSource;
  const b = block(11, [], false);
  b.txs[0]!.nft.collections = [
    { collection: cw721, name: '', origin_name: '', creator: '', lookup: 'wasm' },
    { collection: other, name: '', origin_name: '', creator: '', lookup: 'wasm' },
  ];
  await createEnricher('wasm', store, wasmNode, createLogger({ test: 'enrich' })).enrich([b]);
  expect(b.txs[0]!.nft.collections).toEqual([
    { collection: cw721, name: 'Devnet Wasm fx', origin_name: '', creator: OWNER, lookup: 'wasm' },
  ]);
});
