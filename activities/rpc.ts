// The chain reads tracking needs, over the shared transport of chain/rpc.ts: CometBFT RPC (tx, tx_search,
// block), Cosmos REST (GET) and EVM JSON-RPC. Every call is bounded by a timeout; failures throw so the
// activity's retry policy takes over.
import { endpointUrl, getJson, HttpStatusError, jsonRpc as rpcCall } from '../chain/rpc.js';
import type { ChainTx } from '../workflows/model.js';
import type { AbciEvent, EvmLog } from '../chain/events.js';
import { LZ_TOPICS } from '../workflows/evidence.js';

interface CometTx {
  hash: string;
  height: string;
  tx_result: { code: number; log?: string; events?: AbciEvent[] };
}

/** Txs a tx_search page holds. */
export const SEARCH_PAGE = 30;

/** CometBFT RPC client for one chain; block times are cached (immutable once sealed). */
export class CometClient {
  private readonly blockTimes = new Map<number, string>();
  constructor(
    readonly chainId: string,
    private readonly base: string,
  ) {}

  private url(path: string, q: Record<string, string>): string {
    return endpointUrl(this.base, path, q);
  }

  async blockTime(height: number): Promise<string> {
    const hit = this.blockTimes.get(height);
    if (hit) return hit;
    const body = (await getJson(this.url('block', { height: String(height) }))) as {
      result?: { block?: { header?: { time?: string } } };
    };
    const t = body.result?.block?.header?.time ?? '';
    // RFC 3339 without sub-second digits: the API's on_chain_at form.
    const time = t ? new Date(t).toISOString().replace(/\.\d{3}Z$/, 'Z') : '';
    if (this.blockTimes.size > 10_000) this.blockTimes.clear();
    this.blockTimes.set(height, time);
    return time;
  }

  /** Without the block time (filled lazily by withTime: most scanned txs never match anything). */
  private toChainTx(r: CometTx): ChainTx {
    return {
      chainId: this.chainId,
      hash: r.hash.toUpperCase(),
      height: Number(r.height),
      time: '',
      code: r.tx_result.code ?? 0,
      log: r.tx_result.log,
      events: r.tx_result.events ?? [],
    };
  }

  async withTime(tx: ChainTx): Promise<ChainTx> {
    return tx.time ? tx : { ...tx, time: await this.blockTime(tx.height) };
  }

  async latest(): Promise<number> {
    const body = (await getJson(this.url('status', {}))) as {
      result?: { sync_info?: { latest_block_height?: string } };
    };
    const h = Number(body.result?.sync_info?.latest_block_height);
    if (!Number.isSafeInteger(h)) throw new Error(`status of ${this.chainId} has no latest_block_height`);
    return h;
  }

  /** The latest block's time (ms since the epoch): the chain's own clock, which trails the wall clock. */
  async latestTime(): Promise<number> {
    const body = (await getJson(this.url('status', {}))) as {
      result?: { sync_info?: { latest_block_time?: string } };
    };
    const t = Date.parse(body.result?.sync_info?.latest_block_time ?? '');
    if (!Number.isFinite(t)) throw new Error(`status of ${this.chainId} has no latest_block_time`);
    return t;
  }

  /** Every tx with from ≤ height ≤ to (paged tx_search over the height range). */
  async range(from: number, to: number): Promise<ChainTx[]> {
    const out: ChainTx[] = [];
    for (let page = 1; page <= 100; page++) {
      const body = (await getJson(
        this.url('tx_search', {
          query: `"tx.height>=${from} AND tx.height<=${to}"`,
          prove: 'false',
          page: String(page),
          per_page: '100',
          order_by: '"asc"',
        }),
      )) as { result?: { txs?: CometTx[]; total_count?: string }; error?: { data?: string } };
      if (!body.result) {
        // An empty range answers "page should be within [1, 0]" on some versions; any other error is the node's,
        // and a feed must not step over heights it could not read.
        const why = `${body.error?.data ?? ''}`;
        if (/page should be within/i.test(why)) break;
        throw new Error(`tx_search ${from}..${to} on ${this.chainId}: ${why.slice(0, 200) || 'no result'}`);
      }
      for (const t of body.result.txs ?? []) out.push(this.toChainTx(t));
      if (out.length >= Number(body.result.total_count ?? 0) || (body.result.txs ?? []).length === 0) break;
    }
    return out;
  }

