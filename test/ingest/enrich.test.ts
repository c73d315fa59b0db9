// The enricher (ingest/enrich.ts) on real chDB with a node stub that answers eth_call only: what it stores must not
// depend on what this process saw earlier, so a collection whose name() reverts still gets every mint's tokenURI
// (it used to be skipped after the revert, until a restart forgot it, so a restart changed the stored URIs).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Interface } from 'ethers';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createStore, type Store } from '../../clickhouse/client.js';
import { migrate } from '../../clickhouse/migrate.js';
import type { BlockFacts } from '../../ingest/decode/block.js';
import type { NftEventFact } from '../../ingest/decode/nft.js';
import { createEnricher } from '../../ingest/enrich.js';
import type { ChainSource } from '../../ingest/source.js';
import { createLogger } from '../../platform/log.js';

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
  async evmCall(_to: string, data: string) {
    const fn = erc721.parseTransaction({ data })!;
    calls.push(fn.name);
    if (fn.name === 'name') throw new Error('eth_call: execution reverted');
    return erc721.encodeFunctionResult('tokenURI', [`ipfs://token/${fn.args[0]}`]);
  },
} as unknown as ChainSource;

/** One block with one tx that creates the collection and mints `ids` (the decoder's facts, before enrichment). */
function block(height: number, ids: string[], creates: boolean): BlockFacts {
  const events: NftEventFact[] = ids.map((id, i) => ({
    collection: COLLECTION,
    token_id: id,
    kind: 'mint',
    from_owner: '',
    to_owner: OWNER,
    uri: '',
    object_addr: '',
    event_index: i,
  }));
  const collections = creates
    ? [{ collection: COLLECTION, name: '', origin_name: '', creator: OWNER, lookup: 'evm' }]
    : [];
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
