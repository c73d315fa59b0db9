// Chain sources for one height: CometBFT RPC `block` + `block_results` (raw JSON through cosmjs' RPC
// transport, because the decoded cosmjs responses drop `info` and attribute `index` flags that the API
// must echo), the Cosmos REST txs of the block, and on EVM rollups the receipts and optional call traces.
import { HttpClient } from '@cosmjs/tendermint-rpc';
import { JsonRpcProvider } from 'ethers';
import type { RawBlock, RawBlockResults } from './decode/block.js';
import type { RestTx } from './decode/tx.js';
import { MalformedResponseError, TransientSourceError } from '../chain/retry.js';
import { getJson, HttpStatusError } from '../chain/rpc.js';

export interface FetchedBlock {
  height: number;
  block: RawBlock;
  results: RawBlockResults;
  restTxs: RestTx[];
  receipts?: EvmReceipt[];
  traces?: { txHash: string; result?: CallFrame; error?: string }[];
}

export interface EvmReceipt {
  transactionHash: string;
  transactionIndex: string;
  from: string;
  [k: string]: unknown;
}
export interface CallFrame {
  type: string;
  from: string;
  to?: string;
  value?: string;
  gas?: string;
  gasUsed?: string;
  input?: string;
  output?: string;
  error?: string;
  calls?: CallFrame[];
}

export interface ChainSourceOptions {
  rpcUrl: string;
  restUrl: string;
  evmUrl?: string;
  evmTraces?: boolean;
  timeoutMs?: number;
}

export interface ChainSource {
  latestHeight(): Promise<number>;
  fetchBlock(height: number): Promise<FetchedBlock>;
  /** GET against the REST API (JSON), for lookups such as NFT metadata, at `height` when given. */
  restGet<T>(path: string, height?: number): Promise<T>;
  evmCall(to: string, data: string, height: number): Promise<string>;
  close(): void;
}

/** A block the node will never trace (minievm: blocks below 2, "genesis is not traceable"). Not retried. */
export class UntraceableBlockError extends Error {
  override name = 'UntraceableBlockError';
}
const UNTRACEABLE_RE = /genesis is not traceable/i;

const isParseError = (e: unknown) =>
  e instanceof SyntaxError || /JSON|Unexpected (end|token)/i.test((e as Error)?.message ?? '');

let rpcId = 0;

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    p.finally(() => clearTimeout(timer)),
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new TransientSourceError(`${what}: timed out after ${ms} ms`)), ms);
    }),
  ]);
}

