// Opening balances of the rich list (table balance_seeds): the chain's bank state at the height before the
// first indexed block, written once by the ingest (ingest/balance-seed.ts) and read by the snapshot build.
import type { Store } from './client.js';

export interface BalanceSeedRow {
  token: string;
  account: string;
  amount: string;
  height: number;
}

const INT256_BOUND = 2n ** 255n;

/**
 * The stored rows of `seeds`: an amount of 2^255 or more, which an Int256 cannot hold, as three parts below it (as
 * the ledger's view writes such deltas, migration 112); the balance is their sum.
 */
export function seedRows(seeds: readonly BalanceSeedRow[]): BalanceSeedRow[] {
  return seeds.flatMap((r) => {
    const amount = BigInt(r.amount);
    if (amount < INT256_BOUND) return [r];
    const third = amount / 3n;
    return [third, third, amount - 2n * third].map((part) => ({ ...r, amount: String(part) }));
  });
}

/** Replaces every stored seed with `rows` (the seeding is all-or-nothing at one height). */
export async function replaceBalanceSeeds(store: Store, seeds: BalanceSeedRow[]): Promise<void> {
  const rows = seedRows(seeds);
  await store.exec('TRUNCATE TABLE IF EXISTS balance_seeds');
  for (let i = 0; i < rows.length; i += 20_000) await store.insert('balance_seeds', rows.slice(i, i + 20_000));
}

/** Height of the stored seeds, 0 when there are none. */
export async function seedHeight(store: Store): Promise<number> {
  const [r] = await store.rows<{ h: string }>('SELECT max(height) AS h FROM balance_seeds');
  return Number(r?.h ?? 0);
}

/**
 * Balances per (token, account) at height `{h:UInt64}`, positive ones only, as a subquery over
 * `(token, account, amount)`: the seeds plus the ledger's deltas above the seeds' height `{sh:UInt64}` (deltas at
 * or below it are already in the seeds; an unseeded token takes all its deltas). The rich-list snapshot and the
 * rebuild of its history read balances through this one definition.
 *
 * Every seed and delta is an exact signed value below 2^255 in magnitude (larger amounts are written in parts:
 * migration 112, `seedRows`), but a balance may reach 2^256 − 1, and the engine's Int256 sum wraps modulo 2^256. So
 * the Float64 sum beside it says which side of the ±2^254 band the true sum lies: far above it is a balance of 2^254
 * or more, exact as the unsigned reading of the wrapped sum; far below is a deficit; inside the band the Int256 sum
 * did not wrap and its sign is the answer. A deficit (a ledger without an account's opening balance: seeds not read,
 * or history before the first indexed block) is no holder, never a huge one. The float's rounding (about 2^203 per
 * summand) is far inside the band.
 */
export const BALANCES_AT_SQL = `
  SELECT token, account, toUInt256(sum(delta)) AS amount
  FROM (
    SELECT token, account, amount AS delta FROM balance_seeds
    UNION ALL
    SELECT token, account, delta FROM balance_deltas
    WHERE height <= {h:UInt64}
      AND (height > {sh:UInt64} OR token NOT IN (SELECT DISTINCT token FROM balance_seeds))
  )
  GROUP BY token, account
  HAVING sum(toFloat64(delta)) >= exp2(254) OR (sum(toFloat64(delta)) > -exp2(254) AND sum(delta) > 0)`;
