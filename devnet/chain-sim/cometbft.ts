// CometBFT 0.38 JSON-RPC methods over a SimChainSource. Each handler returns the pre-serialised `result`
// JSON, or an error shaped and worded as CometBFT words it (code -32603, text in `data`).
import type { SimChainSource, SealedBlock, TxLocation } from './types.js';
import { cometBlockJson, cometBlockMetaJson, cometBlockResultsJson, cometTxJson } from './render.js';
import { heightBounds, parseTxQuery, type QueryCondition, QueryError, txMatches } from './txquery.js';

export interface RpcError {
  code: number;
  message: string;
  data?: string;
}
export type RpcOutcome = { result: string } | { error: RpcError };
export type Params = Record<string, unknown> | unknown[] | undefined;

export const internalError = (data: string): { error: RpcError } => ({
  error: { code: -32603, message: 'Internal error', data },
});
export const invalidParams = (data: string): { error: RpcError } => ({
  error: { code: -32602, message: 'Invalid params', data },
});

/** Scanning without an event index is bounded so one query cannot pin the CPU. */
const MAX_SCAN_BLOCKS = 20_000;

function param(params: Params, name: string, position: number): unknown {
  if (Array.isArray(params)) return params[position];
  return params?.[name];
}

/** Optional integer parameter: JSON numbers, decimal strings, or URI-quoted "N". */
export function intParam(v: unknown, name: string): number | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  const s = typeof v === 'string' ? v.replace(/^"(.*)"$/, '$1') : v;
  const n = typeof s === 'number' ? s : /^-?\d{1,16}$/.test(String(s)) ? Number(s) : NaN;
  if (!Number.isSafeInteger(n)) throw new ParamError(`${name} must be an integer, got ${JSON.stringify(v)}`);
  return n;
}

export class ParamError extends Error {}

/** CometBFT's getHeight rule and wording. */
export function resolveHeight(source: SimChainSource, h: number | undefined): { height: number } | { error: RpcError } {
  const latest = source.latestHeight();
  if (h === undefined || h === 0) {
    if (latest === 0) return internalError('height must be greater than 0, but got 0');
    return { height: latest };
  }
  if (h < 0) return internalError(`height must be greater than 0, but got ${h}`);
  if (h > latest)
    return internalError(`height ${h} must be less than or equal to the current blockchain height ${latest}`);
  return { height: h };
}

function blockAt(source: SimChainSource, params: Params): { block: SealedBlock } | { error: RpcError } {
  const r = resolveHeight(source, intParam(param(params, 'height', 0), 'height'));
  if ('error' in r) return r;
  const block = source.block(r.height);
  if (!block) return internalError(`height ${r.height} is not available`);
  return { block };
}

/** Accepts the tx hash as JSON-RPC clients send it (base64 of the 32 bytes) or as hex (URI form, `0x` optional). */
export function decodeTxHashParam(v: unknown): string | undefined {
  if (typeof v !== 'string') return undefined;
  const s = v.replace(/^"(.*)"$/, '$1');
  if (/^(0x)?[0-9a-fA-F]{64}$/.test(s)) return s.replace(/^0x/, '').toUpperCase();
  if (/^[A-Za-z0-9+/]{43}=$/.test(s)) return Buffer.from(s, 'base64').toString('hex').toUpperCase();
  return undefined;
}

function status(source: SimChainSource): string {
  const latest = source.latestHeight();
  const first = source.block(1);
  const last = latest > 0 ? source.block(latest) : undefined;
  const v = source.validators[0];
  return JSON.stringify({
    node_info: {
      protocol_version: { p2p: '8', block: '11', app: '0' },
      id: Buffer.from(source.chainId.padEnd(20, '0').slice(0, 20)).toString('hex'),
      listen_addr: 'tcp://127.0.0.1:26656',
      network: source.chainId,
      version: '0.38.17',
      channels: '40202122233038606100',
      moniker: v?.moniker ?? 'chain-sim',
      other: { tx_index: 'on', rpc_address: 'tcp://127.0.0.1:26657' },
    },
    sync_info: {
      latest_block_hash: last?.hash ?? '',
      latest_app_hash: last?.appHash ?? '',
      latest_block_height: String(latest),
      latest_block_time: last?.time ?? '1970-01-01T00:00:00Z',
      earliest_block_hash: first?.hash ?? '',
      earliest_app_hash: first?.appHash ?? '',
      earliest_block_height: first ? '1' : '0',
      earliest_block_time: first?.time ?? '1970-01-01T00:00:00Z',
      catching_up: false,
    },
    validator_info: {
      address: v?.consensusAddress ?? '',
      pub_key: { type: 'tendermint/PubKeyEd25519', value: v?.consensusPubkey ?? '' },
      voting_power: '10',
    },
  });
}

/**
 * The txs matching a tx_search query, ascending by height and index (what CometBFT's kv indexer finds), or the
 * error CometBFT answers for a query it will not scan. Shared by `tx_search` and the REST `GetTxsEvent` (rest.ts).
 */
