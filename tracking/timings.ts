// Tracking timings from the TRACKING_* variables of the one config schema (platform/config.ts; defaults and
// meanings in docs/configuration.md). A bad value stops start-up with one line.
import { configSection } from '../platform/config.js';
import type { TrackingTimings } from '../workflows/model.js';
import type { WebhookSettings } from '../workflows/webhook.js';

const TIMING_KEYS = [
  'TRACKING_POLL_INTERVAL_MS',
  'TRACKING_POLL_WINDOW_MS',
  'TRACKING_SOURCE_TIMEOUT_MS',
  'TRACKING_IBC_STALL_MS',
  'TRACKING_LZ_STALL_MS',
  'TRACKING_DEPOSIT_STALL_MS',
  'TRACKING_WITHDRAWAL_STALL_MS',
  'TRACKING_OUTPUT_CHECK_MS',
  'TRACKING_LZ_RETRY_WINDOW_MS',
  'TRACKING_WEBHOOK_MAX_BACKOFF_MS',
  'TRACKING_WEBHOOK_GIVE_UP_MS',
] as const;

type Env = Record<string, string | undefined>;

/**
 * Worker-level: how often the shared per-chain feeds read new blocks (activities/feed.ts). `env` replaces the
 * process environment (tests); the schema reads the environment itself otherwise.
 */
export function feedIntervalFromEnv(env?: Env): number {
  return configSection(['TRACKING_FEED_INTERVAL_MS'], env).TRACKING_FEED_INTERVAL_MS;
}

export const DEFAULT_TIMINGS: TrackingTimings = timingsFromEnv({});

/** The timings of the TRACKING_* variables; `env` as for feedIntervalFromEnv. */
export function timingsFromEnv(env?: Env): TrackingTimings {
  const v = configSection(TIMING_KEYS, env);
  return {
    pollIntervalMs: v.TRACKING_POLL_INTERVAL_MS,
    pollWindowMs: v.TRACKING_POLL_WINDOW_MS,
    sourceTimeoutMs: v.TRACKING_SOURCE_TIMEOUT_MS,
    ibcStallMs: v.TRACKING_IBC_STALL_MS,
    lzStallMs: v.TRACKING_LZ_STALL_MS,
    depositStallMs: v.TRACKING_DEPOSIT_STALL_MS,
    withdrawalStallMs: v.TRACKING_WITHDRAWAL_STALL_MS,
    outputCheckMs: v.TRACKING_OUTPUT_CHECK_MS,
    lzRetryWindowMs: v.TRACKING_LZ_RETRY_WINDOW_MS,
    webhookMaxBackoffMs: v.TRACKING_WEBHOOK_MAX_BACKOFF_MS,
    webhookGiveUpMs: v.TRACKING_WEBHOOK_GIVE_UP_MS,
  };
}

/**
 * The webhook settings of the WEBHOOK_* variables, or undefined when no WEBHOOK_SECRET is set (webhooks off);
 * `env` as for feedIntervalFromEnv.
 */
export function webhookSettingsFromEnv(env?: Env): WebhookSettings | undefined {
  const v = configSection(['WEBHOOK_SECRET', 'WEBHOOK_HOSTS', 'WEBHOOK_PRIVATE_ADDRESSES'], env);
  if (!v.WEBHOOK_SECRET) return undefined;
  return {
    secret: v.WEBHOOK_SECRET,
    hosts: v.WEBHOOK_HOSTS.split(',')
      .map((h) => h.trim())
      .filter(Boolean),
    privateAddresses: v.WEBHOOK_PRIVATE_ADDRESSES,
  };
}
