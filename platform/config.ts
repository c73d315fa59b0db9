// Configuration: env vars (and an optional JSON file named by CONFIG_FILE), validated once at start-up.
// A bad value stops the process with one line naming the variable and what is wrong.
// Every variable the production code reads is in this one schema, and each is documented once, in
// docs/configuration.md (test/platform/config.test.ts checks that table against this schema).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

const bool = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0'])])
  .transform((v) => v === true || v === 'true' || v === '1');
/** A port; a value of only spaces is refused (it coerced to 0: a random port). */
const port = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() === '' ? Number.NaN : v),
  z.coerce.number().int().min(0).max(65535),
);
/** An http(s) URL: `localhost:26657` (no scheme) parses as a URL of scheme `localhost:`, and `file:` is no endpoint. */
const url = z
  .string()
  .url()
  .refine((u) => /^https?:\/\//i.test(u), 'must be an http:// or https:// URL');
/** A duration in ms for tracking timers: at least `min`, at most 30 days. */
const ms = (def: number, min = 10) =>
  z.coerce
    .number()
    .int()
    .min(min)
    .max(30 * 24 * 3600_000)
    .default(def);

export const configSchema = z
  .object({
    /** Which process this is: everything in one (default), or one role of the scaled-out deployment. */
    ROLE: z.enum(['all', 'ingest', 'indexer', 'router', 'worker', 'migrate']).default('all'),
    DATA_DIR: z.string().min(1).default('./data'),
    LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error']).default('info'),
    VERSION: z.string().max(64).default('dev'),
    COMMIT_HASH: z.string().max(64).default('unknown'),
    // chain being indexed
    CHAIN_ID: z
      .string()
      .regex(/^[a-zA-Z0-9._-]{1,64}$/, 'must be 1-64 chars of [a-zA-Z0-9._-]')
      .optional(),
    VM: z.enum(['evm', 'move', 'wasm']).optional(),
    BECH32_PREFIX: z
      .string()
      .regex(/^[a-z]{1,16}$/)
      .default('init'),
    COMETBFT_RPC_URL: url.optional(),
    COSMOS_REST_URL: url.optional(),
    EVM_JSONRPC_URL: url.optional(),
    EVM_INTERNAL_TXS: bool.default(false),
    /** Which recorded sample chain to serve on loopback when no chain URLs are configured. */
    SAMPLE_CHAIN: z.enum(['evm', 'move', 'wasm', 'none']).default('evm'),
    START_HEIGHT: z.coerce.number().int().min(1).default(1),
    FETCH_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(16),
    BATCH_BLOCKS: z.coerce.number().int().min(1).max(100_000).default(20_000),
    /**
     * Most calls in one CometBFT JSON-RPC batch: the node's `max_request_batch_size` (10 by default; a smaller
     * limit the node states is adopted). 1 reads every height on its own, with no batches.
     */
    RPC_BATCH: z.coerce.number().int().min(1).max(1000).default(10),
    /**
     * Read several heights' REST txs with one ranged tx search (ingest/tx-ranges.ts). Off for a node whose tx index
     * is off or holds a long history: CometBFT's kv indexer walks every height key it holds for each search.
     */
    RANGED_TX_READS: bool.default(true),
    /**
     * Ranged tx reads only while the node's tx index holds at most this many txs (probed once): each search costs the
     * node in proportion to every tx it holds (ingest/tx-ranges.ts RANGED_MAX_HISTORY_TXS).
     */
    RANGED_TX_READS_MAX_HISTORY: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).default(5_000),
    POLL_INTERVAL_MS: z.coerce.number().int().min(50).max(60_000).default(500),
    INGEST_ENABLED: bool.default(true),
    /** Run the ingest on a thread of its own (ingest/thread.ts), off the APIs' event loop. */
    INGEST_THREAD: bool.default(true),
    /** ROLE=all: the ingest thread's nice value; above 0, the APIs' thread is scheduled before it when both wait. */
    INGEST_THREAD_NICE: z.coerce.number().int().min(0).max(19).default(10),
    /** Stop the ingest (and exit the ingest role) once this height is indexed: backfills and tests. */
    INGEST_STOP_AT_HEIGHT: z.coerce.number().int().min(1).optional(),
    RICHLIST_INTERVAL_MS: z.coerce.number().int().min(0).max(3_600_000).default(10_000),
    /** Once caught up: the least time between rich-list snapshots (never longer than RICHLIST_INTERVAL_MS). */
    RICHLIST_HEAD_INTERVAL_MS: z.coerce.number().int().min(0).max(3_600_000).default(2_000),
    // storage
    CLICKHOUSE_URL: url.optional(),
    CLICKHOUSE_USER: z.string().default('default'),
    CLICKHOUSE_PASSWORD: z.string().default(''),
    CLICKHOUSE_DATABASE: z
      .string()
      .regex(/^[a-zA-Z_][a-zA-Z0-9_]{0,63}$/)
      .default('default'),
    /** Embedded engine only: native sessions that serve reads in parallel (clickhouse/client.ts). */
    CHDB_READ_SESSIONS: z.coerce.number().int().min(1).max(16).default(6),
    // HTTP
    INDEXER_PORT: port.default(8080),
    ROUTER_PORT: port.default(8081),
    HTTP_HOST: z.string().default('127.0.0.1'),
    /**
     * Proxies in front of both services whose X-Forwarded-For is believed (express's `trust proxy` hops): the client
     * the per-client limits count is then the address that many hops back. 0: the connection's peer.
     */
    TRUST_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
    /** CORS on both services (README "CORS"): on by default, any origin. */
    CORS_ENABLED: bool.default(true),
    /** Comma-separated: `*`, exact origins, or wildcard hosts such as `https://*.example.com`. */
    CORS_ALLOW_ORIGINS: z.string().max(4096).default('*'),
    CORS_ALLOW_METHODS: z
      .string()
      .regex(/^[A-Za-z, ]+$/, 'must be comma-separated HTTP methods')
      .default('GET,HEAD,POST,OPTIONS'),
    /** Comma-separated request headers a preflight may ask for; `*` reflects what the browser asks. */
    CORS_ALLOW_HEADERS: z.string().max(4096).default('*'),
    CORS_MAX_AGE: z.coerce.number().int().min(0).max(86_400).default(600),
    /** The indexer's in-memory response cache (docs/indexer.md); false for cache-less benchmarks. */
    INDEXER_RESPONSE_CACHE: bool.default(true),
    /** MiB of the indexer's cache of final answers (api/indexer/immutable.ts); 0 turns it off. */
    INDEXER_FINAL_CACHE_MB: z.coerce.number().int().min(0).max(65_536).default(64),
    /** MiB of rich-list snapshots the indexer holds in memory (api/indexer/richlist-memory.ts); 0 turns it off. */
    INDEXER_RICHLIST_MEMORY_MB: z.coerce.number().int().min(0).max(65_536).default(256),
    /** Most NFT tokens the indexer holds in memory (api/indexer/token-memory.ts); 0 turns it off. */
    INDEXER_NFT_TOKENS_HELD: z.coerce.number().int().min(0).max(50_000_000).default(200_000),
    /** Event streams (docs/streams.md), in each service that serves them: open at once, and per client address. */
    STREAMS_MAX: z.coerce.number().int().min(1).max(100_000).default(2000),
    STREAMS_PER_CLIENT: z.coerce.number().int().min(1).max(100_000).default(20),
    /** KiB a stream client may leave unread before it is cut off with a resumable last event. */
    STREAM_BUFFER_KB: z.coerce.number().int().min(16).max(65_536).default(1024),
    /** Heartbeat comment period on every stream (ms). */
    STREAM_HEARTBEAT_MS: z.coerce.number().int().min(100).max(300_000).default(15_000),
    /** A stream is ended (resumable) after this many seconds. */
    STREAM_LIFETIME_S: z.coerce.number().int().min(1).max(86_400).default(1800),
    // router and tracking
    ROUTER_ENABLED: bool.default(true),
    ROUTER_NETWORK: z.enum(['mainnet', 'testnet', 'custom']).default('mainnet'),
    ROUTER_REGISTRY_FILE: z.string().optional(),
    /** Per client address: sustained track registrations and balance reads per minute (0 = no limit), and burst. */
    ROUTER_CLIENT_WRITES_PER_MINUTE: z.coerce.number().int().min(0).max(1_000_000).default(120),
    ROUTER_CLIENT_WRITE_BURST: z.coerce.number().int().min(1).max(1_000_000).default(60),
    /** JSON object chain id → Cosmos REST URL for POST /v2/info/balances; wins over the registry's. */
    ROUTER_REST_URLS: z.string().max(65_536).optional(),
    /** POST /v2/info/balances may read the registry's own REST endpoints (false: only ROUTER_REST_URLS). */
    ROUTER_BALANCES_FROM_REGISTRY: bool.default(true),
    TEMPORAL_ADDRESS: z.string().optional(),
    TEMPORAL_NAMESPACE: z.string().default('default'),
    TEMPORAL_TASK_QUEUE: z.string().default('transfer-tracking'),
    TRACKING_ENABLED: bool.default(true),
    /** ROLE=all: run the chain worker in a child process (default) or in the API's own process. */
    TRACKING_CHAIN_WORKER: z.enum(['process', 'inline']).default('process'),
    /** Set by the main job for its chain worker child only: write status versions through the main job over IPC. */
    TRACKING_PROJECTION_IPC: bool.default(false),
    /** JSON array of ChainInfo (activities/chains.ts); replaces the registry-derived chain directory. */
    TRACKING_CHAINS_FILE: z.string().optional(),
    /** JSON objects chain id → URL (the registry has neither CometBFT RPC nor executor URLs). */
    TRACKING_RPC_URLS: z.string().optional(),
    TRACKING_EXECUTOR_URLS: z.string().optional(),
    // tracking timings (workflows/model.ts TrackingTimings)
    TRACKING_POLL_INTERVAL_MS: ms(1_000, 50),
    TRACKING_POLL_WINDOW_MS: ms(20_000, 100),
    TRACKING_SOURCE_TIMEOUT_MS: ms(5 * 60_000),
    TRACKING_IBC_STALL_MS: ms(30 * 60_000),
    TRACKING_LZ_STALL_MS: ms(30 * 60_000),
    TRACKING_DEPOSIT_STALL_MS: ms(15 * 60_000),
    // Before the output is proposed; the finalization period is a durable timer, and a claimable withdrawal never
    // stalls (unclaimed this long, it is polled every TRACKING_OUTPUT_CHECK_MS).
    TRACKING_WITHDRAWAL_STALL_MS: ms(24 * 3600_000),
    // During the finalization wait: how often the timer wakes to check the output is still live (delete_output).
    TRACKING_OUTPUT_CHECK_MS: ms(10 * 60_000),
    TRACKING_LZ_RETRY_WINDOW_MS: ms(10 * 60_000),
    /** Longest back-off between retries of one webhook delivery, and when an undelivered event is given up. */
    TRACKING_WEBHOOK_MAX_BACKOFF_MS: ms(60_000, 1_000),
    TRACKING_WEBHOOK_GIVE_UP_MS: ms(3 * 24 * 3600_000, 1_000),
    /**
     * Signing key of transfer webhooks (workflows/webhook.ts): `whsec_` + base64 of at least 24 bytes. Unset, track
     * requests naming a webhook are refused.
     */
    WEBHOOK_SECRET: z
      .string()
      .regex(/^whsec_[A-Za-z0-9+/]{32,}={0,2}$/, 'must be whsec_ followed by the base64 of at least 24 bytes')
      .optional(),
    /** Comma-separated host patterns webhook URLs must match: `*`, `example.com`, `*.example.com`, IP literals. */
    WEBHOOK_HOSTS: z.string().min(1).max(4096).default('*'),
    /** Webhook targets may be private, loopback or link-local addresses (internal deployments, tests). */
    WEBHOOK_PRIVATE_ADDRESSES: bool.default(false),
    /** Worker-level: how often the shared per-chain feeds read new blocks (activities/feed.ts). */
    TRACKING_FEED_INTERVAL_MS: z.coerce.number().int().min(50).max(60_000).default(250),
    /** Path of a prebuilt Temporal CLI; else scripts/install-temporal.sh builds and caches one. */
    TEMPORAL_CLI: z.string().optional(),
    /** JSON file of variables (environment values win). */
    CONFIG_FILE: z.string().optional(),
  })
  .superRefine((c, ctx) => {
    if (c.VM === 'evm' && c.COMETBFT_RPC_URL && !c.EVM_JSONRPC_URL)
      ctx.addIssue({
        code: 'custom',
        path: ['EVM_JSONRPC_URL'],
        message: 'is required when VM=evm and a chain is configured',
      });
    if (c.COMETBFT_RPC_URL && !c.COSMOS_REST_URL)
      ctx.addIssue({ code: 'custom', path: ['COSMOS_REST_URL'], message: 'is required when COMETBFT_RPC_URL is set' });
    if (c.COMETBFT_RPC_URL && (!c.CHAIN_ID || !c.VM))
      ctx.addIssue({
        code: 'custom',
        path: [!c.CHAIN_ID ? 'CHAIN_ID' : 'VM'],
        message: 'is required when COMETBFT_RPC_URL is set',
      });
    if (c.ROLE === 'all' && c.INDEXER_PORT !== 0 && c.INDEXER_PORT === c.ROUTER_PORT && c.ROUTER_ENABLED)
      ctx.addIssue({ code: 'custom', path: ['ROUTER_PORT'], message: 'must differ from INDEXER_PORT' });
    if (c.ROUTER_NETWORK === 'custom' && !c.ROUTER_REGISTRY_FILE)
      ctx.addIssue({
        code: 'custom',
        path: ['ROUTER_REGISTRY_FILE'],
        message: 'is required when ROUTER_NETWORK=custom',
      });
  });

