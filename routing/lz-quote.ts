// Messaging fee quotes: OFT.quoteSend over the source chain's JSON-RPC, cached with a short TTL so route
// traffic does not turn into RPC traffic. Failures are reported as "not quoted", never as a route error.
import { Contract, JsonRpcProvider, Network } from 'ethers';
import { OFT_ABI, type SendParam } from './layerzero.js';

export interface LzQuoteRequest {
  chainId: string;
  /** EVM chain id of the source: given to ethers so it never probes (or retries) network detection. */
  evmChainId: number;
  jsonRpc: string;
  oftAddress: string;
  sendParam: SendParam;
}
export interface LzFee {
  nativeFee: bigint;
  lzTokenFee: bigint;
}
export type LzQuoteProvider = (q: LzQuoteRequest) => Promise<LzFee>;

export function createQuoteProvider(
  opts: { ttlMs?: number; timeoutMs?: number; maxEntries?: number } = {},
): LzQuoteProvider {
  const ttl = opts.ttlMs ?? 15_000;
  const max = opts.maxEntries ?? 1_000;
  const cache = new Map<string, { at: number; fee: Promise<LzFee> }>();
  const providers = new Map<string, JsonRpcProvider>();
  return (q) => {
    // The fee depends on the destination and options, not on the amount or recipient: key it coarsely.
    const key = `${q.chainId}|${q.oftAddress}|${q.sendParam.dstEid}|${q.sendParam.extraOptions}`;
    const now = Date.now();
    const hit = cache.get(key);
    if (hit && now - hit.at < ttl) return hit.fee;
    let provider = providers.get(q.jsonRpc);
    if (!provider) {
      const network = Network.from(q.evmChainId);
      provider = new JsonRpcProvider(q.jsonRpc, network, { staticNetwork: network, batchMaxCount: 1 });
      providers.set(q.jsonRpc, provider);
    }
    const oft = new Contract(q.oftAddress, OFT_ABI, provider);
    const p = q.sendParam;
    const call = oft
      .getFunction('quoteSend')
      .staticCall([p.dstEid, p.to, p.amountLD, p.minAmountLD, p.extraOptions, p.composeMsg, p.oftCmd], false)
      .then((r: { nativeFee: bigint; lzTokenFee: bigint }) => ({
        nativeFee: BigInt(r.nativeFee),
        lzTokenFee: BigInt(r.lzTokenFee),
      }));
    const fee = withTimeout(call, opts.timeoutMs ?? 2_000);
    fee.catch(() => cache.delete(key)); // do not cache failures
    if (cache.size >= max) cache.delete(cache.keys().next().value as string);
    cache.set(key, { at: now, fee });
    return fee;
  };
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`quoteSend timed out after ${ms} ms`)), ms);
    p.then(
      (v) => {
        clearTimeout(t);
        resolve(v);
      },
      (e) => {
        clearTimeout(t);
        reject(e);
      },
    );
  });
}
