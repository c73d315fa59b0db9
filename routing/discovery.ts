// The read-only discovery calls of Skip's v2 API, answered from the registry and the route graph:
// GET /v2/info/bridges, GET /v2/fungible/venues, POST /v2/fungible/assets_from_source, /assets_between_chains (GET and POST),
// /recommend_assets and /ibc_origin_assets. Pure: no I/O; every list is bounded by the registry.
import { assetJson, knownDenom } from './assets.js';
import { invalidRequest, unsupported } from './errors.js';
import { MAX_HOPS, plan, walkPaths, type BridgeType, type RouteHop, type RoutePlan } from './graph.js';
import type { Registry } from './registry.js';
import { allowsMultiTx } from './route.js';

type Json = Record<string, unknown>;

/** The bridges this router routes over, in Skip's BridgeType names. */
export const ROUTED_BRIDGES: { id: BridgeType; name: string }[] = [
  { id: 'IBC', name: 'IBC' },
  { id: 'OPINIT', name: 'OPinit' },
  { id: 'LAYER_ZERO', name: 'LayerZero' },
];

export function bridgesHandler(): Json {
  return { bridges: ROUTED_BRIDGES.map((b) => ({ ...b })) };
}

/** Swap venues: none, since this router does not swap (Skip's shape, so a client's fallbacks still parse). */
export function venuesHandler(): Json {
  return { venues: [] };
}

const BRIDGE_OF: Record<RouteHop['kind'], BridgeType> = {
  ibc: 'IBC',
  op_deposit: 'OPINIT',
  op_withdrawal: 'OPINIT',
  layer_zero: 'LAYER_ZERO',
};

/** The better of two plans to the same asset: fewest user txs, then fewest hops. */
const better = (a: RoutePlan, b: RoutePlan) =>
  a.txsRequired !== b.txsRequired ? a.txsRequired < b.txsRequired : a.hops.length < b.hops.length;

const reachCache = new WeakMap<Registry, Map<string, Map<string, RoutePlan>>>();
const REACH_CACHE_MAX = 5_000;

/**
 * Every asset a transfer from (chain, denom) can reach over loop-free routes of at most MAX_HOPS hops, keyed
 * `chain\ndenom`, with the best plan to it: route search's walk (graph.ts walkPaths) without a destination;
 * memoised per source.
 */
