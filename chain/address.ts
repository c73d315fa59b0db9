// Address normalisation as the reference indexer does it (docs/indexer.md): bech32 with the chain
// prefix, or hex with/without 0x (leading zeros trimmed, left-padded to 20 or 32 bytes). Canonical form: bech32.
import { fromBech32, fromHex, toBech32, toHex } from '@cosmjs/encoding';

const HEX_RE = /^(0x)?[0-9a-fA-F]{1,64}$/;

/** Bytes of an account given as bech32 (any prefix accepted only if it equals `prefix`) or hex; null if invalid. */
export function accountBytes(value: string, prefix = 'init'): Uint8Array | null {
  if (value.startsWith(`${prefix}1`)) {
    try {
      const { prefix: p, data } = fromBech32(value);
      return p === prefix && (data.length === 20 || data.length === 32) ? data : null;
    } catch {
      return null;
    }
  }
  if (!HEX_RE.test(value)) return null;
  let hex = value.replace(/^0x/, '').toLowerCase().replace(/^0+/, '');
  if (hex.length <= 40) hex = hex.padStart(40, '0');
  else hex = hex.padStart(64, '0');
  return fromHex(hex);
}

// The same addresses recur in almost every tx: bech32 encoding is worth remembering.
const normalized = new Map<string, string | null>();

/** Canonical bech32 form of an account, or null when it is not an address. */
export function normalizeAccount(value: string, prefix = 'init'): string | null {
  const k = `${prefix}|${value}`;
  let v = normalized.get(k);
  if (v === undefined) {
    if (normalized.size >= 200_000) normalized.clear();
    const bytes = accountBytes(value, prefix);
    v = bytes ? toBech32(prefix, bytes) : null;
    normalized.set(k, v);
  }
  return v;
}

const BECH32_SHAPE = /^[a-z][a-z0-9]{0,30}1[02-9ac-hj-np-z]{6,}$/;

/**
 * One key for an account across chains and spellings: the lowercase hex of its bytes with leading zero bytes
 * dropped, from bech32 of any prefix (init1…, osmo1…; all lowercase or all uppercase, as bech32 allows) or hex with
 * or without 0x or 0X (a 32-byte Move address of a 20-byte account, left-padded with zeros, gets the same key). A
 * string of bech32's shape whose checksum fails is read as hex when it is hex (`a1cc…` without 0x). null when it is
 * neither.
 */
export function accountKey(value: string): string | null {
  const lower = value === value.toUpperCase() ? value.toLowerCase() : value;
  let bytes: Uint8Array | null = null;
  if (BECH32_SHAPE.test(lower)) {
    try {
      const { data } = fromBech32(lower);
      bytes = data.length === 20 || data.length === 32 ? data : null;
    } catch {
      bytes = null;
    }
  }
  const hex = value.startsWith('0X') ? `0x${value.slice(2)}` : value;
  if (!bytes && HEX_RE.test(hex)) bytes = accountBytes(hex);
  if (!bytes) return null;
  const key = toHex(bytes).replace(/^(00)+/, '');
  return key === '' ? '00' : key;
}

/** `0x` + lowercase hex of an account's bytes. */
export function accountHex(value: string, prefix = 'init'): string | null {
  const bytes = accountBytes(value, prefix);
  return bytes ? `0x${toHex(bytes)}` : null;
}

/** Valoper bech32 of a consensus address given as hex (CometBFT header proposer_address). */
export function valoperFromHex(hexAddr: string, prefix = 'init'): string {
  return hexAddr ? toBech32(`${prefix}valoper`, fromHex(hexAddr.toLowerCase())) : '';
}

/** EVM 20-byte address from a 32-byte topic (`0x` + 24 zeros + 40 hex), lowercase, or null. */
export function topicAddress(topic: string | undefined): string | null {
  if (topic?.length !== 66 || !topic.startsWith('0x000000000000000000000000')) return null;
  return `0x${topic.slice(26).toLowerCase()}`;
}

export const ZERO_EVM_ADDRESS = '0x0000000000000000000000000000000000000000';
