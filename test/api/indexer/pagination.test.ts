// The pagination codec and parameters (docs/indexer.md): cursor round trips, the upstream key forms
// and messages, and the next_key / previous_key rules — pure code, no I/O.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../api/http/errors.js';
import {
  decodeKey,
  encodeCursor,
  encodeOffset,
  pageResult,
  parsePage,
  type Cursor,
} from '../../../api/indexer/read/page.js';

const b64 = (s: string) => Buffer.from(s).toString('base64');
const message = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError);
    expect((e as ApiError).status).toBe(400);
    return (e as ApiError).message;
  }
  throw new Error('expected a 400');
};

describe('pagination.key', () => {
  it('encodes cursors exactly as upstream (compact JSON, sorted keys)', () => {
    expect(encodeCursor({ kind: 'sequence', sequence: 123 })).toBe('eyJzZXF1ZW5jZSI6MTIzfQ==');
    expect(encodeCursor({ kind: 'height', height: 100 })).toBe('eyJoZWlnaHQiOjEwMH0=');
    expect(
      Buffer.from(encodeCursor({ kind: 'token', height: 100, tokenId: '42', collection: null }), 'base64').toString(),
    ).toBe('{"height":100,"token_id":"42"}');
    expect(encodeOffset(100)).toBe('MTAw');
  });

  it('decodes every cursor it encodes (property)', () => {
    const idx = fc.nat({ max: Number.MAX_SAFE_INTEGER });
    const hex = fc.stringMatching(/^0x[0-9a-f]{40}$/);
    const cursor: fc.Arbitrary<Cursor> = fc.oneof(
      idx.map((sequence) => ({ kind: 'sequence' as const, sequence })),
      idx.map((height) => ({ kind: 'height' as const, height })),
      fc.record({
        kind: fc.constant('token' as const),
        height: idx,
        tokenId: fc.string({ maxLength: 40 }),
        collection: fc.option(hex, { nil: null }),
      }),
      fc.record({ kind: fc.constant('collection' as const), height: idx, collection: hex }),
    );
    fc.assert(
      fc.property(cursor, (c) => {
        expect(decodeKey(encodeCursor(c))).toEqual({ cursor: c, offset: null });
      }),
    );
  });

  it('reads a decimal key as an offset and another JSON object as offset mode', () => {
    expect(decodeKey(b64('100'))).toEqual({ cursor: null, offset: 100 });
    expect(decodeKey(b64('{"foo":1}'))).toEqual({ cursor: null, offset: null });
  });

  it('gives the upstream messages for bad keys', () => {
    expect(message(() => decodeKey('%%%'))).toBe('pagination.key must be a valid base64 encoded string');
    expect(message(() => decodeKey('abc'))).toBe('pagination.key must be a valid base64 encoded string');
    expect(message(() => decodeKey(b64('-1')))).toBe('pagination.key must decode to a nonnegative integer');
    expect(message(() => decodeKey(b64('hello')))).toBe('pagination.key must decode to a nonnegative integer');
    expect(message(() => decodeKey(b64('{oops')))).toBe('invalid pagination.key format');
    expect(message(() => decodeKey(b64('{"sequence":-5}')))).toBe('invalid pagination.key format');
    expect(message(() => decodeKey(b64('{"height":1.5}')))).toBe('invalid pagination.key format');
  });

  it('never throws anything but a 400 on arbitrary input (property)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string().map(b64), fc.json().map(b64)), (k) => {
        try {
          decodeKey(k);
        } catch (e) {
          expect(e).toBeInstanceOf(ApiError);
          expect((e as ApiError).status).toBe(400);
        }
      }),
    );
  });
});

describe('parsePage', () => {
  it('applies defaults: limit 100, offset 0, count_total and reverse true', () => {
    expect(parsePage({}, ['sequence'])).toEqual({
      limit: 100,
      offset: 0,
      countTotal: true,
      reverse: true,
      cursor: null,
    });
  });

  it('checks ranges with the upstream wording', () => {
    expect(message(() => parsePage({ 'pagination.limit': 0 }, []))).toBe('pagination.limit must be between 1 and 1000');
    expect(message(() => parsePage({ 'pagination.limit': 1001 }, []))).toBe(
      'pagination.limit must be between 1 and 1000',
    );
    expect(message(() => parsePage({ 'pagination.offset': -1 }, []))).toBe('pagination.offset cannot be negative');
    expect(message(() => parsePage({ 'pagination.reverse': 'yes' }, []))).toMatch(/pagination\.reverse/);
  });

  it("booleans take Go's ParseBool set (true/false/1/0/t/f/TRUE/False…)", () => {
    for (const v of ['true', '1', 't', 'T', 'TRUE', 'True'])
      expect(parsePage({ 'pagination.reverse': v, 'pagination.count_total': v }, [])).toMatchObject({
        reverse: true,
        countTotal: true,
      });
    for (const v of ['false', '0', 'f', 'F', 'FALSE', 'False'])
      expect(parsePage({ 'pagination.reverse': v, 'pagination.count_total': v }, [])).toMatchObject({
        reverse: false,
        countTotal: false,
      });
    expect(message(() => parsePage({ 'pagination.count_total': '2' }, []))).toMatch(/pagination\.count_total/);
  });

  it('a cursor replaces the offset; a decimal key replaces pagination.offset; a foreign cursor falls back to offset', () => {
    const key = encodeCursor({ kind: 'sequence', sequence: 5 });
    expect(parsePage({ 'pagination.key': key, 'pagination.offset': 30 }, ['sequence'])).toMatchObject({
      offset: 0,
      cursor: { kind: 'sequence', sequence: 5 },
    });
    expect(parsePage({ 'pagination.key': b64('40'), 'pagination.offset': 30 }, ['sequence'])).toMatchObject({
      offset: 40,
      cursor: null,
    });
    // upstream's default branch: a cursor of another list's shape pages by pagination.offset
    expect(parsePage({ 'pagination.key': key, 'pagination.offset': 4 }, ['height'])).toMatchObject({
      offset: 4,
      cursor: null,
    });
    // {"height":N} on collections is upstream's height cursor: strictly below / above every row at N
    const h = encodeCursor({ kind: 'height', height: 9 });
    expect(parsePage({ 'pagination.key': h }, ['collection']).cursor).toEqual({
      kind: 'collection',
      height: 9,
      collection: '',
    });
    expect(parsePage({ 'pagination.key': h, 'pagination.reverse': 'false' }, ['collection']).cursor).toEqual({
      kind: 'collection',
      height: 9,
      collection: '0xg',
    });
    // offset-only lists (rich list) ignore JSON cursors as upstream
    expect(parsePage({ 'pagination.key': key, 'pagination.offset': 7 }, [])).toMatchObject({ offset: 7, cursor: null });
  });
});