  /** The tx by Cosmos hash, or null while it is not in a block. */
  async tx(hash: string): Promise<ChainTx | null> {
    let body: { result?: CometTx; error?: { data?: string; message?: string } };
    try {
      body = (await getJson(this.url('tx', { hash: `0x${hash}`, prove: 'false' }))) as typeof body;
    } catch (e) {
      // CometBFT answers an unknown hash with a JSON-RPC error (HTTP 500 on some versions).
      if (e instanceof HttpStatusError && e.status === 500) return null;
      throw e;
    }
    if (body.result) return this.withTime(this.toChainTx(body.result));
    // CometBFT words an unknown hash as `tx (HASH) not found`; anything else is a node problem: retry.
    if (/not found/i.test(body.error?.data ?? body.error?.message ?? '')) return null;
    throw new Error(`tx ${hash} on ${this.chainId}: ${body.error?.data ?? body.error?.message ?? 'empty answer'}`);
  }

  /**
   * Txs matching `conditions`, all ANDed: `event.attr = 'value'`, or `event.attr >= n` for `{ atLeast: n }`
   * (CometBFT compares numerically). Oldest first, SEARCH_PAGE a page (`page` from 1).
   */
  async search(conditions: Record<string, string | { atLeast: number }>, page = 1): Promise<ChainTx[]> {
    const query = Object.entries(conditions)
      .map(([k, v]) => {
        if (!/^[A-Za-z0-9_.\-/]+$/.test(k)) throw new Error(`refusing to build tx_search query from ${k}`);
        if (typeof v !== 'string') {
          if (!Number.isSafeInteger(v.atLeast))
            throw new Error(`refusing to build tx_search query from ${k}>=${v.atLeast}`);
          return `${k}>=${v.atLeast}`;
        }
        if (!/^[A-Za-z0-9_.\-/]+$/.test(v)) throw new Error(`refusing to build tx_search query from ${k}=${v}`);
        return `${k}='${v}'`;
      })
      .join(' AND ');
    const body = (await getJson(
      this.url('tx_search', {
        query: `"${query}"`,
        prove: 'false',
        page: String(page),
        per_page: String(SEARCH_PAGE),
        order_by: '"asc"',
      }),
    )) as {
      result?: { txs?: CometTx[] };
    };
    return (body.result?.txs ?? []).map((t) => this.toChainTx(t));
  }
}

export async function restGet(base: string, path: string): Promise<unknown | null> {
  try {
    return await getJson(endpointUrl(base, path));
  } catch (e) {
    if (e instanceof HttpStatusError && e.status === 404) return null;
    throw e;
  }
}

/** L1's output `index` of an OPinit bridge (REST), or undefined when it holds none (never proposed, or deleted). */
export async function outputProposal(
  restUrl: string,
  bridgeId: string,
  index: string,
): Promise<{ l2_block_number?: string; output_root?: string; l1_block_time?: string } | undefined> {
  let r: { output_proposal?: { l2_block_number?: string; output_root?: string; l1_block_time?: string } } | null;
  try {
    r = (await restGet(restUrl, `/opinit/ophost/v1/bridges/${bridgeId}/outputs/${index}`)) as typeof r;
  } catch (e) {
    // initiad answers a missing output with HTTP 500 {"code":2,"message":"collections: not found: key …"}
    // (test/fixtures/opinit-devnet/l1-rest-output-deleted.json); any other error is the caller's to retry.
    if (e instanceof HttpStatusError && /collections: not found/.test(e.body)) return undefined;
    throw e;
  }
  return r?.output_proposal;
}

/**
 * A GET of an OPinit executor (opinit-bots) API, which answers what it does not know (yet) with an HTTP error
 * (`/withdrawal/{seq}`: 500 "failed to query withdrawal"): its JSON, else `unknown` when it answered with an
 * error (it runs), `unreachable` when it did not answer at all (refused, timed out).
 */
