// Chain sources: per height CometBFT RPC `block` + `block_results` (raw JSON, because the decoded cosmjs responses
// drop `info` and attribute `index` flags that the API must echo), the Cosmos REST txs of the block, and on EVM
// rollups the receipts and optional call traces. Backfills read in JSON-RPC batches (chain/rpc-batch.ts): block
// metas 20 heights a call (`blockchain`, which says how many txs each block holds), then `block` + `block_results`
// of the heights that have txs, their receipts in one EVM batch, and their REST txs by ranged tx queries (several
// heights a request, ingest/tx-ranges.ts). An empty block needs nothing beyond its meta.
import { HttpClient } from '@cosmjs/tendermint-rpc';
import type { RawBlock, RawBlockResults } from './decode/block.js';
import { type RestTx, txHash } from './decode/tx.js';
import { MalformedResponseError, RefusedError, TransientSourceError, UnansweredError } from '../chain/retry.js';
import {
  type BatchAnswer,
  BatchRefusedError,
  batchBody,
  matchBatch,
  type RpcCall,
  type RpcErrorBody,
} from '../chain/rpc-batch.js';
import { requestText } from '../chain/http-keepalive.js';
import { metrics } from '../platform/metrics.js';
import {
  HISTORY_PROBE_PATH,
  indexedTxs,
  planTxReads,
  RANGED_MAX_HISTORY_TXS,
  type RangedAnswer,
  rangedReadsPay,
  rangedTxsPath,
  splitRanged,
} from './tx-ranges.js';

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
/**
 * A block's receipts, checked to be that block's: every receipt naming a block (`blockNumber`, as nodes answer)
 * names this one. Another block's receipts (a proxy or load balancer answering from a node at another height, a
 * cache keyed wrongly) are refused as the other answers of the wrong height are, and the block is asked again.
 */
