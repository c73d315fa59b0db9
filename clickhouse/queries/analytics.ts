// Analytics reads (api/indexer/analytics.ts) over the aggregates of clickhouse/migrations/200_analytics.sql.
// Every read GROUPs BY and merges the partial states (sum / min / uniqMerge). Times are unix seconds, UTC;
// windows are half-open [from, to) and aligned to the resolution by the caller.
import type { Store } from '../client.js';
import { firstSeenIn, NEW_ACCOUNTS_SEAL } from '../analytics.js';

type Params = Record<string, unknown>;

export const RES = { '1m': 60, '1h': 3600, '1d': 86_400 } as const;
export type Interval = keyof typeof RES;

/**
 * A window as spans of stored resolutions: whole coarse buckets in the middle, finer ones at the edges
 * (e.g. 3 days 5 hours = 3 day rows + 5 hour rows). `tiers` descending; the window aligned to the last.
 */
export function spans(from: number, to: number, tiers: readonly number[]): { res: number; lo: number; hi: number }[] {
  const [t, ...rest] = tiers;
  if (t === undefined || from >= to) return [];
  if (rest.length === 0) return [{ res: t, lo: from, hi: to }];
  const a = Math.ceil(from / t) * t;
  const b = Math.floor(to / t) * t;
  if (a >= b) return spans(from, to, rest);
  return [...spans(from, a, rest), { res: t, lo: a, hi: b }, ...spans(b, to, rest)];
}

function spanWhere(from: number, to: number, tiers: readonly number[], params: Params): string {
  const parts = spans(from, to, tiers).map((s, i) => {
    params[`r${i}`] = s.res;
    params[`lo${i}`] = s.lo;
    params[`hi${i}`] = s.hi;
    return `(res = {r${i}:UInt32} AND bucket >= toDateTime({lo${i}:UInt32}) AND bucket < toDateTime({hi${i}:UInt32}))`;
  });
  return parts.length ? `(${parts.join(' OR ')})` : '0';
}

export interface ActivityBucket {
  t: number;
  txs: number;
  failed_txs: number;
  active_accounts: number;
  new_accounts: number;
  blocks: number;
  avg_block_time_ms: number | null;
  gas_used: string;
  fees: { denom: string; amount: string }[];
}

