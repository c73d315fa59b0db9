// The request metrics' tallies (platform/tally.ts) against prom-client's own Counter and Histogram: the same
// observations give the same /metrics text, and a reset zeroes the series a caller still holds.
import client from 'prom-client';
import { describe, expect, it } from 'vitest';
import { TallyCounter, TallyHistogram } from '../../platform/tally.js';

const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 1];
// Durations across every bucket, on the bounds themselves, and past the last one.
const SAMPLES = [0, 0.0004, 0.001, 0.0011, 0.003, 0.005, 0.0099, 0.02, 0.07, 0.1, 0.3, 1, 1.5, 12];

function both() {
  const theirs = new client.Registry();
  const ours = new client.Registry();
  const cOpts = { name: 'req_total', help: 'Requests', labelNames: ['service', 'route', 'status'] };
  const hOpts = { name: 'req_seconds', help: 'Latency', labelNames: ['service', 'route'], buckets: BUCKETS };
  return {
    theirs,
    ours,
    promCounter: new client.Counter({ ...cOpts, registers: [theirs] }),
    promHistogram: new client.Histogram({ ...hOpts, registers: [theirs] }),
    counter: new TallyCounter(cOpts.name, cOpts.help, cOpts.labelNames, ours),
    histogram: new TallyHistogram(hOpts.name, hOpts.help, hOpts.labelNames, hOpts.buckets, ours),
  };
}

describe('tallies', () => {
  it('give the text prom-client gives for the same observations', async () => {
    const m = both();
    const routes = ['/a', '/b/:id', 'response_cache_hit'];
    SAMPLES.forEach((v, i) => {
      const route = routes[i % routes.length]!;
      const status = i % 4 === 0 ? '404' : '200';
      m.promCounter.inc({ service: 'indexer', route, status });
      m.counter.of('indexer', route, status).value++;
      m.promHistogram.observe({ service: 'indexer', route }, v);
      m.histogram.of('indexer', route).observe(v);
    });
    const text = await m.ours.metrics();
    expect(text).toBe(await m.theirs.metrics());
    expect(text).toContain('req_seconds_bucket{le="+Inf",service="indexer",route="/a"} 5');
  });

  it('zero on reset, and the series a caller holds count on', async () => {
    const m = both();
    const held = m.histogram.of('router', '/v2/tx/status');
    const requests = m.counter.of('router', '/v2/tx/status', '200');
    held.observe(0.004);
    requests.value += 3;
    m.ours.resetMetrics();
    held.observe(0.2);
    requests.value++;
    m.promHistogram.observe({ service: 'router', route: '/v2/tx/status' }, 0.2);
    m.promCounter.inc({ service: 'router', route: '/v2/tx/status', status: '200' });
    expect(await m.ours.metrics()).toBe(await m.theirs.metrics());
    expect(m.histogram.of('router', '/v2/tx/status')).toBe(held);
  });
});
