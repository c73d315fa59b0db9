// Shared per-chain block feeds of one worker process. Instead of every in-flight transfer polling its own
// tx_search each interval (O(transfers) requests per second), each chain is read once per interval over the
// new height range (CometBFT `tx_search tx.height>=a AND tx.height<=b`, EVM `eth_getLogs` on the LayerZero
// topics) and every waiting activity's matcher is run against the new txs: O(chains) requests per interval.
// An activity subscribes first and then runs one backfill search for anything that happened before.
import type { ChainTx } from '../workflows/model.js';

export interface FeedSource {
  latest(): Promise<number>;
  /** All txs of interest with from ≤ height ≤ to, in order. */
  range(from: number, to: number): Promise<ChainTx[]>;
}

interface Waiter {
  match(tx: ChainTx): boolean;
  resolve(tx: ChainTx): void;
}

export interface Subscription {
  /** Resolves with the first matching tx seen after subscribing. Never rejects. */
  next: Promise<ChainTx>;
  cancel(): void;
}

/** Heights read per tick at most (a long outage catches up over several ticks). */
const MAX_RANGE = 500;
/**
 * Heights below the tip read again at the next tick, and below the tip a new feed starts: CometBFT reports a height
 * before its tx indexer has indexed that block, and the indexer can trail by more than one block under load.
 */
const REREAD = 3;

export class ChainFeed {
  /** Next height to read; undefined while nobody listens (then the feed is idle). */
  private cursor: number | undefined;
  private init: Promise<void> | undefined;
  private readonly waiters = new Set<Waiter>();
  private loop: Promise<void> | undefined;
  /** Requests made (tests / bench). */
  readonly stats = { ticks: 0, txs: 0, errors: 0 };

  constructor(
    private readonly source: FeedSource,
    private readonly intervalMs: number,
  ) {}

  /**
   * Start listening; once this resolves, every tx at or above the chain's height at that moment is matched, so
   * a backfill search run afterwards plus this subscription cannot miss an event.
   */
  async subscribe(match: (tx: ChainTx) => boolean): Promise<Subscription> {
    while (this.cursor === undefined) {
      this.init ??= this.source
        .latest()
        .then((h) => {
          // Start below the tip, not above it: the backfill search may not see the last blocks' txs yet (REREAD).
          this.cursor ??= Math.max(1, h - REREAD + 1);
        })
        .finally(() => {
          this.init = undefined;
        });
      await this.init;
    }
    let resolve!: (tx: ChainTx) => void;
    const next = new Promise<ChainTx>((r) => (resolve = r));
    const w: Waiter = { match, resolve };
    this.waiters.add(w);
    this.ensureLoop();
    return { next, cancel: () => this.waiters.delete(w) };
  }

  private ensureLoop(): void {
    if (this.loop) return;
    this.loop = (async () => {
      while (this.waiters.size > 0) {
        await new Promise((r) => setTimeout(r, this.intervalMs));
        try {
          await this.tick();
        } catch {
          this.stats.errors++; // node hiccup: keep the cursor, retry next interval
        }
      }
      this.cursor = undefined;
      this.loop = undefined;
    })();
  }

  private async tick(): Promise<void> {
    if (this.waiters.size === 0 || this.cursor === undefined) return;
    this.stats.ticks++;
    const latest = await this.source.latest();
    if (latest < this.cursor) return;
    const to = Math.min(latest, this.cursor + MAX_RANGE - 1);
    const txs = await this.source.range(this.cursor, to);
    this.stats.txs += txs.length;
    for (const tx of txs) {
      for (const w of this.waiters) {
        if (w.match(tx)) {
          this.waiters.delete(w);
          w.resolve(tx);
        }
      }
    }
    // Read the last REREAD heights again next tick: `latest` can name blocks whose txs tx_search does not return
    // yet (indexing is asynchronous), and skipping them would lose them for every waiter until its window ends.
    // A waiter resolves once, so seeing a tx twice is harmless.
    this.cursor = Math.max(this.cursor, to - REREAD + 1);
  }
}