describe('pageResult', () => {
  const page = (over: Partial<ReturnType<typeof parsePage>> = {}) => ({
    ...parsePage({ 'pagination.limit': 3 }, ['sequence']),
    ...over,
  });
  const seq = (n: number) => ({ kind: 'sequence' as const, sequence: n });

  it('cursor lists: next_key is the last row when more rows exist, null otherwise; previous_key null', () => {
    expect(pageResult(page(), [9, 8, 7, 6], '10', seq)).toEqual({
      rows: [9, 8, 7],
      pagination: { previous_key: null, next_key: encodeCursor(seq(7)), total: '10' },
    });
    expect(pageResult(page(), [9, 8, 7], '3', seq).pagination.next_key).toBeNull();
    expect(pageResult(page(), [], '0', seq).pagination).toEqual({ previous_key: null, next_key: null, total: '0' });
  });

  it('offset lists: next_key = offset+limit only on a full page; previous_key = offset-limit when offset ≥ limit', () => {
    expect(pageResult(page({ offset: 0 }), [1, 2, 3, 4], '9', 'offset').pagination).toEqual({
      previous_key: null,
      next_key: 'Mw==',
      total: '9',
    });
    expect(pageResult(page({ offset: 6 }), [7, 8, 9], '9', 'offset').pagination).toEqual({
      previous_key: 'Mw==',
      next_key: null,
      total: '9',
    });
    expect(pageResult(page({ offset: 2 }), [3], '3', 'offset').pagination.previous_key).toBeNull();
  });

  it('walking pages by next_key visits every row exactly once, in order (property)', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.nat({ max: 1e9 }), { maxLength: 60 }),
        fc.integer({ min: 1, max: 7 }),
        fc.boolean(),
        (values, limit, desc) => {
          const sorted = [...values].sort((a, b) => (desc ? b - a : a - b));
          const seen: number[] = [];
          let key: string | undefined;
          for (let guard = 0; guard < 100; guard++) {
            const p = parsePage(
              { 'pagination.limit': limit, 'pagination.reverse': desc, ...(key ? { 'pagination.key': key } : {}) },
              ['sequence'],
            );
            const after = p.cursor?.kind === 'sequence' ? p.cursor.sequence : null;
            const rest = sorted.filter((v) => after === null || (desc ? v < after : v > after)).slice(0, p.limit + 1);
            const { rows, pagination } = pageResult(p, rest, String(values.length), seq);
            seen.push(...rows);
            if (!pagination.next_key) break;
            key = pagination.next_key;
          }
          expect(seen).toEqual(sorted);
        },
      ),
    );
  });

  it('offset-style lists reached by cursor: previous_key is the decimal offset of the page before', () => {
    const c = { kind: 'collection' as const, height: 5, collection: '0xab' };
    const at = (n: number | undefined) =>
      pageResult(page({ cursor: c }), [1, 2], '9', () => c, true, n).pagination.previous_key;
    expect(at(7)).toBe(Buffer.from('4').toString('base64')); // rows 4..6 precede the page at offset 7
    expect(at(2)).toBe(Buffer.from('0').toString('base64')); // fewer than a page before: back to the start
    expect(at(0)).toBeNull();
    expect(at(undefined)).toBeNull();
  });

  it('hands out no offset key past the largest offset it takes back', () => {
    // A full page ending past MAX_OFFSET: no next_key (the total still counts every row), never one then refused.
    const deep = parsePage({ 'pagination.offset': '999500', 'pagination.limit': '1000' }, []);
    const r = pageResult(deep, new Array(1001).fill(0), '2000000', 'offset').pagination;
    expect(r.next_key).toBeNull();
    expect(parsePage({ 'pagination.key': r.previous_key! }, []).offset).toBe(998_500);
    // Every key handed out is taken back.
    const edge = parsePage({ 'pagination.offset': '999000', 'pagination.limit': '1000' }, []);
    const e = pageResult(edge, new Array(1001).fill(0), '2000000', 'offset').pagination;
    expect(parsePage({ 'pagination.key': e.next_key! }, []).offset).toBe(1_000_000);
    // A page reached by cursor deeper than that: no previous_key.
    const c = { kind: 'collection' as const, height: 5, collection: '0xab' };
    expect(pageResult(page({ cursor: c }), [1, 2], '9', () => c, true, 1_100_000).pagination.previous_key).toBeNull();
  });
});
