// Opening balances for the rich list (EVM rollups). Transfer logs only carry changes: genesis allocations and
// any history before the first indexed height never appear as logs, so a rich list built from deltas alone
// was wrong for every chain (issue 11: a devnet's umin list had 7 holders with only their in-block deltas).
// Before the first block is indexed, the chain's state at the height before it is read over REST with the
// `x-cosmos-block-height` header: every account (auth), its bank balances, and each denom's ERC20 contract
// (minievm keeps bank balances in ERC20 contracts, so a denom's list is its contract's list). The seeds are
// written to balance_seeds; the rich list adds the deltas above their height.
import { type BalanceSeedRow, replaceBalanceSeeds } from '../clickhouse/balance-seeds.js';
import type { Store } from '../clickhouse/client.js';
import type { Logger } from '../platform/log.js';
import { accountHex } from '../chain/address.js';
import type { ChainSource } from './source.js';
import { RefusedError, UnansweredError, withRetry } from '../chain/retry.js';

const PAGE = 1000;
const CONCURRENCY = 8;

interface AccountsPage {
  accounts?: Record<string, unknown>[];
  pagination?: { next_key?: string | null };
}
interface BalancesPage {
  balances?: { denom: string; amount: string }[];
  pagination?: { next_key?: string | null };
}

/** The bech32 address of any auth account JSON (BaseAccount, ModuleAccount, minievm ContractAccount, ...). */
export function accountAddress(a: Record<string, unknown>): string | null {
  if (typeof a.address === 'string' && a.address) return a.address;
  for (const v of Object.values(a))
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      const inner = accountAddress(v as Record<string, unknown>);
      if (inner) return inner;
    }
  return null;
}

async function pages<P extends { pagination?: { next_key?: string | null } }>(
  get: (key: string | null) => Promise<P>,
  items: (p: P) => unknown[] | undefined,
): Promise<P[]> {
  const out: P[] = [];
  let key: string | null = null;
  for (let i = 0; i < 1_000_000; i++) {
    const p = await get(key);
    out.push(p);
    key = p.pagination?.next_key ?? null;
    if (!key || (items(p)?.length ?? 0) === 0) return out;
  }
  throw new Error('too many pages');
}

export interface SeedResult {
  height: number;
  accounts: number;
  rows: number;
}

export interface SeedOptions {
  /** The ingest was stopped: stop waiting for a node that does not answer. */
  isStopped?: () => boolean;
  /** First retry's delay (ms), doubling; 200 by default. */
  retryBaseMs?: number;
}

/** A bank amount is a uint256 (the SDK's Int bound); beyond it the node's answer is not a balance. */
const UINT256_END = 2n ** 256n;

/** The height whose state opens the rich list when indexing starts at `startHeight` (state at 0 is not served). */
export const seedHeightFor = (startHeight: number) => Math.max(startHeight - 1, 1);

/**
 * Reads the opening balances at `height` and replaces balance_seeds with them. Idempotent: callers run it
 * before the first checkpoint, so a crash mid-seed simply seeds again on restart.
 */
