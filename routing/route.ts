// POST /v2/fungible/route: validate the request against the registry, search, pick the best route and
// render it in the Skip v2 / Initia wire shape (docs/router.md).
import { invalidRequest, unsupported } from './errors.js';
import { MAX_UINT64, parseAmount, rescale } from './amount.js';
import { decimalsOf, findAsset, gasAsset, knownDenom } from './assets.js';
import { findRoutes, findRoutesCached, selectRoutes, type BridgeType, type RouteHop, type RoutePlan } from './graph.js';
import { lzMaxAmountLD, toBytes32, type LzDeployment, type SendParam } from './layerzero.js';
import type { LzQuoteProvider } from './lz-quote.js';
import type { Registry } from './registry.js';

export interface RouteRequest {
  amount_in: string;
  source_asset_chain_id: string;
  source_asset_denom: string;
  dest_asset_chain_id: string;
  dest_asset_denom: string;
  is_op_withdraw?: boolean;
  bridges?: string[];
  [k: string]: unknown;
}

export interface ResolvedRoute {
  plan: RoutePlan;
  amountIn: bigint;
  amountOut: bigint;
  /** Set when the destination is a decimal-wrapped ERC20 reached by an op-hook after an OPinit deposit. */
  hook?: { chainId: string; wrapper: string; underlying: string; underlyingDecimals: number };
}

const BRIDGES: ReadonlySet<string> = new Set(['IBC', 'OPINIT', 'LAYER_ZERO']);
const MOVE_VMS: ReadonlySet<string> = new Set(['l1-move', 'minimove']);

/** Skip's `allow_multi_tx` (false unless set; GET callers send booleans as strings). */
export const allowsMultiTx = (v: unknown): boolean => v === true || v === 'true';

/**
 * Validate and search. Pure apart from the registry's trace memo; throws RouteError (routing/errors.ts) for every
 * client mistake. `txLimit`: keep only routes of one user tx unless the request sets `allow_multi_tx`, as Skip's
 * route search does (its clients sign `txs[0]` alone unless they asked for more); /msgs takes the operations a route
 * answer gave, so it does not apply the limit again.
 */
