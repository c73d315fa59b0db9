import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { deriveDevAccounts, evmToBech32 } from '../../../devnet/minievm/accounts.js';
import {
  checkNftState,
  checkTokenTxs,
  type NftCollectionState,
  type ServedNftCollection,
  type ServedNftToken,
  canonicalJson,
  checkNfts,
  checkRichList,
  compareBlock,
  compareTx,
  percentile,
  proposerValoper,
  toRfc3339Seconds,
  type CometBlockResult,
  type IndexerBlock,
  type IndexerCollection,
  type IndexerToken,
  type IndexerTx,
  type RestGetTxResponse,
} from '../../../devnet/minievm/checks.js';

function fixture<T>(path: string): T {
  return JSON.parse(
    readFileSync(
      new URL(
        `${path.startsWith('initia-tx-decoder/') ? '../../../devnet/recorded' : '../../fixtures'}/${path}`,
        import.meta.url,
      ),
      'utf8',
    ),
  ) as T;
}

// A real minievm (yominet-1) LCD tx_response, as the node's REST returns it.
type LcdTx = RestGetTxResponse['tx_response'] & { tx: Record<string, unknown> & { body: { messages: unknown[] } } };
const lcd = fixture<{ bankSendWithEvmLogTxResponse: LcdTx }>(
  'initia-tx-decoder/cosmos/evm/bank-evm.json',
).bankSendWithEvmLogTxResponse;

function nodeAnswer(): RestGetTxResponse {
  const { '@type': _outer, ...tx } = structuredClone(lcd.tx);
  return { tx: tx as RestGetTxResponse['tx'], tx_response: structuredClone(lcd) };
}

/** Our documented wire shape (§6.1): no outer "@type", keys possibly reordered by storage. */
function ourAnswer(): IndexerTx {
  const { '@type': _outer, ...tx } = structuredClone(lcd.tx);
  const reversed = (o: unknown): unknown =>
    Array.isArray(o)
      ? o.map(reversed)
      : o && typeof o === 'object'
        ? Object.fromEntries(
            Object.entries(o)
              .reverse()
              .map(([k, v]) => [k, reversed(v)]),
          )
        : o;
  return {
    txhash: lcd.txhash,
    height: lcd.height,
    codespace: lcd.codespace,
    code: lcd.code,
    gas_wanted: lcd.gas_wanted,
    gas_used: lcd.gas_used,
    tx: reversed(tx) as IndexerTx['tx'],
    events: reversed(lcd.events) as IndexerTx['events'],
  };
}

describe('compareTx on a recorded minievm tx', () => {
  it('accepts our wire shape of the same tx even with storage-reordered keys', () => {
    expect(canonicalJson(ourAnswer().events)).toBe(canonicalJson(lcd.events));
    expect(compareTx(ourAnswer(), nodeAnswer())).toEqual([]);
  });

  it('reports each field that differs', () => {
    const ours = ourAnswer();
    ours.code = 5;
    ours.gas_used = '1';
    ours.height = String(Number(lcd.height) + 1);
    const attr = ours.events[2]?.attributes[0];
    if (!attr) throw new Error('fixture changed');
    attr.value = 'init1tampered';
    expect(
      compareTx(ours, nodeAnswer())
        .map((m) => m.field)
        .sort(),
    ).toEqual(['code', 'events', 'gas_used', 'height']);
  });

  it('treats event order and message content as significant', () => {
    const swapped = ourAnswer();
    swapped.events = [...swapped.events].reverse();
    expect(compareTx(swapped, nodeAnswer()).map((m) => m.field)).toEqual(['events']);
    const msg = ourAnswer();
    (msg.tx.body.messages[0] as { to_address: string }).to_address = evmToBech32(
      deriveDevAccounts(1)[0]?.evmAddress ?? '',
    );
    expect(compareTx(msg, nodeAnswer()).map((m) => m.field)).toEqual(['messages']);
  });
});