export async function seedBalances(
  store: Store,
  source: ChainSource,
  height: number,
  log: Logger,
  prefix = 'init',
  opts: SeedOptions = {},
): Promise<SeedResult> {
  const isStopped = opts.isStopped ?? (() => false);
  // Bounded where the node answers: one that pruned the height answers 5xx for good, which must not stall the
  // ingest's start. A node that does not answer at all (down, restarting) is waited for, as every other read of the
  // ingest waits for it: the seeds are read only before the first checkpoint, so giving up would lose them for good.
  const get = async <T>(path: string): Promise<T> => {
    for (;;) {
      try {
        return await withRetry(() => source.restGet<T>(path, height), {
          baseMs: opts.retryBaseMs ?? 200,
          attempts: 8,
          isStopped,
        });
      } catch (e) {
        if (!(e instanceof UnansweredError) || isStopped()) throw e;
        log.warn('ingest.balance_seed_waiting', { height, error: e.message.slice(0, 200) });
      }
    }
  };
  const accountPages = await pages<AccountsPage>(
    (key) =>
      get(
        `/cosmos/auth/v1beta1/accounts?pagination.limit=${PAGE}${key ? `&pagination.key=${encodeURIComponent(key)}` : ''}`,
      ),
    (p) => p.accounts,
  );
  const addresses = [
    ...new Set(accountPages.flatMap((p) => (p.accounts ?? []).map(accountAddress).filter((a): a is string => !!a))),
  ];
  // A denom's ERC20 contract; null where the node says it has none (minievm: NotFound, HTTP 404), an Error where the
  // node would not tell (it kept failing): the denom's balances are then left out, and the error line names it.
  const contracts = new Map<string, Promise<string | null | Error>>();
  const contractOf = (denom: string) => {
    let c = contracts.get(denom);
    if (!c) {
      c = get<{ address?: string }>(`/minievm/evm/v1/contracts/by_denom?denom=${encodeURIComponent(denom)}`).then(
        (r) => (r.address ? r.address.toLowerCase() : null),
        (e: unknown) => {
          if (e instanceof RefusedError && e.status === 404) return null;
          if (isStopped()) throw e;
          log.error('ingest.balance_seed_lookup_failed', { height, denom, error: String(e).slice(0, 300) });
          return e instanceof Error ? e : new Error(String(e));
        },
      );
      contracts.set(denom, c);
    }
    return c;
  };
  const rows: BalanceSeedRow[] = [];
  /** EVM accounts whose balances are asked already: a 32-byte account and its shorthand hold the same ones. */
  const asked = new Set<string>();
  let next = 0;
  const worker = async () => {
    while (next < addresses.length) {
      const addr = addresses[next++]!;
      const account = evmAccountOf(addr, prefix);
      if (!account || asked.has(account)) continue;
      asked.add(account);
      const balancePages = await pages<BalancesPage>(
        (key) =>
          get(
            `/cosmos/bank/v1beta1/balances/${addr}?pagination.limit=${PAGE}${key ? `&pagination.key=${encodeURIComponent(key)}` : ''}`,
          ),
        (p) => p.balances,
      );
      for (const b of balancePages.flatMap((p) => p.balances ?? [])) {
        if (!/^\d+$/.test(b.amount)) continue;
        const amount = BigInt(b.amount);
        if (amount === 0n) continue;
        if (amount >= UINT256_END) {
          log.warn('ingest.balance_seed_out_of_range', { height, denom: b.denom, amount: b.amount.slice(0, 100) });
          continue;
        }
        const token = await contractOf(b.denom);
        if (token instanceof Error) continue;
        if (!token) {
          log.warn('ingest.balance_seed_no_contract', { denom: b.denom });
          continue;
        }
        rows.push({ token, account, amount: b.amount, height });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, addresses.length) }, worker));
  await replaceBalanceSeeds(store, rows);
  return { height, accounts: addresses.length, rows: rows.length };
}

/**
 * The EVM account holding a Cosmos account's bank balances on minievm, as the ledger's Transfer logs name it: a
 * 20-byte account itself; a 32-byte one (an ICA, a derived account) its shorthand, its last 20 bytes
 * (x/evm/keeper/address.go `convertToEVMAddress`: its balance is the ERC20 balance of that address, and auth lists
 * that shorthand as an account of its own once it has signed). null for anything else.
 */
export function evmAccountOf(addr: string, prefix = 'init'): string | null {
  const hex = accountHex(addr, prefix);
  if (hex?.length === 42) return hex;
  if (hex?.length === 66) return `0x${hex.slice(26)}`;
  return null;
}

/**
 * Open the rich list when nothing is indexed yet: the chain's balances at the height before the first indexed
 * block (genesis allocations, history before START_HEIGHT). Re-run after a crash before the first checkpoint.
 * Returns whether balances were seeded. A node that does not serve the auth/bank state at that height (pruned, or
 * a bare RPC proxy) leaves the rich list with the in-range deltas only, which the error line says loudly.
 */
export async function openRichList(
  store: Store,
  source: ChainSource,
  firstHeight: number,
  log: Logger,
  prefix: string,
  opts: SeedOptions = {},
): Promise<boolean> {
  const at = seedHeightFor(firstHeight);
  try {
    const r = await seedBalances(store, source, at, log, prefix, opts);
    log.info('ingest.balance_seed', { height: r.height, accounts: r.accounts, balances: r.rows });
    return true;
  } catch (e) {
    log.error('ingest.balance_seed_failed', { height: at, error: (e as Error).message.slice(0, 300) });
    return false;
  }
}
