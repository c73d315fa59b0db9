// Route search over the (chain, denom) graph: IBC transfers (unwinding or wrapping the trace), OPinit
// deposits and withdrawals, and LayerZero OFT sends. Pure and synchronous: no I/O on the hot path.
import { l2Denom, traceToDenom, type DenomTrace } from './denom.js';
import type { LzDeployment } from './layerzero.js';
import { lzAmounts } from './layerzero.js';
import type { Registry } from './registry.js';

export type BridgeType = 'IBC' | 'OPINIT' | 'LAYER_ZERO';

interface HopBase {
  from: string;
  to: string;
  denomIn: string;
  denomOut: string;
  amountIn: bigint;
  amountOut: bigint;
}
export type RouteHop =
  | (HopBase & { kind: 'ibc'; channel: string; counterpartyChannel: string })
  | (HopBase & { kind: 'op_deposit' | 'op_withdrawal'; bridgeId: bigint })
  | (HopBase & { kind: 'layer_zero'; src: LzDeployment; dst: LzDeployment; dust: bigint });

export interface RoutePlan {
  hops: RouteHop[];
  /** tx index of every hop: a new user-signed tx starts where one tx cannot carry the transfer on. */
  txIndex: number[];
  txsRequired: number;
  durationSeconds: number;
  amountOut: bigint;
}

/** Estimated durations (seconds). Documented in docs/router.md; withdrawals add the bridge's finalization period. */
export const DURATION = { ibcHop: 30, opDeposit: 60, lz: 180 } as const;
export const MAX_HOPS = 4;

export interface SearchInput {
  sourceChain: string;
  sourceDenom: string;
  destChain: string;
  destDenom: string;
  amountIn: bigint;
  bridges?: ReadonlySet<BridgeType>;
}

/** Look up (or derive) the IBC trace of a denom held on a chain; undefined when it cannot be known. */
export function traceOf(reg: Registry, chainId: string, denom: string): DenomTrace | undefined {
  if (!denom.startsWith('ibc/')) return { hops: [], base: denom };
  return reg.traces.get(chainId)?.get(denom);
}

function remember(reg: Registry, chainId: string, t: DenomTrace): string {
  const denom = traceToDenom(t);
  if (t.hops.length === 0) return denom;
  let m = reg.traces.get(chainId);
  if (!m) reg.traces.set(chainId, (m = new Map()));
  // Bounded: only traces reachable within MAX_HOPS of registry assets are ever derived.
  if (!m.has(denom) && m.size < 10_000) m.set(denom, t);
  return denom;
}

/**
 * Derive, once, every IBC voucher a route can reach within MAX_HOPS of a registry asset or a denom the registry
 * saw, breadth first over (chain, denom). Which `ibc/` denoms a chain is known to hold (`knownDenom`) then does not
 * depend on the searches a process ran before: a request was refused as naming an unknown denom until an unrelated
 * route had derived its trace, so two replicas, or one before and after a restart, answered it differently.
 */
export function deriveReachableTraces(reg: Registry): void {
  const reached = new Set<string>();
  let frontier: [string, string][] = [];
  const add = (chainId: string, denom: string) => {
    const k = `${chainId}|${denom}`;
    if (reached.has(k)) return;
    reached.add(k);
    frontier.push([chainId, denom]);
  };
  for (const [chainId, m] of reg.assets) for (const denom of m.keys()) add(chainId, denom);
  for (const [chainId, denoms] of reg.seen) for (const denom of denoms) add(chainId, denom);
  // Any positive amount: only LayerZero hops change it, and none of them derives a trace.
  const amount = 10n ** 18n;
  for (let depth = 0; depth < MAX_HOPS && frontier.length > 0; depth++) {
    const current = frontier;
    frontier = [];
    for (const [chainId, denom] of current) for (const h of edges(reg, chainId, denom, amount)) add(h.to, h.denomOut);
  }
}

/** Static adjacency the search reads on every step, built once per registry. */
interface Adjacency {
  deposits: Map<string, { chainId: string; bridgeId: bigint }[]>;
  lz: Map<string, LzDeployment[]>;
}
const adjacency = new WeakMap<Registry, Adjacency>();
function adjacencyOf(reg: Registry): Adjacency {
  let a = adjacency.get(reg);
  if (a) return a;
  a = { deposits: new Map(), lz: new Map() };
  for (const r of reg.chains.values())
    if (r.opBridgeId !== undefined)
      for (const d of r.opDenoms)
        a.deposits.set(d, [...(a.deposits.get(d) ?? []), { chainId: r.chainId, bridgeId: r.opBridgeId }]);
  for (const src of reg.layerZero)
    a.lz.set(
      `${src.chain_id}|${src.denom}`,
      reg.layerZero.filter((d) => d.symbol === src.symbol && d.chain_id !== src.chain_id),
    );
  adjacency.set(reg, a);
  return a;
}

