// One node:http server on loopback speaking three protocols over a SimChainSource:
//   POST /            CometBFT JSON-RPC (single or batch)   GET /<method>?…  CometBFT URI form
//   POST /evm         EVM JSON-RPC (only when the chain has an EVM chain id; single or batch)
//   GET  /cosmos/… /opinit/… /initia/… …  Cosmos REST, plus routes registered with registerGet
// One port keeps the devnet simple: rpcUrl and restUrl are the same base URL, evmUrl is base + '/evm'.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SimChainSource } from './types.js';
import { cometCall, intParam, ParamError, type Params, type RpcOutcome } from './cometbft.js';
import { evmCall, evmRestCall, type EthCallHandler } from './evm.js';
import { grpcError, type RestAnswer, restGet, type RestHandler, type RestRoute } from './rest.js';

const MAX_BODY_BYTES = 1 << 20;
/** Most calls in one batch: CometBFT's default `max_request_batch_size`, and minievm's `batch-request-limit`. */
const MAX_BATCH = { comet: 10, evm: 1000 } as const;
const COMET_URI_METHODS = new Set([
  'status',
  'health',
  'abci_info',
  'block',
  'block_results',
  'blockchain',
  'tx',
  'tx_search',
]);

export type FaultKind = 'http500' | 'timeout' | 'malformed';
interface Fault {
  kind: FaultKind;
  remaining: number;
  delayMs: number;
}

/** Fault injection: per height, the next N requests touching that height misbehave. */
export class Faults {
  private readonly byHeight = new Map<number, Fault>();
  /** Added to every response (simulates a slow node). */
  latencyMs = 0;
  /** How many faults were served (tests assert retries happened). */
  served = 0;
  /** Answer every batch in reverse order (allowed by JSON-RPC 2.0; clients must match answers by id). */
  shuffleBatches = false;
  /** The next N batch answers (of two calls or more) leave out their last answer. */
  dropBatchAnswers = 0;
  /**
   * The next N REST tx searches (`GET /cosmos/tx/v1beta1/txs`) of more than one tx leave out their last tx, total
   * included, as a node whose tx index lags its blocks (CometBFT indexes after commit) answers.
   */
  laggingTxIndex = 0;
  /**
   * Every REST tx search fails as on a node with tx indexing off (`indexer = "null"`): CometBFT's "transaction
   * indexing is disabled", wrapped by the SDK as gRPC Internal (HTTP 500).
   */
  txIndexOff = false;
  /** The next N REST tx searches get no answer: the connection is closed (a node restarting, a proxy dropping it). */
  unansweredTxSearches = 0;
  /** The next N REST requests of any path get no answer (a node down for a while). */
  unansweredRest = 0;
  /**
   * Heights whose next `answers` answers of `block`, `block_results` and REST `txs/block` (or `only` the RPC's or
   * the REST's; or, with `only: 'evm'`, `eth_getBlockReceipts` alone) are another height's, as from a misrouted or
   * lagging node behind a proxy.
   */
  readonly misrouted = new Map<number, { to: number; answers: number; only?: 'rpc' | 'rest' | 'evm' }>();

  /** The height to answer for `height` on `via`: another one while it is misrouted there (one answer consumed). */
  route(height: number, via: 'rpc' | 'rest' | 'evm'): number {
    const m = this.misrouted.get(height);
    if (!m || (m.only ? m.only !== via : via === 'evm')) return height;
    if (--m.answers <= 0) this.misrouted.delete(height);
    this.served++;
    return m.to;
  }

  failHeight(height: number, opts: { kind: FaultKind; times?: number; delayMs?: number }): void {
    this.byHeight.set(height, { kind: opts.kind, remaining: opts.times ?? 1, delayMs: opts.delayMs ?? 30_000 });
  }

  clear(): void {
    this.byHeight.clear();
    this.latencyMs = 0;
    this.shuffleBatches = false;
    this.dropBatchAnswers = 0;
    this.laggingTxIndex = 0;
    this.txIndexOff = false;
    this.unansweredTxSearches = 0;
    this.unansweredRest = 0;
    this.misrouted.clear();
  }

  /** Consumes one fault for the first faulted height among `heights`. */
  take(heights: number[]): Fault | undefined {
    for (const h of heights) {
      const f = this.byHeight.get(h);
      if (!f) continue;
      if (--f.remaining <= 0) this.byHeight.delete(h);
      this.served++;
      return f;
    }
    return undefined;
  }
}

interface RpcRequest {
  jsonrpc?: string;
  id?: unknown;
  method?: unknown;
  params?: Params;
}

