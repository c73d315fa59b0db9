// Cosmos REST (LCD, gRPC-gateway shapes) over a SimChainSource, plus caller-registered GET routes.
import type { SimChainSource, SealedBlock } from './types.js';
import { findTxs } from './cometbft.js';
import { lcdBlockJson, lcdTxJson, lcdTxResponseJson } from './render.js';
import { parseTxQuery, QueryError } from './txquery.js';

export interface RestAnswer {
  status: number;
  body: string;
}
/** What a REST request says beside its path: the state height (`x-cosmos-block-height`), when given. */
export interface RestContext {
  height?: number;
}
/** Handler of an extra GET route: returns a JSON-serialisable body, a full answer, or undefined for 404. */
export type RestHandler = (match: RegExpExecArray, query: URLSearchParams, ctx: RestContext) => unknown;
export interface RestRoute {
  pattern: RegExp;
  handler: RestHandler;
}

const MAX_PAGE_LIMIT = 1000;
const json = (status: number, body: unknown): RestAnswer => ({
  status,
  body: typeof body === 'string' ? body : JSON.stringify(body),
});
/** gRPC-gateway error body. */
export const grpcError = (status: number, code: number, message: string): RestAnswer =>
  json(status, { code, message, details: [] });

function heightOr404(source: SimChainSource, raw: string): SealedBlock | RestAnswer {
  if (!/^\d{1,16}$/.test(raw)) return grpcError(400, 3, `invalid height: ${raw}`);
  const h = Number(raw);
  const latest = source.latestHeight();
  if (h < 1) return grpcError(400, 3, 'height must be greater than 0');
  if (h > latest) return grpcError(400, 3, `requested block height ${h} is bigger than the chain length ${latest}`);
  return source.block(h) ?? grpcError(404, 5, `block ${h} not found`);
}

function txsByBlock(source: SimChainSource, rawHeight: string, q: URLSearchParams): RestAnswer {
  const b = heightOr404(source, rawHeight);
  if (!('height' in b)) return b;
  const limitRaw = q.get('pagination.limit');
  const keyRaw = q.get('pagination.key');
  const offsetRaw = q.get('pagination.offset');
  if (limitRaw !== null && !/^\d{1,6}$/.test(limitRaw))
    return grpcError(400, 3, 'pagination.limit must be a non-negative integer');
  if (offsetRaw !== null && !/^\d{1,9}$/.test(offsetRaw))
    return grpcError(400, 3, 'pagination.offset must be a non-negative integer');
  const limit = Math.min(limitRaw === null || limitRaw === '0' ? 100 : Number(limitRaw), MAX_PAGE_LIMIT);
  let start = offsetRaw ? Number(offsetRaw) : 0;
  if (keyRaw) {
    // next_key is the base64 of the next tx index (opaque to clients, as in the SDK).
    const decoded = Buffer.from(keyRaw, 'base64').toString('utf8');
    if (!/^\d{1,9}$/.test(decoded)) return grpcError(400, 3, 'invalid pagination.key');
    start = Number(decoded);
  }
  const page = b.txs.slice(start, start + limit);
  const end = start + page.length;
  const nextKey = end < b.txs.length ? JSON.stringify(Buffer.from(String(end)).toString('base64')) : 'null';
  return {
    status: 200,
    body: `{"txs":[${page.map((t) => lcdTxJson(b, t)).join(',')}],${lcdBlockJson(b)},"pagination":{"next_key":${nextKey},"total":"${b.txs.length}"}}`,
  };
}

/**
 * `GET /cosmos/tx/v1beta1/txs` (GetTxsEvent) as the SDK v0.50 answers it: the node's tx_search over `query`,
 * `page` from 1 and `limit` 100 when absent or not positive, CometBFT clamping a page to 100 txs; `txs` and
 * `tx_responses` side by side, `total` the count of all matches. Every failure, an empty query included, is
 * gRPC Internal (HTTP 500), because the SDK wraps whatever QueryTxsByEvents returns.
 */