/** Every hop leaving (chain, denom) with the given amount. */
export function edges(
  reg: Registry,
  chainId: string,
  denom: string,
  amount: bigint,
  bridges?: ReadonlySet<BridgeType>,
): RouteHop[] {
  const chain = reg.chains.get(chainId);
  if (!chain) return [];
  const out: RouteHop[] = [];
  const base = { from: chainId, denomIn: denom, amountIn: amount };
  if (!bridges || bridges.has('IBC')) {
    const t = traceOf(reg, chainId, denom);
    // ERC20 wrappers (no derivable denom) and unknown vouchers cannot be sent over IBC.
    if (t)
      for (const [to, ch] of chain.channels) {
        const unwinding = t.hops[0] === `transfer/${ch.channel}`;
        const next: DenomTrace = unwinding
          ? { hops: t.hops.slice(1), base: t.base }
          : { hops: [`transfer/${ch.counterpartyChannel}`, ...t.hops], base: t.base };
        out.push({
          ...base,
          kind: 'ibc',
          to,
          channel: ch.channel,
          counterpartyChannel: ch.counterpartyChannel,
          denomOut: remember(reg, to, next),
          amountOut: amount,
        });
      }
  }
  if (!bridges || bridges.has('OPINIT')) {
    if (chain.isL1) {
      for (const r of adjacencyOf(reg).deposits.get(denom) ?? [])
        out.push({
          ...base,
          kind: 'op_deposit',
          to: r.chainId,
          bridgeId: r.bridgeId,
          denomOut: l2Denom(r.bridgeId, denom),
          amountOut: amount,
        });
    } else if (chain.opBridgeId !== undefined) {
      const l1Denom = reg.opL2ToL1.get(chainId)?.get(denom);
      if (l1Denom !== undefined)
        out.push({
          ...base,
          kind: 'op_withdrawal',
          to: reg.l1ChainId,
          bridgeId: chain.opBridgeId,
          denomOut: l1Denom,
          amountOut: amount,
        });
    }
  }
  if (!bridges || bridges.has('LAYER_ZERO')) {
    const dsts = adjacencyOf(reg).lz.get(`${chainId}|${denom}`);
    if (dsts) {
      const src = reg.layerZero.find((d) => d.chain_id === chainId && d.denom === denom)!;
      for (const dst of dsts) {
        const a = lzAmounts(amount, src, dst);
        out.push({
          ...base,
          kind: 'layer_zero',
          to: dst.chain_id,
          src,
          dst,
          dust: a.dust,
          denomOut: dst.denom,
          amountOut: a.receivedLD,
        });
      }
    }
  }
  return out;
}

/** Can hop `b` ride in the same tx as the hop `a` before it? Only IBC → IBC through a PFM chain. */
function sameTx(reg: Registry, a: RouteHop, b: RouteHop): boolean {
  return a.kind === 'ibc' && b.kind === 'ibc' && reg.chains.get(a.to)?.pfm === true;
}

/** A hop's estimated duration: the route's `estimated_route_duration_seconds` is their sum. */
export function hopSeconds(reg: Registry, h: RouteHop): number {
  if (h.kind === 'ibc') return DURATION.ibcHop;
  if (h.kind === 'op_deposit') return DURATION.opDeposit;
  if (h.kind === 'op_withdrawal') return reg.chains.get(h.from)?.finalizationPeriodSeconds ?? 0;
  return DURATION.lz;
}

export function plan(reg: Registry, hops: RouteHop[]): RoutePlan {
  const txIndex: number[] = [];
  let tx = 0;
  let duration = 0;
  hops.forEach((h, i) => {
    const prev = hops[i - 1];
    if (prev && !sameTx(reg, prev, h)) tx++;
    txIndex.push(tx);
    duration += hopSeconds(reg, h);
  });
  return {
    hops,
    txIndex,
    txsRequired: hops.length === 0 ? 0 : tx + 1,
    durationSeconds: duration,
    amountOut: hops[hops.length - 1]?.amountOut ?? 0n,
  };
}

/**
 * Depth-first over loop-free paths (no chain visited twice, at most MAX_HOPS hops) from (chain, denom): `visit`
 * sees each path as it is extended by one hop and answers whether to go on from that hop's end.
 */