/** Activity per bucket of `res` seconds over [from, to) (both multiples of res); every bucket present. */
export async function activity(
  store: Store,
  res: number,
  from: number,
  to: number,
  msgs: string[] | null,
): Promise<ActivityBucket[]> {
  const params: Params = { res, from, to, msgs: msgs ?? [] };
  const win = 'res = {res:UInt32} AND bucket >= toDateTime({from:UInt32}) AND bucket < toDateTime({to:UInt32})';
  const [blocks, fees, txs, fresh] = await Promise.all([
    // The first indexed block has no block before it, so its block time is 0 and not a time: it counts as a block,
    // not in the average (`timed`).
    store.rows<{ t: number; nb: string; bt: string; gas: string; timed: string }>(
      `SELECT toUInt32(bucket) AS t, sum(blocks) AS nb, sum(block_time_ms) AS bt, toString(sum(gas_used)) AS gas,
              sum(blocks) - (min(min_height) = (SELECT height FROM blocks ORDER BY height LIMIT 1)) AS timed
       FROM stats_blocks WHERE ${win} GROUP BY bucket`,
      params,
    ),
    store.rows<{ t: number; denom: string; total: string }>(
      `SELECT toUInt32(bucket) AS t, denom, toString(sum(amount)) AS total
       FROM stats_fees WHERE ${win} GROUP BY bucket, denom HAVING sum(amount) > 0 ORDER BY denom`,
      params,
    ),
    store.rows<{ t: number; n: string; failed: string; act: string }>(
      msgs
        ? `SELECT toUInt32(bucket) AS t, sum(txs) AS n, sum(failed_txs) AS failed, uniqCombinedMerge(14)(active) AS act
           FROM stats_msgs WHERE ${win} AND msg_type IN {msgs:Array(String)} GROUP BY bucket`
        : `SELECT toUInt32(bucket) AS t, sum(txs) AS n, sum(failed_txs) AS failed, uniqCombinedMerge(14)(active) AS act
           FROM stats_txs WHERE ${win} GROUP BY bucket`,
      params,
    ),
    // Sealed minutes from their counts, the rest (after the seal) from the first-seen table (clickhouse/analytics.ts).
    store.rows<{ t: number; n: string }>(
      `SELECT toUInt32(intDiv(m, {res:UInt32}) * {res:UInt32}) AS t, sum(c) AS n FROM (
         SELECT toUInt32(bucket) AS m, max(n) AS c FROM stats_new_accounts
         WHERE bucket >= toDateTime({from:UInt32}) AND bucket < toDateTime(least({to:UInt32}, ${NEW_ACCOUNTS_SEAL}))
         GROUP BY m
         UNION ALL
         SELECT toUInt32(intDiv(toUnixTimestamp(f), 60) * 60) AS m, count() AS c
         FROM (${firstSeenIn(`greatest({from:UInt32}, ${NEW_ACCOUNTS_SEAL})`, '{to:UInt32}')}) GROUP BY m)
       GROUP BY t`,
      params,
    ),
  ]);
  const out = new Map<number, ActivityBucket>();
  for (let t = from; t < to; t += res)
    out.set(t, {
      t,
      txs: 0,
      failed_txs: 0,
      active_accounts: 0,
      new_accounts: 0,
      blocks: 0,
      avg_block_time_ms: null,
      gas_used: '0',
      fees: [],
    });
  for (const r of blocks) {
    const b = out.get(Number(r.t));
    if (!b) continue;
    b.blocks = Number(r.nb);
    b.avg_block_time_ms = Number(r.timed) > 0 ? Number(r.bt) / Number(r.timed) : null;
    b.gas_used = r.gas;
  }
  for (const r of fees) out.get(Number(r.t))?.fees.push({ denom: r.denom, amount: r.total });
  for (const r of txs) {
    const b = out.get(Number(r.t));
    if (!b) continue;
    b.txs = Number(r.n);
    b.failed_txs = Number(r.failed);
    b.active_accounts = Number(r.act);
  }
  for (const r of fresh) {
    const b = out.get(Number(r.t));
    if (b) b.new_accounts = Number(r.n);
  }
  return [...out.values()];
}

export interface MsgMixRow {
  msg_type: string;
  txs: number;
  failed_txs: number;
}

/** Txs per message type over [from, to) (minute-aligned). */
export async function msgMix(store: Store, from: number, to: number): Promise<MsgMixRow[]> {
  const params: Params = {};
  const rows = await store.rows<{ msg_type: string; n: string; failed: string }>(
    `SELECT msg_type, sum(txs) AS n, sum(failed_txs) AS failed FROM stats_msgs
     WHERE ${spanWhere(from, to, [86_400, 3600, 60], params)}
     GROUP BY msg_type ORDER BY n DESC, msg_type`,
    params,
  );
  return rows.map((r) => ({ msg_type: r.msg_type, txs: Number(r.n), failed_txs: Number(r.failed) }));
}

