// One account key for every spelling of an account (chain/address.ts accountKey): the transfer history matches a
// sender or receiver by it, so a spelling that gets no key hides that party's transfers. Bech32's own rule (BIP-173):
// all lowercase or all uppercase, never mixed.
import { toBech32 } from '@cosmjs/encoding';
import { describe, expect, it } from 'vitest';
import { accountHex, accountKey } from '../../chain/address.js';

const bytes = Uint8Array.from({ length: 20 }, (_, i) => (i * 37 + 11) & 0xff);
const init = toBech32('init', bytes);
const osmo = toBech32('osmo', bytes);

describe('account keys', () => {
  it('are one key for bech32 of any prefix, either case, and hex of either case with or without 0x or 0X', () => {
    const key = accountKey(init);
    expect(key).toMatch(/^[0-9a-f]+$/);
    for (const spelling of [
      osmo,
      init.toUpperCase(),
      osmo.toUpperCase(),
      accountHex(init)!,
      accountHex(init)!.slice(2),
      accountHex(init)!.toUpperCase(),
      `0X${accountHex(init)!.slice(2)}`,
    ])
      expect(accountKey(spelling), spelling).toBe(key);
  });

  it('read a bech32-shaped string whose checksum fails as hex when it is hex', () => {
    const hex = `a1${'c'.repeat(38)}`;
    expect(accountKey(hex)).toBe(accountKey(`0x${hex}`));
    expect(accountKey(hex)).not.toBeNull();
  });

  it('are null for mixed-case bech32, a broken checksum and non-addresses', () => {
    const mixed = `${init.slice(0, 6).toUpperCase()}${init.slice(6)}`;
    expect(accountKey(mixed)).toBeNull();
    expect(accountKey(`${init.slice(0, -1)}${init.at(-1) === 'q' ? 'p' : 'q'}`)).toBeNull();
    for (const v of ['', 'init1', 'hello world', '0x', `0x${'f'.repeat(65)}`]) expect(accountKey(v), v).toBeNull();
  });
});
