// POST /v2/fungible/msgs: check the client's operations against a route we would give, then build the
// transactions to sign (docs/router.md). The router never signs or broadcasts.
import { decodeTxRaw } from '@cosmjs/proto-signing';
import { fromBech32 } from '@cosmjs/encoding';
import { invalidRequest, unavailableNow } from './errors.js';
import { minAmountOut, parseSlippage } from './amount.js';
import { parseAddress, type ParsedAddress } from './address.js';
import { hopSeconds, type RouteHop } from './graph.js';
import { encodeSend, sharedRate } from './layerzero.js';
import {
  chainIds,
  lzSendParam,
  quoteLzFees,
  renderRoute,
  resolveRoute,
  routeHandler,
  type ResolvedRoute,
  type RouteDeps,
  type RouteRequest,
} from './route.js';
import type { Registry } from './registry.js';

type Json = Record<string, unknown>;

export interface MsgsRequest extends RouteRequest {
  address_list: string[];
  operations: Json[];
  slippage_tolerance_percent?: string;
  signed_op_hook?: string | { signer: string; hook: string };
  /** Skip's OpenAPI and @skip-go/client send a decimal string; a JSON number is accepted too. */
  timeout_seconds?: number | string;
}

export const TYPE = {
  transfer: '/ibc.applications.transfer.v1.MsgTransfer',
  deposit: '/opinit.ophost.v1.MsgInitiateTokenDeposit',
  withdraw: '/opinit.opchild.v1.MsgInitiateTokenWithdrawal',
} as const;

const OP_KEYS = ['transfer', 'op_init_transfer', 'layer_zero_transfer'];
const COMPARED = [
  'from_chain_id',
  'to_chain_id',
  'denom_in',
  'denom_out',
  'channel',
  'op_init_bridge_id',
  'destination_endpoint_id',
];

/** The parts of an operation that identify the hop (fees and display fields are left out). */
function opKey(op: Json): string {
  const key = Object.keys(op).find((k) => OP_KEYS.includes(k));
  if (!key || typeof op[key] !== 'object' || op[key] === null) return 'unknown';
  const inner = op[key] as Json;
  return JSON.stringify([key, ...COMPARED.map((f) => inner[f] ?? null), op.tx_index, op.amount_in, op.amount_out]);
}

/** Find the candidate route whose operations are exactly the ones the client sent back. */
export function matchRoute(reg: Registry, req: MsgsRequest): ResolvedRoute {
  const want = req.operations.map(opKey).join('\n');
  const candidates: ResolvedRoute[] = [];
  let firstError: unknown;
  // Fast and Lossless routes both qualify: the operations say which one the client chose.
  for (const w of [false, true]) {
    try {
      candidates.push(...resolveRoute(reg, { ...req, is_op_withdraw: w }));
    } catch (e) {
      firstError ??= e;
    }
  }
  if (candidates.length === 0) throw firstError;
  const none = new Map<RouteHop, bigint | null>();
  for (const c of candidates) {
    const ops = renderRoute(reg, req, c, none).operations as Json[];
    if (ops.map(opKey).join('\n') === want) return c;
  }
  throw invalidRequest('operations do not match a route for this request: query /v2/fungible/route again');
}

/** Signed op-hook: the object form or a bare base64 string; must decode as a signed cosmos Tx. */
export function parseSignedHook(v: MsgsRequest['signed_op_hook']): { hook: string; signer?: string } {
  const hook = typeof v === 'string' ? v : v?.hook;
  const signer = typeof v === 'object' ? v.signer : undefined;
  if (typeof hook !== 'string' || !/^[A-Za-z0-9+/]+={0,2}$/.test(hook) || hook.length > 48_000)
    throw invalidRequest('invalid signed_op_hook: hook must be base64');
  try {
    const tx = decodeTxRaw(Buffer.from(hook, 'base64'));
    if (tx.body.messages.length === 0) throw new Error('no messages');
    if (tx.signatures.length === 0) throw new Error('not signed');
  } catch (e) {
    throw invalidRequest(`invalid signed_op_hook: not a signed cosmos Tx (${(e as Error).message})`);
  }
  if (signer !== undefined) {
    try {
      fromBech32(signer);
    } catch {
      throw invalidRequest('invalid signed_op_hook: signer is not a bech32 address');
    }
  }
  return { hook, signer };
}

