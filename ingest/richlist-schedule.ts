// When the ingest builds a rich-list snapshot (EVM only). A build re-ranks every holder, so it runs only when some
// balance may have moved (an ERC20 log was written, or balances were seeded), and not too often: while backfilling
// at most every `intervalMs`; at the head at most every `headIntervalMs` (never longer than `intervalMs`), and in
// both after at least 5× the last build's time, so snapshots never take more than ~1/6 of the ingest's time. The
// head's own bound is for small chains: there a build takes tens of ms, and 5× that rebuilt the list (and paid its
// statements and merges) at every block of a live chain (decision 024). A crash between a checkpoint and its
// snapshot is caught up at start.
import { latestSnapshot } from '../clickhouse/queries/richlist.js';
import type { Store } from '../clickhouse/client.js';
import { buildRichListSnapshot } from '../clickhouse/richlist-snapshots.js';
import type { Logger } from '../platform/log.js';

export interface RichListSchedule {
  /** Balances may have moved up to the indexed height. */
  markDirty(): void;
  /** At start: the latest snapshot is behind the checkpoint (a crash came between them). */
  resume(checkpoint: number): Promise<void>;
  /** Build a snapshot at `indexed` if one is due (`force`: whenever balances moved, e.g. before stopping). */
  maybeBuild(indexed: number, caughtUp: boolean, force?: boolean): Promise<void>;
}

export function richListSchedule(opts: {
  store: Store;
  enabled: boolean;
  intervalMs: number;
  /** The least time between snapshots once caught up (capped at `intervalMs`). */
  headIntervalMs: number;
  log: Logger;
  onBuilt?: (height: number) => void;
}): RichListSchedule {
  let dirty = false;
  let lastAt = 0;
  let lastBuildMs = 0;
  return {
    markDirty() {
      if (opts.enabled) dirty = true;
    },
    async resume(checkpoint) {
      if (opts.enabled && checkpoint > 0 && (await latestSnapshot(opts.store)) < checkpoint) dirty = true;
    },
    async maybeBuild(indexed, caughtUp, force = false) {
      if (!opts.enabled || !dirty) return;
      const least = caughtUp ? Math.min(opts.headIntervalMs, opts.intervalMs) : opts.intervalMs;
      const wait = Math.max(least, 5 * lastBuildMs);
      if (!force && Date.now() - lastAt < wait) return;
      const t0 = Date.now();
      const { holders } = await buildRichListSnapshot(opts.store, indexed);
      dirty = false;
      lastAt = Date.now();
      lastBuildMs = lastAt - t0;
      opts.log.info('ingest.richlist_snapshot', { height: indexed, holders, ms: lastAt - t0 });
      opts.onBuilt?.(indexed);
    },
  };
}