export function resolveRoute(reg: Registry, req: RouteRequest, useCache = true, txLimit = false): ResolvedRoute[] {
  const amountIn = parseAmount(req.amount_in, 'amount_in');
  const src = req.source_asset_chain_id;
  const dst = req.dest_asset_chain_id;
  if (!reg.chains.has(src)) throw unsupported(`source_asset_chain_id ${src} is not supported`);
  if (!reg.chains.has(dst)) throw unsupported(`dest_asset_chain_id ${dst} is not supported`);
  if (!knownDenom(reg, src, req.source_asset_denom))
    throw invalidRequest(`unknown source_asset_denom ${req.source_asset_denom} on ${src}`);
  if (!knownDenom(reg, dst, req.dest_asset_denom))
    throw invalidRequest(`unknown dest_asset_denom ${req.dest_asset_denom} on ${dst}`);
  if (src === dst && req.source_asset_denom === req.dest_asset_denom)
    throw invalidRequest('source and destination are the same asset');
  let bridges: Set<BridgeType> | undefined;
  if (req.bridges !== undefined && !Array.isArray(req.bridges))
    throw invalidRequest('invalid bridges: must be an array');
  if (req.bridges && req.bridges.length > 0) {
    bridges = new Set(req.bridges.filter((b) => BRIDGES.has(b)) as BridgeType[]);
    if (bridges.size === 0) throw invalidRequest(`no route: this router bridges only over ${[...BRIDGES].join(', ')}`);
  }

  const destAsset = findAsset(reg, dst, req.dest_asset_denom);
  const wrapper = destAsset?.wrapper;
  const target = wrapper ? wrapper.underlying : req.dest_asset_denom;
  let plans = (useCache ? findRoutesCached : findRoutes)(reg, {
    sourceChain: src,
    sourceDenom: req.source_asset_denom,
    destChain: dst,
    destDenom: target,
    amountIn,
    bridges,
  });
  // A wrapped ERC20 is only reachable by an OPinit deposit whose op-hook wraps the bridged denom on arrival.
  if (wrapper) plans = plans.filter((p) => p.hops[p.hops.length - 1]?.kind === 'op_deposit');
  // Routes whose amounts a chain or a contract on the way would refuse are left out; when that leaves none, the
  // first one's reason is the answer.
  const refusals = plans.map((p) => amountRefusal(reg, p));
  if (plans.length > 0 && refusals.every((r) => r !== null)) throw invalidRequest(`invalid amount_in: ${refusals[0]}`);
  plans = plans.filter((_, i) => refusals[i] === null);
  if (txLimit && !allowsMultiTx(req.allow_multi_tx)) {
    const single = plans.filter((p) => p.txsRequired <= 1);
    if (plans.length > 0 && single.length === 0)
      throw invalidRequest(
        `no route found from ${req.source_asset_denom} on ${src} to ${req.dest_asset_denom} on ${dst} in one transaction: the routes need ${Math.min(...plans.map((p) => p.txsRequired))} (set allow_multi_tx to get them)`,
      );
    plans = single;
  }
  const opWithdraw = req.is_op_withdraw === true;
  const ranked = selectRoutes(plans, opWithdraw);
  if (ranked.length === 0)
    throw invalidRequest(
      opWithdraw
        ? `no OPinit withdrawal route from ${req.source_asset_denom} on ${src} to ${req.dest_asset_denom} on ${dst}`
        : `no route found from ${req.source_asset_denom} on ${src} to ${req.dest_asset_denom} on ${dst}`,
    );
  const underlyingDecimals = decimalsOf(reg, dst, target);
  const out = ranked.map((plan) => ({
    plan,
    amountIn,
    amountOut: wrapper && destAsset ? rescale(plan.amountOut, underlyingDecimals, destAsset.decimals) : plan.amountOut,
    hook: wrapper
      ? { chainId: dst, wrapper: wrapper.contract, underlying: wrapper.underlying, underlyingDecimals }
      : undefined,
  }));
  if (out[0]!.amountOut === 0n)
    throw invalidRequest('amount_in is too small: nothing arrives after LayerZero shared-decimal dust removal');
  return out;
}

/**
 * Why a route's amounts cannot go, or null: a LayerZero OFT carries at most a uint64 in shared decimals, and Move
 * chains (the L1, minimove rollups) keep coin amounts as u64.
 */
function amountRefusal(reg: Registry, p: RoutePlan): string | null {
  const move = (chainId: string) => MOVE_VMS.has(reg.chains.get(chainId)?.vm ?? '');
  for (const h of p.hops) {
    if (h.kind === 'layer_zero' && h.amountIn > lzMaxAmountLD(h.src))
      return `LayerZero moves at most ${lzMaxAmountLD(h.src)} base units of ${h.src.symbol} from ${h.src.chain_id}`;
    if ((move(h.from) && h.amountIn > MAX_UINT64) || (move(h.to) && h.amountOut > MAX_UINT64))
      return `a Move chain on the way keeps amounts as u64 (at most ${MAX_UINT64})`;
  }
  return null;
}

export interface RouteDeps {
  registry: Registry;
  quote?: LzQuoteProvider;
}

type Json = Record<string, unknown>;