export type AppConfig = z.infer<typeof configSchema>;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Env = Record<string, string | undefined>;
const shape = configSchema.innerType().shape;
type Shape = typeof shape;

/** The values of CONFIG_FILE, overridden by the non-empty environment variables the schema knows. */
function mergedValues(env: Env): Record<string, unknown> {
  let fileValues: Record<string, unknown> = {};
  if (env.CONFIG_FILE) {
    try {
      fileValues = JSON.parse(readFileSync(env.CONFIG_FILE, 'utf8')) as Record<string, unknown>;
    } catch (e) {
      throw new ConfigError(`config: CONFIG_FILE ${env.CONFIG_FILE}: ${(e as Error).message}`);
    }
  }
  const merged: Record<string, unknown> = { ...fileValues };
  for (const [k, v] of Object.entries(env)) if (v !== undefined && v !== '' && k in shape) merged[k] = v;
  return merged;
}

/** Parse config from an env-like record plus the optional CONFIG_FILE (env wins). Throws ConfigError with one line. */
export function loadConfig(env: Env = process.env): AppConfig {
  const parsed = configSchema.safeParse(mergedValues(env));
  if (!parsed.success) {
    const first = parsed.error.issues[0]!;
    throw new ConfigError(`config: ${first.path.join('.') || '(root)'} ${first.message}`);
  }
  return { ...parsed.data, DATA_DIR: path.resolve(parsed.data.DATA_DIR) };
}

