// An ERC721 collection's height/time is the contract's deployment (minievm's `contract_created` event), as
// upstream reports it, not its first mint: the defect a real minievm devnet showed (issue 11).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStore, type Store } from '../../clickhouse/client.js';
import { migrate } from '../../clickhouse/migrate.js';
import { allCollections, collectionsByAddr } from '../../clickhouse/queries/collections.js';
import type { BlockFacts } from '../../ingest/decode/block.js';
import type { AbciEvent } from '../../chain/events.js';
import { ERC721_TRANSFER_TOPIC, decodeNfts } from '../../ingest/decode/nft.js';
import { parseChainTime } from '../../ingest/decode/block.js';
import { sequenceOf, type TxFacts } from '../../ingest/decode/tx.js';
import { factsStore } from '../../clickhouse/facts-store.js';
import { batchRows, type BlockBatchItem } from '../../ingest/rows.js';

const COLLECTION = `0x${'ab'.repeat(20)}`;
const UNDEPLOYED = `0x${'cd'.repeat(20)}`; // deployed before the indexed range: first sight is all we know
const MINTER = `0x${'11'.repeat(20)}`;
const word = (hex: string) => `0x${hex.replace(/^0x/, '').padStart(64, '0')}`;

const mintEvent = (collection: string, id: number): AbciEvent => ({
  type: 'evm',
  attributes: [
    {
      key: 'log',
      value: JSON.stringify({
        address: collection,
        topics: [ERC721_TRANSFER_TOPIC, word('0'), word(MINTER), word(id.toString(16))],
        data: '0x',
      }),
    },
  ],
});

function tx(height: number, events: AbciEvent[], signer = 'init1signer'): TxFacts {
  return {
    sequence: sequenceOf(height, 0),
    hash: `${height.toString(16).padStart(2, '0')}`.repeat(32).toUpperCase(),
    code: 0,
    signer,
    msgTypes: ['/minievm.evm.v1.MsgCall'],
    accounts: [],
    fee: [],
    gasUsed: 1n,
    gasWanted: 1n,
    json: '{}',
    eventCount: events.length,
    logs: [],
    nft: decodeNfts('evm', events, signer),
  };
}

function block(height: number, txs: TxFacts[]): BlockFacts {
  return {
    height,
    hash: 'AB'.repeat(32),
    chainId: 'devnet-1',
    time: parseChainTime(`2025-01-01T00:00:${String(height).padStart(2, '0')}.123456789Z`),
    proposer: '',
    txs,
    txCount: txs.length,
    gasUsed: 0n,
    gasWanted: 0n,
    totalFee: [],
    errors: [],
  };
}

let dir: string;
let store: Store;
/** One ordered batch through the facts store, as the ingest writes it: its rows, then its checkpoint. */
const writeBatch = (batch: BlockBatchItem[]) =>
  factsStore(store).insertBatch(batchRows(batch), batch[batch.length - 1]!.facts.height);
beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'collection-creation-'));
  store = createStore({ dataDir: dir });
  await migrate(store);
});
afterAll(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('EVM collection creation', () => {
  it('decodes contract_created (checksummed, as minievm prints it) into the created contracts', () => {
    const r = decodeNfts(
      'evm',
      [
        {
          type: 'contract_created',
          attributes: [{ key: 'contract', value: '0xABabABabABabABabABabABabABabABabABabABab' }],
        },
      ],
      'init1signer',
    );
    expect(r.contracts).toEqual([COLLECTION]);
    expect(r.collections).toEqual([]);
  });

  it('height/time come from the deployment, not the first mint; unknown deployments fall back to first sight', async () => {
    const deploy: AbciEvent = { type: 'contract_created', attributes: [{ key: 'contract', value: COLLECTION }] };
    await writeBatch([{ facts: block(5, [tx(5, [deploy])]), blockTimeMs: 0 }]);
    await writeBatch([
      { facts: block(6, []), blockTimeMs: 0 },
      { facts: block(8, [tx(8, [mintEvent(COLLECTION, 1), mintEvent(UNDEPLOYED, 7)])]), blockTimeMs: 0 },
    ]);
    const rows = await collectionsByAddr(store, [COLLECTION, UNDEPLOYED]);
    const byAddr = new Map(rows.map((r) => [r.collection, r]));
    expect(byAddr.get(COLLECTION)).toMatchObject({ height: '5', length: '1' });
    expect(String(byAddr.get(COLLECTION)?.time)).toBe('2025-01-01T00:00:05.123456789Z');
    expect(byAddr.get(UNDEPLOYED)).toMatchObject({ height: '8', length: '1' });
  });

  it("the creator is the deployment's signer, not the signer of the first mint (a public mint is its minter's)", async () => {
    // As recorded in ethereum/kami721/kami721-public-mint.json: a user's public mint is the collection's first
    // Transfer. Upstream names the signer of the first tx touching the address: the deployer.
    const deployed = `0x${'ef'.repeat(20)}`;
    const unknown = `0x${'fe'.repeat(20)}`; // deployed before the indexed range: its first mint's signer is all we know
    const deploy: AbciEvent = { type: 'contract_created', attributes: [{ key: 'contract', value: deployed }] };
    await writeBatch([{ facts: block(20, [tx(20, [deploy], 'init1deployer')]), blockTimeMs: 0 }]);
    await writeBatch([
      {
        facts: block(21, [tx(21, [mintEvent(deployed, 1), mintEvent(unknown, 2)], 'init1minter')]),
        blockTimeMs: 0,
      },
    ]);
    const byAddr = new Map((await collectionsByAddr(store, [deployed, unknown])).map((r) => [r.collection, r]));
    expect(byAddr.get(deployed)).toMatchObject({ creator: 'init1deployer', height: '20' });
    expect(byAddr.get(unknown)).toMatchObject({ creator: 'init1minter', height: '21' });
    expect(Object.keys(byAddr.get(deployed)!)).not.toContain('deploy_seq');
    // The whole list the API holds in memory says the same.
    const held = new Map(((await allCollections(store, 100)) ?? []).map((r) => [r.collection, r]));
    expect(held.get(deployed)).toEqual(byAddr.get(deployed));
    expect(held.get(unknown)).toEqual(byAddr.get(unknown));
  });
});
