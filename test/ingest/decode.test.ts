// Decoders against real recorded Initia transactions (devnet/recorded/initia-tx-decoder, see devnet/recorded/SOURCES.md).
import { toBase64 } from '@cosmjs/encoding';
import { describe, expect, it } from 'vitest';
import { accountHex, normalizeAccount, valoperFromHex } from '../../chain/address.js';
import { decodeTx, signerOf, txHash, type RestTx, type TxResult } from '../../ingest/decode/tx.js';
import { parseChainTime } from '../../ingest/decode/block.js';
import { ERC721_TRANSFER_TOPIC } from '../../ingest/decode/nft.js';
import type { Vm } from '../../ingest/decode/nft.js';
import { loadFixture, txResponse, type TxResponseFixture } from '../support/fixtures.js';

const time = parseChainTime('2025-07-04T08:39:54.123456789Z');
const raw = toBase64(new TextEncoder().encode('raw tx bytes'));

function decode(vm: Vm, t: TxResponseFixture) {
  const result: TxResult = {
    code: t.code,
    codespace: t.codespace,
    data: null,
    log: t.raw_log,
    info: t.info,
    gas_wanted: t.gas_wanted,
    gas_used: t.gas_used,
    events: t.events,
  };
  return decodeTx(vm, { height: Number(t.height), index: 0, time, rawBase64: raw, restTx: t.tx as RestTx, result });
}

describe('addresses', () => {
  it('normalises hex and bech32 forms of one account to the same bech32', () => {
    const b = 'init1kw2unuhgfa6mz6r0ehrzlr9k9ftjk7pql8u5fm';
    const hex = accountHex(b)!;
    expect(hex).toMatch(/^0x[0-9a-f]{40}$/);
    expect(normalizeAccount(hex)).toBe(b);
    expect(normalizeAccount(hex.slice(2).toUpperCase())).toBe(b);
    expect(normalizeAccount('0x1')).toBe(normalizeAccount('0x0000000000000000000000000000000000000001'));
    expect(normalizeAccount('cosmos1kw2unuhgfa6mz6r0ehrzlr9k9ftjk7pqxxxxxx')).toBeNull();
    expect(normalizeAccount('0xZZ')).toBeNull();
    expect(valoperFromHex('AB'.repeat(20))).toMatch(/^initvaloper1/);
  });
  it('formats block times with nanoseconds as RFC3339Nano and ClickHouse DateTime64(9)', () => {
    expect(time.rfc3339Nano).toBe('2025-07-04T08:39:54.123456789Z');
    expect(time.rfc3339Seconds).toBe('2025-07-04T08:39:54Z');
    expect(time.clickhouse).toBe('2025-07-04 08:39:54.123456789');
    expect(parseChainTime('2025-07-04T08:39:54.500Z').rfc3339Nano).toBe('2025-07-04T08:39:54.5Z');
    expect(parseChainTime('2025-07-04T08:39:54Z').rfc3339Nano).toBe('2025-07-04T08:39:54Z');
  });
});