export function reachable(reg: Registry, chainId: string, denom: string): Map<string, RoutePlan> {
  let cache = reachCache.get(reg);
  if (!cache) reachCache.set(reg, (cache = new Map()));
  const key = `${chainId}\n${denom}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const found = new Map<string, RoutePlan>();
  walkPaths(reg, { chainId, denom, amount: 1n }, (path) => {
    const h = path[path.length - 1]!;
    const k = `${h.to}\n${h.denomOut}`;
    const p = plan(reg, [...path]);
    const prev = found.get(k);
    if (!prev || better(p, prev)) found.set(k, p);
    return true;
  });
  if (cache.size >= REACH_CACHE_MAX) cache.clear();
  cache.set(key, found);
  return found;
}

function requireSource(reg: Registry, chainId: unknown, denom: unknown, field: string): void {
  if (typeof chainId !== 'string' || !reg.chains.has(chainId))
    throw unsupported(`${field}_chain_id ${String(chainId)} is not supported`);
  if (typeof denom !== 'string' || !knownDenom(reg, chainId, denom))
    throw invalidRequest(`${field}_denom ${String(denom)} is not a known asset on ${chainId}`);
}

/** Destinations worth listing: assets the destination chain is known to hold (not every derivable voucher). */
const listable = (reg: Registry, chainId: string, denom: string) =>
  reg.chains.get(chainId)?.vm !== 'external-cosmos' && knownDenom(reg, chainId, denom);

const split = (k: string) => k.split('\n') as [string, string];
const maxTxs = (allowMultiTx: unknown) => (allowsMultiTx(allowMultiTx) ? MAX_HOPS : 1);

export function assetsFromSourceHandler(reg: Registry, req: Json): Json {
  requireSource(reg, req.source_asset_chain_id, req.source_asset_denom, 'source_asset');
  const limit = maxTxs(req.allow_multi_tx);
  const dest: Record<string, { assets: Json[] }> = {};
  const reached = reachable(reg, req.source_asset_chain_id as string, req.source_asset_denom as string);
  for (const [k, p] of [...reached].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const [chain, denom] = split(k);
    if (p.txsRequired > limit || !listable(reg, chain, denom)) continue;
    (dest[chain] ??= { assets: [] }).assets.push(assetJson(reg, chain, denom));
  }
  return { dest_assets: dest };
}

/** GET (as @skip-go/client sends it, booleans as strings) and POST (as Skip's OpenAPI documents it). */
export function assetsBetweenChainsHandler(reg: Registry, req: Json): Json {
  const src = req.source_chain_id;
  const dst = req.dest_chain_id;
  if (typeof src !== 'string' || !reg.chains.has(src))
    throw unsupported(`source_chain_id ${String(src)} is not supported`);
  if (typeof dst !== 'string' || !reg.chains.has(dst))
    throw unsupported(`dest_chain_id ${String(dst)} is not supported`);
  const limit = maxTxs(req.allow_multi_tx);
  const pairs: Json[] = [];
  for (const denom of [...(reg.assets.get(src)?.keys() ?? [])].sort()) {
    let best: { denom: string; plan: RoutePlan } | undefined;
    for (const [k, p] of reachable(reg, src, denom)) {
      const [chain, d] = split(k);
      if (chain !== dst || p.txsRequired > limit || !listable(reg, chain, d)) continue;
      if (!best || better(p, best.plan)) best = { denom: d, plan: p };
    }
    if (!best) continue;
    pairs.push({
      asset_on_source: assetJson(reg, src, denom),
      asset_on_dest: assetJson(reg, dst, best.denom),
      txs_required: best.plan.txsRequired,
      bridges: [...new Set(best.plan.hops.map((h) => BRIDGE_OF[h.kind]))],
    });
  }
  return { assets_between_chains: pairs };
}

export function recommendAssetsHandler(reg: Registry, req: Json): Json {
  const requests = req.requests as Json[];
  return {
    recommendation_entries: requests.map((r) => {
      try {
        requireSource(reg, r.source_asset_chain_id, r.source_asset_denom, 'source_asset');
        const dst = r.dest_chain_id;
        if (typeof dst !== 'string' || !reg.chains.has(dst))
          throw unsupported(`dest_chain_id ${String(dst)} is not supported`);
        const options = [...reachable(reg, r.source_asset_chain_id as string, r.source_asset_denom as string)]
          .map(([k, p]) => ({ k: split(k), p }))
          .filter(({ k: [chain, d] }) => chain === dst && listable(reg, chain, d))
          .sort((a, b) => (better(a.p, b.p) ? -1 : better(b.p, a.p) ? 1 : a.k[1] < b.k[1] ? -1 : 1));
        // Skip's reasons: DIRECT for a single-tx route, else UNKNOWN (no liquidity or price data here).
        return {
          recommendations: options.map(({ k: [chain, d], p }) => ({
            asset: assetJson(reg, chain, d),
            reason: p.txsRequired === 1 ? 'DIRECT' : 'UNKNOWN',
          })),
        };
      } catch (e) {
        return { recommendations: [], error: { message: (e as Error).message } };
      }
    }),
  };
}

export function ibcOriginAssetsHandler(reg: Registry, req: Json): Json {
  const assets = req.assets as { denom: string; chain_id: string }[];
  return {
    origin_assets: assets.map(({ denom, chain_id }) => {
      if (!reg.chains.has(chain_id) || !knownDenom(reg, chain_id, denom)) return { asset_found: false };
      const here = assetJson(reg, chain_id, denom);
      const originChain = here.origin_chain_id as string;
      const originDenom = here.origin_denom as string;
      const known = reg.chains.has(originChain) && knownDenom(reg, originChain, originDenom);
      return { asset: known ? assetJson(reg, originChain, originDenom) : here, asset_found: true };
    }),
  };
}