/**
 * Some variables only, validated by the same schema (for modules that start without the whole config,
 * e.g. a tracking worker's timings). Throws ConfigError with one line.
 */
export function configSection<K extends keyof Shape & string>(
  keys: readonly K[],
  env: Env = process.env,
): { [P in K]: z.infer<Shape[P]> } {
  // Generic K defeats zod's exact-mask typing; the mask has exactly the keys given.
  const mask = Object.fromEntries(keys.map((k) => [k, true])) as Partial<Record<keyof Shape, true>>;
  const parsed = configSchema.innerType().pick(mask).safeParse(mergedValues(env));
  if (!parsed.success) {
    const first = parsed.error.issues[0]!;
    throw new ConfigError(`config: ${first.path.join('.') || '(root)'} ${first.message}`);
  }
  return parsed.data as { [P in K]: z.infer<Shape[P]> };
}

/** Load config or exit(2) with a single clear line: the start-up behaviour of every entry point. */
export function loadConfigOrExit(): AppConfig {
  try {
    const config = loadConfig();
    // The loggers (platform/log.ts) and the processes and threads started from here read the validated level, the
    // one CONFIG_FILE gave included (they read only the environment's before).
    process.env.LOG_LEVEL = config.LOG_LEVEL;
    return config;
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n`);
    process.exit(2);
  }
}
