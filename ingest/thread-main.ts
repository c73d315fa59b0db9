// The ingest thread's entry (ingest/thread.ts starts it): the same ingest as in-process (ingest/pipeline.ts), on
// its own store sessions over the same data directory, telling the host thread what it committed.
// Invariant: this thread never exits on its own. Its end is the process's: chDB's native binding stops answering
// the other thread's queries once a thread that used it has exited, so after run() ends or stop() it stays idle.
import os from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { createStore } from '../clickhouse/client.js';
import { type HandedLists, NO_HANDED_LISTS } from '../clickhouse/committed-items.js';
import { log } from '../platform/log.js';
import { ingestMetrics, type MetricSnapshot } from '../platform/metrics.js';
import { ingestFromSettings } from './pipeline.js';
import type { HostMessage, IngestThreadSettings, ThreadMessage } from './thread-protocol.js';

const settings = workerData as IngestThreadSettings;
// Linux gives each thread its own nice value (setpriority on the calling thread): a busy API thread comes before
// the backfill, which takes every cycle the API leaves. The value is absolute: a process already running nicer
// keeps its own (raising a priority needs a privilege, and would put the ingest before the APIs).
if (settings.nice) {
  try {
    const current = os.getPriority(0);
    if (settings.nice > current) os.setPriority(0, settings.nice);
  } catch (e) {
    log.warn('ingest.thread_nice_failed', { nice: settings.nice, error: (e as Error).message });
  }
}
const port = parentPort!;
const post = (m: ThreadMessage) => port.postMessage(m);

async function metricsSnapshot(): Promise<MetricSnapshot[]> {
  const snapshots: MetricSnapshot[] = [];
  for (const metric of ingestMetrics) {
    const m = await metric.get();
    snapshots.push({ name: m.name, values: m.values.map((v) => ({ value: v.value, labels: { ...v.labels } })) });
  }
  return snapshots;
}

const relayMetrics = () => metricsSnapshot().then((metrics) => post({ type: 'metrics', metrics }));

let handed: HandedLists = NO_HANDED_LISTS;
const ingest = ingestFromSettings(settings, createStore(settings.store), log, {
  onIndexed: (height) => post({ type: 'indexed', height }),
  onCommitted: (height, items) => {
    post(items ? { type: 'committed', height, items } : { type: 'committed', height });
    void relayMetrics();
  },
  handedLists: () => handed,
});
// Also on a timer and before the end: the error counters move while no batch commits (a source down).
setInterval(() => void relayMetrics(), 5000).unref();

port.on('message', (m: HostMessage) => {
  if (m.type === 'stop') void ingest.stop().then(() => post({ type: 'stopped' }));
  else if (m.type === 'hand') handed = m.lists;
});
ingest.run().then(
  async () => {
    await relayMetrics();
    post({ type: 'done' });
  },
  async (e: Error) => {
    await relayMetrics();
    post({ type: 'failed', error: e.message });
  },
);