describe('compareBlock on a recorded CometBFT block', () => {
  const block = fixture<{ result: CometBlockResult }>(
    'cometbft-rpc/tendermint-rs-kvstore-v0_38/block_at_height_10.json',
  ).result;
  const operator = proposerValoper(block.block.header.proposer_address);
  const ours: IndexerBlock = {
    height: '10',
    hash: block.block_id.hash,
    timestamp: '2023-05-17T14:12:53Z',
    tx_count: '0',
    proposer: { moniker: 'operator', identity: '', operator_address: operator },
  };

  it('truncates CometBFT nanosecond time to RFC 3339 seconds like Go does', () => {
    expect(block.block.header.time).toBe('2023-05-17T14:12:53.088875124Z');
    expect(toRfc3339Seconds(block.block.header.time)).toBe('2023-05-17T14:12:53Z');
    expect(toRfc3339Seconds('2023-05-17T14:12:53Z')).toBe('2023-05-17T14:12:53Z');
    expect(() => toRfc3339Seconds('2023-05-17 14:12:53')).toThrow();
  });

  it('accepts a matching block and names every mismatch', () => {
    expect(operator.startsWith('initvaloper1')).toBe(true);
    expect(compareBlock(ours, block)).toEqual([]);
    const wrong = { ...ours, hash: ours.hash.toLowerCase(), tx_count: '1', timestamp: '2023-05-17T14:12:54Z' };
    expect(compareBlock(wrong, block).map((m) => m.field)).toEqual(['hash', 'timestamp', 'tx_count']);
  });

  it('accepts either proposer rendering tied to proposer_address, nothing else', () => {
    const resolved = 'initvaloper1psp5rc39x36kwu9mymz06f4554la2qqzwyxxev';
    expect(compareBlock(ours, block, resolved)).toEqual([]); // stored form
    const viaRest = { ...ours, proposer: { ...ours.proposer, operator_address: resolved } };
    expect(compareBlock(viaRest, block, resolved)).toEqual([]);
    expect(compareBlock(viaRest, block).map((m) => m.field)).toEqual(['proposer.operator_address']);
    const other = { ...ours, proposer: { ...ours.proposer, operator_address: proposerValoper('00'.repeat(20)) } };
    expect(compareBlock(other, block, resolved).map((m) => m.field)).toEqual(['proposer.operator_address']);
  });

  it('counts txs from data.txs, including a null list', () => {
    const withTxs = structuredClone(block);
    withTxs.block.data.txs = ['AAE=', 'AAI='];
    expect(compareBlock({ ...ours, tx_count: '2' }, withTxs)).toEqual([]);
    const nullTxs = structuredClone(block);
    nullTxs.block.data.txs = null;
    expect(compareBlock(ours, nullTxs)).toEqual([]);
  });
});

describe('checkRichList against balanceOf', () => {
  const [a, b, c, d] = deriveDevAccounts(4).map((x) => x.evmAddress.toLowerCase());
  if (!a || !b || !c || !d) throw new Error('accounts');
  const balances = new Map<string, bigint>([
    [a, 500n],
    [b, 10n ** 30n],
    [c, 500n],
    [d, 0n],
  ]);
  const [lo, hi] = a < c ? [a, c] : [c, a];
  const good = [
    { account: b, amount: (10n ** 30n).toString() },
    { account: lo, amount: '500' },
    { account: hi, amount: '500' },
  ];

  it('accepts the right holders, amounts and order, with zero balances omitted', () => {
    expect(checkRichList(good, balances)).toEqual([]);
    expect(checkRichList([good[0]!, good[2]!, good[1]!], balances)).toEqual([]); // the other tie direction
  });

  it('flags wrong amounts, missing, unknown and duplicate holders', () => {
    const fields = (h: typeof good) => checkRichList(h, balances).map((m) => m.field);
    expect(fields([good[0]!, good[1]!, { account: hi, amount: '499' }])).toEqual(['amount']);
    expect(fields([good[0]!, good[1]!])).toEqual(['missing']);
    expect(fields([...good, { account: '0x000000000000000000000000000000000000dead', amount: '1' }])).toEqual([
      'unknown to the chain',
    ]);
    expect(fields([...good, good[2]!])).toContain('duplicate');
  });

  it('flags amount order and inconsistent tie order', () => {
    expect(checkRichList([good[1]!, good[0]!, good[2]!], balances).map((m) => m.field)).toEqual([
      'order (amount DESC)',
    ]);
    const e = '0xffffffffffffffffffffffffffffffffffffffff';
    const withE = new Map(balances).set(e, 500n);
    const mixed = [
      good[0]!,
      { account: lo, amount: '500' },
      { account: e, amount: '500' },
      { account: hi, amount: '500' },
    ];
    expect(checkRichList(mixed, withE).map((m) => m.field)).toEqual(['order (account tie-break)']);
  });
});

