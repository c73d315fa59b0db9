// Opening balances of the rich list (table balance_seeds): the chain's bank state at the height before the
// first indexed block, written once by the ingest (ingest/balance-seed.ts) and read by the snapshot build.
import type { Store } from './client.js';

export interface BalanceSeedRow {
  token: string;
  account: string;
  amount: string;
  height: number;
}

/** Replaces every stored seed with `rows` (the seeding is all-or-nothing at one height). */
export async function replaceBalanceSeeds(store: Store, rows: BalanceSeedRow[]): Promise<void> {
  await store.exec('TRUNCATE TABLE IF EXISTS balance_seeds');
  for (let i = 0; i < rows.length; i += 20_000) await store.insert('balance_seeds', rows.slice(i, i + 20_000));
}

/** Height of the stored seeds, 0 when there are none. */
export async function seedHeight(store: Store): Promise<number> {
  const [r] = await store.rows<{ h: string }>('SELECT max(height) AS h FROM balance_seeds');
  return Number(r?.h ?? 0);
}

/**
 * Balances per (token, account) at height `{h:UInt64}`, non-zero ones only, as a subquery over
 * `(token, account, amount)`: the seeds plus the ledger's deltas above the seeds' height `{sh:UInt64}` (deltas at
 * or below it are already in the seeds; an unseeded token takes all its deltas). The rich-list snapshot and the
 * rebuild of its history read balances through this one definition.
 *
 * Seeds and deltas are signed 256-bit, so an amount of 2^255 or more (a uint256-maximum mint) is held modulo 2^256,
 * and the engine's Int256 sum wraps modulo 2^256. A real balance lies in [0, 2^256), so the sum read as unsigned is
 * exact, and only a zero sum is no holder: a sign test would drop every balance of 2^255 or more.
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
  GROUP BY token, account HAVING sum(delta) != 0`;
