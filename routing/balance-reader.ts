// The chains' bank balances over Cosmos REST (`/cosmos/bank/v1beta1/balances/{address}`), for
// POST /v2/info/balances. Only URLs from the registry or the deployment's config are ever called, never one a
// request names. Answers are cached briefly per (chain, address), concurrent asks share one read, and each read
// is bounded in time and size, so balance traffic cannot turn into unbounded chain traffic.
import { BalanceUnavailable, type BalanceReader } from './balances.js';

export interface BalanceReaderOptions {
  /** The REST base URL of a chain, or undefined when this deployment may not read it. */
  restUrl(chainId: string): string | undefined;
  ttlMs?: number;
  timeoutMs?: number;
  maxEntries?: number;
}

/** Denoms read per address at most (one page). */
const PAGE = 500;

interface BankBalances {
  balances?: { denom?: unknown; amount?: unknown }[];
}

export function createBalanceReader(opts: BalanceReaderOptions): BalanceReader {
  const ttl = opts.ttlMs ?? 2_000;
  const timeout = opts.timeoutMs ?? 3_000;
  const max = opts.maxEntries ?? 10_000;
  const cache = new Map<string, { at: number; value: Promise<Map<string, string>> }>();

  async function fetchAll(rest: string, chainId: string, address: string): Promise<Map<string, string>> {
    const url = `${rest.replace(/\/+$/, '')}/cosmos/bank/v1beta1/balances/${encodeURIComponent(address)}?pagination.limit=${PAGE}`;
    let res: Response;
    try {
      res = await fetch(url, { signal: AbortSignal.timeout(timeout) });
    } catch (e) {
      throw new BalanceUnavailable(`${chainId} REST is unreachable: ${(e as Error).message}`);
    }
    if (!res.ok) throw new BalanceUnavailable(`${chainId} REST answered HTTP ${res.status}`);
    let body: BankBalances;
    try {
      body = (await res.json()) as BankBalances;
    } catch {
      throw new BalanceUnavailable(`${chainId} REST answered a body that is not JSON`);
    }
    const out = new Map<string, string>();
    for (const b of body.balances ?? [])
      if (typeof b.denom === 'string' && typeof b.amount === 'string' && /^[0-9]{1,78}$/.test(b.amount))
        out.set(b.denom, b.amount);
    return out;
  }

  return (chainId, address) => {
    const rest = opts.restUrl(chainId);
    if (!rest) return Promise.reject(new BalanceUnavailable(`${chainId}: no REST endpoint is configured for balances`));
    const key = `${chainId}\n${address}`;
    const now = Date.now();
    const hit = cache.get(key);
    if (hit && now - hit.at < ttl) return hit.value;
    const value = fetchAll(rest, chainId, address);
    // A failure is not kept: the next ask reads again.
    value.catch(() => cache.get(key)?.value === value && cache.delete(key));
    cache.delete(key);
    if (cache.size >= max) cache.delete(cache.keys().next().value as string);
    cache.set(key, { at: now, value });
    return value;
  };
}
