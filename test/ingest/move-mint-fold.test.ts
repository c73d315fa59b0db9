// Move NFT facts from the recorded minimove devnet. A Move mint to someone else is one action: the real node emits the object's creation owned by the minter, the
// collection's MintEvent, and a TransferEvent to the receiver in the same tx. It must be stored as what an ERC721 or
// CW721 mint to the receiver is: one mint, no transfer (the collection's analytics used to count a transfer for every
// such mint), with the same holdings, owner and token txs. The block is the recorded minimove devnet's
// `simple_nft::mint` (test/fixtures/minimove-devnet/mint.json), through the real decoder, enricher and facts store.
// A later tx that touches the NFT's object without an NFT event of it (a description change) is one of the NFT's
// txs, as upstream lists them (the txs whose accounts include the object), whether the object was minted in the same
// batch or is known from the store.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createStore, type Store } from '../../clickhouse/client.js';
import { factsStore } from '../../clickhouse/facts-store.js';
import { migrate } from '../../clickhouse/migrate.js';
import { type BlockFacts, parseChainTime, type RawBlock, type RawBlockResults } from '../../ingest/decode/block.js';
import { foldMoveMintTransfers, type NftEventFact } from '../../ingest/decode/nft.js';
import { nftTxSequences } from '../../clickhouse/queries/txs.js';
import { decodeTx, type RestTx } from '../../ingest/decode/tx.js';
import { createEnricher } from '../../ingest/enrich.js';
import { batchRows } from '../../ingest/rows.js';
import { filterKeys, nftKey } from '../../clickhouse/committed-items.js';
import type { AbciEvent } from '../../chain/events.js';
import type { ChainSource } from '../../ingest/source.js';
import { createLogger } from '../../platform/log.js';

const fixture = JSON.parse(
  readFileSync(path.join(import.meta.dirname, '../fixtures/minimove-devnet/mint.json'), 'utf8'),
) as { tx_index: number; block: RawBlock; block_results: RawBlockResults; rest_tx: { tx: RestTx } };

/**
 * The recorded mint tx in a block of its own: the recorded block holds six txs and the recording keeps the REST tx of
 * the mint alone, decoded as the block decoder decodes each of its txs. `events` replaces its events (a later tx).
 */
function mintBlock(o: { height?: number; events?: AbciEvent[] } = {}): BlockFacts {
  const header = fixture.block.block.header;
  const height = o.height ?? Number(header.height);
  const time = parseChainTime(header.time);
  const result = fixture.block_results.txs_results![fixture.tx_index]!;
  const tx = decodeTx('move', {
    height,
    index: 0,
    time,
    rawBase64: fixture.block.block.data.txs![fixture.tx_index]!,
    restTx: fixture.rest_tx.tx,
    result: o.events ? { ...result, events: o.events } : result,
  });
  return {
    height,
    hash: fixture.block.block_id.hash.toUpperCase(),
    chainId: header.chain_id,
    time,
    proposer: '',
    txs: [tx],
    txCount: 1,
    gasUsed: 0n,
    gasWanted: 0n,
    totalFee: [],
    errors: [],
  };
}

/** The recorded mint's NFT object, from its collection::MintEvent. */
function mintedObject(): string {
  for (const e of fixture.block_results.txs_results![fixture.tx_index]!.events ?? []) {
    const a = Object.fromEntries(e.attributes.map((x) => [x.key, x.value]));
    if (a.type_tag === '0x1::collection::MintEvent') return (JSON.parse(a.data!) as { nft: string }).nft;
  }
  throw new Error('no MintEvent in the recorded mint');
}

/** A tx changing the NFT's description: a 0x1::nft::MutationEvent of another field than the URI, naming the object. */
const descriptionChange = (object: string): AbciEvent[] => [
  {
    type: 'move',
    attributes: [
      { key: 'type_tag', value: '0x1::nft::MutationEvent' },
      {
        key: 'data',
        value: JSON.stringify({ nft: object, mutated_field_name: 'description', old_value: 'a', new_value: 'b' }),
      },
    ],
  },
];

const quietNode = {
  async restGet(p: string) {
    if (p.includes('0x1%3A%3Acollection%3A%3ACollection')) throw new Error('not served here');
    throw new Error(`unexpected ${p}`);
  },
} as unknown as ChainSource;

