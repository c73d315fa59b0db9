// Prometheus metrics: one registry per process, exposed by each HTTP service at /metrics.
import { isMainThread } from 'node:worker_threads';
import client from 'prom-client';
import { TallyCounter, TallyHistogram } from './tally.js';

export const registry = new client.Registry();
// The process's own metrics (CPU, memory, GC, event-loop delay) come from the main thread, which serves /metrics.
// Another thread's registry only relays the metrics it counts (ingest/thread-main.ts), so there they would be
// collected for nobody, and their event-loop delay sampler alone wakes the thread 100 times a second (about 5 ms
// of CPU a second on this machine, a fifth of an idle main job's).
if (isMainThread) client.collectDefaultMetrics({ register: registry });

/** One keyed cache's counters (api/indexer/read/cache.ts), read when /metrics is scraped. */
export interface CacheReport {
  name: string;
  hits: number;
  misses: number;
  evictions: number;
  entries: number;
  bytes: number;
}

let cacheReports: () => CacheReport[] = () => [];
/** The read model's caches report through this (one reporter per process). */
export function reportCaches(fn: () => CacheReport[]): void {
  cacheReports = fn;
}

export const metrics = {
  // The three request metrics are tallies: counted on every response, edge hits included (platform/tally.ts).
  servedBy: new TallyCounter(
    'http_served_total',
    'HTTP responses by the layer that answered them (X-Served-By: edge, handler, memo, held:<name>, engine)',
    ['service', 'layer'],
    registry,
  ),
  cacheEvents: new client.Counter({
    name: 'indexer_cache_events_total',
    help: 'Keyed-cache lookups and evictions by cache name (event: hit, miss, evict)',
    labelNames: ['cache', 'event'],
    registers: [registry],
    collect() {
      this.reset();
      for (const r of cacheReports()) {
        this.inc({ cache: r.name, event: 'hit' }, r.hits);
        this.inc({ cache: r.name, event: 'miss' }, r.misses);
        this.inc({ cache: r.name, event: 'evict' }, r.evictions);
      }
    },
  }),
  cacheBytes: new client.Gauge({
    name: 'indexer_cache_bytes',
    help: 'Bytes held by each keyed cache and each held state (estimated)',
    labelNames: ['cache'],
    registers: [registry],
    collect() {
      this.reset();
      for (const r of cacheReports()) this.set({ cache: r.name }, r.bytes);
    },
  }),
  httpRequests: new TallyCounter('http_requests_total', 'HTTP requests', ['service', 'route', 'status'], registry),
  httpDuration: new TallyHistogram(
    'http_request_duration_seconds',
    'HTTP request latency',
    ['service', 'route'],
    [0.001, 0.0025, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 1],
    registry,
  ),
  streamsOpen: new client.Gauge({
    name: 'streams_open',
    help: 'Event streams open, by service (indexer: lists live or catching up; router: transfer statuses)',
    labelNames: ['service'] as const,
    registers: [registry],
  }),
  streamEvents: new client.Counter({
    name: 'indexer_stream_events_total',
    help: 'Events offered to stream clients, by list',
    labelNames: ['list'] as const,
    registers: [registry],
  }),
  streamEnds: new client.Counter({
    name: 'indexer_stream_ends_total',
    help: 'Streams ended by the server, by reason (overflow, lifetime, rewind, error)',
    labelNames: ['reason'] as const,
    registers: [registry],
  }),
  streamFanoutSeconds: new client.Histogram({
    name: 'indexer_stream_fanout_seconds',
    help: "Time to hand one tip advance's events to every live client's socket (the writes and their flush)",
    buckets: [0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5],
    registers: [registry],
  }),
  streamReads: new client.Counter({
    name: 'indexer_stream_reads_total',
    help: "Reads of a stream's items, by list (block, tx) and where they came from: committed (the items the ingest in this process handed over), engine, or skipped (a filtered list none of whose keys the committed batches hold: nothing new, no read)",
    labelNames: ['list', 'from'] as const,
    registers: [registry],
  }),
  streamReadSeconds: new client.Histogram({
    name: 'indexer_stream_read_seconds',
    help: "Time to read one tip advance's new items of a list, from the advance to the last page",
    buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1],
    registers: [registry],
  }),
  ingestHeight: new client.Gauge({
    name: 'ingest_indexed_height',
    help: 'Last fully indexed height',
    registers: [registry],
  }),
  ingestBlocks: new client.Counter({ name: 'ingest_blocks_total', help: 'Blocks ingested', registers: [registry] }),
  ingestTxs: new client.Counter({ name: 'ingest_txs_total', help: 'Txs ingested', registers: [registry] }),
  ingestErrors: new client.Counter({
    name: 'ingest_errors_total',
    help: 'Ingest errors',
    labelNames: ['kind'],
    registers: [registry],
  }),
  ingestRangedTxReads: new client.Counter({
    name: 'ingest_ranged_tx_reads_total',
    help: 'Runs of heights whose REST txs one ranged tx search answered exactly',
    registers: [registry],
  }),
  ingestNodeIndexedTxs: new client.Gauge({
    name: 'ingest_node_indexed_txs',
    help: "Txs the node's tx index held when probed (ranged tx reads run only below RANGED_TX_READS_MAX_HISTORY)",
    registers: [registry],
  }),
  ingestMergePaceBulk: new client.Gauge({
    name: 'ingest_merge_pace_bulk',
    help: 'Whether the ingest has the height tables merged at the bulk pace (1, a backfill far behind the head) or the default (0)',
    registers: [registry],
  }),
  richListMemoryBytes: new client.Gauge({
    name: 'indexer_richlist_memory_bytes',
    help: 'Bytes of rich-list snapshots the indexer holds in memory (INDEXER_RICHLIST_MEMORY_MB)',
    registers: [registry],
  }),
  richListMemoryLoads: new client.Counter({
    name: 'indexer_richlist_memory_loads_total',
    help: 'Rich-list snapshot loads into memory by result (held, too_large, failed)',
    labelNames: ['result'],
    registers: [registry],
  }),
};

/**
 * The ingest's metrics. With the ingest in its own thread (ingest/thread.ts) they are counted there and relayed to
 * this process's registry (adoptMetricValues), so this list is the one place that says which metrics cross.
 */
export const ingestMetrics = [
  metrics.ingestHeight,
  metrics.ingestBlocks,
  metrics.ingestTxs,
  metrics.ingestErrors,
  metrics.ingestRangedTxReads,
  metrics.ingestNodeIndexedTxs,
  metrics.ingestMergePaceBulk,
];

/** One metric's values as a registry reports them (prom-client's getMetricsAsJSON), e.g. from another thread. */
export interface MetricSnapshot {
  name: string;
  values: { value: number; labels: Partial<Record<string, string | number>> }[];
}

/**
 * Takes over the values another thread's registry counted (the ingest thread's, ingest/thread.ts): this process's
 * /metrics serves them as its own. The named metrics must be counted only there.
 */
export function adoptMetricValues(snapshots: readonly MetricSnapshot[]): void {
  for (const s of snapshots) {
    const metric = registry.getSingleMetric(s.name);
    if (metric instanceof client.Gauge) for (const v of s.values) metric.set(v.labels, v.value);
    else if (metric instanceof client.Counter) {
      metric.reset();
      for (const v of s.values) metric.inc(v.labels, v.value);
    }
  }
}
