import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  DEFAULT_SHAPE,
  ERC20_SUPPLY,
  expectedState,
  planTraffic,
  senderOf,
  type Op,
  type Plan,
  type TrafficShape,
} from '../../../devnet/minievm/traffic-plan.js';

const count = (plan: Plan, kind: Op['kind']) => plan.phases.flat().filter((o) => o.kind === kind).length;

/** Runs each round with its senders in a given order (each sender's ops stay in order). */
function interleave(plan: Plan, order: (senders: number[]) => number[]): Plan {
  return {
    shape: plan.shape,
    phases: plan.phases.map((round) => {
      const bySender = new Map<number, Op[]>();
      for (const op of round) bySender.set(senderOf(op), [...(bySender.get(senderOf(op)) ?? []), op]);
      return order([...bySender.keys()]).flatMap((s) => bySender.get(s) ?? []);
    }),
  };
}

describe('traffic plan', () => {
  it('covers every kind the issue asks for, with exactly two intended failures', () => {
    const plan = planTraffic();
    for (const kind of [
      'bank-send',
      'erc20-deploy',
      'erc20-transfer',
      'erc721-deploy',
      'erc721-mint',
      'erc721-transfer',
      'erc721-burn',
    ] as const) {
      expect(count(plan, kind), kind).toBeGreaterThan(0);
    }
    expect(count(plan, 'bank-send')).toBe(DEFAULT_SHAPE.bankSends);
    expect(count(plan, 'erc721-mint')).toBe(DEFAULT_SHAPE.nftMints);
    expect(count(plan, 'erc721-burn')).toBe(DEFAULT_SHAPE.nftBurns);
    const state = expectedState(plan);
    expect(state.failedOps).toBe(2);
    expect(state.nftSupply).toBe(BigInt(DEFAULT_SHAPE.nftMints - DEFAULT_SHAPE.nftBurns));
    for (const id of state.burned) expect(state.nftOwners.has(id)).toBe(false);
  });

  it('conserves ERC20 supply and spreads it over many holders', () => {
    const state = expectedState(planTraffic());
    expect([...state.erc20.values()].reduce((a, b) => a + b, 0n)).toBe(ERC20_SUPPLY);
    expect([...state.erc20.values()].filter((v) => v > 0n).length).toBeGreaterThanOrEqual(DEFAULT_SHAPE.accounts - 3);
  });

  it('is deterministic per seed', () => {
    const s = (seed: number) =>
      JSON.stringify(planTraffic({ ...DEFAULT_SHAPE, seed }), (_k, v) => (typeof v === 'bigint' ? v.toString() : v));
    expect(s(1)).toBe(s(1));
    expect(s(1)).not.toBe(s(2));
  });

  it('rejects unbounded or inconsistent shapes', () => {
    expect(() => planTraffic({ ...DEFAULT_SHAPE, accounts: 1 })).toThrow();
    expect(() => planTraffic({ ...DEFAULT_SHAPE, accounts: 201 })).toThrow();
    expect(() => planTraffic({ ...DEFAULT_SHAPE, erc20Transfers: -1 })).toThrow();
    expect(() => planTraffic({ ...DEFAULT_SHAPE, nftBurns: DEFAULT_SHAPE.nftMints + 1 })).toThrow();
  });

  it('gives the same end state whatever order senders run inside a round (property)', () => {
    const shapeArb: fc.Arbitrary<TrafficShape> = fc
      .record({
        accounts: fc.integer({ min: 2, max: 15 }),
        bankSends: fc.integer({ min: 0, max: 10 }),
        erc20Transfers: fc.integer({ min: 0, max: 60 }),
        nftMints: fc.integer({ min: 0, max: 15 }),
        nftTransfers: fc.integer({ min: 0, max: 25 }),
        nftBurns: fc.constant(0),
        seed: fc.integer({ min: 0, max: 1_000_000 }),
      })
      .chain((s) => fc.integer({ min: 0, max: s.nftMints }).map((nftBurns) => ({ ...s, nftBurns })));
    fc.assert(
      fc.property(shapeArb, fc.integer(), (shape, permSeed) => {
        const plan = planTraffic(shape);
        const reference = expectedState(plan);
        let x = permSeed >>> 0;
        const shuffled = interleave(plan, (senders) =>
          senders
            .map((s) => ({ s, k: (x = (Math.imul(x, 1103515245) + 12345) >>> 0) }))
            .sort((a, b) => a.k - b.k)
            .map((e) => e.s),
        );
        const reversed = interleave(plan, (senders) => [...senders].reverse());
        for (const other of [shuffled, reversed]) {
          const st = expectedState(other); // throws on any overdraft / non-owner move
          expect([...st.erc20].sort()).toEqual([...reference.erc20].sort());
          expect([...st.nftOwners].sort()).toEqual([...reference.nftOwners].sort());
        }
      }),
      { numRuns: 150 },
    );
  });
});
