// The process's default metrics (CPU, memory, GC, event-loop delay) are collected on the main thread only: a worker
// thread's registry relays only what it counts (ingest/thread-main.ts), and its event-loop sampler would cost the
// thread about 5 ms of CPU a second for nobody (platform/metrics.ts).
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { registry } from '../../platform/metrics.js';

const METRICS = new URL('../../platform/metrics.ts', import.meta.url).href;

describe('default metrics', () => {
  it('are in the main thread registry and not in a worker thread', async () => {
    expect(registry.getSingleMetric('nodejs_eventloop_lag_p99_seconds')).toBeDefined();
    expect(registry.getSingleMetric('process_cpu_user_seconds_total')).toBeDefined();
    const code = `import('tsx/esm/api').then((t) => { t.register(); return import(${JSON.stringify(METRICS)}); })
      .then((m) => require('node:worker_threads').parentPort.postMessage(m.registry.getMetricsAsArray().map((x) => x.name)))`;
    const worker = new Worker(code, { eval: true });
    const names = await new Promise<string[]>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    await worker.terminate();
    expect(names).toContain('ingest_indexed_height'); // the worker's registry is built, with the metrics it may count
    expect(names.filter((n) => n.startsWith('nodejs_') || n.startsWith('process_'))).toEqual([]);
  });
});