function operation(
  reg: Registry,
  h: RouteHop,
  txIndex: number,
  finalDenom: string | undefined,
  finalAmount: bigint | undefined,
  lzFee: Map<RouteHop, bigint | null>,
): Json {
  const common = {
    tx_index: txIndex,
    amount_in: h.amountIn.toString(),
    amount_out: (finalAmount ?? h.amountOut).toString(),
  };
  const denomOut = finalDenom ?? h.denomOut;
  if (h.kind === 'ibc')
    return {
      transfer: {
        port: 'transfer',
        channel: h.channel,
        from_chain_id: h.from,
        to_chain_id: h.to,
        chain_id: h.from,
        pfm_enabled: reg.chains.get(h.to)?.pfm ?? false,
        supports_memo: true,
        denom_in: h.denomIn,
        denom_out: denomOut,
        dest_denom: denomOut,
        bridge_id: 'IBC',
        smart_relay: false,
      },
      ...common,
    };
  if (h.kind === 'op_deposit' || h.kind === 'op_withdrawal')
    return {
      op_init_transfer: {
        from_chain_id: h.from,
        to_chain_id: h.to,
        chain_id: h.from,
        denom_in: h.denomIn,
        denom_out: denomOut,
        op_init_bridge_id: h.bridgeId.toString(),
        bridge_id: 'OPINIT',
        smart_relay: false,
      },
      ...common,
    };
  if (h.kind !== 'layer_zero') throw new Error('unreachable: unknown hop kind');
  const fee = lzFee.get(h);
  return {
    layer_zero_transfer: {
      from_chain_id: h.from,
      to_chain_id: h.to,
      denom_in: h.denomIn,
      denom_out: denomOut,
      source_oft_contract_address: h.src.oft_address ?? '',
      destination_endpoint_id: h.dst.endpointId,
      messaging_fee_asset: gasAsset(reg, h.from),
      messaging_fee_amount: fee == null ? '0' : fee.toString(),
      messaging_fee_amount_usd: '',
      bridge_id: 'LAYER_ZERO',
    },
    ...common,
  };
}

/** SendParam for a LayerZero hop (amount after dust; recipient bytes32, zero for quotes). */
export function lzSendParam(
  h: RouteHop & { kind: 'layer_zero' },
  recipient: Uint8Array = new Uint8Array(20),
  minAmountLD?: bigint,
): SendParam {
  const sent = h.amountIn - h.dust;
  return {
    dstEid: h.dst.endpointId,
    to: toBytes32(recipient),
    amountLD: sent,
    minAmountLD: minAmountLD ?? sent,
    extraOptions: '0x',
    composeMsg: '0x',
    oftCmd: '0x',
  };
}

/** Quote every LayerZero hop we can (EVM source, OFT address and JSON-RPC known); null = not quoted. */
export async function quoteLzFees(
  reg: Registry,
  plan: RoutePlan,
  quote?: LzQuoteProvider,
): Promise<Map<RouteHop, bigint | null>> {
  const fees = new Map<RouteHop, bigint | null>();
  for (const h of plan.hops) {
    if (h.kind !== 'layer_zero') continue;
    const chain = reg.chains.get(h.from);
    const rpc = chain?.jsonRpc;
    const evm = chain?.vm === 'external-evm' || chain?.vm === 'minievm';
    if (!quote || !rpc || !evm || !h.src.oft_address) {
      fees.set(h, null);
      continue;
    }
    try {
      fees.set(
        h,
        (
          await quote({
            chainId: h.from,
            evmChainId: chain.evmChainId ?? 1,
            jsonRpc: rpc,
            oftAddress: h.src.oft_address,
            sendParam: lzSendParam(h),
          })
        ).nativeFee,
      );
    } catch {
      fees.set(h, null);
    }
  }
  return fees;
}

export function chainIds(plan: RoutePlan): string[] {
  return [plan.hops[0]!.from, ...plan.hops.map((h) => h.to)];
}