function txsByQuery(source: SimChainSource, q: URLSearchParams): RestAnswer {
  const internal = (message: string) => grpcError(500, 13, message);
  const query = q.get('query') ?? '';
  if (query === '') return internal('query cannot be empty');
  const pageRaw = q.get('page') ?? '0';
  const limitRaw = q.get('limit') ?? '0';
  if (!/^\d{1,9}$/.test(pageRaw) || !/^\d{1,9}$/.test(limitRaw))
    return grpcError(400, 3, 'page and limit must be non-negative integers');
  const orderRaw = q.get('order_by') ?? 'ORDER_BY_UNSPECIFIED';
  const desc = orderRaw === 'ORDER_BY_DESC' || orderRaw === '2';
  if (!desc && !['ORDER_BY_ASC', 'ORDER_BY_UNSPECIFIED', '0', '1'].includes(orderRaw))
    return grpcError(400, 3, `invalid order_by: ${orderRaw.slice(0, 40)}`);
  let found: ReturnType<typeof findTxs>;
  try {
    found = findTxs(source, parseTxQuery(query));
  } catch (e) {
    return internal(`failed to search for txs: ${e instanceof QueryError ? e.message : String(e)}`);
  }
  if (typeof found === 'string') return internal(`failed to search for txs: ${found}`);
  if (desc) found.reverse();
  const page = Number(pageRaw) || 1;
  const limit = Math.min(Number(limitRaw) || 100, 100);
  const pages = Math.max(1, Math.ceil(found.length / limit));
  if (page > pages)
    return internal(`failed to search for txs: page should be within [1, ${pages}] range, given ${page}`);
  const slice = found.slice((page - 1) * limit, page * limit).map((loc) => {
    const b = source.block(loc.height) as SealedBlock;
    return { b, t: b.txs[loc.index] as NonNullable<SealedBlock['txs'][number]> };
  });
  return {
    status: 200,
    body: `{"txs":[${slice.map(({ b, t }) => lcdTxJson(b, t)).join(',')}],"tx_responses":[${slice.map(({ b, t }) => lcdTxResponseJson(b, t)).join(',')}],"pagination":null,"total":"${found.length}"}`,
  };
}

function txByHash(source: SimChainSource, hash: string): RestAnswer {
  if (!/^(0x)?[0-9a-fA-F]{64}$/.test(hash)) return grpcError(400, 3, `invalid tx hash: ${hash.slice(0, 80)}`);
  const loc = source.txByHash(hash.replace(/^0x/, '').toUpperCase());
  const b = loc && source.block(loc.height);
  const t = loc && b?.txs[loc.index];
  if (!b || !t) return grpcError(404, 5, `tx not found: ${hash.toUpperCase()}`);
  const tx = lcdTxJson(b, t);
  return {
    status: 200,
    body: `{"tx":{"@type":"/cosmos.tx.v1beta1.Tx",${tx.slice(1)},"tx_response":${lcdTxResponseJson(b, t)}}`,
  };
}

function opchildValidator(source: SimChainSource, valoper: string): RestAnswer {
  const v = source.validators.find((x) => x.operatorAddress === valoper);
  if (!v) return grpcError(404, 5, `validator ${valoper.slice(0, 100)} not found`);
  return json(200, { validator: validatorJson(v) });
}

function validatorJson(v: SimChainSource['validators'][number]): unknown {
  return {
    moniker: v.moniker,
    operator_address: v.operatorAddress,
    consensus_pubkey: { '@type': '/cosmos.crypto.ed25519.PubKey', key: v.consensusPubkey },
    cons_power: '1',
  };
}

export function restGet(
  source: SimChainSource,
  path: string,
  q: URLSearchParams,
  extra: RestRoute[],
  ctx: RestContext = {},
): RestAnswer {
  // Caller routes first, so a sample chain can serve recorded answers for paths it knows better.
  for (const r of extra) {
    const m = r.pattern.exec(path);
    if (!m) continue;
    const out = r.handler(m, q, ctx);
    if (out === undefined) continue;
    if (out && typeof out === 'object' && 'status' in out && 'body' in out) return out as RestAnswer;
    return json(200, out);
  }
  let m: RegExpExecArray | null;
  if (path === '/cosmos/tx/v1beta1/txs') return txsByQuery(source, q);
  if ((m = /^\/cosmos\/tx\/v1beta1\/txs\/block\/([^/]+)$/.exec(path))) return txsByBlock(source, m[1] ?? '', q);
  if ((m = /^\/cosmos\/tx\/v1beta1\/txs\/([^/]+)$/.exec(path))) return txByHash(source, m[1] ?? '');
  if (path === '/cosmos/base/tendermint/v1beta1/blocks/latest') {
    const b = source.block(source.latestHeight());
    if (!b) return grpcError(404, 5, 'no blocks yet');
    return { status: 200, body: `{${lcdBlockJson(b)}}` };
  }
  if ((m = /^\/cosmos\/base\/tendermint\/v1beta1\/blocks\/([^/]+)$/.exec(path))) {
    const b = heightOr404(source, m[1] ?? '');
    return 'height' in b ? { status: 200, body: `{${lcdBlockJson(b)}}` } : b;
  }
  if (path === '/cosmos/base/tendermint/v1beta1/node_info') {
    return json(200, {
      default_node_info: {
        network: source.chainId,
        moniker: source.validators[0]?.moniker ?? 'chain-sim',
        version: '0.38.17',
      },
      application_version: {
        name: source.vm === 'evm' ? 'minievm' : source.vm === 'wasm' ? 'miniwasm' : 'initia',
        app_name: 'chain-sim',
        version: 'v1.0.0',
      },
    });
  }
  if ((m = /^\/opinit\/opchild\/v1\/validator\/([^/]+)$/.exec(path))) return opchildValidator(source, m[1] ?? '');
  if (path === '/opinit/opchild/v1/validators') {
    return json(200, {
      validators: source.validators.map(validatorJson),
      pagination: { next_key: null, total: String(source.validators.length) },
    });
  }
  return grpcError(404, 5, `Not Implemented: ${path.slice(0, 200)}`);
}