describe('tx decoding', () => {
  it('hashes raw bytes as uppercase sha256 hex', () => {
    expect(txHash(raw)).toMatch(/^[0-9A-F]{64}$/);
  });

  it('derives the ethsecp256k1 signer, msg types, fee and the ERC20 log of a minievm bank send', () => {
    const t = txResponse('cosmos/evm/bank-evm.json', 'bankSendWithEvmLogTxResponse');
    const f = decode('evm', t);
    // The signer's key hashes (keccak) to the account that the tx's own message events name as sender.
    expect(f.signer).toBe('init1kw2unuhgfa6mz6r0ehrzlr9k9ftjk7pql8u5fm');
    expect(f.msgTypes).toEqual(['cosmos.bank.v1beta1.MsgSend']);
    expect(f.fee).toEqual([{ amount: '832675000000', denom: 'evm/E1Ff7038eAAAF027031688E1535a055B2Bac2546' }]);
    expect(f.logs.length).toBeGreaterThanOrEqual(2);
    expect(f.logs[0]!.address).toBe('0xe1ff7038eaaaf027031688e1535a055b2bac2546');
    expect(f.logs[0]!.topics[0]).toBe(ERC721_TRANSFER_TOPIC);
    expect(f.accounts).toContain('init1kw2unuhgfa6mz6r0ehrzlr9k9ftjk7pql8u5fm');
    expect(f.accounts).toContain('init17xpfvakm2amg962yls6f84z3kell8c5l70rnql');
    expect(f.accounts).toContain(normalizeAccount('0xe1ff7038eaaaf027031688e1535a055b2bac2546'));
    const api = JSON.parse(f.json);
    expect(Object.keys(api)).toEqual([
      'txhash',
      'height',
      'codespace',
      'code',
      'data',
      'raw_log',
      'logs',
      'info',
      'gas_wanted',
      'gas_used',
      'tx',
      'timestamp',
      'events',
    ]);
    expect(api.height).toBe('11671668');
    expect(api.tx['@type']).toBeUndefined();
    expect(api.events[0].attributes[0]).toEqual({
      key: 'contract',
      value: '0xE1Ff7038eAAAF027031688E1535a055B2Bac2546',
      index: true,
    });
    expect(api.timestamp).toBe('2025-07-04T08:39:54.123456789Z');
  });

  it('keeps a failed tx with its code and codespace and derives no NFT state from it', () => {
    const t = txResponse('common/failed.json', 'mockMsgFailed');
    const f = decode('move', t);
    expect(f.code).toBe(1);
    const api = JSON.parse(f.json);
    expect(api.code).toBe(1);
    expect(api.codespace).toBe(t.codespace);
    expect(api.raw_log).toBe(t.raw_log);
    expect(f.msgTypes).toEqual(['initia.move.v1.MsgExecute']);
    expect(f.nft.events).toEqual([]);
  });

  it('links the OPinit deposit to its sender (secp/ethsecp signer) and reads the message type', () => {
    const t = txResponse('protocols/op-init/initiate-token-deposit.json', 'mockMsgInitiateTokenDeposit');
    const f = decode('move', t);
    expect(f.msgTypes).toEqual(['opinit.ophost.v1.MsgInitiateTokenDeposit']);
    expect(f.signer).toBe('init1s3qauqxfmtqhmvpwpfgrka9944me2s0jn52qfe');
    expect(signerOf(t.tx as RestTx)).toBe(f.signer);
    expect(f.accounts[0]).toBe(f.signer);
  });

  it('links an IBC send to the sender and receiver found in event attributes', () => {
    const t = txResponse('protocols/ibc/move/send-ft-move.json', 'mockFtSendMoveTransaction');
    const f = decode('move', t);
    expect(f.msgTypes).toEqual(['ibc.applications.transfer.v1.MsgTransfer']);
    const ev = t.events.find((e) => e.type === 'ibc_transfer')!;
    const sender = ev.attributes.find((a) => a.key === 'sender')!.value;
    expect(f.accounts).toContain(sender);
  });
});

