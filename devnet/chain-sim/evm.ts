// EVM JSON-RPC (geth wire shapes) over a SimChainSource whose txs carry an `evm` side, as minievm serves it.
import { fromBech32 } from '@cosmjs/encoding';
import type { SimChainSource, SealedBlock } from './types.js';
import type { EvmLog } from '../../chain/events.js';
import { evmBlockJson, evmReceiptsJson, evmTracesJson } from './render.js';
import type { Params, RpcError, RpcOutcome } from './cometbft.js';

export interface EthCallRequest {
  to?: string;
  from?: string;
  data?: string;
  input?: string;
  value?: string;
}
/** Returns the hex result for calls it knows, undefined to let the next handler try. */
export type EthCallHandler = (call: EthCallRequest, blockTag: string) => string | undefined;

/** Address / topic filter of eth_getLogs (null or missing position = wildcard, array = OR). */
export interface LogFilter {
  address?: string | string[] | null;
  topics?: Array<string | string[] | null> | null;
}

const MAX_LOG_RANGE = 10_000;
const invalid = (message: string): { error: RpcError } => ({ error: { code: -32602, message } });
const HASH32 = /^0x[0-9a-fA-F]{64}$/;

/** geth semantics: address is OR over the list; topic i must equal one of the listed values. */
export function logMatches(filter: LogFilter, log: EvmLog): boolean {
  const addrs = filter.address == null ? [] : Array.isArray(filter.address) ? filter.address : [filter.address];
  if (addrs.length > 0 && !addrs.some((a) => a.toLowerCase() === log.address.toLowerCase())) return false;
  const topics = filter.topics ?? [];
  if (topics.length > log.topics.length) return false;
  return topics.every((want, i) => {
    if (want == null) return true;
    const options = Array.isArray(want) ? want : [want];
    if (options.length === 0) return true;
    const have = log.topics[i]?.toLowerCase();
    return options.some((o) => o?.toLowerCase() === have);
  });
}

function blockNumberParam(source: SimChainSource, tag: unknown): number | { error: RpcError } {
  const latest = source.latestHeight();
  if (
    tag === undefined ||
    tag === null ||
    tag === 'latest' ||
    tag === 'pending' ||
    tag === 'safe' ||
    tag === 'finalized'
  )
    return latest;
  if (tag === 'earliest') return Math.min(1, latest);
  if (typeof tag === 'string' && /^0x[0-9a-fA-F]{1,16}$/.test(tag)) return Number.parseInt(tag, 16);
  return invalid(`invalid block number: ${JSON.stringify(tag)}`);
}

function param(params: Params, i: number): unknown {
  return Array.isArray(params) ? params[i] : undefined;
}

function blockByHash(source: SimChainSource, hash: unknown): SealedBlock | undefined {
  if (typeof hash !== 'string' || !HASH32.test(hash)) return undefined;
  const want = hash.slice(2).toUpperCase();
  // Bounded backwards scan: recent blocks are what clients ask for by hash.
  for (let h = source.latestHeight(), n = 0; h >= 1 && n < MAX_LOG_RANGE; h--, n++) {
    const b = source.block(h);
    if (b?.hash === want) return b;
  }
  return undefined;
}

function getLogs(source: SimChainSource, f: unknown): RpcOutcome {
  if (!f || typeof f !== 'object' || Array.isArray(f)) return invalid('filter must be an object');
  const filter = f as LogFilter & { fromBlock?: unknown; toBlock?: unknown; blockHash?: unknown };
  if (filter.topics != null && (!Array.isArray(filter.topics) || filter.topics.length > 4))
    return invalid('topics must be an array of at most 4 entries');
  let from: number;
  let to: number;
  if (filter.blockHash !== undefined) {
    if (filter.fromBlock !== undefined || filter.toBlock !== undefined) return invalid('invalid block range params');
    const b = blockByHash(source, filter.blockHash);
    if (!b) return { error: { code: -32000, message: 'unknown block' } };
    from = to = b.height;
  } else {
    const fr = blockNumberParam(source, filter.fromBlock);
    const tr = blockNumberParam(source, filter.toBlock);
    if (typeof fr !== 'number') return fr;
    if (typeof tr !== 'number') return tr;
    from = fr;
    to = Math.min(tr, source.latestHeight());
    if (fr > tr) return invalid('invalid block range params');
    if (to - from + 1 > MAX_LOG_RANGE)
      return { error: { code: -32005, message: `query exceeds max block range ${MAX_LOG_RANGE}` } };
  }
  const out: EvmLog[] = [];
  for (let h = Math.max(1, from); h <= to; h++) {
    const b = source.block(h);
    for (const t of b?.txs ?? [])
      for (const r of t.evm?.receipts ?? []) for (const l of r.logs) if (logMatches(filter, l)) out.push(l);
  }
  return { result: JSON.stringify(out) };
}

