// Address, height, hash, msgs, order_by and denom parsing (docs/indexer.md) — pure code.
import fc from 'fast-check';
import { fromBech32, toBech32, toHex } from '@cosmjs/encoding';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../api/http/errors.js';
import {
  normaliseDenom,
  parseAccount,
  parseBlockHeight,
  parseCollectionAddr,
  parseMsgs,
  parseOrderBy,
  parseTxHash,
  rfc3339Micro,
  rfc3339Nano,
  rfc3339Seconds,
} from '../../../api/indexer/params.js';
import { normaliseName } from '../../../api/indexer/read/collections.js';
import { averageBlockTime } from '../../../api/indexer/blocks.js';
import { txResponse } from '../../support/fixtures.js';

const status = (f: () => unknown) => {
  try {
    f();
    return 200;
  } catch (e) {
    return e instanceof ApiError ? e.status : 500;
  }
};

describe('accounts', () => {
  // A real signer of a recorded tx: the fee payer of the recorded bank send (cosmos/evm/bank-evm.json).
  const rec = txResponse('cosmos/evm/bank-evm.json', 'bankSendWithEvmLogTxResponse');
  const signer = rec.events.flatMap((e) => e.attributes).find((a) => a.key === 'fee_payer')!.value;
  const hex = toHex(fromBech32(signer).data);

  it('accepts bech32 and hex with or without 0x, any case, and normalises to bech32', () => {
    for (const form of [signer, signer.toUpperCase(), hex, `0x${hex}`, `0X${hex.toUpperCase()}`])
      expect(parseAccount(form, 'init')).toBe(signer);
  });

  it('trims leading zeros and pads to 20 or 32 bytes', () => {
    expect(parseAccount('0x1', 'init')).toBe(toBech32('init', Uint8Array.from([...Array(19).fill(0), 1])));
    expect(parseAccount(`0x${'0'.repeat(20)}${'ab'.repeat(21)}`, 'init')).toBe(
      toBech32('init', Uint8Array.from([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, ...Array(21).fill(0xab)])),
    ); // More than 64 digits with the zeros before them: trimmed first, as upstream's AccAddressFromString does.
    expect(parseAccount(`0x${'0'.repeat(10)}${'cd'.repeat(32)}`, 'init')).toBe(
      toBech32('init', Uint8Array.from(Array(32).fill(0xcd))),
    );
  });

  it('rejects other prefixes, bad checksums and junk with the upstream message', () => {
    const other = toBech32('cosmos', fromBech32(signer).data);
    for (const bad of [
      other,
      signer.slice(0, -1) + (signer.endsWith('q') ? 'p' : 'q'),
      'init1',
      `0x${'a'.repeat(65)}`,
      'zz',
      '',
    ]) {
      expect(() => parseAccount(bad, 'init')).toThrow(
        `[INVALID_VALUE] invalid value for account: ${bad} (invalid address format)`,
      );
    }
  });

  it('never fails with anything but a 400 (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 100 }), (v) => {
        expect([200, 400]).toContain(status(() => parseAccount(v, 'init')));
      }),
    );
  });
});

describe('collection addresses', () => {
  it('EVM: 20-byte lowercase; Move/Wasm: 32-byte; bech32 contracts become hex', () => {
    expect(parseCollectionAddr('0x5D4376B62FA8AC16DFABE6A9861E11C33A48C677', 'evm', 'init')).toBe(
      '0x5d4376b62fa8ac16dfabe6a9861e11c33a48c677',
    );
    // recorded Move MintEvent collection (leading zero trimmed): cosmos/move/nft/nft-mint.json
    expect(
      parseCollectionAddr('0x597cd3f37f21f59c771731a31e92ac1214f72b4f8a86541a94b50f0308f4e20', 'move', 'init'),
    ).toBe('0x0597cd3f37f21f59c771731a31e92ac1214f72b4f8a86541a94b50f0308f4e20');
    // recorded CW721 contract: cosmos/wasm/cw721-mint.json
    const wasm = 'init1qyygux5t4s3a3l25k8psxjydhtudu5lnt0tk0szm8q4s27xa980scjvh6c';
    expect(parseCollectionAddr(wasm, 'wasm', 'init')).toBe(`0x${toHex(fromBech32(wasm).data)}`);
    expect(() => parseCollectionAddr(`0x${'a'.repeat(65)}`, 'move', 'init')).toThrow('invalid value for address');
    expect(parseCollectionAddr(`0x00${'ef'.repeat(32)}`, 'move', 'init')).toBe(`0x${'ef'.repeat(32)}`);
    expect(() => parseCollectionAddr('nothex', 'evm', 'init')).toThrow(
      '[INVALID_VALUE] invalid value for address: nothex (invalid address format)',
    );
  });
});

