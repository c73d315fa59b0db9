// Backfill progress: blocks/s, txs/s, events/s and ETA, as a JSON log line every few seconds and,
// on a terminal, a live status line on stderr.
import type { Logger } from '../platform/log.js';

export interface BackfillReporter {
  add(blocks: number, txs: number, events: number, height: number, head: number): void;
  done(): void;
}

/** `statusLine`: draw the live line on stderr (by default when stderr is a terminal; a worker thread is told). */
export function createBackfillReporter(
  log: Logger,
  statusLine = process.stderr.isTTY === true,
  everyMs = 5000,
): BackfillReporter {
  const start = Date.now();
  let last = start;
  let blocks = 0;
  let txs = 0;
  let events = 0;
  return {
    add(b, t, e, height, head) {
      blocks += b;
      txs += t;
      events += e;
      const now = Date.now();
      const secs = Math.max((now - start) / 1000, 0.001);
      const bps = blocks / secs;
      const remaining = Math.max(head - height, 0);
      const eta = bps > 0 ? Math.round(remaining / bps) : null;
      if (statusLine)
        process.stderr.write(
          `\r  height ${height}/${head}  ${bps.toFixed(0)} blocks/s  ${(txs / secs).toFixed(0)} txs/s  ${(events / secs).toFixed(0)} events/s  ETA ${eta ?? '?'}s   `,
        );
      if (now - last >= everyMs) {
        last = now;
        log.info('ingest.progress', {
          height,
          head,
          blocks_per_s: +bps.toFixed(1),
          txs_per_s: +(txs / secs).toFixed(1),
          events_per_s: +(events / secs).toFixed(1),
          eta_s: eta,
        });
      }
    },
    done() {
      if (statusLine) process.stderr.write('\n');
    },
  };
}
