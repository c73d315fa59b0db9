// When the ingest asks the engine to merge the height tables at the bulk pace (clickhouse/facts-store.ts MergePace):
// while the work left to the node's head is many batches, and back to the head pace once it is within about a batch.
// The work left is counted in the ingest's batch units (a tx, or BLOCK_WEIGHT for a block), so that a few hundred
// dense blocks count as much as a long stretch of empty ones. The gap between the two thresholds keeps a chain
// whose head runs ahead in bursts from switching at every batch.
import type { MergePace } from '../clickhouse/facts-store.js';

export interface MergePaceThresholds {
  /** Work left (batch units) from which a backfill merges at the bulk pace. */
  enterBulk: number;
  /** Work left at or below which it merges at the head pace again. */
  leaveBulk: number;
}

export const MERGE_PACE_THRESHOLDS: MergePaceThresholds = { enterBulk: 20_000, leaveBulk: 4_000 };

/** The batch units of `blocks` blocks of `txsPerBlock` txs on average. */
export function workLeft(blocks: number, txsPerBlock: number, blockWeight: number): number {
  return Math.max(0, blocks) * (txsPerBlock + blockWeight);
}

/** The pace for `work` units left to the head, from the current one. */
export function nextMergePace(
  current: MergePace,
  work: number,
  t: MergePaceThresholds = MERGE_PACE_THRESHOLDS,
): MergePace {
  if (current === 'head') return work >= t.enterBulk ? 'bulk' : 'head';
  return work <= t.leaveBulk ? 'head' : 'bulk';
}