describe('NFT extraction', () => {
  it('Move: a collection mint gives token id, NFT object and the owner from 0x1::object::CreateEvent', () => {
    const t = txResponse('cosmos/move/nft/nft-mint.json', 'mockMsgNftMint');
    const f = decode('move', t);
    expect(f.nft.events).toHaveLength(1);
    const e = f.nft.events[0]!;
    expect(e.kind).toBe('mint');
    expect(e.collection).toBe('0x0597cd3f37f21f59c771731a31e92ac1214f72b4f8a86541a94b50f0308f4e20');
    expect(e.token_id).toBe('1');
    expect(e.object_addr).toBe('0xeafbe62f2441e2ecce99db4cfbab294f7542d78ce2d82ca28de13da0a9d41b86');
    expect(e.to_owner).toBe(normalizeAccount('0xe7ddea46e6bd763c1610f0544f5cf9dc8c623b5c'));
  });

  it('Move: 0x1::object::TransferEvent is kept for attribution to a known NFT object', () => {
    const t = txResponse('cosmos/move/object-transfer/object-transfer.json', 'mockMsgObjectTransfer');
    const f = decode('move', t);
    expect(f.nft.objectEvents).toEqual([
      expect.objectContaining({
        object: '0x481b5e2a539721bfa9f9b35e702adb667c059d0a8e1a030be483178abd928235',
        kind: 'transfer',
        from_owner: normalizeAccount('0xe7ddea46e6bd763c1610f0544f5cf9dc8c623b5c'),
        to_owner: normalizeAccount('0x596de3ee0472f3a91aa219ac12d43d2f0bfef4a1'),
      }),
    ]);
  });

  it('Wasm: a CW721 mint gives the contract as a 32-byte collection address and the owner', () => {
    const t = txResponse('cosmos/wasm/cw721-mint.json', 'mockCw721Mint');
    const f = decode('wasm', t);
    expect(f.nft.events).toHaveLength(1);
    expect(f.nft.events[0]).toMatchObject({
      kind: 'mint',
      token_id: '1',
      to_owner: 'init1dw49mn7s2r5mskjdmus5hth80zz8wwaywycq06',
    });
    expect(f.nft.events[0]!.collection).toMatch(/^0x[0-9a-f]{64}$/);
    // The creator is the contract's (contract_info.creator), which the enricher reads: not the minter.
    expect(f.nft.collections[0]).toMatchObject({
      collection: f.nft.events[0]!.collection,
      creator: '',
      lookup: 'wasm',
    });
  });

  it('Wasm: a mint event without `minter` (CW721 forks emit none) is still a mint, and makes its collection', () => {
    const t = txResponse('cosmos/wasm/cw721-mint.json', 'mockCw721Mint');
    const events = t.events.map((e) =>
      e.type === 'wasm' ? { ...e, attributes: e.attributes.filter((a) => a.key !== 'minter') } : e,
    );
    expect(
      events.some((e) => e.type === 'wasm' && e.attributes.some((a) => a.key === 'action' && a.value === 'mint')),
    ).toBe(true);
    const f = decode('wasm', { ...t, events });
    const standard = decode('wasm', t);
    expect(f.nft.events).toEqual(standard.nft.events);
    expect(f.nft.collections).toEqual(standard.nft.collections);
  });

  it("ICS-721 receipt: the collection this chain names by the class id came from one named 'Jennie' on L1", () => {
    // protocols/ibc/evm/receive-nft-evm.json: a real recv_packet on nft-transfer/channel-1 of class move/4b22….
    const t = txResponse('protocols/ibc/evm/receive-nft-evm.json', 'mockNftReceiveEvmTransaction');
    const classId = 'move/4b224b3b82140614fbe0706b421d887f4532ea91d4ad0cf2b99a1251c06dfa9a';
    // initia's GetNftTransferClassId: ibc/ + upper-hex sha256 of the full class path (x/ibc/nft-transfer/types).
    expect(decode('evm', t).nft.origins).toEqual([
      { name: 'ibc/28B13B47C4342699063DDD3E07B7BBCEEDB1CBFBFE2C70296C69A7AA91A14448', origin_name: 'Jennie' },
    ]);
    // Wasm chains name it by the prefixed path (GetPrefixedClassId), as upstream pairs them there.
    expect(decode('wasm', t).nft.origins).toEqual([
      { name: `nft-transfer/channel-1/${classId}`, origin_name: 'Jennie' },
    ]);
  });

  it('Wasm: a CW721 instantiate (minter and creator, no token) makes its collection, before any mint', () => {
    // test/fixtures/miniwasm-devnet/instantiate.json: a real miniwasm node's instantiate of a CW721.
    const fx = loadFixture<{ rest_tx: { tx_response: TxResponseFixture } }>('miniwasm-devnet/instantiate.json');
    const f = decode('wasm', fx.rest_tx.tx_response);
    const contract = fx.rest_tx.tx_response.events
      .filter((e) => e.type === 'wasm')
      .flatMap((e) => e.attributes.filter((a) => a.key === '_contract_address').map((a) => a.value));
    expect(contract).toHaveLength(1);
    expect(f.nft.events).toEqual([]);
    expect(f.nft.collections).toEqual([
      { collection: accountHex(contract[0]!), name: '', origin_name: '', creator: '', lookup: 'wasm' },
    ]);
  });

  it('EVM: an ERC721 Transfer log (as minievm carries it in an `evm` event) is an owner change of token 4561', () => {
    // The recorded receipt's log, placed in the `evm` event form of cosmos/evm/bank-evm.json.
    const p = loadFixture<{
      mockErc721TransferFromPayload: { txReceipt: { logs: { address: string; topics: string[]; data: string }[] } };
    }>('initia-tx-decoder/ethereum/erc721/erc721-transfer-from.json');
    const log = p.mockErc721TransferFromPayload.txReceipt.logs[0]!;
    const bank = txResponse('cosmos/evm/bank-evm.json', 'bankSendWithEvmLogTxResponse');
    const t: TxResponseFixture = {
      ...bank,
      events: [
        {
          type: 'evm',
          attributes: [
            {
              key: 'log',
              value: JSON.stringify({ address: log.address, topics: log.topics, data: log.data }),
              index: true,
            },
          ],
        },
      ],
    };
    const f = decode('evm', t);
    expect(f.nft.events).toEqual([
      expect.objectContaining({
        collection: '0x5d4376b62fa8ac16dfabe6a9861e11c33a48c677',
        token_id: '4561',
        kind: 'transfer',
        from_owner: normalizeAccount('0x19f8a98c3512cf16731de58f83318ec553314f46'),
        to_owner: normalizeAccount('0x8f433715afa790ee2b35986de88da9aafdd0d2e3'),
      }),
    ]);
  });
});
