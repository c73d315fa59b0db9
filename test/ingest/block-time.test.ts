// block_time as upstream computes it (ingest/decode/block.ts): the previous block's time truncated to microseconds.
// Pure. The carry case is the one a live devnet showed (ours 150, rollytics 151).
import { describe, expect, it } from 'vitest';
import { blockTimeMs } from '../../ingest/decode/block.js';

const ns = (s: string) => BigInt(s);

describe('blockTimeMs', () => {
  it('is 0 for the first block and never negative', () => {
    expect(blockTimeMs(ns('1700000000000000000'), null)).toBe(0);
    expect(blockTimeMs(ns('1700000000000000000'), ns('1700000000500000000'))).toBe(0);
  });
  it('truncates to whole milliseconds', () => {
    expect(blockTimeMs(ns('1700000000150999000'), ns('1700000000000000000'))).toBe(150);
    expect(blockTimeMs(ns('1700000000151000000'), ns('1700000000000000000'))).toBe(151);
  });
  it('subtracts the previous time truncated to microseconds, so sub-microsecond nanoseconds can carry a millisecond', () => {
    // full precision: 150.9999 ms → 150; upstream reads the previous time back as …000.000 µs → 151.0000 ms → 151
    const previous = ns('1700000000000000900');
    const time = ns('1700000000151000800');
    expect(Number((time - previous) / 1_000_000n)).toBe(150);
    expect(blockTimeMs(time, previous)).toBe(151);
  });
  it('equals the plain difference when the previous time has no sub-microsecond part', () => {
    for (const d of [0n, 1n, 999_999n, 1_000_000n, 123_456_789n]) {
      const previous = ns('1700000000000123000');
      expect(blockTimeMs(previous + d, previous)).toBe(Number(d / 1_000_000n));
    }
  });
});