/** Signers by txs sent over [from, to) (hour-aligned), with the window's tx total. */
export async function topAccounts(
  store: Store,
  from: number,
  to: number,
  limit: number,
): Promise<{ total_txs: number; accounts: { account: string; txs: number }[] }> {
  const params: Params = { limit };
  const where = spanWhere(from, to, [86_400, 3600], params);
  const [top, total] = await Promise.all([
    // Ranked on the hash (integers; ties at the cut broken by hash), the winners then ordered by name below.
    store.rows<{ h: string; n: string }>(
      `SELECT toString(signer_hash) AS h, sum(txs) AS n FROM stats_senders WHERE ${where}
       GROUP BY signer_hash ORDER BY n DESC, signer_hash LIMIT {limit:UInt32}`,
      params,
    ),
    store.rows<{ n: string }>(`SELECT sum(txs) AS n FROM stats_txs WHERE ${where}`, params),
  ]);
  const names = top.length
    ? await store.rows<{ h: string; name: string }>(
        `SELECT toString(signer_hash) AS h, any(name) AS name FROM stats_senders
         WHERE signer_hash IN (SELECT toUInt64(arrayJoin({hs:Array(String)}))) GROUP BY signer_hash`,
        { hs: top.map((r) => r.h) },
      )
    : [];
  const nameOf = new Map(names.map((r) => [r.h, r.name]));
  const accounts = top
    .map((r) => ({ account: nameOf.get(r.h) ?? '', txs: Number(r.n) }))
    .sort((a, b) => b.txs - a.txs || (a.account < b.account ? -1 : a.account > b.account ? 1 : 0));
  return { total_txs: Number(total[0]?.n ?? 0), accounts };
}

export interface ContractRow {
  kind: string;
  target: string;
  calls: number;
  failed_calls: number;
}

/** bech32's 32 characters, each at its 5-bit value (its position here). */
const BECH32_CHARS = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';

/**
 * The hex digits (lowercase, no 0x) of an address held by the SQL expression `a` (lowercase): a 0x-hex one as written,
 * a bech32 one of 20 bytes (any prefix: its 32 data characters before the 6 of the checksum) decoded; NULL otherwise.
 * The checksum is not verified: a message's address was verified by the chain, or the tx failed.
 */
const addressHex = (a: string) =>
  `multiIf(match(${a}, '^0x[0-9a-f]{1,64}$'), substring(${a}, 3),
     match(${a}, '^[a-z]{1,30}1[${BECH32_CHARS}]{38}$'),
     leftPad(lower(hex(arrayFold((acc, c) -> acc * 32 + toUInt256(position('${BECH32_CHARS}', c) - 1),
       splitByString('', substring(${a}, length(${a}) - 37, 32)), toUInt256(0)))), 40, '0'),
     NULL)`;

/**
 * One key per call target, whichever spelling its messages used (the chain resolves them all to the same address):
 * an EVM contract as 0x and 40 hex digits (MsgCall takes hex or bech32; a longer one as stored), a Move module as
 * its address in short hex and its name (`0x1::dex` for 0x1, 0x00…01 or its bech32; MsgExecute takes any), a Wasm
 * contract in lowercase. Read over the stored aggregates, so rows written under any spelling are counted together.
 * Anything else as stored. Columns of stats_contracts in, `key` out (with helper aliases `addr`, `digits`,
 * `trimmed`, `short`).
 */
const CALL_TARGET_KEY = `
  if(kind = 'move', lower(substring(target, 1, position(target, '::') - 1)), lower(target)) AS addr,
  ${addressHex('addr')} AS digits,
  replaceRegexpOne(digits, '^0+', '') AS trimmed,
  if(trimmed = '', '0', trimmed) AS short,
  multiIf(
    kind = 'evm' AND digits IS NOT NULL AND length(short) <= 40, concat('0x', leftPad(short, 40, '0')),
    kind = 'move' AND position(target, '::') > 1 AND digits IS NOT NULL,
      concat('0x', short, substring(target, position(target, '::'))),
    kind = 'wasm', lower(target),
    target) AS key`;

/** Contracts / modules by messages executing them over [from, to) (hour-aligned). */
export async function topContracts(
  store: Store,
  from: number,
  to: number,
  limit: number,
  kind: string | null,
): Promise<ContractRow[]> {
  const params: Params = { limit, kind: kind ?? '' };
  const rows = await store.rows<{ kind: string; target: string; n: string; failed: string }>(
    `SELECT kind, key AS target, sum(calls) AS n, sum(failed_calls) AS failed FROM (
       SELECT kind, ${CALL_TARGET_KEY}, calls, failed_calls FROM stats_contracts
       WHERE ${spanWhere(from, to, [86_400, 3600], params)} ${kind ? 'AND kind = {kind:String}' : ''})
     GROUP BY kind, target ORDER BY n DESC, kind, target LIMIT {limit:UInt32}`,
    params,
  );
  return rows.map((r) => ({ kind: r.kind, target: r.target, calls: Number(r.n), failed_calls: Number(r.failed) }));
}

