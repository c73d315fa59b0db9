// Tracking timings: defaults documented in docs/tracking.md, overridable by TRACKING_* env vars
// (validated here because platform/config.ts is shared; a bad value stops start-up with one line).
import { z } from 'zod';
import type { TrackingTimings } from '../workflows/model.js';

const ms = (def: number, min = 10) =>
  z.coerce
    .number()
    .int()
    .min(min)
    .max(30 * 24 * 3600_000)
    .default(def);

const schema = z.object({
  TRACKING_POLL_INTERVAL_MS: ms(1_000, 50),
  TRACKING_POLL_WINDOW_MS: ms(20_000, 100),
  TRACKING_SOURCE_TIMEOUT_MS: ms(5 * 60_000),
  TRACKING_IBC_STALL_MS: ms(30 * 60_000),
  TRACKING_LZ_STALL_MS: ms(30 * 60_000),
  TRACKING_DEPOSIT_STALL_MS: ms(15 * 60_000),
  // Before the output is proposed / after finalization ends; the finalization period itself is a durable timer.
  TRACKING_WITHDRAWAL_STALL_MS: ms(24 * 3600_000),
  TRACKING_LZ_RETRY_WINDOW_MS: ms(10 * 60_000),
});

/** Worker-level: how often the shared per-chain feeds read new blocks (activities/feed.ts). */
export function feedIntervalFromEnv(env: Record<string, string | undefined> = process.env): number {
  const r = z.coerce
    .number()
    .int()
    .min(50)
    .max(60_000)
    .default(250)
    .safeParse(env.TRACKING_FEED_INTERVAL_MS || undefined);
  if (!r.success) throw new Error(`config: TRACKING_FEED_INTERVAL_MS ${r.error.issues[0]!.message}`);
  return r.data;
}

export const DEFAULT_TIMINGS: TrackingTimings = timingsFromEnv({});

export function timingsFromEnv(env: Record<string, string | undefined> = process.env): TrackingTimings {
  const picked: Record<string, string> = {};
  for (const k of Object.keys(schema.shape)) if (env[k]) picked[k] = env[k]!;
  const r = schema.safeParse(picked);
  if (!r.success) {
    const i = r.error.issues[0]!;
    throw new Error(`config: ${i.path.join('.')} ${i.message}`);
  }
  const v = r.data;
  return {
    pollIntervalMs: v.TRACKING_POLL_INTERVAL_MS,
    pollWindowMs: v.TRACKING_POLL_WINDOW_MS,
    sourceTimeoutMs: v.TRACKING_SOURCE_TIMEOUT_MS,
    ibcStallMs: v.TRACKING_IBC_STALL_MS,
    lzStallMs: v.TRACKING_LZ_STALL_MS,
    depositStallMs: v.TRACKING_DEPOSIT_STALL_MS,
    withdrawalStallMs: v.TRACKING_WITHDRAWAL_STALL_MS,
    lzRetryWindowMs: v.TRACKING_LZ_RETRY_WINDOW_MS,
  };
}