describe('heights, hashes, msgs, order_by', () => {
  it('block heights: upstream messages for non-integers and < 1', () => {
    expect(parseBlockHeight('42')).toBe(42);
    expect(() => parseBlockHeight('abc')).toThrow(
      '[INVALID_VALUE] invalid value for height: abc (must be a valid integer)',
    );
    expect(() => parseBlockHeight('0')).toThrow(
      '[INVALID_VALUE] invalid value for height: 0 (must be a positive integer)',
    );
    expect(() => parseBlockHeight('-3')).toThrow('must be a positive integer');
    // Past int64 upstream cannot parse it: a 400, not "block not found".
    expect(parseBlockHeight('9223372036854775807')).toBe(Number(2n ** 63n - 1n));
    expect(() => parseBlockHeight('99999999999999999999')).toThrow(
      '[INVALID_VALUE] invalid value for height: 99999999999999999999 (must be a valid integer)',
    );
  });

  it('tx hashes: optional 0x, either case, odd length padded, uppercase', () => {
    const h = txResponse('cosmos/evm/bank-evm.json', 'bankSendWithEvmLogTxResponse').txhash;
    expect(parseTxHash(h.toLowerCase())).toBe(h);
    expect(parseTxHash(`0x${h}`)).toBe(h);
    expect(() => parseTxHash('xyz')).toThrow('invalid hash format');
    expect(parseTxHash('a'.repeat(65))).toBeNull(); // wrong length: not found (404), as upstream
    expect(parseTxHash('0x')).toBeNull();
    expect(parseTxHash('abcd')).toBeNull();
  });

  it('msgs: comma lists, repeated values, leading slash, duplicates', () => {
    expect(parseMsgs(undefined)).toBeNull();
    expect(parseMsgs('cosmos.bank.v1beta1.MsgSend,initia.move.v1.MsgExecute')).toEqual([
      'cosmos.bank.v1beta1.MsgSend',
      'initia.move.v1.MsgExecute',
    ]);
    expect(parseMsgs(['/cosmos.bank.v1beta1.MsgSend', 'a.B,cosmos.bank.v1beta1.MsgSend'])).toEqual([
      'cosmos.bank.v1beta1.MsgSend',
      'a.B',
    ]);
    expect(parseMsgs([','])).toBeNull(); // an empty filter means no filter
    expect(parseMsgs('')).toBeNull();
    expect(() => parseMsgs(Array.from({ length: 40 }, (_, i) => `t${i}`))).toThrow(/at most/);
  });

  it('order_by: trimmed, case-insensitive, otherwise the upstream message', () => {
    expect(parseOrderBy(undefined)).toBe('token_id');
    expect(parseOrderBy(' Height ')).toBe('height');
    expect(() => parseOrderBy('owner')).toThrow("invalid order_by value 'owner', must be one of: token_id, height");
  });
});

describe('denoms, names, times', () => {
  it('rich-list denoms: %2F, lowercase, ibc/ hash upper, gas → GAS, 0x address as is', () => {
    expect(normaliseDenom('UINIT')).toEqual({ denom: 'uinit' });
    expect(normaliseDenom('ibc%2Fabcdef')).toEqual({ denom: 'ibc/ABCDEF' });
    expect(normaliseDenom('gas')).toEqual({ denom: 'GAS' });
    expect(normaliseDenom('0x4BADFB501AB304FF11217C44702BB9E9732E7CF4')).toEqual({
      erc20: '0x4badfb501ab304ff11217c44702bb9e9732e7cf4',
    });
    expect(() => normaliseDenom('0x12')).toThrow(/invalid denom/);
  });

  it('collection names compare letters, marks and digits only, lowercased', () => {
    expect(normaliseName('Kami-721 #1!')).toBe('kami7211');
    expect(normaliseName('Éclair ✨')).toBe('éclair');
  });

  it('timestamps: RFC3339Nano drops trailing zeros; blocks are second precision', () => {
    expect(rfc3339Nano('2025-07-04T08:39:54.500000000Z')).toBe('2025-07-04T08:39:54.5Z');
    expect(rfc3339Nano('2025-07-04T08:39:54.000000000Z')).toBe('2025-07-04T08:39:54Z');
    expect(rfc3339Nano('2025-07-04T08:39:54.123456789Z')).toBe('2025-07-04T08:39:54.123456789Z');
    expect(rfc3339Seconds('2025-06-09T04:30:42.250000000Z')).toBe('2025-06-09T04:30:42Z');
  });

  it('NFT timestamps: microseconds like upstream (Postgres timestamptz), trailing zeros dropped', () => {
    expect(rfc3339Micro('2025-07-04T08:39:54.123456789Z')).toBe('2025-07-04T08:39:54.123456Z');
    expect(rfc3339Micro('2025-07-04 08:39:54.120000999')).toBe('2025-07-04T08:39:54.12Z');
    expect(rfc3339Micro('2025-07-04T08:39:54.000000400Z')).toBe('2025-07-04T08:39:54Z');
    expect(rfc3339Micro('2025-07-04T08:39:54Z')).toBe('2025-07-04T08:39:54Z');
  });

  it('average block time: (newest − oldest) / (n − 1) seconds; 0 below two blocks', () => {
    expect(averageBlockTime([])).toBe(0);
    expect(averageBlockTime(['1000000000'])).toBe(0);
    expect(averageBlockTime(['3000000000', '2500000000', '2000000000'])).toBe(0.5);
    // like upstream: block times truncated to microseconds (Postgres), then Go's Duration.Seconds()
    expect(averageBlockTime(['2000001999', '1000000000'])).toBe(1.000001);
    expect(averageBlockTime(['1166040898999', '1000000000000'])).toBe(166.040898);
  });
});