export interface ChainServer {
  url: string;
  rpcUrl: string;
  restUrl: string;
  evmUrl?: string;
  faults: Faults;
  /** Extra REST GET route; string patterns match the exact path. `first`: tried before the routes registered so far. */
  registerGet(pattern: string | RegExp, handler: RestHandler, opts?: { first?: boolean }): void;
  registerEthCall(handler: EthCallHandler): void;
  /** Requests served, by protocol; `txSearches`: the REST tx searches among `rest`. */
  stats: { comet: number; rest: number; evm: number; txSearches: number };
  close(): Promise<void>;
}

export interface ChainServerOptions {
  host?: string;
  port?: number;
}

function heightsOf(method: string, params: Params): number[] {
  const p0 = Array.isArray(params) ? params[0] : (params?.height ?? params?.minHeight);
  if (method === 'block' || method === 'block_results') {
    try {
      const h = intParam(p0, 'height');
      return h === undefined ? [] : [h];
    } catch {
      return [];
    }
  }
  if (method === 'blockchain') {
    // Every height the metas cover: a fault injected at an empty block's height is met by the read of its meta.
    try {
      const min = intParam(p0, 'minHeight');
      const max = intParam(Array.isArray(params) ? params[1] : params?.maxHeight, 'maxHeight');
      if (min === undefined || max === undefined || max - min > 19) return [];
      return Array.from({ length: Math.max(0, max - min + 1) }, (_, i) => min + i);
    } catch {
      return [];
    }
  }
  if (
    ['eth_getBlockByNumber', 'eth_getBlockReceipts', 'debug_traceBlockByNumber'].includes(method) &&
    typeof p0 === 'string' &&
    /^0x[0-9a-f]+$/i.test(p0)
  ) {
    return [Number.parseInt(p0, 16)];
  }
  return [];
}

function envelope(id: unknown, out: RpcOutcome): string {
  const idJson = JSON.stringify(id ?? null);
  return 'result' in out
    ? `{"jsonrpc":"2.0","id":${idJson},"result":${out.result}}`
    : `{"jsonrpc":"2.0","id":${idJson},"error":${JSON.stringify(out.error)}}`;
}

/** Shape-breaking answer for fault injection: block_results loses its arrays, anything else is cut short. */
function malformed(method: string, body: string): string {
  if (method === 'block_results')
    return body.replace(/"result":\{.*\}\}$/s, '"result":{"height":"x","txs_results":"not-an-array"}}');
  return body.slice(0, Math.max(1, Math.floor(body.length / 2)));
}

/** minievm's REST EVM call (a POST on the REST side), answered from the registered eth_call handlers. */
const EVM_REST_CALL = '/minievm/evm/v1/call';

