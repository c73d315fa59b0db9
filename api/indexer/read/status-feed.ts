// The indexed tip and the /status facts, kept in memory. CometBFT has instant finality, so these are the only
// figures that move; one query refreshes them in the background every `intervalMs` while the API is in use, and
// requests read them from memory (no engine call on the request path). A request that finds them older than
// `maxAgeMs` (the API was idle) waits for one fresh read, shared with every concurrent request.
import { statusFacts, type StatusFacts, type StatusWants } from '../../../clickhouse/queries/status.js';
import type { Store } from '../../../clickhouse/client.js';
import type { Held } from './held.js';

export interface StatusFeedOptions {
  /** Background refresh period while requests come in. */
  intervalMs?: number;
  /** Older than this, a request waits for a fresh read instead of answering from memory. */
  maxAgeMs?: number;
  /** No request for this long: the background refresh pauses (an idle API asks the engine nothing). */
  idleMs?: number;
  /** The indexed height went down (a re-ingest moved the checkpoint back): drop what was cached as final. */
  onRewind?: () => void;
}

export interface StatusFeed extends Held<StatusFacts> {
  /** The latest facts, at most `maxAgeMs` old (at most ~`intervalMs` while in use). */
  facts(): Promise<StatusFacts>;
  /** Last complete indexed height, 0 when nothing is indexed. */
  tip(): Promise<number>;
  /**
   * The indexed height moved (the ingest in this process wrote a checkpoint or a rich-list snapshot): refresh now
   * instead of at the next tick, while the API is in use. Coalesced: one read in flight and at most one after it.
   */
  poke(): void;
  /**
   * Call `listener` with the indexed height each time a read finds it changed: up, or down on a rewind (`rewound`:
   * lower than the feed's previous read; the onRewind case). While any
   * listener is registered the feed stays in use: it keeps refreshing every `intervalMs` even with no requests (an
   * open event stream is a reader too). Returns the unsubscribe.
   */
  watch(listener: (height: number, rewound: boolean) => void): () => void;
  /** Stop the background refresh (tests, shutdown). */
  stop(): void;
}

export function statusFeed(store: Store, wants: StatusWants, opts: StatusFeedOptions = {}): StatusFeed {
  const intervalMs = opts.intervalMs ?? 150;
  const maxAgeMs = opts.maxAgeMs ?? 1000;
  const idleMs = opts.idleMs ?? 5000;
  let current: { facts: StatusFacts; at: number } | null = null;
  let pending: Promise<StatusFacts> | null = null;
  let lastUse = 0;
  let again = false; // a poke arrived while a read was in flight: that read may predate the change
  const watchers = new Set<(height: number, rewound: boolean) => void>();

  const refresh = (): Promise<StatusFacts> => {
    if (pending) return pending;
    const started = Date.now();
    const p = statusFacts(store, wants).then((facts) => {
      const before = current?.facts.height ?? null;
      const rewound = before !== null && (facts.height === null || facts.height < before);
      if (rewound) opts.onRewind?.();
      if (!current || current.at <= started) {
        current = { facts, at: started };
        // only a read newer than the held one may report a change (an older one landing late is not a rewind)
        if ((facts.height ?? 0) !== (before ?? 0)) for (const w of watchers) w(facts.height ?? 0, rewound);
      }
      return facts;
    });
    pending = p;
    const clear = () => {
      if (pending === p) pending = null;
      if (again) {
        again = false;
        refresh().catch(() => undefined);
      }
    };
    p.then(clear, clear);
    return p;
  };

  const timer = setInterval(() => {
    if (watchers.size > 0 || Date.now() - lastUse < idleMs) refresh().catch(() => undefined); // a failure keeps the last facts
  }, intervalMs);
  timer.unref();

  const facts = (): Promise<StatusFacts> => {
    const now = Date.now();
    lastUse = now;
    if (current && now - current.at <= maxAgeMs) {
      if (now - current.at > intervalMs) refresh().catch(() => undefined);
      return Promise.resolve(current.facts);
    }
    return refresh();
  };

  return {
    name: 'status',
    at: () => facts(),
    clear: () => {
      current = null;
    },
    bytes: () => (current ? 512 : 0),
    facts,
    tip: async () => (await facts()).height ?? 0,
    poke: () => {
      if (watchers.size === 0 && Date.now() - lastUse >= idleMs) return; // idle: the next request reads afresh anyway
      if (pending) again = true;
      else refresh().catch(() => undefined);
    },
    watch: (listener) => {
      watchers.add(listener);
      return () => {
        watchers.delete(listener);
      };
    },
    stop: () => clearInterval(timer),
  };
}
