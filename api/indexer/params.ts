// Parsing and normalisation of the indexer's path and query values: accounts, collection addresses,
// heights, tx hashes, `msgs`, `order_by`, rich-list denoms (docs/indexer.md).
// Pure code: every failure is a 400 ApiError with the upstream message, naming the value.
import { fromBech32, toBech32, fromHex, toHex } from '@cosmjs/encoding';
import { badRequest } from '../http/errors.js';

import type { Vm } from '../../chain/vm.js';

export type { Vm };

/** Heights above this cannot exist (sequence = height * 1e6 must fit UInt64); they are answered as "above the tip". */
export const MAX_HEIGHT = 1_000_000_000_000;
export const MAX_MSG_TYPES = 32;

const invalidAccount = (v: string) =>
  badRequest(`[INVALID_VALUE] invalid value for account: ${v} (invalid address format)`);
const invalidAddress = (v: string) =>
  badRequest(`[INVALID_VALUE] invalid value for address: ${v} (invalid address format)`);

function bech32Bytes(v: string, prefix: string): Uint8Array | null {
  if (v.toLowerCase() !== v && v.toUpperCase() !== v) return null; // mixed case is invalid bech32
  try {
    const { prefix: p, data } = fromBech32(v.toLowerCase(), 90);
    if (p !== prefix || (data.length !== 20 && data.length !== 32)) return null;
    return data;
  } catch {
    return null;
  }
}

/** Hex with or without 0x: leading zeros trimmed, left-padded to 20 bytes (≤40 digits) or 32 bytes (≤64). */
function hexBytes(v: string): Uint8Array | null {
  // Zeros are trimmed before the width is judged (as upstream's AccAddressFromString), within a bounded input.
  const m = /^(?:0x|0X)?([0-9a-fA-F]{1,128})$/.exec(v);
  if (!m) return null;
  const digits = m[1]!.replace(/^0+/, '');
  if (digits.length > 64) return null;
  return fromHex(digits.padStart(digits.length <= 40 ? 40 : 64, '0'));
}

/** An account as bech32 or hex → the normalised bech32 form the ingest stores (`init1…`). */
export function parseAccount(v: string, prefix: string): string {
  const bytes = bech32Bytes(v, prefix) ?? hexBytes(v);
  if (!bytes) throw invalidAccount(v);
  return toBech32(prefix, bytes);
}

/**
 * A collection (or NFT object) address as hex or bech32 → `0x` + lowercase hex as stored.
 * EVM collections are 20-byte contracts; Move objects and Wasm contracts are 32 bytes, so short hex is
 * left-padded to the width of the chain's addresses.
 */
export function parseCollectionAddr(v: string, vm: Vm | undefined, prefix: string): string {
  const fromB = bech32Bytes(v, prefix);
  if (fromB) return `0x${toHex(fromB)}`;
  const m = /^(?:0x|0X)?([0-9a-fA-F]{1,128})$/.exec(v);
  const digits = (m?.[1] ?? '').toLowerCase().replace(/^0+/, '');
  if (!m || digits.length > 64) throw invalidAddress(v);
  const width = vm === 'evm' && digits.length <= 40 ? 40 : 64;
  return `0x${digits.padStart(width, '0')}`;
}

const INT64_MAX = 2n ** 63n - 1n;

/** `/blocks/{height}`: a string path value; the two upstream messages for non-integers and < 1. */
export function parseBlockHeight(v: string): number {
  // Upstream parses an int64: a value past it is "not a valid integer" there, not an unknown height.
  if (!/^[+-]?\d{1,30}$/.test(v) || BigInt(v) > INT64_MAX)
    throw badRequest(`[INVALID_VALUE] invalid value for height: ${v} (must be a valid integer)`);
  const n = Number(v);
  if (n < 1) throw badRequest(`[INVALID_VALUE] invalid value for height: ${v} (must be a positive integer)`);
  return n;
}

/**
 * `/txs/by_height/{height}`: a string path value (so a non-integer gets upstream's own message, not the
 * validator's), parsed like `/blocks/{height}`; numbers are still accepted for callers that pass one.
 */
export function parseTxHeight(v: unknown): number {
  if (typeof v === 'string') return parseBlockHeight(v);
  const n = typeof v === 'number' ? v : Number(v);
  if (!Number.isInteger(n))
    throw badRequest(`[INVALID_VALUE] invalid value for height: ${String(v)} (must be a valid integer)`);
  if (n < 1) throw badRequest(`[INVALID_VALUE] invalid value for height: ${String(v)} (must be a positive integer)`);
  return n;
}

/**
 * Tx hash: optional 0x, either case, odd length padded; stored form is uppercase hex. Non-hex is a 400 as
 * upstream; hex of the wrong length cannot name a tx and gives null (the caller answers 404, as upstream,
 * whose lookup simply finds nothing).
 */