export interface Distribution {
  snapshot_height: number;
  holders: number;
  supply: string;
  top1_share: number;
  top10_share: number;
  top100_share: number;
  gini: number;
  histogram: { min: string; max: string; holders: number; amount: string }[];
  history: { snapshot_height: number; time: string | null; holders: number; supply: string }[];
}

/**
 * Distribution of one token at a snapshot: one pass over its ranked holders (rank 1 = largest, 1..n).
 * Gini over holders sorted ascending (i = n + 1 - rank): G = 2·Σ i·x_i / (n·Σx) − (n + 1) / n.
 * Histogram classes by decimal digits: [10^k, 10^(k+1)).
 */
export async function distribution(
  store: Store,
  token: string,
  snapshot: number,
): Promise<Omit<Distribution, 'history'>> {
  const params = { token, h: snapshot };
  const where = 'token = {token:String} AND snapshot_height = {h:UInt64}';
  const [[sum], hist] = await Promise.all([
    store.rows<{ n: string; total: string; s1: number; s10: number; s100: number; g: number }>(
      `SELECT n, toString(supply) AS total,
              if(supply = 0, 0, toFloat64(top1) / toFloat64(supply)) AS s1,
              if(supply = 0, 0, toFloat64(top10) / toFloat64(supply)) AS s10,
              if(supply = 0, 0, toFloat64(top100) / toFloat64(supply)) AS s100,
              if(supply = 0 OR n = 0, 0, 2 * weighted / (n * toFloat64(supply)) - (n + 1) / n) AS g
       FROM (SELECT count() AS n, sum(amount) AS supply, sumIf(amount, rank <= 1) AS top1,
                    sumIf(amount, rank <= 10) AS top10, sumIf(amount, rank <= 100) AS top100,
                    sum(toFloat64(amount) * toFloat64(max_rank + 1 - rank)) AS weighted
             FROM richlist
             CROSS JOIN (SELECT max(rank) AS max_rank FROM richlist WHERE ${where}) AS m
             WHERE ${where})`,
      params,
    ),
    store.rows<{ k: number; holders: string; total: string }>(
      `SELECT length(toString(amount)) - 1 AS k, count() AS holders, toString(sum(amount)) AS total
       FROM richlist WHERE ${where} AND amount > 0 GROUP BY k ORDER BY k`,
      params,
    ),
  ]);
  return {
    snapshot_height: snapshot,
    holders: Number(sum?.n ?? 0),
    supply: sum?.total ?? '0',
    top1_share: Number(sum?.s1 ?? 0),
    top10_share: Number(sum?.s10 ?? 0),
    top100_share: Number(sum?.s100 ?? 0),
    gini: Number(sum?.g ?? 0),
    histogram: hist.map((r) => ({
      min: `1${'0'.repeat(Number(r.k))}`,
      max: `1${'0'.repeat(Number(r.k) + 1)}`,
      holders: Number(r.holders),
      amount: r.total,
    })),
  };
}

/** Most points of a token's holder history: a snapshot every 2 s at the head would make it grow without bound. */
export const MAX_HISTORY_POINTS = 1000;

/**
 * Holders and supply of a token at its rich-list snapshots up to `snapshot`, with the snapshot block's time: every
 * snapshot up to MAX_HISTORY_POINTS of them, else every k-th counting back from the latest (which is always in).
 */
