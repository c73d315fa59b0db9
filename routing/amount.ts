// Integer amount parsing and slippage math. Amounts are base units in decimal strings; never floats.
import { invalidRequest } from './errors.js';

export const MAX_UINT256 = (1n << 256n) - 1n;
/** A u64 / uint64: what Move chains keep coin amounts in, and what a LayerZero OFT carries in shared decimals. */
export const MAX_UINT64 = (1n << 64n) - 1n;

/** A positive base-unit amount: digits only, at most 2^256 - 1. */
export function parseAmount(value: unknown, field: string): bigint {
  if (typeof value !== 'string' || !/^[0-9]{1,78}$/.test(value))
    throw invalidRequest(`invalid ${field}: must be a string of decimal digits`);
  const n = BigInt(value);
  if (n === 0n) throw invalidRequest(`invalid ${field}: must be greater than zero`);
  if (n > MAX_UINT256) throw invalidRequest(`invalid ${field}: exceeds 2^256 - 1`);
  return n;
}

const SCALE = 1_000_000n; // slippage percent carries up to 6 decimal places

/** Parse "1", "0.5", "100" into millionths of a percent; 0 < s ≤ 100. */
export function parseSlippage(value: unknown): bigint {
  if (value === undefined) return 1n * SCALE; // Skip client default: 1 %
  if (typeof value !== 'string' || !/^[0-9]{1,3}(\.[0-9]{1,6})?$/.test(value))
    throw invalidRequest('invalid slippage_tolerance_percent: must be a decimal string such as "1" or "0.5"');
  const [int, frac = ''] = value.split('.');
  const scaled = BigInt(int!) * SCALE + BigInt(frac.padEnd(6, '0'));
  if (scaled <= 0n || scaled > 100n * SCALE)
    throw invalidRequest('invalid slippage_tolerance_percent: must be > 0 and ≤ 100');
  return scaled;
}

/** floor(amount × (100 − slippage) / 100): what InterwovenKit shows as "Minimum received". */
export function minAmountOut(amount: bigint, slippage: bigint): bigint {
  return (amount * (100n * SCALE - slippage)) / (100n * SCALE);
}

/** Re-scale between decimal precisions (truncating when precision drops). */
export function rescale(amount: bigint, fromDecimals: number, toDecimals: number): bigint {
  if (toDecimals >= fromDecimals) return amount * 10n ** BigInt(toDecimals - fromDecimals);
  return amount / 10n ** BigInt(fromDecimals - toDecimals);
}
