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
