import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fromBase64 } from '@cosmjs/encoding';
import {
  bech32ToEvm,
  deriveDevAccount,
  deriveDevAccounts,
  evmToBech32,
  pubkeyToEvmAddress,
} from '../../../devnet/minievm/accounts.js';

// Real yominet-1 (minievm) MsgSend: ethsecp256k1 signer + ERC20 Transfer log.
const fixture = JSON.parse(
  readFileSync(new URL('../../../devnet/recorded/initia-tx-decoder/cosmos/evm/bank-evm.json', import.meta.url), 'utf8'),
) as {
  bankSendWithEvmLogTxResponse: {
    tx: {
      auth_info: { signer_infos: { public_key: { '@type': string; key: string } }[] };
      body: { messages: { from_address: string }[] };
    };
    events: { type: string; attributes: { key: string; value: string }[] }[];
  };
};
const recorded = fixture.bankSendWithEvmLogTxResponse;

function transferLog(): { topics: string[] } {
  const evm = recorded.events.find((e) => e.type === 'evm');
  const log = evm?.attributes.find((a) => a.key === 'log')?.value;
  if (!log) throw new Error('fixture has no evm log');
  return JSON.parse(log) as { topics: string[] };
}

function topicAddress(topic: string | undefined): string {
  if (!topic) throw new Error('missing topic');
  return `0x${topic.slice(-40)}`;
}

describe('minievm address forms on recorded chain data', () => {
  it('derives the signer address from the recorded ethsecp256k1 pubkey (keccak, not ripemd160)', () => {
    const signer = recorded.tx.auth_info.signer_infos[0]?.public_key;
    expect(signer?.['@type']).toBe('/initia.crypto.v1beta1.ethsecp256k1.PubKey');
    const evm = pubkeyToEvmAddress(fromBase64(signer?.key ?? ''));
    // the same account appears as the Transfer log's `from` topic …
    expect(evm.toLowerCase()).toBe(topicAddress(transferLog().topics[1]));
    // … and as the MsgSend sender in bech32
    expect(evmToBech32(evm)).toBe(recorded.tx.body.messages[0]?.from_address);
  });

  it('maps the Transfer recipient topic to the coin_received receiver', () => {
    const receiver = recorded.events
      .find((e) => e.type === 'coin_received')
      ?.attributes.find((a) => a.key === 'receiver')?.value;
    const toHexAddr = topicAddress(transferLog().topics[2]);
    expect(evmToBech32(toHexAddr)).toBe(receiver);
    expect(bech32ToEvm(receiver ?? '').toLowerCase()).toBe(toHexAddr);
  });

  it('rejects malformed addresses', () => {
    expect(() => evmToBech32('0x1234')).toThrow(/20-byte/);
    expect(() => evmToBech32('0xzz95c9f2e84f75b1686fcdc62f8cb62a572b7820')).toThrow();
    expect(() => bech32ToEvm('cosmos1kw2unuhgfa6mz6r0ehrzlr9k9ftjk7pqxxxxxx')).toThrow();
  });
});

describe('deterministic devnet accounts', () => {
  it("matches the published addresses of the public test mnemonic (m/44'/60'/0'/0/i)", () => {
    // Hardhat/Anvil document these two addresses for "test … junk".
    expect(deriveDevAccount(0).evmAddress).toBe('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266');
    expect(deriveDevAccount(1).evmAddress).toBe('0x70997970C51812dc3A010C7d01b50e0d17dc79C8');
  });

  it('gives each account consistent key, address and bech32 forms', () => {
    const accounts = deriveDevAccounts(5);
    expect(new Set(accounts.map((a) => a.evmAddress)).size).toBe(5);
    for (const a of accounts) {
      expect(pubkeyToEvmAddress(a.publicKey)).toBe(a.evmAddress);
      expect(bech32ToEvm(a.bech32)).toBe(a.evmAddress);
      expect(a.bech32.startsWith('init1')).toBe(true);
    }
  });

  it('bounds the account count and index', () => {
    expect(() => deriveDevAccounts(0)).toThrow();
    expect(() => deriveDevAccounts(1001)).toThrow();
    expect(() => deriveDevAccount(-1)).toThrow();
    expect(() => deriveDevAccount(1.5)).toThrow();
  });
});