const coin = (denom: string, amount: bigint) => ({ denom, amount: amount.toString() });

export async function msgsHandler(deps: RouteDeps, req: MsgsRequest): Promise<Json> {
  const reg = deps.registry;
  const slippage = parseSlippage(req.slippage_tolerance_percent);
  const route = matchRoute(reg, req);
  const { plan } = route;
  const ids = chainIds(plan);
  if (req.address_list.length !== ids.length)
    throw invalidRequest(
      `address_list must have ${ids.length} addresses, one per required_chain_addresses entry (${ids.join(', ')})`,
    );
  const addrs: ParsedAddress[] = ids.map((id, i) =>
    parseAddress(reg.chains.get(id)!, req.address_list[i]!, `address_list[${i}]`),
  );
  let hookData: string | undefined;
  if (route.hook) {
    if (req.signed_op_hook === undefined)
      throw invalidRequest(
        'signed_op_hook is required: this route deposits into an asset that needs an op-hook (POST /op-hook)',
      );
    hookData = parseSignedHook(req.signed_op_hook).hook;
  } else if (req.signed_op_hook !== undefined)
    throw invalidRequest('signed_op_hook was given but this route needs no op-hook');
  const now = Date.now();
  const timeoutMs = timeoutSeconds(req.timeout_seconds) * 1000;
  /**
   * The IBC timeout of the tx that starts at hop `i`. A later tx of a multi-tx route can only be sent once the hops
   * before it have landed (a withdrawal's 7-day finalization and claim, a LayerZero delivery): its timeout counts
   * from then, with twice their estimate as room, or it would have passed before the tx could be sent.
   */
  const timeoutNsAt = (i: number) => {
    let before = 0;
    for (let j = 0; j < i; j++) before += hopSeconds(reg, plan.hops[j]!);
    return BigInt(now + timeoutMs + 2 * before * 1000) * 1_000_000n;
  };
  const lzFees = plan.hops.some((h) => h.kind === 'layer_zero')
    ? await quoteLzFees(reg, plan, deps.quote)
    : new Map<RouteHop, bigint | null>();

  const txs: Json[] = [];
  const legacy: Json[] = [];
  let i = 0;
  while (i < plan.hops.length) {
    const tx = plan.txIndex[i]!;
    const group: number[] = [];
    for (let j = i; j < plan.hops.length && plan.txIndex[j] === tx; j++) group.push(j);
    const h = plan.hops[i]!;
    const path = [h.from, ...group.map((j) => plan.hops[j]!.to)];
    const signer = addrs[i]!;
    const next = addrs[i + 1]!;
    if (h.kind === 'layer_zero') {
      const evm = lzEvmTx(reg, h, signer, next, slippage, lzFees.get(h) ?? null);
      txs.push({ evm_tx: evm, operations_indices: group });
      legacy.push({ evm_tx: evm });
    } else {
      let msg: Json;
      let type: string;
      if (h.kind === 'ibc') {
        type = TYPE.transfer;
        // Later hops of the same tx ride the packet-forward memo, innermost hop last.
        let forward: Json | undefined;
        for (let k = group.length - 1; k >= 1; k--) {
          const hop = plan.hops[group[k]!]! as RouteHop & { kind: 'ibc' };
          forward = {
            forward: {
              receiver: addrs[group[k]! + 1]!.native,
              port: 'transfer',
              channel: hop.channel,
              timeout: '10m',
              retries: 2,
              ...(forward ? { next: forward } : {}),
            },
          };
        }
        msg = {
          source_port: 'transfer',
          source_channel: h.channel,
          token: coin(h.denomIn, h.amountIn),
          sender: signer.native,
          receiver: next.native,
          timeout_height: {},
          timeout_timestamp: timeoutNsAt(i).toString(),
          memo: forward ? JSON.stringify(forward) : '',
        };
      } else if (h.kind === 'op_deposit') {
        type = TYPE.deposit;
        msg = {
          sender: signer.native,
          bridge_id: h.bridgeId.toString(),
          to: next.native,
          amount: coin(h.denomIn, h.amountIn),
          ...(hookData && i === plan.hops.length - 1 ? { data: hookData } : {}),
        };
      } else {
        type = TYPE.withdraw;
        msg = { sender: signer.native, to: next.native, amount: coin(h.denomIn, h.amountIn) };
      }
      const m = { msg: JSON.stringify(msg), msg_type_url: type };
      txs.push({
        cosmos_tx: { chain_id: h.from, path, signer_address: signer.native, msgs: [m] },
        operations_indices: group,
      });
      legacy.push({ multi_chain_msg: { chain_id: h.from, path, ...m } });
    }
    i = group[group.length - 1]! + 1;
  }
  const rendered = renderRoute(reg, req, route, lzFees);
  return {
    txs,
    msgs: legacy,
    min_amount_out: minAmountOut(route.amountOut, slippage).toString(),
    estimated_fees: rendered.estimated_fees,
  };
}

