// The committed tail (api/http/committed-tail.ts): it answers a read only when it holds every item of the range
// asked for, in order, and null otherwise (the caller then reads the engine); a range that does not continue the held
// one replaces it; the bytes bound drops the oldest ranges but never the newest. The items here are positions of a
// list with gaps (heights without txs), as a tx list's sequences are.
// The committed keys: "nothing new" only for heights held whole whose ranges all lack the keys asked for.
// Every range counts RANGE_BYTES against the bound beside its items, so ranges that hold nothing are bounded too.
import { describe, expect, it } from 'vitest';
import { CommittedKeys, CommittedTail, RANGE_BYTES } from '../../../api/http/committed-tail.js';

const tail = (maxBytes = 1_000) =>
  new CommittedTail<number>(
    maxBytes,
    (n) => n,
    () => 10,
  );

describe('the committed tail', () => {
  it('answers a read it covers whole, in order, bounded by the limit', () => {
    const t = tail();
    t.add(10, 20, [12, 15, 20]);
    t.add(20, 30, [21, 29]);
    expect(t.slice(10, 30, 100)).toEqual([12, 15, 20, 21, 29]);
    expect(t.slice(12, 29, 100)).toEqual([15, 20, 21, 29]);
    expect(t.slice(15, 30, 2)).toEqual([20, 21]);
    expect(t.slice(20, 30, 100)).toEqual([21, 29]);
    // A range with no item in it is answered too: nothing lies there.
    expect(t.slice(21, 28, 100)).toEqual([]);
    expect(t.bytes).toBe(50 + 2 * RANGE_BYTES);
  });

  it('is null for a read reaching outside what it holds', () => {
    const t = tail();
    expect(t.slice(0, 10, 100)).toBeNull(); // empty
    t.add(10, 20, [12, 15, 20]);
    expect(t.slice(9, 20, 100)).toBeNull(); // below: an item at 10 could exist
    expect(t.slice(10, 21, 100)).toBeNull(); // beyond the last committed range
  });

  it('replaces what it holds with a range that does not continue it', () => {
    const t = tail();
    t.add(10, 20, [12, 15, 20]);
    t.add(25, 30, [26]); // a gap: (20, 25] was committed while nobody held it
    expect(t.slice(10, 20, 100)).toBeNull();
    expect(t.slice(25, 30, 100)).toEqual([26]);
    t.add(20, 30, [22, 30]); // a re-ingest from lower: its items replace the held ones
    expect(t.slice(20, 30, 100)).toEqual([22, 30]);
    expect(t.bytes).toBe(20 + RANGE_BYTES);
  });

  it('drops its oldest ranges past the bound, never the newest', () => {
    const t = tail(35 + 2 * RANGE_BYTES);
    t.add(0, 10, [1, 2]);
    t.add(10, 20, [11]);
    expect(t.slice(0, 20, 100)).toEqual([1, 2, 11]); // 30 bytes of items and two ranges: within the bound
    t.add(20, 30, [21, 22, 23]);
    expect(t.slice(0, 30, 100)).toBeNull(); // 60 and three ranges: (0, 10] and then (10, 20] dropped
    expect(t.slice(10, 30, 100)).toBeNull();
    expect(t.slice(20, 30, 100)).toEqual([21, 22, 23]);
    const ten = Array.from({ length: 10 }, (_, i) => 31 + i);
    t.add(30, 40, ten); // alone above the bound: kept, as the newest
    expect(t.slice(20, 40, 100)).toBeNull();
    expect(t.slice(30, 40, 100)).toEqual(ten);
    expect(t.bytes).toBe(100 + RANGE_BYTES);
    t.clear();
    expect(t.slice(30, 40, 100)).toBeNull();
    expect(t.bytes).toBe(0);
  });
});

describe('the committed keys', () => {
  const has = (key: string) => (keys: ReadonlySet<string>) => keys.has(key);

  it('says "nothing new" only for heights it holds whole, none of whose ranges has the key', () => {
    const k = new CommittedKeys(1_000);
    k.add(10, 13, new Set(['a:x', 'm:t']));
    k.add(13, 16, new Set(['a:y']));
    expect(k.mayHold(10, 16, has('a:z'))).toBe(false);
    expect(k.mayHold(10, 16, has('a:y'))).toBe(true);
    expect(k.mayHold(10, 13, has('a:y'))).toBe(false); // a:y is in (13, 16] only
    expect(k.mayHold(12, 14, has('a:x'))).toBe(true); // (12, 14] overlaps both ranges
    expect(k.mayHold(13, 16, has('a:x'))).toBe(false);
    // Heights not held whole: maybe.
    expect(k.mayHold(9, 16, has('a:z'))).toBe(true);
    expect(k.mayHold(10, 17, has('a:z'))).toBe(true);
    expect(new CommittedKeys(1_000).mayHold(10, 16, has('a:z'))).toBe(true);
    expect(k.bytes).toBe(9 + 2 * RANGE_BYTES);
  });

  it('replaces what it holds with a range that does not continue it, and keeps the newest past its bound', () => {
    const k = new CommittedKeys(8);
    k.add(10, 13, new Set(['a:x']));
    k.add(20, 23, new Set(['a:y'])); // a gap: (13, 20] was never seen
    expect(k.mayHold(10, 13, has('a:z'))).toBe(true);
    expect(k.mayHold(20, 23, has('a:z'))).toBe(false);
    k.add(23, 26, new Set(['a:zz', 'm:long']));
    expect(k.mayHold(20, 26, has('a:q'))).toBe(true); // (20, 23] dropped by the bound
    expect(k.mayHold(23, 26, has('a:q'))).toBe(false);
    k.clear();
    expect(k.mayHold(23, 26, has('a:q'))).toBe(true);
  });

  it('bounds the ranges that hold no key (a quiet chain hands over an empty range a block)', () => {
    const k = new CommittedKeys(1_024);
    for (let h = 1; h <= 10_000; h++) k.add(h - 1, h, new Set());
    expect(k.bytes).toBeLessThanOrEqual(1_024);
    expect(k.mayHold(0, 1, () => false)).toBe(true); // the oldest heights were dropped: not held, so maybe
    expect(k.mayHold(9_997, 10_000, () => false)).toBe(false); // the newest are held, and hold nothing
    const t = tail(1_024);
    for (let h = 1; h <= 10_000; h++) t.add(h - 1, h, []);
    expect(t.bytes).toBeLessThanOrEqual(1_024);
    expect(t.slice(0, 10, 100)).toBeNull();
    expect(t.slice(9_997, 10_000, 100)).toEqual([]);
  });
});