export function parseTxHash(v: string): string | null {
  const m = /^(?:0x|0X)?([0-9a-fA-F]*)$/.exec(v);
  if (!m) throw badRequest('invalid hash format');
  const h = m[1]!.toUpperCase();
  const padded = h.length % 2 === 1 ? `0${h}` : h;
  return padded.length === 64 ? padded : null;
}

/**
 * `msgs`: comma-separated values, repeated parameters, or both; leading `/` stripped; duplicates removed.
 * Returns null when the filter is absent or empty.
 */
export function parseMsgs(v: unknown): string[] | null {
  if (v === undefined) return null;
  const items = (Array.isArray(v) ? v : [v]).flatMap((x) => String(x).split(','));
  const types = [...new Set(items.map((s) => s.trim().replace(/^\/+/, '')).filter((s) => s !== ''))];
  // `msgs=` (an empty filter, as form libraries send it) means no filter, as upstream.
  if (types.length === 0) return null;
  if (types.length > MAX_MSG_TYPES) throw badRequest(`msgs: at most ${MAX_MSG_TYPES} message types`);
  for (const t of types)
    if (t.length > 256 || !/^[\w.\-/]+$/.test(t)) throw badRequest(`msgs: invalid message type '${t.slice(0, 64)}'`);
  return types;
}

export type TokenOrder = 'token_id' | 'height';

export function parseOrderBy(v: unknown): TokenOrder {
  if (v === undefined) return 'token_id';
  const s = String(v).trim().toLowerCase();
  if (s === 'token_id' || s === 'height') return s;
  throw badRequest(`invalid order_by value '${String(v)}', must be one of: token_id, height`);
}

/** The strings Go's strconv.ParseBool accepts (upstream parses its booleans with it). */
export const GO_BOOL_TRUE = ['1', 't', 'T', 'TRUE', 'true', 'True'] as const;
export const GO_BOOL_FALSE = ['0', 'f', 'F', 'FALSE', 'false', 'False'] as const;
export const GO_BOOLS: readonly string[] = [...GO_BOOL_TRUE, ...GO_BOOL_FALSE];

/** A boolean query value in Go's ParseBool set (`true/false/1/0/t/f/…`); anything else is a 400. */
export function parseGoBool(v: unknown, name: string, dflt: boolean): boolean {
  if (v === undefined || v === '') return dflt;
  if (typeof v === 'boolean') return v;
  const s = String(v);
  if ((GO_BOOL_TRUE as readonly string[]).includes(s)) return true;
  if ((GO_BOOL_FALSE as readonly string[]).includes(s)) return false;
  throw badRequest(`${name} must be a boolean (true, false, 1 or 0)`);
}

/** `is_signer`: Go's ParseBool set (upstream honours only the literal `true`; other garbage is a 400 here). */
export function parseBool(v: unknown, name: string): boolean {
  return parseGoBool(v, name, false);
}

/** Rich-list denom (§8): `%2F` → `/`, lowercased; `ibc/` hashes uppercased after the prefix; `gas` → `GAS`. */
export function normaliseDenom(v: string): { erc20: string } | { denom: string } {
  const d = v.replace(/%2F/gi, '/').toLowerCase();
  if (d.length === 0 || d.length > 128 || !/^[a-z0-9/:._-]+$/.test(d))
    throw badRequest(`invalid denom: ${v.slice(0, 128)}`);
  if (d.startsWith('0x')) {
    if (!/^0x[0-9a-f]{40}$/.test(d)) throw badRequest(`invalid denom: ${v} (an ERC20 address is 0x + 40 hex digits)`);
    return { erc20: d };
  }
  if (d.startsWith('ibc/')) return { denom: `ibc/${d.slice(4).toUpperCase()}` };
  if (d === 'gas') return { denom: 'GAS' };
  return { denom: d };
}

/** DateTime64(9) as ClickHouse prints it (ISO, UTC) → RFC3339Nano as Go prints it (trailing zeros dropped). */
export function rfc3339Nano(chTime: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}:\d{2})(?:\.(\d+))?Z?$/.exec(chTime);
  if (!m) return chTime;
  const frac = (m[3] ?? '').replace(/0+$/, '');
  return `${m[1]}T${m[2]}${frac ? `.${frac}` : ''}Z`;
}

/**
 * NFT timestamps as upstream serves them: it stores Postgres `timestamptz` (microseconds), so the chain's
 * nanoseconds are truncated to 6 digits, then printed like Go's RFC3339Nano (trailing zeros dropped).
 */
export function rfc3339Micro(chTime: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}:\d{2})(?:\.(\d+))?Z?$/.exec(chTime);
  if (!m) return chTime;
  const frac = (m[3] ?? '').slice(0, 6).replace(/0+$/, '');
  return `${m[1]}T${m[2]}${frac ? `.${frac}` : ''}Z`;
}

/** Block timestamps: RFC 3339 at second precision (§2). */
export function rfc3339Seconds(chTime: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}:\d{2})/.exec(chTime);
  return m ? `${m[1]}T${m[2]}Z` : chTime;
}
