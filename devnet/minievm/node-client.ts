// The node reads and writes the generator and the e2e checks use, over the shared transport of chain/rpc.ts:
// CometBFT RPC, Cosmos REST (EVM JSON-RPC goes through ethers).
import { toBase64 } from '@cosmjs/encoding';
import { getJson as httpGetJson, HttpStatusError, jsonRpc } from '../../chain/rpc.js';

export interface NodeEndpoints {
  chainId: string;
  cometRpc: string;
  rest: string;
  evmRpc: string;
}

const HTTP_TIMEOUT_MS = 10_000;

export function endpointsFromEnv(env: NodeJS.ProcessEnv = process.env): NodeEndpoints {
  const need = (k: string): string => {
    const v = env[k];
    if (!v) throw new Error(`${k} is required`);
    return v.replace(/\/+$/, '');
  };
  return {
    chainId: need('CHAIN_ID'),
    cometRpc: need('COMETBFT_RPC_URL'),
    rest: need('COSMOS_REST_URL'),
    evmRpc: need('EVM_JSONRPC_URL'),
  };
}

/**
 * A kept-alive socket to a node that was restarted (RESUME) is closed under the first request that reuses it
 * ("fetch failed", other side closed): such a request is sent once more on a new socket. HTTP answers, even
 * errors, are never retried here.
 */
async function onceMore<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (!(err instanceof TypeError && err.message === 'fetch failed')) throw err;
    await sleep(200);
    return call();
  }
}

export function getJson<T>(url: string): Promise<T> {
  return onceMore(() => httpGetJson<T>(url, { timeoutMs: HTTP_TIMEOUT_MS }));
}

/** A non-2xx answer (`.status`, `.url`, `.body`). */
export const HttpError = HttpStatusError;

export async function cometRpc<T>(base: string, method: string, params: Record<string, unknown>): Promise<T> {
  const result = await onceMore(() => jsonRpc<T | undefined>(base, method, params, { timeoutMs: HTTP_TIMEOUT_MS }));
  if (result === undefined) throw new Error(`${method}: empty result`);
  return result;
}

export async function latestHeight(ep: NodeEndpoints): Promise<number> {
  const s = await cometRpc<{ sync_info: { latest_block_height: string } }>(ep.cometRpc, 'status', {});
  return Number(s.sync_info.latest_block_height);
}

export interface CheckTxResult {
  code: number;
  log: string;
  hash: string;
}

export function broadcastSync(ep: NodeEndpoints, txBytes: Uint8Array): Promise<CheckTxResult> {
  return cometRpc<CheckTxResult>(ep.cometRpc, 'broadcast_tx_sync', { tx: toBase64(txBytes) });
}

export interface CometTx {
  hash: string;
  height: string;
  index: number;
  tx_result: {
    code: number;
    codespace?: string;
    gas_used: string;
    gas_wanted: string;
    log?: string;
    events?: { type: string; attributes: { key: string; value: string }[] }[];
  };
}

/** Polls CometBFT `tx` until the hash is committed. */
export async function waitForCosmosTx(ep: NodeEndpoints, hashHex: string, timeoutMs = 30_000): Promise<CometTx> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await cometRpc<CometTx>(ep.cometRpc, 'tx', {
        hash: Buffer.from(hashHex, 'hex').toString('base64'),
        prove: false,
      });
    } catch (err) {
      if (Date.now() > deadline) throw new Error(`tx ${hashHex} not committed within ${timeoutMs} ms: ${String(err)}`);
      await sleep(250);
    }
  }
}

/** Every tx matching a CometBFT `tx_search` query, ascending, via pages of 100. */
export async function txSearch(ep: NodeEndpoints, query: string): Promise<CometTx[]> {
  const out: CometTx[] = [];
  for (let page = 1; page <= 1000; page++) {
    const r = await cometRpc<{ txs: CometTx[]; total_count: string }>(ep.cometRpc, 'tx_search', {
      query,
      prove: false,
      page: String(page),
      per_page: '100',
      order_by: 'asc',
    });
    out.push(...r.txs);
    if (out.length >= Number(r.total_count) || r.txs.length === 0) return out;
  }
  throw new Error(`tx_search ${query}: more than 100k txs, refusing to page further`);
}

/** How many txs the node holds (its tx index's count, one `tx_search` page of one). */
export async function txCount(ep: NodeEndpoints): Promise<number> {
  const r = await cometRpc<{ total_count: string }>(ep.cometRpc, 'tx_search', {
    query: 'tx.height>=1',
    per_page: '1',
    page: '1',
  });
  return Number(r.total_count);
}

/** Every tx the node reports in [1, maxHeight]. */
export function txSearchAll(ep: NodeEndpoints, maxHeight: number): Promise<CometTx[]> {
  return txSearch(ep, `tx.height>=1 AND tx.height<=${maxHeight}`);
}

export interface BaseAccountInfo {
  accountNumber: bigint;
  sequence: bigint;
}

export async function fetchAccount(ep: NodeEndpoints, bech32: string): Promise<BaseAccountInfo> {
  const r = await getJson<{
    account: {
      account_number?: string;
      sequence?: string;
      base_account?: { account_number: string; sequence: string };
    };
  }>(`${ep.rest}/cosmos/auth/v1beta1/accounts/${bech32}`);
  const acc = r.account.base_account ?? r.account;
  return { accountNumber: BigInt(acc.account_number ?? '0'), sequence: BigInt(acc.sequence ?? '0') };
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
