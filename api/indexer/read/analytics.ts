// The analytics reads behind /indexer/stats/v1 (docs/analytics.md): aggregates the ingest maintains, read per
// request (every window is a few hundred rows at most). A snapshot's distribution figures are final and kept
// per (token, snapshot); its history is read each time, since a re-ingest may rewrite its points.
import type { Store } from '../../../clickhouse/client.js';
import { latestSnapshot } from '../../../clickhouse/queries/richlist.js';
import {
  activity,
  chainSpan,
  type Distribution,
  distribution,
  msgMix,
  nftStats,
  RES,
  richListHistory,
  snapshotTokens,
  topAccounts,
  topContracts,
} from '../../../clickhouse/queries/analytics.js';
import type { Served } from '../../http/edge.js';
import { type CacheFactory, keys } from './cache.js';

/** Distributions kept (a snapshot's figures never change), oldest forgotten first. */
const MAX_CACHED_DISTRIBUTIONS = 64;

type Q<F extends (store: Store, ...a: never[]) => unknown> = F extends (store: Store, ...a: infer A) => infer R
  ? (served: Served, ...a: A) => R
  : never;

export interface AnalyticsReads {
  /** The aggregates' resolutions: interval name → seconds. */
  readonly resolutions: typeof RES;
  activity: Q<typeof activity>;
  msgMix: Q<typeof msgMix>;
  topAccounts: Q<typeof topAccounts>;
  topContracts: Q<typeof topContracts>;
  nftStats: Q<typeof nftStats>;
  chainSpan: Q<typeof chainSpan>;
  snapshotTokens: Q<typeof snapshotTokens>;
  /** The latest rich-list snapshot height, read afresh (0: none yet). */
  latestSnapshot: Q<typeof latestSnapshot>;
  /** A token's distribution at a snapshot (figures kept) with its history (read each time). */
  distribution(served: Served, token: string, snapshot: number): Promise<Distribution>;
}

export function analyticsReads(d: { store: Store; cache: CacheFactory }): AnalyticsReads {
  const distributions = d.cache<Omit<Distribution, 'history'>>({
    name: 'distributions',
    maxEntries: MAX_CACHED_DISTRIBUTIONS,
  });
  const engine =
    <A extends unknown[], R>(f: (store: Store, ...a: A) => Promise<R>) =>
    (served: Served, ...a: A): Promise<R> => {
      served.engine();
      return f(d.store, ...a);
    };
  return {
    resolutions: RES,
    activity: engine(activity),
    msgMix: engine(msgMix),
    topAccounts: engine(topAccounts),
    topContracts: engine(topContracts),
    nftStats: engine(nftStats),
    chainSpan: engine(chainSpan),
    snapshotTokens: engine(snapshotTokens),
    latestSnapshot: engine(latestSnapshot),
    async distribution(served, token, snapshot) {
      served.engine(); // the history is always read
      const [got, history] = await Promise.all([
        distributions.through(keys.distribution(token, snapshot), () => distribution(d.store, token, snapshot)),
        richListHistory(d.store, token, snapshot),
      ]);
      return { ...(got as Omit<Distribution, 'history'>), history };
    },
  };
}