export function findTxs(source: SimChainSource, conds: QueryCondition[]): TxLocation[] | string {
  let candidates: TxLocation[] | undefined;
  const hashCond = conds.find((c) => c.key === 'tx.hash' && c.op === '=');
  if (hashCond) {
    const loc = source.txByHash(hashCond.value.toUpperCase());
    candidates = loc ? [loc] : [];
  } else if (source.txsWithEvent) {
    for (const c of conds) {
      if (c.op !== '=' || c.key.startsWith('tx.')) continue;
      const list = source.txsWithEvent(c.key, c.value);
      if (list && (!candidates || list.length < candidates.length)) candidates = list;
    }
  }
  const matched: TxLocation[] = [];
  const check = (loc: TxLocation): void => {
    const t = source.block(loc.height)?.txs[loc.index];
    if (t && txMatches(conds, t.height, t.hash, t.result.events)) matched.push(loc);
  };
  if (candidates) {
    candidates.forEach(check);
  } else {
    const { from, to } = heightBounds(conds, source.latestHeight());
    if (to - from + 1 > MAX_SCAN_BLOCKS)
      return `query spans more than ${MAX_SCAN_BLOCKS} blocks; add a tx.height bound or an indexed event condition`;
    // Conditions on the height alone match every tx of a height in bounds: counted, not read from sealed blocks.
    const txCount = source.txCount?.bind(source);
    if (txCount && conds.every((c) => c.key === 'tx.height')) {
      for (let h = Math.max(1, from); h <= to; h++) {
        if (!txMatches(conds, h, '', [])) continue;
        for (let index = 0, n = txCount(h); index < n; index++) matched.push({ height: h, index });
      }
      return matched;
    }
    for (let h = Math.max(1, from); h <= to; h++) {
      const b = source.block(h);
      for (const t of b?.txs ?? []) check({ height: h, index: t.index });
    }
  }
  matched.sort((a, b) => a.height - b.height || a.index - b.index);
  return matched;
}

function txSearch(source: SimChainSource, params: Params): RpcOutcome {
  const query = param(params, 'query', 0);
  if (typeof query !== 'string' || query.trim() === '') return invalidParams('query must be a non-empty string');
  let conds: ReturnType<typeof parseTxQuery>;
  try {
    conds = parseTxQuery(query.replace(/^"(.*)"$/, '$1'));
  } catch (e) {
    return internalError(e instanceof QueryError ? e.message : String(e));
  }
  const page = intParam(param(params, 'page', 2), 'page') ?? 1;
  const perPageRaw = intParam(param(params, 'per_page', 3), 'per_page') ?? 30;
  const perPage = perPageRaw < 1 ? 30 : Math.min(perPageRaw, 100); // CometBFT clamps per_page to [1,100]
  const orderBy = String(param(params, 'order_by', 4) ?? '').replace(/^"(.*)"$/, '$1') || 'asc';
  if (orderBy !== 'asc' && orderBy !== 'desc')
    return internalError('expected order_by to be either `asc` or `desc` or empty');

  const found = findTxs(source, conds);
  if (typeof found === 'string') return internalError(found);
  const matched = found;
  if (orderBy === 'desc') matched.reverse();
  const pages = Math.max(1, Math.ceil(matched.length / perPage));
  if (page < 1 || page > pages) return internalError(`page should be within [1, ${pages}] range, given ${page}`);
  const slice = matched.slice((page - 1) * perPage, page * perPage);
  const txs = slice.map((loc) => {
    const b = source.block(loc.height) as SealedBlock;
    return cometTxJson(b, b.txs[loc.index] as NonNullable<SealedBlock['txs'][number]>);
  });
  return { result: `{"txs":[${txs.join(',')}],"total_count":"${matched.length}"}` };
}

function blockchain(source: SimChainSource, params: Params): RpcOutcome {
  const latest = source.latestHeight();
  let min = intParam(param(params, 'minHeight', 0), 'minHeight') ?? 1;
  let max = intParam(param(params, 'maxHeight', 1), 'maxHeight') ?? latest;
  if (min < 0 || max < 0) return internalError('heights must be non-negative');
  if (min === 0) min = 1;
  if (max === 0 || max > latest) max = latest;
  min = Math.max(min, max - 19); // CometBFT returns at most 20 metas, newest first
  if (min > max) return internalError(`min height ${min} can't be greater than max height ${max}`);
  const metas: string[] = [];
  for (let h = max; h >= min; h--) {
    const b = source.block(h);
    if (b) metas.push(cometBlockMetaJson(b));
  }
  return { result: `{"last_height":"${latest}","block_metas":[${metas.join(',')}]}` };
}

export function cometCall(source: SimChainSource, method: string, params: Params): RpcOutcome {
  try {
    switch (method) {
      case 'status':
        return { result: status(source) };
      case 'health':
        return { result: '{}' };
      case 'abci_info': {
        const latest = source.latestHeight();
        const last = source.block(latest);
        return {
          result: JSON.stringify({
            response: {
              data: source.chainId,
              version: 'v1.0.0',
              app_version: '0',
              last_block_height: String(latest),
              last_block_app_hash: last ? Buffer.from(last.appHash, 'hex').toString('base64') : '',
            },
          }),
        };
      }
      case 'block': {
        const r = blockAt(source, params);
        return 'error' in r ? r : { result: cometBlockJson(r.block) };
      }
      case 'block_results': {
        const r = blockAt(source, params);
        return 'error' in r ? r : { result: cometBlockResultsJson(r.block) };
      }
      case 'blockchain':
        return blockchain(source, params);
      case 'tx': {
        const hash = decodeTxHashParam(param(params, 'hash', 0));
        if (!hash) return invalidParams('hash must be 32 bytes, base64 (JSON-RPC) or hex (URI)');
        const loc = source.txByHash(hash);
        const b = loc && source.block(loc.height);
        const t = loc && b?.txs[loc.index];
        if (!b || !t) return internalError(`tx (${hash}) not found`);
        return { result: cometTxJson(b, t) };
      }
      case 'tx_search':
        return txSearch(source, params);
      default:
        return { error: { code: -32601, message: 'Method not found' } };
    }
  } catch (e) {
    if (e instanceof ParamError) return invalidParams(e.message);
    throw e;
  }
}