export function receiptsOf(height: number, receipts: EvmReceipt[]): EvmReceipt[] {
  if (!Array.isArray(receipts)) throw new MalformedResponseError(`eth_getBlockReceipts(${height}): not an array`);
  for (const r of receipts) {
    const named = r?.blockNumber;
    if (typeof named === 'string' && /^0x[0-9a-fA-F]+$/.test(named) && Number(BigInt(named)) !== height)
      throw new TransientSourceError(`eth_getBlockReceipts(${height}) answered receipts of block ${BigInt(named)}`);
  }
  return receipts;
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

/** One height's CometBFT block meta (`blockchain`): everything an empty block is indexed from. */
export interface BlockMeta {
  height: number;
  block_id: RawBlock['block_id'];
  header: RawBlock['block']['header'];
  numTxs: number;
}

export interface ChainSourceOptions {
  rpcUrl: string;
  restUrl: string;
  evmUrl?: string;
  evmTraces?: boolean;
  timeoutMs?: number;
  /**
   * Most calls in one CometBFT JSON-RPC batch (its `max_request_batch_size`, 10 by default; a smaller limit the
   * node states is adopted). 1: no batches, every height read on its own.
   */
  rpcBatch?: number;
  /** Read several heights' REST txs with one ranged tx search (true by default; ingest/tx-ranges.ts). */
  rangedTxReads?: boolean;
  /** Ranged reads only while the node's tx index holds at most this many txs (RANGED_MAX_HISTORY_TXS by default). */
  rangedTxReadsMaxHistory?: number;
}

interface RawBlockMeta {
  block_id: RawBlock['block_id'];
  header: RawBlock['block']['header'];
  num_txs: string;
}

/** Heights of one `blockchain` call (CometBFT returns at most 20 metas). */
export const METAS_PER_CALL = 20;

export interface ChainSource {
  latestHeight(): Promise<number>;
  fetchBlock(height: number): Promise<FetchedBlock>;
  /** Calls allowed in one CometBFT batch now (1: batches are off). */
  rpcBatch(): number;
  /**
   * Metas of heights from..to, by height: METAS_PER_CALL heights a call, rpcBatch() calls a POST (the POSTs sent at
   * once; the fetcher asks one POST's worth). Heights the node does not answer (above its head, below its base)
   * are absent.
   */
  blockMetas(from: number, to: number): Promise<Map<number, BlockMeta>>;
  /**
   * Full answers of `heights`, in the order given: their `block` and `block_results` in CometBFT batches of
   * rpcBatch() calls posted at once (the fetcher asks up to five batches' heights, ingest/fetch.ts `heightsPerGroup`),
   * their receipts (and traces) in EVM batches, their REST txs by ranged tx queries where their txs fit one page
   * (ingest/tx-ranges.ts), else a request per height.
   */
  fetchBlocks(heights: readonly number[]): Promise<FetchedBlock[]>;
  /** GET against the REST API (JSON), for lookups such as NFT metadata, at `height` when given. */
  restGet<T>(path: string, height?: number): Promise<T>;
  /**
   * `eth_call`s in EVM batches (EVM_BATCH_CALLS a POST, the POSTs sent at once); each call's outcome in call order.
   * Throws TransientSourceError when a POST gets no usable answer at all.
   */
  evmCalls(calls: readonly EthCall[]): Promise<EthCallOutcome[]>;
  close(): void;
}

/** One read-only contract call at a height. */
export interface EthCall {
  to: string;
  data: string;
  height: number;
}

/**
 * One call's outcome: its return data; a revert (a definite answer of the chain, never retried); or a failure
 * worth asking again (the node's error other than a revert, or the call left out of the batch answer).
 */
export type EthCallOutcome = { data: string } | { reverted: string } | { failed: TransientSourceError };

/** Calls a POST on EVM JSON-RPC (minievm allows 1,000 calls and 25 MB a batch: 50 blocks' receipts stay far below). */
const EVM_BATCH_CALLS = 50;
const REVERT_RE = /revert/i;

/** A block the node will never trace (minievm: blocks below 2, "genesis is not traceable"). Not retried. */
export class UntraceableBlockError extends Error {
  override name = 'UntraceableBlockError';
}
const UNTRACEABLE_RE = /genesis is not traceable/i;

const isParseError = (e: unknown) =>
  e instanceof SyntaxError || /JSON|Unexpected (end|token)/i.test((e as Error)?.message ?? '');

let rpcId = 0;
/** A ranged tx search slower than this counts against ranged reads (a devnet answers one in about 20 ms). */
const RANGED_SLOW_MS = 1_000;

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
  const evm = opts.evmUrl !== undefined;
  const rest = opts.restUrl.replace(/\/$/, '');
  let batchLimit = Math.max(1, opts.rpcBatch ?? 10);

  async function call<T>(method: string, params: Record<string, string>): Promise<T> {
    try {
      const res = await withTimeout(rpc.execute({ jsonrpc: '2.0', id: ++rpcId, method, params }), timeoutMs, method);
      return res.result as T;
    } catch (e) {
      if (e instanceof TransientSourceError) throw e;
      if (isParseError(e)) throw new MalformedResponseError(`${method}: ${(e as Error).message.slice(0, 300)}`);
      throw rpcFailure(method, (e as Error).message);
    }
  }

  /** A node's error answer: fatal for a pruned height, transient otherwise (e.g. a height not produced yet). */
  function rpcFailure(method: string, message: string): Error {
    // A pruned node will never have the height again: retrying forever would be a silent stall.
    if (/lowest height is|is not available, lowest/i.test(message))
      return new Error(`${method}: ${message.slice(0, 300)}`);
    return new TransientSourceError(`${method}: ${message.slice(0, 300)}`);
  }

  /** The result of a single (not batched) JSON-RPC answer, read as a batch's (resultOf); anything else malformed. */
  function singleResult<T>(answer: unknown, method: string): T {
    if (answer !== null && typeof answer === 'object') {
      if ('result' in answer) return resultOf<T>({ result: answer.result }, method);
      if ('error' in answer && answer.error !== null && typeof answer.error === 'object') {
        const e = answer.error as { message?: unknown; data?: unknown };
        return resultOf<T>(
          { error: { message: typeof e.message === 'string' ? e.message : undefined, data: e.data } },
          method,
        );
      }
    }
    throw new MalformedResponseError(`${method}: the answer is not a JSON-RPC response`);
  }

  /** POST one JSON-RPC call (not a batch) over the kept-alive client; its answer parsed, not yet read. */
  function postCall(url: string, method: string, params: unknown): Promise<unknown> {
    return postRpc(url, JSON.stringify({ jsonrpc: '2.0', id: ++rpcId, method, params }), method);
  }

  function resultOf<T>(a: BatchAnswer, method: string): T {
    if ('result' in a) return a.result as T;
    if ('missing' in a) throw new TransientSourceError(`${method}: the node left this call out of its batch answer`);
    const data = typeof a.error.data === 'string' ? ` (${a.error.data})` : '';
    throw rpcFailure(method, `${a.error.message ?? 'error'}${data}`);
  }

  /**
   * POST one JSON-RPC body over the kept-alive client; its answer parsed. Network errors, 5xx, 429 and 408 are
   * transient, a body that is not JSON is malformed.
   */
  async function postRpc(url: string, body: string, what: string): Promise<unknown> {
    let res: { status: number; text: string };
    try {
      res = await requestText(url, { method: 'POST', body, timeoutMs });
    } catch (e) {
      throw new TransientSourceError(`${what}: ${(e as Error).message}`);
    }
    if (res.status >= 500 || res.status === 429 || res.status === 408)
      throw new TransientSourceError(`${what}: HTTP ${res.status}`);
    try {
      return JSON.parse(res.text);
    } catch (e) {
      throw new MalformedResponseError(`${what}: ${(e as Error).message}`);
    }
  }

  /** POST one JSON-RPC batch; the answers in call order. */
  async function postBatch(url: string, calls: readonly RpcCall[]): Promise<BatchAnswer[]> {
    const what = `${calls[0]!.method} ×${calls.length}`;
    const firstId = rpcId + 1;
    rpcId += calls.length;
    const parsed = await postRpc(url, batchBody(calls, firstId), what);
    try {
      return matchBatch(parsed, firstId, calls.length);
    } catch (e) {
      if (e instanceof BatchRefusedError) throw e;
      throw new MalformedResponseError(`${what}: ${(e as Error).message}`);
    }
  }

  /** `calls` in batches of at most `size`, posted at once; the answers in call order. */
  async function postChunked(url: string, calls: readonly RpcCall[], size: number): Promise<BatchAnswer[]> {
    const chunks: RpcCall[][] = [];
    for (let i = 0; i < calls.length; i += size) chunks.push(calls.slice(i, i + size));
    return (await Promise.all(chunks.map((c) => postBatch(url, c)))).flat();
  }

  /**
   * CometBFT calls in batches of at most batchLimit. A node that refuses a batch for its size and states its limit
   * gets that limit from then on (its `max_request_batch_size` may be below our setting).
   */
  async function cometCalls(calls: readonly RpcCall[]): Promise<BatchAnswer[]> {
    for (let attempt = 0; ; attempt++) {
      const limit = batchLimit;
      try {
        return await postChunked(opts.rpcUrl, calls, limit);
      } catch (e) {
        if (!(e instanceof BatchRefusedError)) throw e;
        if (e.limit !== undefined && e.limit >= 1 && e.limit < limit && attempt < 3) {
          batchLimit = e.limit;
          continue;
        }
        throw new TransientSourceError(`${calls[0]!.method} batch refused: ${e.message}`);
      }
    }
  }

  /** EVM JSON-RPC calls in batches of EVM_BATCH_CALLS, the answers in call order. */
  async function evmCalls(method: string, paramsList: readonly unknown[][]): Promise<BatchAnswer[]> {
    try {
      return await postChunked(
        opts.evmUrl!,
        paramsList.map((params) => ({ method, params })),
        EVM_BATCH_CALLS,
      );
    } catch (e) {
      if (e instanceof BatchRefusedError) throw new TransientSourceError(`${method} batch refused: ${e.message}`);
      throw e;
    }
  }

  async function restGet<T>(pathAndQuery: string, height?: number, retry404 = false): Promise<T> {
    const headers: Record<string, string> = height !== undefined ? { 'x-cosmos-block-height': String(height) } : {};
    let res: { status: number; text: string };
    try {
      res = await requestText(rest + pathAndQuery, { timeoutMs, headers });
    } catch (e) {
      throw new UnansweredError(`GET ${pathAndQuery}: ${(e as Error).message}`);
    }
    const s = res.status;
    if (s < 200 || s > 299) {
      const what = `GET ${pathAndQuery}: HTTP ${s} ${res.text.slice(0, 200)}`;
      if (s >= 500 || s === 429 || s === 408 || (retry404 && s === 404)) throw new TransientSourceError(what);
      if (s >= 400 && s < 500) throw new RefusedError(what, s);
      throw new Error(what);
    }
    try {
      return JSON.parse(res.text) as T;
    } catch (e) {
      throw new MalformedResponseError(`GET ${pathAndQuery}: ${(e as Error).message}`);
    }
  }

  // Ranged tx reads (ingest/tx-ranges.ts) that failed in a row, and how many more runs of heights are read height by
  // height before the next try: a node whose searches keep failing or answering slowly must not pay one a run.
  let rangedFailures = 0;
  let rangedPaused = 0;
  // Whether ranged reads pay on this node, from the size of its tx index, probed once (HISTORY_PROBE_PATH) before the
  // first ranged read: a search costs the node in proportion to every tx it holds. A probe with no HTTP answer is
  // made again at the next run; a refused one (an index that is off) turns ranged reads off.
  let rangedPay: Promise<boolean> | undefined;
  const rangedReadsPayHere = (): Promise<boolean> => {
    if (opts.rangedTxReads === false) return Promise.resolve(false);
    rangedPay ??= restGet<{ total?: unknown }>(HISTORY_PROBE_PATH).then(
      (body) => {
        const held = indexedTxs(body.total);
        if (held !== undefined) metrics.ingestNodeIndexedTxs.set(held);
        return rangedReadsPay(held, opts.rangedTxReadsMaxHistory ?? RANGED_MAX_HISTORY_TXS);
      },
      (e: unknown) => {
        if (e instanceof UnansweredError) rangedPay = undefined;
        return false;
      },
    );
    return rangedPay;
  };

  /**
   * The REST txs of `heights` (whose blocks hold the raw txs `raw[i]`), in their order: runs of heights read with one
   * ranged query where the node answers it exactly, every other height (and any run it does not) one request a height.
   */
  async function txsOfHeights(heights: readonly number[], raw: readonly (readonly string[])[]): Promise<RestTx[][]> {
    const out: RestTx[][] = heights.map(() => []);
    const counts = raw.map((txs) => txs.length);
    const perHeight = (at: readonly number[]) =>
      Promise.all(
        at.map(async (i) => {
          out[i] = await restTxs(heights[i]!, counts[i]!);
        }),
      );
    await Promise.all(
      planTxReads(heights, counts).map(async (r) => {
        if (r.at.length > 1 && rangedPaused > 0) rangedPaused--;
        else if (r.at.length > 1 && (await rangedReadsPayHere())) {
          const got = await rangedTxs(
            r,
            r.at.map((i) => heights[i]!),
            r.at.map((i) => raw[i]!.map(txHash)),
          );
          if (got) {
            r.at.forEach((i, k) => {
              out[i] = got[k]!;
            });
            return;
          }
        }
        await perHeight(r.at);
      }),
    );
    return out;
  }

  /**
   * One ranged read, or undefined (counted as a fallback) when it fails or its answer is not exactly these txs. A
   * slow read is counted too, though its exact answer is kept. A request that got no answer at all (the node or the
   * network down) falls back without counting: the per-height reads meet the same outage and retry it, and ranged
   * reads resume with the node.
   */
  async function rangedTxs(
    r: { from: number; to: number },
    heights: readonly number[],
    hashes: readonly (readonly string[])[],
  ): Promise<RestTx[][] | undefined> {
    let got: RestTx[][] | string;
    const started = performance.now();
    try {
      got = splitRanged(await restGet<RangedAnswer>(rangedTxsPath(r.from, r.to)), heights, hashes);
    } catch (e) {
      if (e instanceof UnansweredError) return undefined;
      got = e instanceof Error ? e.message : String(e);
    }
    // CometBFT's kv indexer answers a tx.height range by walking every tx.height key it holds (v0.38 `matchRange`),
    // so on a node with a long history a search can cost far more than the requests it replaces. A slow search
    // counts as a failure (its answer, when exact, is still used), so such a node soon gets per-height reads.
    const slow = performance.now() - started > RANGED_SLOW_MS;
    if (typeof got !== 'string') metrics.ingestRangedTxReads.inc();
    if (typeof got !== 'string' && !slow) {
      rangedFailures = 0;
      return got;
    }
    metrics.ingestErrors.inc({ kind: typeof got === 'string' ? 'ranged_txs_fallback' : 'ranged_txs_slow' });
    if (++rangedFailures >= 3) {
      rangedFailures = 0;
      rangedPaused = 1_000;
    }
    return typeof got === 'string' ? undefined : got;
  }

  /** All txs of a block from REST, following next_key, falling back to offset when next_key is null too early. */
  async function restTxs(height: number, expected: number): Promise<RestTx[]> {
    const out: RestTx[] = [];
    let key: string | null = null;
    for (let page = 0; out.length < expected && page < 10_000; page++) {
      const q: string = key ? `pagination.key=${encodeURIComponent(key)}` : `pagination.offset=${out.length}`;
      // A REST server lagging behind CometBFT (or a proxy during a restart) answers 404 for a fresh block: retry.
      const body: {
        txs?: RestTx[];
        block?: { header?: { height?: string } };
        pagination?: { next_key?: string | null; total?: string };
      } = await restGet(`/cosmos/tx/v1beta1/txs/block/${height}?pagination.limit=100&${q}`, undefined, true);
      // The answer names its block: txs of another height (a lagging or misrouted REST server) are never stored here.
      const answered = body.block?.header?.height;
      if (answered !== undefined && answered !== String(height))
        throw new TransientSourceError(`REST answered the txs of block ${answered} for height ${height}`);
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
      // Polled every POLL_INTERVAL_MS for as long as the ingest runs, so it goes over the kept-alive client, as the
      // batches do: a call through cosmjs' client (the platform's fetch) costs about 2.5 ms of CPU (decision 019).
      const answer = await postCall(opts.rpcUrl, 'status', {});
      const status = singleResult<{ sync_info?: { latest_block_height?: unknown } }>(answer, 'status');
      const height = Number(status?.sync_info?.latest_block_height);
      if (!Number.isSafeInteger(height) || height < 0)
        throw new MalformedResponseError('status: no latest_block_height in the answer');
      return height;
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
              return receiptsOf(height, r ?? []);
            })
          : Promise.resolve(undefined),
        evm && opts.evmTraces ? blockTraces(hex) : Promise.resolve(undefined),
      ]);
      return { height, block, results, restTxs: txs, receipts, traces };
    },
    rpcBatch: () => batchLimit,
    async blockMetas(from, to) {
      const calls: RpcCall[] = [];
      for (let max = to; max >= from; max -= METAS_PER_CALL)
        calls.push({
          method: 'blockchain',
          params: { minHeight: String(Math.max(from, max - METAS_PER_CALL + 1)), maxHeight: String(max) },
        });
      const out = new Map<number, BlockMeta>();
      for (const a of await cometCalls(calls)) {
        const r = resultOf<{ block_metas?: unknown }>(a, 'blockchain');
        if (!Array.isArray(r?.block_metas)) throw new MalformedResponseError('blockchain: no block_metas array');
        for (const m of r.block_metas as RawBlockMeta[]) {
          const h = Number(m?.header?.height);
          if (!Number.isSafeInteger(h) || typeof m.block_id?.hash !== 'string' || !/^\d+$/.test(String(m.num_txs)))
            throw new MalformedResponseError(`blockchain: a block meta without height, hash or num_txs`);
          if (h >= from && h <= to)
            out.set(h, { height: h, block_id: m.block_id, header: m.header, numTxs: Number(m.num_txs) });
        }
      }
      return out;
    },
    async fetchBlocks(heights) {
      const answers = await cometCalls(
        heights.flatMap((h) => [
          { method: 'block', params: { height: String(h) } },
          { method: 'block_results', params: { height: String(h) } },
        ]),
      );
      const raw = heights.map((height, i) => ({
        height,
        block: resultOf<RawBlock>(answers[2 * i]!, 'block'),
        results: resultOf<RawBlockResults>(answers[2 * i + 1]!, 'block_results'),
      }));
      const rawTxs = raw.map((r) => r.block?.block?.data?.txs ?? []);
      const counts = rawTxs.map((txs) => txs.length);
      // A block without Cosmos txs has no EVM receipts or traces (minievm runs every EVM tx as a Cosmos tx): only
      // the heights with txs are asked, and evmAt[i] is height i's place among them (-1: none).
      const withTxs = heights.filter((_, i) => counts[i]! > 0);
      let asked = 0;
      const evmAt = counts.map((n) => (n > 0 ? asked++ : -1));
      const hexes = withTxs.map((h) => [`0x${h.toString(16)}`]);
      const [txs, receipts, traces] = await Promise.all([
        txsOfHeights(heights, rawTxs),
        evm && withTxs.length ? evmCalls('eth_getBlockReceipts', hexes) : Promise.resolve([]),
        evm && opts.evmTraces && withTxs.length
          ? evmCalls(
              'debug_traceBlockByNumber',
              hexes.map(([hex]) => [hex, { tracer: 'callTracer' }]),
            )
          : Promise.resolve([]),
      ]);
      return raw.map((r, i): FetchedBlock => {
        const j = evmAt[i]!;
        const out: FetchedBlock = { ...r, restTxs: txs[i]! };
        if (!evm) return out;
        if (j < 0) return { ...out, receipts: [], ...(opts.evmTraces ? { traces: [] } : {}) };
        const rec = resultOf<EvmReceipt[] | null>(receipts[j]!, 'eth_getBlockReceipts');
        // null = the JSON-RPC side has not caught up with CometBFT yet: never store the block without them.
        if (rec === null) throw new TransientSourceError(`eth_getBlockReceipts(${r.height}) returned null`);
        out.receipts = receiptsOf(r.height, rec);
        if (opts.evmTraces) {
          const t = traces[j]!;
          const untraceable = 'error' in t && UNTRACEABLE_RE.test(t.error.message ?? '');
          out.traces = untraceable ? [] : resultOf<NonNullable<FetchedBlock['traces']>>(t, 'debug_traceBlockByNumber');
        }
        return out;
      });
    },
    restGet: (path, height) => restGet(path, height),
    async evmCalls(calls) {
      if (calls.length === 0) return [];
      const answers = await evmCalls(
        'eth_call',
        calls.map((c) => [{ to: c.to, data: c.data }, `0x${c.height.toString(16)}`]),
      );
      return answers.map((a): EthCallOutcome => {
        if ('result' in a)
          return typeof a.result === 'string' ? { data: a.result } : { reverted: 'eth_call: no return data' };
        if ('missing' in a) return { failed: new TransientSourceError('eth_call: left out of the batch answer') };
        const message = `eth_call: ${a.error.message ?? 'error'}`.slice(0, 300);
        // minievm answers a revert with code 3 "execution reverted" (and its revert data, if any).
        return a.error.code === 3 || REVERT_RE.test(message)
          ? { reverted: message }
          : { failed: new TransientSourceError(message) };
      });
    },
    close() {
      rpc.disconnect();
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
   * One block's bulk JSON-RPC read (receipts, traces) when heights are read alone. Every EVM read goes over the
   * kept-alive client, none through ethers' provider: it decodes bodies with a pure-JS UTF-8 decoder (over a quarter
   * of the ingest's CPU on receipt-heavy blocks) and builds a rich error for every revert (decision 026).
   */
  async function evmBulk<T>(method: string, params: unknown[]): Promise<T> {
    const body = (await postCall(opts.evmUrl!, method, params)) as { result?: T; error?: RpcErrorBody };
    if (body.error && UNTRACEABLE_RE.test(body.error.message ?? ''))
      throw new UntraceableBlockError(`${method}: ${body.error.message}`);
    if (body.error)
      throw new TransientSourceError(`${method}: ${body.error.message ?? JSON.stringify(body.error)}`.slice(0, 300));
    return body.result as T;
  }
}