export function createChainSource(opts: ChainSourceOptions): ChainSource {
  const timeoutMs = opts.timeoutMs ?? 15_000;
  const rpc = new HttpClient(opts.rpcUrl);
  const evm = opts.evmUrl
    ? new JsonRpcProvider(opts.evmUrl, undefined, { staticNetwork: true, batchMaxCount: 1 })
    : undefined;
  const rest = opts.restUrl.replace(/\/$/, '');

  async function call<T>(method: string, params: Record<string, string>): Promise<T> {
    try {
      const res = await withTimeout(rpc.execute({ jsonrpc: '2.0', id: ++rpcId, method, params }), timeoutMs, method);
      return res.result as T;
    } catch (e) {
      if (e instanceof TransientSourceError) throw e;
      // A pruned node will never have the height again: retrying forever would be a silent stall.
      if (/lowest height is|is not available, lowest/i.test((e as Error).message))
        throw new Error(`${method}: ${(e as Error).message.slice(0, 300)}`);
      const Err = isParseError(e) ? MalformedResponseError : TransientSourceError;
      throw new Err(`${method}: ${(e as Error).message.slice(0, 300)}`);
    }
  }

  async function restGet<T>(pathAndQuery: string, height?: number, retry404 = false): Promise<T> {
    const headers: Record<string, string> = height !== undefined ? { 'x-cosmos-block-height': String(height) } : {};
    try {
      return await getJson<T>(rest + pathAndQuery, { timeoutMs, headers });
    } catch (e) {
      if (e instanceof HttpStatusError) {
        const s = e.status;
        if (s >= 500 || s === 429 || s === 408 || (retry404 && s === 404))
          throw new TransientSourceError(`GET ${pathAndQuery}: HTTP ${s}`);
        throw new Error(`GET ${pathAndQuery}: HTTP ${s} ${e.body.slice(0, 200)}`);
      }
      if (e instanceof SyntaxError) throw new MalformedResponseError(`GET ${pathAndQuery}: ${e.message}`);
      throw new TransientSourceError(`GET ${pathAndQuery}: ${(e as Error).message}`);
    }
  }

  /** All txs of a block from REST, following next_key, falling back to offset when next_key is null too early. */
  async function restTxs(height: number, expected: number): Promise<RestTx[]> {
    const out: RestTx[] = [];
    let key: string | null = null;
    for (let page = 0; out.length < expected && page < 10_000; page++) {
      const q: string = key ? `pagination.key=${encodeURIComponent(key)}` : `pagination.offset=${out.length}`;
      // A REST server lagging behind CometBFT (or a proxy during a restart) answers 404 for a fresh block: retry.
      const body: { txs?: RestTx[]; pagination?: { next_key?: string | null; total?: string } } = await restGet(
        `/cosmos/tx/v1beta1/txs/block/${height}?pagination.limit=100&${q}`,
        undefined,
        true,
      );
      const txs = body.txs ?? [];
      if (txs.length === 0) break;
      out.push(...txs);
      key = body.pagination?.next_key ?? null;
    }
    if (out.length !== expected)
      throw new TransientSourceError(`REST returned ${out.length} of ${expected} txs at height ${height}`);
    return out;
  }

  return {
    async latestHeight() {
      const status = await call<{ sync_info: { latest_block_height: string } }>('status', {});
      return Number(status.sync_info.latest_block_height);
    },
    async fetchBlock(height) {
      const [block, results] = await Promise.all([
        call<RawBlock>('block', { height: String(height) }),
        call<RawBlockResults>('block_results', { height: String(height) }),
      ]);
      const expected = block.block.data.txs?.length ?? 0;
      const hex = `0x${height.toString(16)}`;
      const [txs, receipts, traces] = await Promise.all([
        expected > 0 ? restTxs(height, expected) : Promise.resolve([]),
        evm
          ? evmBulk<EvmReceipt[] | null>('eth_getBlockReceipts', [hex]).then((r) => {
              // null = the JSON-RPC side has not caught up with CometBFT yet: never store the block without them.
              if (r === null && expected > 0)
                throw new TransientSourceError(`eth_getBlockReceipts(${height}) returned null`);
              return r ?? [];
            })
          : Promise.resolve(undefined),
        evm && opts.evmTraces ? blockTraces(hex) : Promise.resolve(undefined),
      ]);
      return { height, block, results, restTxs: txs, receipts, traces };
    },
    restGet: (path, height) => restGet(path, height),
    async evmCall(to, data, height) {
      return evmSend<string>('eth_call', [{ to, data }, `0x${height.toString(16)}`]);
    },
    close() {
      rpc.disconnect();
      evm?.destroy();
    },
  };

  /**
   * callTracer traces of one block. minievm cannot trace blocks 0 and 1 by design (it replays a block on the
   * state of the previous one) and answers -32000 "genesis is not traceable": such a block has no traces, it
   * must not be retried forever (that stalled EVM_INTERNAL_TXS=true ingests at height 1).
   */
  async function blockTraces(hex: string): Promise<FetchedBlock['traces']> {
    try {
      return await evmBulk<FetchedBlock['traces']>('debug_traceBlockByNumber', [hex, { tracer: 'callTracer' }]);
    } catch (e) {
      if (e instanceof UntraceableBlockError) return [];
      throw e;
    }
  }

  /**
   * Bulk per-block JSON-RPC reads (receipts, traces) with the platform's fetch: ethers decodes response bodies
   * with a pure-JS UTF-8 decoder that took over a quarter of the ingest's CPU on receipt-heavy blocks. ethers
   * still serves eth_call and ABI work.
   */
  async function evmBulk<T>(method: string, params: unknown[]): Promise<T> {
    let text: string;
    try {
      const res = await fetch(opts.evmUrl!, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        signal: AbortSignal.timeout(timeoutMs),
        body: JSON.stringify({ jsonrpc: '2.0', id: ++rpcId, method, params }),
      });
      text = await res.text();
      if (res.status >= 500 || res.status === 429) throw new TransientSourceError(`${method}: HTTP ${res.status}`);
    } catch (e) {
      if (e instanceof TransientSourceError) throw e;
      throw new TransientSourceError(`${method}: ${(e as Error).message}`);
    }
    let body: { result?: T; error?: { code?: number; message?: string } };
    try {
      body = JSON.parse(text) as typeof body;
    } catch (e) {
      throw new MalformedResponseError(`${method}: ${(e as Error).message}`);
    }
    if (body.error && UNTRACEABLE_RE.test(body.error.message ?? ''))
      throw new UntraceableBlockError(`${method}: ${body.error.message}`);
    if (body.error)
      throw new TransientSourceError(`${method}: ${body.error.message ?? JSON.stringify(body.error)}`.slice(0, 300));
    return body.result as T;
  }

  async function evmSend<T>(method: string, params: unknown[]): Promise<T> {
    try {
      return (await withTimeout(evm!.send(method, params), timeoutMs, method)) as T;
    } catch (e) {
      if (e instanceof TransientSourceError) throw e;
      const msg = (e as Error).message;
      if (/execution reverted|revert/i.test(msg)) throw new Error(`${method}: ${msg.slice(0, 200)}`);
      throw new (isParseError(e) ? MalformedResponseError : TransientSourceError)(`${method}: ${msg.slice(0, 300)}`);
    }
  }
}
