// The held token index (api/indexer/token-memory.ts) against a naive oracle: every page of every list, in both
// orders and directions, by cursor and by offset, after random mints, transfers, mutations and burns; the text
// order against the engine's (UTF-8 bytes); and the memory's load-then-delta protocol.
import { describe, expect, it } from 'vitest';
import type { TokenOrder, TokenRow } from '../../../clickhouse/queries/tokens.js';
import {
  TokenIndex,
  TokenMemory,
  compareText,
  type HeldPageQuery,
  type TokenKey,
  type TokenSource,
  type TokenState,
} from '../../../api/indexer/read/token-memory.js';

/** A deterministic PRNG (mulberry32), so a failure replays. */
function rng(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const IDS = ['1', '10', '2', 'a', 'B', 'é', '😀', '\uffff', 'token-7', '007', ''];

const keyOf = (r: TokenRow, collection: boolean): TokenKey => ({
  height: Number(r.height),
  tokenId: r.token_id,
  collection: collection ? r.collection : '',
});
const bytes = (s: string) => Buffer.from(s, 'utf8');
const cmpBytes = (a: string, b: string) => Buffer.compare(bytes(a), bytes(b));
function cmpKeys(order: TokenOrder, a: TokenKey, b: TokenKey): number {
  const id = cmpBytes(a.tokenId, b.tokenId);
  const h = a.height - b.height;
  const c = cmpBytes(a.collection, b.collection);
  return order === 'token_id' ? id || h || c : h || id || c;
}

/** The oracle: filter, sort with byte comparisons, reverse, cut. */
function oraclePage(rows: TokenRow[], multi: boolean, q: HeldPageQuery) {
  const sorted = [...rows].sort((a, b) => cmpKeys(q.order, keyOf(a, multi), keyOf(b, multi)));
  const list = q.desc ? sorted.reverse() : sorted;
  if (!q.cursor) return { rows: list.slice(q.offset, q.offset + q.limit), total: list.length, through: undefined };
  const c = q.cursor;
  const before = list.filter((r) => {
    const d = cmpKeys(q.order, keyOf(r, multi), c);
    return q.desc ? d >= 0 : d <= 0;
  }).length;
  return { rows: list.slice(before, before + q.limit), total: list.length, through: before };
}

describe('compareText', () => {
  it('orders as the engine does (UTF-8 bytes), surrogates after U+E000–U+FFFF', () => {
    const words = [...IDS, 'Z', 'z', '\ud7ff', '\ue000', 'ab', 'abc', '𝔸', '\u0080'];
    for (const a of words)
      for (const b of words) expect(Math.sign(compareText(a, b)), `${a} ${b}`).toBe(Math.sign(cmpBytes(a, b)));
  });
});

describe('TokenIndex', () => {
  it('pages every list like the oracle through random mints, transfers, mutations and burns', () => {
    const rand = rng(14);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
    const cols = ['0xcol1', '0xcol2', '0xcol3'];
    const owners = ['init1a', 'init1b', 'init1c', 'init1d'];
    const live = new Map<string, TokenRow>();
    const index = new TokenIndex();
    let height = 1;
    for (let step = 0; step < 300; step++) {
      height += 1 + Math.floor(rand() * 2);
      const changes: TokenState[] = [];
      for (let k = 0; k < 1 + Math.floor(rand() * 4); k++) {
        const collection = pick(cols);
        const token_id = pick(IDS) + (rand() < 0.5 ? '' : String(Math.floor(rand() * 5)));
        const key = `${collection}\u0000${token_id}`;
        const prev = live.get(key);
        const burned = prev !== undefined && rand() < 0.2;
        const row: TokenRow = {
          collection,
          token_id,
          owner: prev && rand() < 0.4 ? prev.owner : pick(owners),
          uri: `ipfs://${step}`,
          object_addr: '',
          // several tokens share a height, so the second key decides
          height: String(rand() < 0.3 && prev ? prev.height : height),
          time: `2026-11-23 00:00:${String(step % 60).padStart(2, '0')}.000000000`,
        };
        if (burned) live.delete(key);
        else live.set(key, row);
        changes.push({ ...row, burned });
      }
      // a delta may carry the same token twice (the last one wins), as two deltas in a row would
      index.apply(changes);
      expect(index.size).toBe(live.size);
      if (step % 10 !== 0) continue;
      const rows = [...live.values()];
      for (const order of ['token_id', 'height'] as const)
        for (const desc of [false, true]) {
          for (const c of cols) {
            const mine = rows.filter((r) => r.collection === c);
            for (const q of queries(mine, false, order, desc, rand)) {
              const got = index.collectionPage(c, null, q);
              expect(got, JSON.stringify(q)).toEqual(oraclePage(mine, false, q));
            }
          }
          for (const o of owners) {
            const mine = rows.filter((r) => r.owner === o);
            for (const q of queries(mine, true, order, desc, rand)) {
              expect(index.ownerPage(o, null, null, q), JSON.stringify(q)).toEqual(oraclePage(mine, true, q));
              const c = pick(cols);
              expect(index.ownerPage(o, c, null, q)).toEqual(
                oraclePage(
                  mine.filter((r) => r.collection === c),
                  true,
                  q,
                ),
              );
            }
            const owned = [...new Set(mine.map((r) => r.collection))].sort(cmpBytes);
            expect(index.collectionsOf(o)).toEqual(owned);
          }
        }
    }
  });

  it('a token id filter gives the one token or nothing', () => {
    const index = new TokenIndex();
    const row: TokenRow = {
      collection: 'c',
      token_id: '5',
      owner: 'o',
      uri: '',
      object_addr: '',
      height: '3',
      time: 't',
    };
    index.apply([{ ...row, burned: false }]);
    const q: HeldPageQuery = { order: 'token_id', desc: true, cursor: null, offset: 0, limit: 10 };
    expect(index.collectionPage('c', '5', q).rows).toEqual([row]);
    expect(index.collectionPage('c', '6', q)).toEqual({ rows: [], total: 0, through: undefined });
    expect(index.ownerPage('o', null, '5', q).rows).toEqual([row]);
    index.apply([{ ...row, burned: true }]);
    expect(index.size).toBe(0);
    expect(index.ownerPage('o', null, null, q).total).toBe(0);
    expect(index.collectionsOf('o')).toEqual([]);
  });
});

/** A cursor-less first page, an offset, and cursors on, between and beyond the list's keys. */
function queries(
  rows: TokenRow[],
  multi: boolean,
  order: TokenOrder,
  desc: boolean,
  rand: () => number,
): HeldPageQuery[] {
  const base = { order, desc, limit: 1 + Math.floor(rand() * 4) };
  const out: HeldPageQuery[] = [
    { ...base, cursor: null, offset: 0 },
    { ...base, cursor: null, offset: Math.floor(rand() * (rows.length + 2)) },
    { ...base, cursor: { height: 0, tokenId: '', collection: '' }, offset: 0 },
    { ...base, cursor: { height: 1e9, tokenId: '\uffff', collection: '' }, offset: 0 },
  ];
  for (const r of rows.slice(0, 4)) {
    out.push({ ...base, cursor: keyOf(r, multi), offset: 0 });
    out.push({ ...base, cursor: { ...keyOf(r, multi), height: Number(r.height) + 1 }, offset: 0 });
  }
  return out;
}

describe('TokenMemory', () => {
  const state = (token_id: string, height: number, burned = false): TokenState => ({
    collection: 'c',
    token_id,
    owner: 'o',
    uri: '',
    object_addr: '',
    height: String(height),
    time: 't',
    burned,
  });

  /** A source over an in-test list of states (what the engine's state table would fold to). */
  function source(states: TokenState[]) {
    const calls = { all: 0, changedAbove: [] as number[] };
    const src: TokenSource = {
      stateRows: async () => states.length,
      all: async (max) => {
        calls.all++;
        const live = states.filter((s) => !s.burned);
        return live.length > max ? null : live;
      },
      changedAbove: async (h) => {
        calls.changedAbove.push(h);
        return states.filter((s) => Number(s.height) > h);
      },
    };
    return { src, calls };
  }

  it('loads once, then applies only the changes above the held tip; concurrent callers share one read', async () => {
    const states = [state('1', 1), state('2', 2)];
    const { src, calls } = source(states);
    const memory = new TokenMemory(src, 10);
    const [a, b] = await Promise.all([memory.at(2), memory.at(2)]);
    expect(a).toBe(b);
    expect(a!.size).toBe(2);
    states.push(state('3', 3), { ...state('1', 3), burned: true });
    const c = await memory.at(3);
    expect(c).toBe(a);
    expect(c!.size).toBe(2);
    expect(await memory.at(2)).toBe(a); // an older tip is served by the newer tokens
    expect(calls).toEqual({ all: 1, changedAbove: [2] });
  });

  it('holds nothing past the limit, and reloads after a rewind', async () => {
    const states = [state('1', 1), state('2', 2), state('3', 3)];
    let now = 0;
    const { src, calls } = source(states);
    const memory = new TokenMemory(src, 2, () => now);
    expect(await memory.at(3)).toBeNull();
    expect(await memory.at(4)).toBeNull(); // not read again within the minute
    expect(calls.all).toBe(1);
    now = 61_000;
    states.pop();
    expect((await memory.at(4))!.size).toBe(2);
    memory.clear();
    expect((await memory.at(2))!.size).toBe(2);
    expect(calls.all).toBe(3);
    expect(await new TokenMemory(src, 0).at(2)).toBeNull();
  });
});