export function walkPaths(
  reg: Registry,
  from: { chainId: string; denom: string; amount: bigint; bridges?: ReadonlySet<BridgeType> },
  visit: (path: readonly RouteHop[]) => boolean,
): void {
  const path: RouteHop[] = [];
  const visited = new Set<string>([from.chainId]);
  const walk = (chainId: string, denom: string, amount: bigint) => {
    if (path.length >= MAX_HOPS) return;
    for (const h of edges(reg, chainId, denom, amount, from.bridges)) {
      if (visited.has(h.to)) continue;
      path.push(h);
      if (visit(path)) {
        visited.add(h.to);
        walk(h.to, h.denomOut, h.amountOut);
        visited.delete(h.to);
      }
      path.pop();
    }
  };
  walk(from.chainId, from.denom, from.amount);
}

/** All loop-free routes from source to destination; a route stops at the destination chain. */
export function findRoutes(reg: Registry, q: SearchInput): RoutePlan[] {
  const found: RoutePlan[] = [];
  walkPaths(reg, { chainId: q.sourceChain, denom: q.sourceDenom, amount: q.amountIn, bridges: q.bridges }, (path) => {
    const h = path[path.length - 1]!;
    if (h.to === q.destChain && h.denomOut === q.destDenom) found.push(plan(reg, [...path]));
    return h.to !== q.destChain;
  });
  return found;
}

/** The same route for another amount: only LayerZero hops change amounts (shared-decimal dust). */
export function withAmount(p: RoutePlan, amountIn: bigint): RoutePlan {
  let amount = amountIn;
  const hops = p.hops.map((h): RouteHop => {
    if (h.kind !== 'layer_zero') return { ...h, amountIn: amount, amountOut: amount };
    const a = lzAmounts(amount, h.src, h.dst);
    const out = { ...h, amountIn: amount, amountOut: a.receivedLD, dust: a.dust };
    amount = a.receivedLD;
    return out;
  });
  return { ...p, hops, amountOut: amount };
}

/**
 * Route search is amount-independent (amounts only scale through the hops), so candidate routes are
 * memoised per (source, destination, bridges) and re-amounted per request. Bounded; cleared when full.
 */
const searchCache = new WeakMap<Registry, Map<string, RoutePlan[]>>();
export const SEARCH_CACHE_MAX = 20_000;
export function findRoutesCached(reg: Registry, q: SearchInput): RoutePlan[] {
  let cache = searchCache.get(reg);
  if (!cache) searchCache.set(reg, (cache = new Map()));
  const key = `${q.sourceChain}|${q.sourceDenom}|${q.destChain}|${q.destDenom}|${q.bridges ? [...q.bridges].sort().join(',') : '*'}`;
  let plans = cache.get(key);
  if (!plans) {
    plans = findRoutes(reg, q);
    if (cache.size >= SEARCH_CACHE_MAX) cache.clear();
    cache.set(key, plans);
  }
  return plans.map((p) => withAmount(p, q.amountIn));
}

export const hasWithdrawal = (p: RoutePlan) => p.hops.some((h) => h.kind === 'op_withdrawal');

/**
 * The selection rule: highest amount_out, then fewest user txs, then shortest estimated duration,
 * then fewest hops, then a stable textual order (so equal routes always resolve the same way).
 */
export function compareRoutes(a: RoutePlan, b: RoutePlan): number {
  if (a.amountOut !== b.amountOut) return a.amountOut > b.amountOut ? -1 : 1;
  if (a.txsRequired !== b.txsRequired) return a.txsRequired - b.txsRequired;
  if (a.durationSeconds !== b.durationSeconds) return a.durationSeconds - b.durationSeconds;
  if (a.hops.length !== b.hops.length) return a.hops.length - b.hops.length;
  const ka = signature(a);
  const kb = signature(b);
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

export const signature = (p: RoutePlan) => p.hops.map((h) => `${h.kind}:${h.from}>${h.to}:${h.denomOut}`).join('|');

/**
 * "Fast" (default) avoids OPinit withdrawals whenever any other route exists; "Lossless" (is_op_withdraw)
 * takes only routes that withdraw over OPinit. Returns candidates best-first.
 */
export function selectRoutes(routes: RoutePlan[], opWithdraw: boolean): RoutePlan[] {
  let pool = routes.filter((r) => hasWithdrawal(r) === opWithdraw);
  if (!opWithdraw && pool.length === 0) pool = routes;
  return pool.sort(compareRoutes);
}
