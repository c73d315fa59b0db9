// A block's `block_time`: the milliseconds since the previous block, computed as the upstream indexer (rollytics)
// does, to the last unit. It subtracts the previous block's time as read back from Postgres (a timestamptz:
// microseconds, the nanoseconds truncated) from this block's full-precision time, then truncates to whole
// milliseconds (Go's Duration.Milliseconds). Subtracting the two full-precision times instead differs by one
// whenever the previous block's sub-microsecond nanoseconds carry the difference across a millisecond (seen on a
// live devnet: 150 against upstream's 151). Pure.

/** Milliseconds from the previous block's time to this one's (0 for the first block or a clock going back). */
export function blockTimeMs(timeNs: bigint, previousNs: bigint | null): number {
  if (previousNs === null) return 0;
  const previousUs = previousNs - (((previousNs % 1000n) + 1000n) % 1000n);
  const ms = Number((timeNs - previousUs) / 1_000_000n);
  return Math.max(ms, 0);
}
