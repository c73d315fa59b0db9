// Deterministic devnet accounts and the address forms minievm uses.
//
// minievm accounts are ethsecp256k1 keys (BIP-44 coin type 60): the account
// address is the Ethereum address (keccak256 of the uncompressed public key,
// last 20 bytes), and the Cosmos side shows the same 20 bytes as bech32 with
// the "init" prefix. So one key signs both EVM txs (ethers) and Cosmos txs.
import { fromBech32, fromHex, toBech32, toHex } from '@cosmjs/encoding';
import { HDNodeWallet, Mnemonic, computeAddress, getAddress } from 'ethers';

/** Well-known public test mnemonic: never holds value anywhere. */
export const DEVNET_MNEMONIC = 'test test test test test test test test test test test junk';
export const BECH32_PREFIX = 'init';
export const MAX_DEV_ACCOUNTS = 1000;

export interface DevAccount {
  index: number;
  /** 0x-prefixed 32-byte private key */
  privateKey: string;
  /** EIP-55 checksummed EVM address */
  evmAddress: string;
  /** init1… bech32 form of the same 20 bytes */
  bech32: string;
  /** 33-byte compressed secp256k1 public key, 0x hex */
  publicKey: string;
}

export function evmToBech32(evmAddress: string, prefix = BECH32_PREFIX): string {
  const hex = evmAddress.toLowerCase().replace(/^0x/, '');
  if (!/^[0-9a-f]{40}$/.test(hex)) throw new Error(`not a 20-byte hex address: ${evmAddress}`);
  return toBech32(prefix, fromHex(hex));
}

export function bech32ToEvm(address: string, prefix = BECH32_PREFIX): string {
  const { prefix: got, data } = fromBech32(address);
  if (got !== prefix) throw new Error(`expected prefix ${prefix}, got ${got}`);
  if (data.length !== 20) throw new Error(`expected 20 address bytes, got ${data.length}`);
  return getAddress(`0x${toHex(data)}`);
}

/** Address of an ethsecp256k1 public key (compressed or uncompressed, 0x hex or bytes). */
export function pubkeyToEvmAddress(publicKey: string | Uint8Array): string {
  const hex = typeof publicKey === 'string' ? publicKey : `0x${toHex(publicKey)}`;
  return computeAddress(hex.startsWith('0x') ? hex : `0x${hex}`);
}

/** Account i on the standard Ethereum path m/44'/60'/0'/0/i. */
export function deriveDevAccount(index: number, mnemonic = DEVNET_MNEMONIC): DevAccount {
  if (!Number.isInteger(index) || index < 0 || index >= MAX_DEV_ACCOUNTS) {
    throw new Error(`account index must be an integer in [0, ${MAX_DEV_ACCOUNTS})`);
  }
  const wallet = HDNodeWallet.fromMnemonic(Mnemonic.fromPhrase(mnemonic), `m/44'/60'/0'/0/${index}`);
  return {
    index,
    privateKey: wallet.privateKey,
    evmAddress: wallet.address,
    bech32: evmToBech32(wallet.address),
    publicKey: wallet.publicKey,
  };
}

export function deriveDevAccounts(count: number, mnemonic = DEVNET_MNEMONIC): DevAccount[] {
  if (!Number.isInteger(count) || count < 1 || count > MAX_DEV_ACCOUNTS) {
    throw new Error(`count must be an integer in [1, ${MAX_DEV_ACCOUNTS}]`);
  }
  return Array.from({ length: count }, (_, i) => deriveDevAccount(i, mnemonic));
}

// CLI for start.sh: `tsx accounts.ts <count>` prints one bech32 address per line.
if (process.argv[1] && fileURLToPathSafe(import.meta.url) === process.argv[1]) {
  const n = Number(process.argv[2] ?? '10');
  for (const a of deriveDevAccounts(n)) process.stdout.write(`${a.bech32}\n`);
}

function fileURLToPathSafe(url: string): string {
  return decodeURIComponent(new URL(url).pathname);
}