export async function startChainServer(source: SimChainSource, opts: ChainServerOptions = {}): Promise<ChainServer> {
  const faults = new Faults();
  const extraRoutes: RestRoute[] = [];
  const ethCalls: EthCallHandler[] = [];
  const stats = { comet: 0, rest: 0, evm: 0, txSearches: 0 };

  /** Whether this REST request gets no answer (fault `unansweredRest`): its connection is closed. */
  const unanswered = (res: http.ServerResponse): boolean => {
    if (faults.unansweredRest <= 0) return false;
    faults.unansweredRest--;
    faults.served++;
    res.socket?.destroy();
    return true;
  };

  /** A `block` or `block_results` call's params with the height `faults.misrouted` answers instead. */
  const misroutedParams = (method: string, params: RpcRequest['params']): RpcRequest['params'] => {
    if (faults.misrouted.size === 0) return params;
    if (method === 'eth_getBlockReceipts' && Array.isArray(params) && /^0x[0-9a-f]+$/i.test(String(params[0]))) {
      const h = Number.parseInt(String(params[0]), 16);
      return [`0x${faults.route(h, 'evm').toString(16)}`, ...params.slice(1)];
    }
    if (method !== 'block' && method !== 'block_results') return params;
    const h = Number((params as { height?: unknown } | undefined)?.height);
    return Number.isSafeInteger(h) ? { ...params, height: String(faults.route(h, 'rpc')) } : params;
  };

  const dispatch = (
    kind: 'comet' | 'evm',
    req: RpcRequest,
  ): { body: string; method: string; heights: number[]; failed: boolean } => {
    const method = typeof req.method === 'string' ? req.method : '';
    if (!method || (req.params !== undefined && typeof req.params !== 'object')) {
      return {
        body: envelope(req.id, { error: { code: -32600, message: 'Invalid Request' } }),
        method,
        heights: [],
        failed: true,
      };
    }
    let out: RpcOutcome;
    const params = misroutedParams(method, req.params);
    try {
      out = kind === 'comet' ? cometCall(source, method, params) : evmCall(source, method, params, ethCalls);
    } catch (e) {
      out = {
        error: {
          code: e instanceof ParamError ? -32602 : -32603,
          message: e instanceof ParamError ? 'Invalid params' : 'Internal error',
          data: e instanceof Error ? e.message : String(e),
        },
      };
    }
    return { body: envelope(req.id, out), method, heights: heightsOf(method, req.params), failed: 'error' in out };
  };

  const send = (res: http.ServerResponse, status: number, body: string): void => {
    const write = (): void => {
      if (res.destroyed) return;
      res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    };
    if (faults.latencyMs > 0) setTimeout(write, faults.latencyMs).unref();
    else write();
  };

  /** Applies an injected fault; returns true when the response was taken over. */
  const applyFault = (res: http.ServerResponse, heights: number[], method: string, body: string): boolean => {
    const f = heights.length ? faults.take(heights) : undefined;
    if (!f) return false;
    if (f.kind === 'http500') send(res, 500, JSON.stringify({ error: 'injected transient failure' }));
    else if (f.kind === 'malformed') send(res, 200, malformed(method, body));
    else setTimeout(() => res.socket?.destroy(), f.delayMs).unref();
    return true;
  };

  const handleRpc = (kind: 'comet' | 'evm', raw: string, res: http.ServerResponse): void => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      send(res, 200, envelope(null, { error: { code: -32700, message: 'Parse error' } }));
      return;
    }
    if (Array.isArray(parsed)) {
      if (parsed.length === 0 || parsed.length > MAX_BATCH[kind]) {
        // As a minievm v1.2.18 node (test/fixtures/cometbft-rpc/minievm-v1.2.18/batch-refused.json): one Invalid
        // Request error without an id, not in an array, HTTP 200.
        const data = `batch request exceeds maximum (${MAX_BATCH[kind]}) allowed number of requests`;
        send(res, 200, JSON.stringify({ jsonrpc: '2.0', error: { code: -32600, message: 'Invalid Request', data } }));
        return;
      }
      const parts = parsed.map((r) => dispatch(kind, (r ?? {}) as RpcRequest));
      // JSON-RPC 2.0 lets a server answer a batch in any order (fault mode `shuffleBatches` reverses it), and a
      // client must notice an answer left out (`dropBatchAnswers`: the next N batches lose their last answer).
      const ordered = faults.shuffleBatches ? [...parts].reverse() : parts;
      if (faults.dropBatchAnswers > 0 && ordered.length > 1) {
        faults.dropBatchAnswers--;
        faults.served++;
        ordered.pop();
      }
      const body = `[${ordered.map((p) => p.body).join(',')}]`;
      if (
        applyFault(
          res,
          parts.flatMap((p) => p.heights),
          parts[0]?.method ?? '',
          body,
        )
      )
        return;
      send(res, 200, body);
      return;
    }
    const one = dispatch(kind, (parsed ?? {}) as RpcRequest);
    if (applyFault(res, one.heights, one.method, one.body)) return;
    send(res, 200, one.body);
  };

  const handleGet = (url: URL, req: http.IncomingMessage, res: http.ServerResponse): void => {
    const method = url.pathname.slice(1);
    if (COMET_URI_METHODS.has(method)) {
      stats.comet++;
      const params: Record<string, unknown> = {};
      url.searchParams.forEach((v, k) => {
        params[k] = v;
      });
      const one = dispatch('comet', { id: -1, method, params });
      if (applyFault(res, one.heights, method, one.body)) return;
      // CometBFT's URI (GET) handler answers an RPC error with HTTP 500 (JSON-RPC POST answers 200); rollytics'
      // RPC client reads "current blockchain height N" from a 500 body only.
      send(res, one.failed ? 500 : 200, one.body);
      return;
    }
    stats.rest++;
    if (unanswered(res)) return;
    const m = /^\/cosmos\/(?:tx\/v1beta1\/txs\/block|base\/tendermint\/v1beta1\/blocks)\/(\d{1,16})$/.exec(
      url.pathname,
    );
    // The state height a REST client asks for (gRPC-gateway's header); absent = the latest.
    const h = req.headers['x-cosmos-block-height'];
    const height = /^\d{1,16}$/.test(String(h ?? '')) ? Number(h) : undefined;
    const misroutedPath =
      m && url.pathname.startsWith('/cosmos/tx/') && faults.misrouted.has(Number(m[1]))
        ? `/cosmos/tx/v1beta1/txs/block/${faults.route(Number(m[1]), 'rest')}`
        : url.pathname;
    let out = restGet(source, misroutedPath, url.searchParams, extraRoutes, { height });
    if (m && applyFault(res, [Number(m[1])], 'rest', out.body)) return;
    if (url.pathname === '/cosmos/tx/v1beta1/txs') {
      stats.txSearches++;
      if (faults.unansweredTxSearches > 0) {
        faults.unansweredTxSearches--;
        faults.served++;
        res.socket?.destroy();
        return;
      }
      if (faults.txIndexOff) {
        faults.served++;
        out = grpcError(500, 13, 'failed to search for txs: transaction indexing is disabled');
      }
      // A tx search over a height range meets the faults of the heights in it.
      const r = /tx\.height>=(\d{1,16}) AND tx\.height<=(\d{1,16})/.exec(url.searchParams.get('query') ?? '');
      const span = r ? Math.min(Number(r[2]) - Number(r[1]) + 1, 1_000) : 0;
      const heights = Array.from({ length: Math.max(0, span) }, (_, i) => Number(r![1]) + i);
      if (heights.length > 0 && applyFault(res, heights, 'rest', out.body)) return;
      if (out.status === 200 && faults.laggingTxIndex > 0) out = lagging(out, faults);
    }
    send(res, out.status, out.body);
  };

  const server = http.createServer((req, res) => {
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://127.0.0.1');
    } catch {
      send(res, 400, JSON.stringify({ code: 3, message: 'bad url', details: [] }));
      return;
    }
    if (req.method === 'GET') {
      try {
        handleGet(url, req, res);
      } catch (e) {
        // A malformed escape in a query is the caller's fault; anything else (e.g. a registered route throwing) is ours.
        const bad = e instanceof URIError;
        send(
          res,
          bad ? 400 : 500,
          grpcError(bad ? 400 : 500, bad ? 3 : 13, e instanceof Error ? e.message : String(e)).body,
        );
      }
      return;
    }
    if (req.method === 'POST' && url.pathname === EVM_REST_CALL && source.evmChainId !== undefined) {
      stats.rest++;
      if (unanswered(res)) return;
      const chunks: Buffer[] = [];
      let size = 0;
      req.on('data', (c: Buffer) => {
        size += c.length;
        if (size <= MAX_BODY_BYTES) chunks.push(c);
      });
      req.on('end', () => {
        if (size > MAX_BODY_BYTES) {
          send(res, 413, grpcError(413, 3, `request body exceeds ${MAX_BODY_BYTES} bytes`).body);
          return;
        }
        const h = req.headers['x-cosmos-block-height'];
        const out = evmRestCall(Buffer.concat(chunks).toString('utf8'), Array.isArray(h) ? h[0] : h, ethCalls);
        send(res, out.status, out.body);
      });
      return;
    }
    if (req.method !== 'POST' || (url.pathname !== '/' && url.pathname !== '/evm')) {
      send(res, 405, grpcError(405, 12, `${req.method ?? ''} ${url.pathname.slice(0, 100)} is not served`).body);
      return;
    }
    const kind = url.pathname === '/evm' ? 'evm' : 'comet';
    stats[kind]++;
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      if (size > MAX_BODY_BYTES) return; // already answered; drain the rest
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        res.setHeader('connection', 'close');
        send(
          res,
          413,
          envelope(null, { error: { code: -32600, message: `request body exceeds ${MAX_BODY_BYTES} bytes` } }),
        );
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => {
      if (size <= MAX_BODY_BYTES) handleRpc(kind, Buffer.concat(chunks).toString('utf8'), res);
    });
  });
  server.keepAliveTimeout = 30_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => resolve());
  });
  const addr = server.address() as AddressInfo;
  const url = `http://${opts.host ?? '127.0.0.1'}:${addr.port}`;
  return {
    url,
    rpcUrl: url,
    restUrl: url,
    ...(source.evmChainId !== undefined ? { evmUrl: `${url}/evm` } : {}),
    faults,
    stats,
    registerGet(pattern, handler, opts) {
      const re =
        typeof pattern === 'string' ? new RegExp(`^${pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) : pattern;
      if (opts?.first) extraRoutes.unshift({ pattern: re, handler });
      else extraRoutes.push({ pattern: re, handler });
    },
    registerEthCall(handler) {
      ethCalls.push(handler);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A tx search answer without its last tx (Faults.laggingTxIndex); answers of one tx or none are left alone. */
function lagging(out: RestAnswer, faults: Faults): RestAnswer {
  const body = JSON.parse(out.body) as { txs: unknown[]; tx_responses: unknown[]; total: string };
  if (body.txs.length < 2) return out;
  faults.laggingTxIndex--;
  faults.served++;
  body.txs.pop();
  body.tx_responses.pop();
  body.total = String(Number(body.total) - 1);
  return { status: 200, body: JSON.stringify(body) };
}