describe('checkNfts against ownerOf / totalSupply', () => {
  const [alice, bob] = deriveDevAccounts(2);
  if (!alice || !bob) throw new Error('accounts');
  const address = '0x5d4376b62fa8ac16dfabe6a9861e11c33a48c677';
  const chain = {
    address,
    owners: new Map([
      ['1', alice.evmAddress],
      ['2', bob.evmAddress],
    ]),
    burned: new Set(['3']),
    totalSupply: 2n,
  };
  const token = (id: string, owner: string): IndexerToken => ({
    collection_addr: address,
    owner,
    nft: { token_id: id },
  });
  const collection: IndexerCollection = { object_addr: address, collection: { name: 'Dev', nfts: { length: 2 } } };

  it('accepts matching owners (bech32 of ownerOf) and counts', () => {
    expect(checkNfts([token('1', alice.bech32), token('2', bob.bech32)], collection, chain)).toEqual([]);
  });

  it('flags a wrong owner, a burned token still listed, a missing token and bad counts', () => {
    const fields = checkNfts(
      [token('1', bob.bech32), token('3', alice.bech32)],
      { ...collection, collection: { name: 'Dev', nfts: { length: 3 } } },
      chain,
    ).map((m) => m.field);
    expect(fields).toEqual(['token 3 burned but listed', 'token 1 owner', 'token 2 missing', 'collection.nfts.length']);
    expect(checkNfts([token('1', alice.bech32)], undefined, chain).map((m) => m.field)).toEqual([
      'token 2 missing',
      'token count',
      'collection',
    ]);
  });
});

describe('percentile', () => {
  it('uses the nearest rank', () => {
    expect(percentile([5, 1, 3, 2, 4], 50)).toBe(3);
    expect(percentile([5, 1, 3, 2, 4], 100)).toBe(5);
    expect(percentile([7], 50)).toBe(7);
    expect(() => percentile([], 50)).toThrow();
    expect(() => percentile([1], 0)).toThrow();
  });
});

// Shapes as the live minimove devnet served them (test/devnet/vm-nodes/minimove.e2e.ts, 2026-11-25): a simple_nft
// collection with one token transferred and one burned.
describe('checkNftState (Move and Wasm collections) and checkTokenTxs', () => {
  const [creator, holder] = deriveDevAccounts(2).map((a) => a.bech32) as [string, string];
  const address = '0xe53f1c09db6825c7c86e952545a429e5809279d5ea8d31cf252516569f792e53';
  const object = '0x98b7f724a889064aa32a6a4857762ae7d349f3a3763db389cd3750b3e53575e5';
  const chain: NftCollectionState = {
    address,
    name: 'Devnet Move r2 #1',
    creator,
    supply: 1,
    tokens: new Map([['r2-a', { owner: holder, uri: 'https://devnet.example/r2/1/r2-a', object }]]),
    burned: new Set(['r2-b']),
  };
  const served: ServedNftCollection = {
    object_addr: address,
    collection: { name: 'Devnet Move r2 #1', creator, nfts: { length: 1 } },
  };
  const token = (id: string, owner: string, obj = object): ServedNftToken => ({
    collection_addr: address,
    object_addr: obj,
    owner,
    nft: { token_id: id, uri: `https://devnet.example/r2/1/${id}` },
  });

  it('accepts a collection and tokens equal to the chain state', () => {
    expect(checkNftState(served, [token('r2-a', holder)], chain)).toEqual([]);
  });

  it('flags a wrong creator, owner, object, a burned token listed and a wrong supply', () => {
    const fields = checkNftState(
      { ...served, collection: { ...served.collection, creator: holder, nfts: { length: 2 } } },
      [token('r2-a', creator, '0x01'), token('r2-b', holder)],
      chain,
    ).map((m) => m.field);
    expect(fields).toEqual([
      'creator',
      'nfts.length',
      'token count',
      'token r2-b burned but listed',
      'token r2-a owner',
      'token r2-a object_addr',
    ]);
    expect(checkNftState(undefined, [], chain).map((m) => m.field)).toEqual([
      'collection',
      'token count',
      'token r2-a missing',
    ]);
  });

  it('checkTokenTxs wants exactly the node set, once each', () => {
    const node = new Set(['A', 'B']);
    expect(checkTokenTxs('t', ['B', 'A'], node)).toEqual([]);
    expect(checkTokenTxs('t', ['A', 'A', 'C'], node).map((m) => m.field)).toEqual([
      'duplicate tx',
      'tx the node does not link to the token',
      'missing tx',
    ]);
  });
});