function lzEvmTx(
  reg: Registry,
  h: RouteHop & { kind: 'layer_zero' },
  signer: ParsedAddress,
  recipient: ParsedAddress,
  slippage: bigint,
  fee: bigint | null,
): Json {
  const chain = reg.chains.get(h.from)!;
  if (chain.vm !== 'external-evm' && chain.vm !== 'minievm')
    throw invalidRequest(`LayerZero sends from ${h.from} (${chain.vm}) are not supported by /msgs: only EVM sources`);
  if (!h.src.oft_address)
    throw invalidRequest(`LayerZero OFT contract for ${h.src.symbol} on ${h.from} is not configured`);
  if (signer.bytes.length !== 20)
    throw invalidRequest(`invalid address_list: the LayerZero sender on ${h.from} must be a 20-byte EVM account`);
  if (fee === null) throw unavailableNow(`LayerZero messaging fee on ${h.from} could not be quoted`);
  const base = lzSendParam(h, recipient.bytes);
  // Slippage on the sent amount, then dust removal again so the OFT's own check compares like with like.
  const rate = sharedRate(h.src);
  const minLD = (minAmountOut(base.amountLD, slippage) / rate) * rate;
  const p = { ...base, minAmountLD: minLD };
  const data = encodeSend(p, fee, signer.hex).slice(2);
  const value = h.src.kind === 'native' ? fee + p.amountLD : fee;
  const approvals =
    h.src.kind === 'adapter' && h.src.token_address
      ? [{ token_contract: h.src.token_address, spender: h.src.oft_address, amount: p.amountLD.toString() }]
      : [];
  return {
    chain_id: h.from,
    to: h.src.oft_address,
    value: value.toString(),
    data,
    required_erc20_approvals: approvals,
    signer_address: signer.hex,
  };
}

/** The packet timeout: 300 s by default, else 1 s to 1 day, as a number or a decimal string. */
export function timeoutSeconds(v: number | string | undefined): number {
  if (v === undefined) return 300;
  const n = typeof v === 'string' && /^[0-9]{1,6}$/.test(v) ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > 86_400)
    throw invalidRequest('invalid timeout_seconds: must be a whole number of seconds from 1 to 86400');
  return n;
}

/** POST /v2/fungible/msgs_direct's request: a route request plus the addresses by chain, in one call. */
export interface MsgsDirectRequest extends RouteRequest {
  chain_ids_to_addresses: Record<string, string>;
  slippage_tolerance_percent?: string;
  timeout_seconds?: number | string;
  signed_op_hook?: MsgsRequest['signed_op_hook'];
}

/** Route and msgs in one call (Skip's msgs_direct): the best route, then its msgs, with the route alongside. */
export async function msgsDirectHandler(deps: RouteDeps, req: MsgsDirectRequest): Promise<Json> {
  const route = await routeHandler(deps, req);
  const ids = route.required_chain_addresses as string[];
  const byChain = req.chain_ids_to_addresses ?? {};
  const missing = ids.filter((id) => typeof byChain[id] !== 'string');
  if (missing.length) throw invalidRequest(`chain_ids_to_addresses: no address for ${missing.join(', ')}`);
  const { chain_ids_to_addresses: _addresses, ...rest } = req;
  const msgs = await msgsHandler(deps, {
    ...rest,
    amount_in: route.amount_in as string,
    amount_out: route.amount_out as string,
    address_list: ids.map((id) => byChain[id]!),
    operations: route.operations as Json[],
  });
  return { msgs: msgs.msgs, txs: msgs.txs, min_amount_out: msgs.min_amount_out, route };
}
