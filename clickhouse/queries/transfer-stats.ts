// Transfer statistics (router GET /v2/stats/transfers) from the tracking projection (transfer_events): one
// row per state change of a tracked tx, version 0 = registration. Per transfer: the newest version's state and
// document, started = registration time, finished = first terminal version's time (tracking clock, not chain
// time). Bridge kind = the distinct hop kinds of its transfer_sequence (e.g. ibc_transfer, op_init_transfer,
// layer_zero_transfer, or several joined by '+'; 'none' before any hop is known); route = first hop's source
// chain → last hop's destination chain. Only transfers registered in [from, to) are counted.
import type { Store } from '../client.js';

const TERMINAL = "('STATE_COMPLETED_SUCCESS', 'STATE_COMPLETED_ERROR', 'STATE_ABANDONED')";

const PER_TRANSFER = `
SELECT chain_id, tx_hash, cur_state AS state, cur_status AS status, started, finished, bridge,
       if(length(hops) = 0, '', concat(JSONExtractString(hops[1], kinds[1], 'from_chain_id'), ' → ',
          JSONExtractString(hops[-1], kinds[-1], 'to_chain_id'))) AS route,
       position(cur_doc, 'PACKET_ERROR_TIMEOUT') > 0 OR position(cur_doc, '"packet timed out"') > 0 AS timed_out
FROM (
  SELECT chain_id, tx_hash, argMax(doc, version) AS cur_doc, argMax(state, version) AS cur_state,
         argMax(status, version) AS cur_status, min(recorded_at) AS started,
         if(countIf(state IN ${TERMINAL}) > 0, minIf(recorded_at, state IN ${TERMINAL}), NULL) AS finished,
         JSONExtractArrayRaw(cur_doc, 'transfer_sequence') AS hops,
         arrayMap(h -> JSONExtractKeys(h)[1], hops) AS kinds,
         if(length(kinds) = 0, 'none', arrayStringConcat(arrayDistinct(kinds), '+')) AS bridge
  FROM transfer_events
  GROUP BY chain_id, tx_hash
  HAVING started >= toDateTime64({from:UInt32}, 3, 'UTC') AND started < toDateTime64({to:UInt32}, 3, 'UTC')
)`;

export interface BridgeStats {
  bridge: string;
  transfers: number;
  completed: number;
  failed: number;
  pending: number;
  timed_out: number;
  failure_rate: number | null;
  timeout_rate: number | null;
  completion_seconds: { p50: number | null; p95: number | null; max: number | null };
}

export interface TransferStats {
  total: number;
  by_state: { state: string; transfers: number }[];
  by_bridge: BridgeStats[];
  by_route: { bridge: string; route: string; transfers: number; completed: number; failed: number }[];
}

const rate = (n: number, d: number) => (d > 0 ? n / d : null);
const secs = (v: number | null) => (v === null || Number.isNaN(v) ? null : Math.round(v * 1000) / 1000);

export async function transferStats(store: Store, from: number, to: number): Promise<TransferStats> {
  const params = { from, to };
  const [states, bridges, routes] = await Promise.all([
    store.rows<{ state: string; n: string }>(
      `SELECT state, count() AS n FROM (${PER_TRANSFER}) GROUP BY state ORDER BY n DESC, state`,
      params,
    ),
    store.rows<{
      bridge: string;
      n: string;
      ok: string;
      bad: string;
      pending: string;
      tmo: string;
      q: (number | null)[];
      mx: number | null;
    }>(
      `SELECT bridge, count() AS n, countIf(status = 'STATE_COMPLETED') AS ok, countIf(status = 'STATE_FAILED') AS bad,
              countIf(finished IS NULL) AS pending, countIf(timed_out) AS tmo,
              quantilesExactIf(0.5, 0.95)(dateDiff('millisecond', started, assumeNotNull(finished)) / 1000,
                                          status = 'STATE_COMPLETED') AS q,
              maxIf(dateDiff('millisecond', started, assumeNotNull(finished)) / 1000, status = 'STATE_COMPLETED') AS mx
       FROM (${PER_TRANSFER}) GROUP BY bridge ORDER BY n DESC, bridge`,
      params,
    ),
    store.rows<{ bridge: string; route: string; n: string; ok: string; bad: string }>(
      `SELECT bridge, route, count() AS n, countIf(status = 'STATE_COMPLETED') AS ok,
              countIf(status = 'STATE_FAILED') AS bad
       FROM (${PER_TRANSFER}) GROUP BY bridge, route ORDER BY n DESC, bridge, route LIMIT 100`,
      params,
    ),
  ]);
  const byBridge = bridges.map((b) => {
    const done = Number(b.ok) + Number(b.bad);
    const completedN = Number(b.ok);
    return {
      bridge: b.bridge,
      transfers: Number(b.n),
      completed: completedN,
      failed: Number(b.bad),
      pending: Number(b.pending),
      timed_out: Number(b.tmo),
      failure_rate: rate(Number(b.bad), done),
      timeout_rate: rate(Number(b.tmo), done),
      completion_seconds:
        completedN > 0
          ? { p50: secs(b.q[0] ?? null), p95: secs(b.q[1] ?? null), max: secs(b.mx) }
          : { p50: null, p95: null, max: null },
    };
  });
  return {
    total: byBridge.reduce((a, b) => a + b.transfers, 0),
    by_state: states.map((s) => ({ state: s.state, transfers: Number(s.n) })),
    by_bridge: byBridge,
    by_route: routes.map((r) => ({
      bridge: r.bridge,
      route: r.route,
      transfers: Number(r.n),
      completed: Number(r.ok),
      failed: Number(r.bad),
    })),
  };
}