export function evmCall(
  source: SimChainSource,
  method: string,
  params: Params,
  ethCallHandlers: EthCallHandler[],
): RpcOutcome {
  if (source.evmChainId === undefined)
    return { error: { code: -32601, message: 'the method does not exist/is not available' } };
  const withBlock = (tag: unknown, f: (b: SealedBlock) => string): RpcOutcome => {
    const n = blockNumberParam(source, tag);
    if (typeof n !== 'number') return n;
    const b = source.block(n);
    return { result: b ? f(b) : 'null' };
  };
  const txLookup = (hash: unknown, pick: 'receipt' | 'tx'): RpcOutcome => {
    if (typeof hash !== 'string' || !HASH32.test(hash)) return invalid('hash must be a 32-byte 0x hex string');
    const loc = source.evmTxByHash(hash);
    const t = loc && source.block(loc.height)?.txs[loc.index];
    const h = hash.toLowerCase();
    const found =
      pick === 'receipt'
        ? t?.evm?.receipts.find((r) => r.transactionHash.toLowerCase() === h)
        : t?.evm?.txs.find((x) => x.hash.toLowerCase() === h);
    return { result: found ? JSON.stringify(found) : 'null' };
  };
  switch (method) {
    case 'eth_chainId':
      return { result: JSON.stringify(`0x${source.evmChainId.toString(16)}`) };
    case 'net_version':
      return { result: JSON.stringify(source.evmChainId.toString()) };
    case 'eth_blockNumber':
      return { result: JSON.stringify(`0x${source.latestHeight().toString(16)}`) };
    case 'eth_getBlockByNumber':
      return withBlock(param(params, 0), (b) => evmBlockJson(b, param(params, 1) === true));
    case 'eth_getBlockByHash': {
      const b = blockByHash(source, param(params, 0));
      return { result: b ? evmBlockJson(b, param(params, 1) === true) : 'null' };
    }
    case 'eth_getBlockReceipts': {
      const p = param(params, 0);
      if (typeof p === 'string' && HASH32.test(p)) {
        const b = blockByHash(source, p);
        return { result: b ? evmReceiptsJson(b) : 'null' };
      }
      return withBlock(p, evmReceiptsJson);
    }
    case 'eth_getTransactionReceipt':
      return txLookup(param(params, 0), 'receipt');
    case 'eth_getTransactionByHash':
      return txLookup(param(params, 0), 'tx');
    case 'eth_getLogs':
      return getLogs(source, param(params, 0));
    case 'debug_traceBlockByNumber': {
      const cfg = param(params, 1) as { tracer?: unknown } | undefined;
      if (cfg?.tracer !== 'callTracer') return invalid('only {"tracer":"callTracer"} is supported');
      const n = blockNumberParam(source, param(params, 0));
      if (typeof n !== 'number') return n;
      // minievm replays a block on its parent's state, so it refuses blocks 0 and 1 (jsonrpc/backend/tracer.go).
      if (n < 2) return { error: { code: -32000, message: 'genesis is not traceable' } };
      const b = source.block(n);
      if (!b) return { error: { code: -32000, message: `block #${n} not found` } };
      return { result: evmTracesJson(b) };
    }
    case 'eth_call': {
      const call = param(params, 0);
      if (!call || typeof call !== 'object') return invalid('call object required');
      const tag = String(param(params, 1) ?? 'latest');
      for (const h of ethCallHandlers) {
        const r = h(call as EthCallRequest, tag);
        if (r !== undefined) return { result: JSON.stringify(r) };
      }
      return { error: { code: 3, message: 'execution reverted', data: '0x' } };
    }
    case 'cosmos_cosmosTxHashByTxHash': {
      const h = param(params, 0);
      if (typeof h !== 'string' || !HASH32.test(h)) return invalid('hash must be a 32-byte 0x hex string');
      const loc = source.evmTxByHash(h);
      const t = loc && source.block(loc.height)?.txs[loc.index];
      // minievm answers lowercase hex without 0x (see the tx-decoder fixtures).
      return { result: t ? JSON.stringify(t.hash.toLowerCase()) : 'null' };
    }
    default:
      return { error: { code: -32601, message: `the method ${method} does not exist/is not available` } };
  }
}

/**
 * minievm's REST `POST /minievm/evm/v1/call` (QueryCallRequest → QueryCallResponse, gRPC-gateway JSON with
 * defaults emitted), answered by the same handlers as eth_call. `contract_addr` may be 0x hex or bech32; the
 * `x-cosmos-block-height` header picks the block (latest without it). As minievm's query server, a reverted
 * call is HTTP 200 with `error` set (`Reverted`, errorsmod's text for ErrReverted without revert data) and
 * an empty `response`; `used_gas` is a fixed stand-in (the simulator runs no EVM).
 */
export function evmRestCall(
  raw: string,
  heightHeader: string | undefined,
  ethCallHandlers: EthCallHandler[],
): { status: number; body: string } {
  let req: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(raw);
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
    req = parsed as Record<string, unknown>;
  } catch (e) {
    return grpcJson(400, 3, `invalid request body: ${e instanceof Error ? e.message : String(e)}`);
  }
  const addr = typeof req.contract_addr === 'string' ? req.contract_addr : '';
  let to: string;
  if (/^0x[0-9a-fA-F]{40}$/.test(addr)) to = addr.toLowerCase();
  else {
    try {
      to = `0x${Buffer.from(fromBech32(addr).data).toString('hex')}`;
    } catch {
      return grpcJson(400, 3, `invalid contract address: ${addr}`);
    }
  }
  const input = typeof req.input === 'string' ? req.input : '0x';
  const h = heightHeader && /^\d+$/.test(heightHeader) ? Number(heightHeader) : 0;
  const tag = h > 0 ? `0x${h.toString(16)}` : 'latest';
  const call: EthCallRequest = { to, data: input.startsWith('0x') ? input : `0x${input}` };
  if (typeof req.value === 'string') call.value = req.value;
  for (const handler of ethCallHandlers) {
    const r = handler(call, tag);
    if (r !== undefined)
      return {
        status: 200,
        body: JSON.stringify({ response: r, used_gas: '21000', logs: [], trace_output: '', error: '' }),
      };
  }
  return {
    status: 200,
    body: JSON.stringify({ response: '', used_gas: '21000', logs: [], trace_output: '', error: 'Reverted' }),
  };
}

function grpcJson(status: number, code: number, message: string): { status: number; body: string } {
  return { status, body: JSON.stringify({ code, message, details: [] }) };
}
