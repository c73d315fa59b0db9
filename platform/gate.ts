// A bound on how many calls of one kind run at once, each waiting for its turn and running within one time bound.
import { valueWithin } from './deadline.js';

interface Waiter {
  go: () => void;
  gaveUp: boolean;
}

/**
 * At most `max` calls started through the gate run at once. Invariant: `running` counts the calls started and not
 * yet settled, plus turns handed to a waiter that has not started yet; a waiter that gave up is never handed one.
 */
export class Gate {
  private running = 0;
  private readonly waiting: Waiter[] = [];

  constructor(private readonly max: number) {}

  /**
   * `start()`'s value if a turn comes and the call resolves within `ms` of this call, else `fallback`. A call that
   * outlives `ms` keeps its turn until it settles: what it holds (a thread, a socket) is held until then.
   */
  async within<T, F>(start: () => Promise<T>, ms: number, fallback: F): Promise<T | F> {
    const deadline = Date.now() + ms;
    if (this.running < this.max) this.running++;
    else if (!(await this.turn(ms))) return fallback;
    let p: Promise<T>;
    try {
      p = start();
    } catch (e) {
      this.release();
      throw e;
    }
    p.then(
      () => this.release(),
      () => this.release(),
    );
    return valueWithin(p, Math.max(0, deadline - Date.now()), fallback);
  }

  /** Calls running (or handed a turn), for metrics and tests. */
  get inFlight(): number {
    return this.running;
  }

  /** Wait at most `ms` for a turn; true once one is handed (and counted in `running`). */
  private turn(ms: number): Promise<boolean> {
    const w: Waiter = { go: () => undefined, gaveUp: false };
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => {
        w.gaveUp = true;
        resolve(false);
      }, ms);
      w.go = () => {
        clearTimeout(timer);
        resolve(true);
      };
      this.waiting.push(w);
    });
  }

  private release(): void {
    for (let w = this.waiting.shift(); w; w = this.waiting.shift())
      if (!w.gaveUp) {
        w.go(); // the turn passes on: `running` stays
        return;
      }
    this.running--;
  }
}
