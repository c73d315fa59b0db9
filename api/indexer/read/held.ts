// The state the read model holds at the indexed tip instead of reading it per request: the status facts, every
// NFT collection, every live NFT token, the latest rich-list snapshot of each asked token. One interface, so the
// read model clears them all on a rewind and reports their size under one metric (`indexer_cache_bytes`).
import type { Served } from '../../http/edge.js';

export interface Held<V> {
  /** The `held:<name>` of X-Served-By and the metric label. */
  readonly name: string;
  /** The state as of this tip (or later), or null when it is not held (over its bound, or holding is off). */
  at(tip: number): Promise<V | null>;
  /** Forget everything (the index was rewound). */
  clear(): void;
  /** Estimated bytes held. */
  bytes(): number;
}

/** `held.at(tip)`, marking the request as served from this held state when it is held. */
export async function heldAt<V>(held: Held<V>, tip: number, served: Served): Promise<V | null> {
  const v = await held.at(tip);
  if (v !== null) served.held(held.name);
  return v;
}
