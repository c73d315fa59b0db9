// The messages between the ingest thread (ingest/thread-main.ts) and its host (ingest/thread.ts). Only plain data
// crosses: the settings are cloned into the thread, the hooks become messages.
import type { StoreOptions } from '../clickhouse/client.js';
import type { CommittedItems, HandedLists } from '../clickhouse/committed-items.js';
import type { MetricSnapshot } from '../platform/metrics.js';
import type { IngestSettings } from './pipeline.js';

export interface IngestThreadSettings extends IngestSettings {
  /** The thread opens its own store on these options. */
  store: StoreOptions;
  /** The thread's nice value (INGEST_THREAD_NICE; 0 leaves it as the process's). */
  nice?: number;
}

export type ThreadMessage =
  | { type: 'indexed'; height: number }
  | { type: 'committed'; height: number; items?: CommittedItems }
  | { type: 'metrics'; metrics: MetricSnapshot[] }
  | { type: 'done' }
  | { type: 'failed'; error: string }
  | { type: 'stopped' };

/** `hand`: the lists whose committed items the host wants with each `committed` (the thread starts with none). */
export type HostMessage = { type: 'stop' } | { type: 'hand'; lists: HandedLists };
