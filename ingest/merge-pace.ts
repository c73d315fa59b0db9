// When the ingest asks the engine to merge the height tables at the bulk pace (clickhouse/facts-store.ts MergePace):
// while the work left to the node's head is many batches, and back to the head pace once it is within about a batch.
// The work left is counted in the ingest's batch units (a tx, or BLOCK_WEIGHT for a block), so that a few hundred
// dense blocks count as much as a long stretch of empty ones. The gap between the two thresholds keeps a chain
// whose head runs ahead in bursts from switching at every batch.
import type { FactsStore, MergePace } from '../clickhouse/facts-store.js';
import { metrics } from '../platform/metrics.js';

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

/** Where the ingest is, each time it asks. */
export interface PaceInput {
  /** Blocks from what is indexed to the node's head as last read. */
  blocksLeft: number;
  /** The chain's txs a block so far; null before the first batch is written (its density is not known yet). */
  txsPerBlock: number | null;
  /** Whether the head was read just now: the pace goes back to head only against a fresh head. */
  headFresh: boolean;
}

/** The merge pace the ingest keeps: decided at each step, set on the tables only when it changes. */
export interface MergePacer {
  update(at: PaceInput): Promise<void>;
  /** On the way out: the head pace again (best effort; the next start decides anew anyway). */
  finish(): Promise<void>;
}

/** The logger's two levels the pacer uses. */
interface PaceLog {
  info(event: string, fields?: Record<string, unknown>): void;
  warn(event: string, fields?: Record<string, unknown>): void;
}

/**
 * The ingest's merge pacer over the facts store's pace. Starts from the pace the tables hold (a process killed during
 * a backfill leaves bulk; tables that disagree, from a kill during a change, are set by the first decision). Setting
 * a pace that fails is logged and tried again at the next step: a tuning setting never stops the ingest.
 */
export async function mergePacer(
  facts: Pick<FactsStore, 'mergePace' | 'setMergePace'>,
  log: PaceLog,
  blockWeight: number,
  t: MergePaceThresholds = MERGE_PACE_THRESHOLDS,
): Promise<MergePacer> {
  let pace: MergePace | null = await facts.mergePace();
  const set = async (want: MergePace, blocksLeft: number | null) => {
    try {
      await facts.setMergePace(want);
    } catch (e) {
      metrics.ingestErrors.inc({ kind: 'merge_pace' });
      log.warn('ingest.merge_pace_failed', { pace: want, error: (e as Error).message.slice(0, 300) });
      return;
    }
    log.info('ingest.merge_pace', { pace: want, blocks_left: blocksLeft });
    metrics.ingestMergePaceBulk.set(want === 'bulk' ? 1 : 0);
    pace = want;
  };
  return {
    async update({ blocksLeft, txsPerBlock, headFresh }) {
      // Before the first batch the density is unknown: a known pace waits for it, unless the head is reached.
      if (txsPerBlock === null && pace !== null && blocksLeft > 0) return;
      const want = nextMergePace(pace ?? 'head', workLeft(blocksLeft, txsPerBlock ?? 0, blockWeight), t);
      if (want === pace) return;
      // Within a batch of a head read long ago is not caught up: the head pace waits for the head read again.
      if (want === 'head' && pace === 'bulk' && !headFresh) return;
      await set(want, blocksLeft);
    },
    async finish() {
      if (pace !== 'head') await set('head', null);
    },
  };
}
