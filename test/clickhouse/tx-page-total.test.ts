// The total a tx list page gives for free (clickhouse/queries/txs.ts pageTotal): only a page without a cursor that
// does not fill its window (limit + the look-ahead row) shows where the list ends. Pure.
import { describe, expect, it } from 'vitest';
import { pageTotal } from '../../clickhouse/queries/txs.js';

const scope = (cursor: number | null) => ({ msgs: null, maxSequence: 10n ** 12n, cursor });
const w = (offset: number) => ({ desc: true, limit: 101, offset });

describe('pageTotal', () => {
  it('is the offset plus the rows of a page that ends the list', () => {
    expect(pageTotal(w(0), scope(null), 20)).toBe('20');
    expect(pageTotal(w(0), scope(null), 100)).toBe('100');
    expect(pageTotal(w(100), scope(null), 7)).toBe('107');
    expect(pageTotal(w(0), scope(null), 0)).toBe('0');
  });
  it('must be counted after a full page, with a cursor, or for an empty page past an offset', () => {
    expect(pageTotal(w(0), scope(null), 101)).toBeNull();
    expect(pageTotal(w(0), scope(5_000_000), 3)).toBeNull();
    expect(pageTotal(w(200), scope(null), 0)).toBeNull();
  });
});