let dir: string;
let store: Store;
beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'move-mint-fold-'));
  store = createStore({ dataDir: dir });
  await migrate(store);
});
afterAll(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

it("stores the recorded Move mint to a receiver as one mint to the receiver: no transfer in the collection's analytics", async () => {
  const facts = mintBlock();
  const nft = facts.txs[0]!.nft;
  // As decoded: the mint (to the creator of the object) and the object's TransferEvent, resolved by the enricher.
  expect(nft.events.map((e) => e.kind)).toEqual(['mint']);
  expect(nft.objectEvents.map((e) => e.kind)).toEqual(['transfer']);
  const minted = nft.events[0]!;
  const moved = nft.objectEvents[0]!;
  expect(moved.object).toBe(minted.object_addr);
  expect(moved.from_owner).toBe(minted.to_owner);
  // The enricher knows the object from the mint itself: no lookup of it. The collection's name lookup is cosmetic.
  await createEnricher('move', store, quietNode, createLogger({ test: 'move-mint-fold' })).enrich([facts]);
  expect(nft.events).toMatchObject([{ kind: 'mint', from_owner: '', to_owner: moved.to_owner }]);
  await factsStore(store).insertBatch(batchRows([{ facts, blockTimeMs: 0 }]), facts.height);

  const stats = await store.rows<{ mints: string; transfers: string }>(
    'SELECT sum(mints) AS mints, sum(transfers) AS transfers FROM stats_nft WHERE res = 86400 AND collection = {c:String}',
    { c: minted.collection },
  );
  expect(stats).toEqual([{ mints: '1', transfers: '0' }]);
  const holdings = await store.rows<{ owner: string; n: string }>(
    'SELECT owner, toString(sum(delta)) AS n FROM nft_holdings WHERE collection = {c:String} GROUP BY owner HAVING sum(delta) != 0',
    { c: minted.collection },
  );
  expect(holdings).toEqual([{ owner: moved.to_owner, n: '1' }]);
});

it('folds only a mint handed straight on from its owner, once, and leaves every other event as it is', () => {
  const e = (kind: NftEventFact['kind'], from: string, to: string, i: number, token = 't1'): NftEventFact => ({
    collection: '0xc',
    token_id: token,
    kind,
    from_owner: from,
    to_owner: to,
    uri: '',
    object_addr: `0xo${token}`,
    event_index: i,
  });
  // Mint to A, A → B, B → C: the first transfer folds into the mint, the second stays a transfer.
  expect(
    foldMoveMintTransfers([e('mint', '', 'A', 0), e('transfer', 'A', 'B', 1), e('transfer', 'B', 'C', 2)]),
  ).toEqual([e('mint', '', 'B', 0), e('transfer', 'B', 'C', 2)]);
  // Another token's events in between do not stop the fold; a URI change of the token does.
  expect(
    foldMoveMintTransfers([e('mint', '', 'A', 0), e('mint', '', 'A', 1, 't2'), e('transfer', 'A', 'B', 2)]),
  ).toEqual([e('mint', '', 'B', 0), e('mint', '', 'A', 1, 't2')]);
  const mutated = [e('mint', '', 'A', 0), e('mutate', '', '', 1), e('transfer', 'A', 'B', 2)];
  expect(foldMoveMintTransfers(mutated)).toEqual(mutated);
  // A transfer from someone other than the mint's owner, and EVM/Wasm mints (no object), stay as they are.
  const other = [e('mint', '', 'A', 0), e('transfer', 'X', 'B', 1)];
  expect(foldMoveMintTransfers(other)).toEqual(other);
  const evm = [
    { ...e('mint', '', 'A', 0), object_addr: '' },
    { ...e('transfer', 'A', 'B', 1), object_addr: '' },
  ];
  expect(foldMoveMintTransfers(evm)).toEqual(evm);
});

it("lists a tx touching the NFT's object without an NFT event among the NFT's txs, after a restart (the object known from the store)", async () => {
  const object = mintedObject();
  const [collection, tokenId] = await store
    .rows<{ collection: string; token_id: string }>(
      'SELECT collection, token_id FROM nft_objects WHERE object_addr = {o:String}',
      { o: `0x${object.replace(/^0x/, '').padStart(64, '0')}` },
    )
    .then((r) => [r[0]!.collection, r[0]!.token_id]);
  const minted = Number(fixture.block.block.header.height);
  // A fresh enricher (a restart): the object is known from the store only.
  const later = mintBlock({ height: minted + 1, events: descriptionChange(object) });
  await createEnricher('move', store, quietNode, createLogger({ test: 'move-touch' })).enrich([later]);
  expect(later.txs[0]!.nft.events).toEqual([]);
  expect(later.txs[0]!.nft.touches).toEqual([{ collection, token_id: tokenId }]);
  const rows = batchRows([{ facts: later, blockTimeMs: 0 }]);
  await factsStore(store).insertBatch(rows, later.height);
  expect(filterKeys(rows).has(nftKey(collection!, tokenId!))).toBe(true);
  const seqs = await nftTxSequences(store, collection!, tokenId!, 10, BigInt(minted + 2) * 1_000_000n);
  expect(seqs).toEqual([String(minted * 1_000_000), String((minted + 1) * 1_000_000)]);
  // The description change moved nothing: the owner and the holdings are the mint's.
  const holders = await store.rows<{ owner: string }>(
    'SELECT owner FROM nft_holdings WHERE collection = {c:String} AND token_id = {t:String} GROUP BY owner HAVING sum(delta) > 0',
    { c: collection, t: tokenId },
  );
  expect(holders).toHaveLength(1);
});
