// The gate (platform/gate.ts) bounds calls that hold a scarce resource while they run (the webhook host lookups hold
// a thread of Node's pool): at most `max` run at once, a call that finds no turn within its bound gets the fallback
// and never starts, and a call that outlives its bound keeps its turn until it settles.
import { describe, expect, it } from 'vitest';
import { Gate } from '../../platform/gate.js';

/** A call that settles only when told. */
function held<T>() {
  let settle!: (v: T) => void;
  const promise = new Promise<T>((r) => (settle = r));
  return { promise, settle };
}

describe('the gate', () => {
  it('runs at most max at once; a call without a turn within its bound gets the fallback and never starts', async () => {
    const gate = new Gate(2);
    const a = held<string>();
    const b = held<string>();
    const pa = gate.within(() => a.promise, 10_000, 'late');
    const pb = gate.within(() => b.promise, 10_000, 'late');
    expect(gate.inFlight).toBe(2);
    let started = false;
    const t0 = Date.now();
    const third = await gate.within(
      async () => {
        started = true;
        return 'ran';
      },
      50,
      'no turn',
    );
    expect(third).toBe('no turn');
    expect(Date.now() - t0).toBeGreaterThanOrEqual(45);
    expect(started).toBe(false);
    a.settle('a');
    b.settle('b');
    expect([await pa, await pb]).toEqual(['a', 'b']);
    expect(gate.inFlight).toBe(0); // the waiter that gave up was handed no turn
  });

  it('hands a freed turn to the next waiter, which then runs', async () => {
    const gate = new Gate(1);
    const a = held<number>();
    const pa = gate.within(() => a.promise, 10_000, -1);
    const pb = gate.within(async () => 2, 10_000, -1);
    expect(gate.inFlight).toBe(1);
    a.settle(1);
    expect([await pa, await pb]).toEqual([1, 2]);
    expect(gate.inFlight).toBe(0);
  });

  it('answers the fallback for a call past its bound, which keeps its turn until it settles', async () => {
    const gate = new Gate(1);
    const slow = held<string>();
    expect(await gate.within(() => slow.promise, 30, 'late')).toBe('late');
    expect(gate.inFlight).toBe(1);
    expect(await gate.within(async () => 'next', 30, 'no turn')).toBe('no turn');
    slow.settle('done');
    await slow.promise;
    await new Promise((r) => setImmediate(r));
    expect(gate.inFlight).toBe(0);
    expect(await gate.within(async () => 'next', 30, 'no turn')).toBe('next');
  });

  it('releases the turn of a call that throws or rejects', async () => {
    const gate = new Gate(1);
    await expect(
      gate.within(
        () => {
          throw new Error('sync');
        },
        100,
        null,
      ),
    ).rejects.toThrow('sync');
    await expect(gate.within(() => Promise.reject(new Error('async')), 100, null)).rejects.toThrow('async');
    await new Promise((r) => setImmediate(r));
    expect(gate.inFlight).toBe(0);
  });
});
