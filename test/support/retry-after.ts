// The Retry-After of a per-client limit (api/http/client-limit.ts ClientLimiter): its bucket refills continuously from the client's
// first call, so after calls that took `tookS` seconds the wait is the refill interval less that time, in whole
// seconds. Exact to the second only when the calls were instant, which a loaded machine does not promise.
import { expect } from 'vitest';

/** Asserts `header` is a wait of at most `intervalS` and at least `intervalS` less the time since `startedMs`; returns it. */
export function expectRetryAfter(header: string | null | undefined, intervalS: number, startedMs: number): number {
  const tookS = (Date.now() - startedMs) / 1000;
  const retryAfter = Number(header);
  expect(retryAfter).toBeLessThanOrEqual(intervalS);
  expect(retryAfter).toBeGreaterThanOrEqual(Math.floor(intervalS - tookS));
  return retryAfter;
}