export function renderRoute(
  reg: Registry,
  req: RouteRequest,
  r: ResolvedRoute,
  lzFee: Map<RouteHop, bigint | null>,
): Json {
  const { plan } = r;
  const last = plan.hops.length - 1;
  const operations = plan.hops.map((h, i) =>
    operation(
      reg,
      h,
      plan.txIndex[i]!,
      i === last && r.hook ? req.dest_asset_denom : undefined,
      i === last ? r.amountOut : undefined,
      lzFee,
    ),
  );
  const ids = chainIds(plan);
  const infos: string[] = [];
  const warnings: string[] = [];
  const fees: Json[] = [];
  plan.hops.forEach((h, i) => {
    if (h.kind === 'op_withdrawal') {
      const days = (reg.chains.get(h.from)?.finalizationPeriodSeconds ?? 0) / 86400;
      infos.push(`OPinit withdrawal: claim on ${h.to} after the ${days}-day finalization period`);
    }
    if (h.kind !== 'layer_zero') return;
    const fee = lzFee.get(h);
    if (h.dust > 0n) infos.push(`LayerZero drops ${h.dust} base units below ${h.src.sharedDecimals} shared decimals`);
    for (const d of [h.src, h.dst] as LzDeployment[])
      if (!d.verified) warnings.push(`LayerZero deployment of ${d.symbol} on ${d.chain_id} is not verified`);
    if (fee == null) warnings.push(`LayerZero messaging fee on ${h.from} not quoted`);
    else
      fees.push({
        fee_type: 'BRIDGE',
        bridge_id: 'LAYER_ZERO',
        amount: fee.toString(),
        usd_amount: '',
        origin_asset: gasAsset(reg, h.from),
        chain_id: h.from,
        tx_index: plan.txIndex[i],
        operation_index: i,
        fee_behavior: 'FEE_BEHAVIOR_ADDITIONAL',
      });
  });
  for (const id of new Set(ids))
    if (reg.chains.get(id)?.removed) warnings.push(`${id} has been removed from the Initia registry`);
  return {
    amount_in: r.amountIn.toString(),
    amount_out: r.amountOut.toString(),
    estimated_amount_out: r.amountOut.toString(),
    source_asset_chain_id: req.source_asset_chain_id,
    source_asset_denom: req.source_asset_denom,
    dest_asset_chain_id: req.dest_asset_chain_id,
    dest_asset_denom: req.dest_asset_denom,
    operations,
    chain_ids: ids,
    required_chain_addresses: ids,
    does_swap: false,
    swap_venues: [],
    txs_required: plan.txsRequired,
    usd_amount_in: '',
    usd_amount_out: '',
    warning: null,
    estimated_fees: fees,
    estimated_route_duration_seconds: plan.durationSeconds,
    required_op_hook: r.hook !== undefined,
    extra_infos: infos,
    extra_warnings: [...new Set(warnings)],
  };
}

/**
 * A route request that gives `amount_out` alone (Skip allows either): without swaps, the amount in is the same
 * amount in the source asset's decimals; the route found must then deliver exactly it.
 */
function withAmountIn(reg: Registry, req: RouteRequest): { req: RouteRequest; wantOut?: bigint } {
  if (req.amount_in !== undefined && req.amount_in !== null) return { req };
  if (req.amount_out === undefined || req.amount_out === null)
    throw invalidRequest('amount_in or amount_out is required');
  const wantOut = parseAmount(req.amount_out, 'amount_out');
  const known = (c: string, d: string) => reg.chains.has(c) && knownDenom(reg, c, d);
  const amountIn =
    known(req.source_asset_chain_id, req.source_asset_denom) && known(req.dest_asset_chain_id, req.dest_asset_denom)
      ? rescale(
          wantOut,
          decimalsOf(reg, req.dest_asset_chain_id, req.dest_asset_denom),
          decimalsOf(reg, req.source_asset_chain_id, req.source_asset_denom),
        )
      : wantOut; // resolveRoute names the unknown chain or denom
  if (amountIn === 0n)
    throw invalidRequest(
      `amount_out ${wantOut} is less than one base unit of ${req.source_asset_denom}: give amount_in`,
    );
  return { req: { ...req, amount_in: amountIn.toString() }, wantOut };
}

export async function routeHandler(deps: RouteDeps, given: RouteRequest): Promise<Json> {
  const { req, wantOut } = withAmountIn(deps.registry, given);
  const best = resolveRoute(deps.registry, req, true, true)[0]!;
  if (wantOut !== undefined && best.amountOut !== wantOut)
    throw invalidRequest(
      `amount_out ${wantOut} cannot be delivered exactly (the route delivers ${best.amountOut} for amount_in ${req.amount_in}: the source's decimals or LayerZero dust removal): give amount_in instead`,
    );
  const fees = await quoteLzFees(deps.registry, best.plan, deps.quote);
  return renderRoute(deps.registry, req, best, fees);
}
