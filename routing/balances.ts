// POST /v2/info/balances in Skip's shapes: the request is checked against the registry (known chains, each
// address in the chain's own form), the balances come from a BalanceReader (routing/balance-reader.ts reads the
// chains' REST endpoints), and each denom is rendered with its registry decimals. A chain that cannot be read
// answers an `error` per asked denom (and on the chain entry), never a failed request: a wallet asks for several
// chains at once and wants the ones that answer.
import { parseAddress } from './address.js';
import { decimalsOf } from './assets.js';
import { invalidRequest, unsupported } from './errors.js';
import type { Registry } from './registry.js';

/** All balances of one address on one chain: denom → base units. Throws BalanceUnavailable when it cannot. */
export type BalanceReader = (chainId: string, address: string) => Promise<Map<string, string>>;

export class BalanceUnavailable extends Error {
  override name = 'BalanceUnavailable';
}

export interface BalancesRequest {
  chains: Record<string, { address: string; denoms?: string[] }>;
}

interface DenomEntry {
  amount: string;
  decimals: number;
  formatted_amount: string;
  error?: { message: string };
}
interface ChainEntry {
  address: string;
  denoms: Record<string, DenomEntry>;
  /** Initia extension: why the chain could not be read (Skip has no chain-level error). */
  error?: { message: string };
}

/** Base units as a decimal string with exactly `decimals` places: 1500000, 6 → "1.500000". */
export function formatAmount(amount: string, decimals: number): string {
  if (decimals === 0) return amount;
  const padded = amount.padStart(decimals + 1, '0');
  return `${padded.slice(0, -decimals)}.${padded.slice(-decimals)}`;
}

export async function balancesHandler(reg: Registry, read: BalanceReader, req: BalancesRequest): Promise<unknown> {
  const asked = Object.entries(req.chains ?? {});
  if (asked.length === 0) throw invalidRequest('chains: at least one chain is required');
  // Validate everything before reading anything.
  const plan = asked.map(([chainId, entry]) => {
    const chain = reg.chains.get(chainId);
    if (!chain) throw unsupported(`chains.${chainId}: chain ${chainId} is not supported`);
    const parsed = parseAddress(chain, entry.address, `chains.${chainId}.address`);
    // minievm holds cosmos balances under the bech32 form of the same account.
    return { chainId, address: entry.address, native: parsed.native, denoms: entry.denoms ?? [] };
  });
  const out: Record<string, ChainEntry> = {};
  await Promise.all(
    plan.map(async (p) => {
      // Keyed by denoms the client names: a null prototype, so `__proto__` is a key like any other.
      const entry: ChainEntry = { address: p.address, denoms: Object.create(null) as Record<string, DenomEntry> };
      const render = (denom: string, amount: string): DenomEntry => {
        const decimals = decimalsOf(reg, p.chainId, denom);
        return { amount, decimals, formatted_amount: formatAmount(amount, decimals) };
      };
      try {
        const held = await read(p.chainId, p.native);
        // No denoms asked: every denom held (InterwovenKit sends `denoms: []`).
        const denoms = p.denoms.length ? p.denoms : [...held.keys()];
        for (const d of denoms) entry.denoms[d] = render(d, held.get(d) ?? '0');
      } catch (e) {
        if (!(e instanceof BalanceUnavailable)) throw e;
        entry.error = { message: e.message };
        for (const d of p.denoms) entry.denoms[d] = { ...render(d, '0'), error: { message: e.message } };
      }
      out[p.chainId] = entry;
    }),
  );
  return { chains: out };
}