export async function executorGet(
  base: string,
  path: string,
): Promise<{ answer: unknown } | { missing: 'unknown' | 'unreachable' }> {
  try {
    const answer = await restGet(base, path);
    return answer === null ? { missing: 'unknown' } : { answer };
  } catch (e) {
    return { missing: e instanceof HttpStatusError ? 'unknown' : 'unreachable' };
  }
}

interface EvmReceipt {
  transactionHash: string;
  blockNumber: string;
  status: string;
  logs: EvmLog[];
}

export class EvmClient {
  private readonly blockTimes = new Map<string, string>();
  constructor(
    readonly chainId: string,
    private readonly url: string,
  ) {}

  async withTime(tx: ChainTx): Promise<ChainTx> {
    return tx.time ? tx : { ...tx, time: await this.blockTime(`0x${tx.height.toString(16)}`) };
  }

  latest(): Promise<number> {
    return this.latestBlock();
  }

  /** LayerZero destination logs (OFTReceived, LzReceiveAlert) in [from, to], grouped by tx. */
  range(from: number, to: number): Promise<ChainTx[]> {
    return this.logs([[LZ_TOPICS.OFTReceived, LZ_TOPICS.LzReceiveAlert]], from, to);
  }

  /** Block `n`'s time in Unix ms, or null when the node has no such block. */
  async blockTimeMs(n: number): Promise<number | null> {
    const t = Date.parse(await this.blockTime(`0x${n.toString(16)}`));
    return Number.isFinite(t) ? t : null;
  }

  private async blockTime(blockNumber: string): Promise<string> {
    const hit = this.blockTimes.get(blockNumber);
    if (hit) return hit;
    const b = (await rpcCall(this.url, 'eth_getBlockByNumber', [blockNumber, false])) as { timestamp?: string } | null;
    const time = b?.timestamp
      ? new Date(Number(BigInt(b.timestamp)) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z')
      : '';
    if (this.blockTimes.size > 10_000) this.blockTimes.clear();
    this.blockTimes.set(blockNumber, time);
    return time;
  }

  async tx(hash: string): Promise<ChainTx | null> {
    const r = (await rpcCall(this.url, 'eth_getTransactionReceipt', [hash])) as EvmReceipt | null;
    if (!r) return null;
    return {
      chainId: this.chainId,
      hash: r.transactionHash.toLowerCase(),
      height: Number(BigInt(r.blockNumber)),
      time: await this.blockTime(r.blockNumber),
      code: BigInt(r.status) === 1n ? 0 : 1,
      log: BigInt(r.status) === 1n ? undefined : 'execution reverted',
      events: [],
      evmLogs: r.logs,
    };
  }

  async latestBlock(): Promise<number> {
    return Number(BigInt((await rpcCall(this.url, 'eth_blockNumber', [])) as string));
  }

  /** Logs matching topics in [fromBlock, latest], grouped into their txs (receipt-level detail not needed). */
  async logs(topics: (string | string[] | null)[], fromBlock: number, toBlock?: number): Promise<ChainTx[]> {
    const to = toBlock === undefined ? 'latest' : `0x${toBlock.toString(16)}`;
    const logs = (await rpcCall(this.url, 'eth_getLogs', [
      { fromBlock: `0x${fromBlock.toString(16)}`, toBlock: to, topics },
    ])) as (EvmLog & {
      transactionHash: string;
      blockNumber: string;
    })[];
    const byTx = new Map<string, ChainTx>();
    for (const l of logs) {
      const key = l.transactionHash.toLowerCase();
      let t = byTx.get(key);
      if (!t) {
        t = {
          chainId: this.chainId,
          hash: key,
          height: Number(BigInt(l.blockNumber)),
          time: '',
          code: 0,
          events: [],
          evmLogs: [],
        };
        byTx.set(key, t);
      }
      t.evmLogs!.push(l);
    }
    return [...byTx.values()];
  }
}
