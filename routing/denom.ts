// Denom derivation (docs/router.md). Pure, memoised: route search hashes the same paths over and over.
import { createHash } from 'node:crypto';

const l2Cache = new Map<string, string>();
const ibcCache = new Map<string, string>();

/** OPinit L2 denom of an L1 token: "l2/" + hex(sha3_256(uint64_be(bridge_id) ‖ utf8(l1_denom))). */
export function l2Denom(bridgeId: bigint, l1Denom: string): string {
  const key = `${bridgeId}|${l1Denom}`;
  let out = l2Cache.get(key);
  if (out === undefined) {
    const id = Buffer.alloc(8);
    id.writeBigUInt64BE(bridgeId);
    out = `l2/${createHash('sha3-256').update(id).update(l1Denom, 'utf8').digest('hex')}`;
    l2Cache.set(key, out);
  }
  return out;
}

/** IBC voucher denom: "ibc/" + UPPER hex(sha256(full_path + "/" + base)), full_path over all hops. */
export function ibcDenom(fullTrace: string): string {
  let out = ibcCache.get(fullTrace);
  if (out === undefined) {
    out = `ibc/${createHash('sha256').update(fullTrace, 'utf8').digest('hex').toUpperCase()}`;
    ibcCache.set(fullTrace, out);
  }
  return out;
}

/**
 * Where a denom came from in IBC terms: the hops it crossed (most recent first, each "port/channel" on the
 * chain that holds it) and the base denom on the origin. A native denom has no hops.
 */
export interface DenomTrace {
  hops: readonly string[];
  base: string;
}

export const nativeTrace = (base: string): DenomTrace => ({ hops: [], base });

export function traceToDenom(t: DenomTrace): string {
  return t.hops.length === 0 ? t.base : ibcDenom(`${t.hops.join('/')}/${t.base}`);
}

export function fullPath(t: DenomTrace): string {
  return t.hops.length === 0 ? t.base : `${t.hops.join('/')}/${t.base}`;
}

/**
 * Parse a registry "chain.path" ("transfer/channel-0/transfer/channel-3/uusdc") into hops + base.
 * Hops are leading port/channel pairs; the base may itself contain slashes (factory/…/umilkTIA, l2/…).
 */
export function parseFullPath(path: string): DenomTrace {
  const parts = path.split('/');
  const hops: string[] = [];
  let i = 0;
  while (i + 2 < parts.length && parts[i] === 'transfer' && /^channel-\d+$/.test(parts[i + 1] ?? '')) {
    hops.push(`${parts[i]}/${parts[i + 1]}`);
    i += 2;
  }
  return { hops, base: parts.slice(i).join('/') };
}
