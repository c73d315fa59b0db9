// Prometheus metrics: one registry per process, exposed by each HTTP service at /metrics.
import client from 'prom-client';

export const registry = new client.Registry();
client.collectDefaultMetrics({ register: registry });

export const metrics = {
  httpRequests: new client.Counter({
    name: 'http_requests_total',
    help: 'HTTP requests',
    labelNames: ['service', 'route', 'status'],
    registers: [registry],
  }),
  httpDuration: new client.Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency',
    labelNames: ['service', 'route'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 1],
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
