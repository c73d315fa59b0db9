// Address checks per chain: bech32 on Cosmos chains (the chain's prefix where the registry names one),
// 0x hex on EVM chains; minievm takes either, since InterwovenKit sends init bech32 there.
import { fromBech32, toBech32 } from '@cosmjs/encoding';
import { getAddress } from 'ethers';
import { invalidRequest } from './errors.js';
import type { RegistryChain } from './registry.js';

const HEX20 = /^0x[0-9a-fA-F]{40}$/;

export interface ParsedAddress {
  bytes: Uint8Array;
  /** The address as the chain's Cosmos messages want it (bech32), or hex on external EVM chains. */
  native: string;
  hex: string;
}

const toHex = (b: Uint8Array) => `0x${Buffer.from(b).toString('hex')}`;

function checksumHolds(value: string): boolean {
  try {
    return getAddress(value) === value;
  } catch {
    return false;
  }
}

export function parseAddress(chain: RegistryChain, value: string, field: string): ParsedAddress {
  if (typeof value !== 'string' || value.length > 128) throw invalidRequest(`invalid ${field}: not an address`);
  if (HEX20.test(value)) {
    if (chain.vm !== 'external-evm' && chain.vm !== 'minievm')
      throw invalidRequest(`invalid ${field}: ${chain.chainId} needs a bech32 address`);
    // Mixed case is an EIP-55 checksum, which must hold (a typo in it is caught here, not by the wallet or, later,
    // by the code that builds the message); all lowercase or all uppercase carries none.
    const digits = value.slice(2);
    if (digits !== digits.toLowerCase() && digits !== digits.toUpperCase() && !checksumHolds(value))
      throw invalidRequest(`invalid ${field}: bad EIP-55 checksum (mixed case); give it all lowercase or checksummed`);
    const bytes = Uint8Array.from(Buffer.from(digits, 'hex'));
    return {
      bytes,
      native: chain.vm === 'minievm' ? toBech32(chain.bech32Prefix ?? 'init', bytes) : value,
      hex: value,
    };
  }
  if (chain.vm === 'external-evm') throw invalidRequest(`invalid ${field}: ${chain.chainId} needs a 0x address`);
  let decoded: { prefix: string; data: Uint8Array };
  try {
    decoded = fromBech32(value);
  } catch {
    throw invalidRequest(`invalid ${field}: not a bech32 address`);
  }
  // A chain outside Initia whose prefix is not known here (config/registry/external-bech32-prefixes.json): its
  // address cannot be checked, and one of another chain would make it refuse the tx or bounce the packet.
  if (chain.vm === 'external-cosmos' && !chain.bech32Prefix)
    throw invalidRequest(`invalid ${field}: the address prefix of ${chain.chainId} is not known here`);
  if (chain.bech32Prefix && decoded.prefix !== chain.bech32Prefix)
    throw invalidRequest(`invalid ${field}: ${chain.chainId} addresses start with ${chain.bech32Prefix}`);
  if (decoded.data.length !== 20 && decoded.data.length !== 32)
    throw invalidRequest(`invalid ${field}: must be 20 or 32 bytes`);
  return { bytes: decoded.data, native: value, hex: toHex(decoded.data) };
}