export async function richListHistory(store: Store, token: string, snapshot: number): Promise<Distribution['history']> {
  const points = await store.rows<{ h: string; n: string; total: string }>(
    `SELECT h, n, total FROM (
       SELECT snapshot_height AS h, holders AS n, toString(supply) AS total,
              row_number() OVER (ORDER BY snapshot_height DESC) - 1 AS back, count() OVER () AS c
       FROM stats_richlist_history FINAL WHERE token = {token:String} AND snapshot_height <= {h:UInt64})
     WHERE back % greatest(1, intDiv(c + {max:UInt32} - 1, {max:UInt32})) = 0
     ORDER BY h`,
    { token, h: snapshot, max: MAX_HISTORY_POINTS },
  );
  if (points.length === 0) return [];
  const times = await store.rows<{ height: string; time: string }>(
    'SELECT height, time FROM blocks WHERE height IN {hs:Array(UInt64)}',
    { hs: points.map((p) => Number(p.h)) },
  );
  const timeAt = new Map(times.map((t) => [t.height, t.time]));
  return points.map((r) => ({
    snapshot_height: Number(r.h),
    time: timeAt.get(r.h) ?? null,
    holders: Number(r.n),
    supply: r.total,
  }));
}

export interface NftStats {
  supply: number;
  holders: number;
  buckets: { t: number; mints: number; transfers: number; burns: number }[];
}

/** A collection's live supply and distinct holders (ownership ledger) and its events per bucket. */
export async function nftStats(
  store: Store,
  collection: string,
  res: number,
  from: number,
  to: number,
): Promise<NftStats> {
  const params = { c: collection, res, from, to };
  const [[own], rows] = await Promise.all([
    store.rows<{ supply: string; holders: string }>(
      `SELECT count() AS supply, uniqExact(owner) AS holders FROM (
         SELECT owner, token_id FROM nft_holdings WHERE collection = {c:String}
         GROUP BY owner, token_id HAVING sum(delta) > 0)`,
      params,
    ),
    store.rows<{ t: number; m: string; tr: string; b: string }>(
      `SELECT toUInt32(bucket) AS t, sum(mints) AS m, sum(transfers) AS tr, sum(burns) AS b
       FROM stats_nft WHERE collection = {c:String} AND res = {res:UInt32}
         AND bucket >= toDateTime({from:UInt32}) AND bucket < toDateTime({to:UInt32})
       GROUP BY bucket`,
      params,
    ),
  ]);
  const byT = new Map(rows.map((r) => [Number(r.t), r]));
  const buckets: NftStats['buckets'] = [];
  for (let t = from; t < to; t += res) {
    const r = byT.get(t);
    buckets.push({
      t,
      mints: Number(r?.m ?? 0),
      transfers: Number(r?.tr ?? 0),
      burns: Number(r?.b ?? 0),
    });
  }
  return { supply: Number(own?.supply ?? 0), holders: Number(own?.holders ?? 0), buckets };
}

/** First and last block time (unix seconds) and height: the default window of the API and the dashboard. */
export async function chainSpan(store: Store): Promise<{ first: number; last: number; height: number } | null> {
  const [r] = await store.rows<{ first: number; last: number; h: string; n: string }>(
    `SELECT toUInt32(min(bucket)) AS first, toUInt32(max(bucket)) AS last, max(max_height) AS h, count() AS n
     FROM stats_blocks WHERE res = 60`,
  );
  if (!r || Number(r.n) === 0) return null;
  return { first: Number(r.first), last: Number(r.last), height: Number(r.h) };
}

/** Tokens of a rich-list snapshot by holders (one pass over the snapshot's ranked rows). */
export async function snapshotTokens(
  store: Store,
  snapshot: number,
  limit: number,
): Promise<{ token: string; holders: number; supply: string }[]> {
  const rows = await store.rows<{ token: string; n: string; total: string }>(
    `SELECT token, count() AS n, toString(sum(amount)) AS total FROM richlist
     WHERE snapshot_height = {h:UInt64} GROUP BY token ORDER BY n DESC, token LIMIT {limit:UInt32}`,
    { h: snapshot, limit },
  );
  return rows.map((r) => ({ token: r.token, holders: Number(r.n), supply: r.total }));
}
