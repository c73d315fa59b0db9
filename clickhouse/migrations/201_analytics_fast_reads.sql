-- Faster analytics reads (issue 15, measured on the 10 M-tx set; BENCHMARKS.md):
--  1. Active accounts were `uniq` states: up to 65,536 hashes each, so merging 720 hourly states read ~180 MB
--     (≈ 0.8 s). They become `uniqCombined(14)`: exact for small sets, then a 16 K-cell HyperLogLog (≈ 0.8 %
--     standard error) of a few KB. The tables are small (one row per bucket), so index granules of 256 rows
--     keep a day query from reading the minute rows beside it.
--  2. New accounts per bucket were a GROUP BY over every account on each request. Minutes whose blocks are all
--     indexed never change (CometBFT block times only grow), so they are sealed at ingest into
--     stats_new_accounts (clickhouse/analytics.ts sealNewAccounts); a request reads the sealed minutes and counts
--     only the accounts first seen after the seal.
-- The tables are recreated and refilled from the facts here, so an existing data directory is upgraded in
-- place; every statement can run again after a crash.

DROP VIEW IF EXISTS stats_txs_mv;
DROP VIEW IF EXISTS stats_msgs_mv;
DROP TABLE IF EXISTS stats_txs;
DROP TABLE IF EXISTS stats_msgs;

CREATE TABLE IF NOT EXISTS stats_txs
(
    res        UInt32,
    bucket     DateTime('UTC'),
    txs        SimpleAggregateFunction(sum, UInt64),
    failed_txs SimpleAggregateFunction(sum, UInt64),
    active     AggregateFunction(uniqCombined(14), String)
)
ENGINE = AggregatingMergeTree ORDER BY (res, bucket) SETTINGS index_granularity = 256;

CREATE MATERIALIZED VIEW IF NOT EXISTS stats_txs_mv TO stats_txs AS
SELECT res, toDateTime(intDiv(toUnixTimestamp(time), res) * res, 'UTC') AS bucket, count() AS txs,
       countIf(code != 0) AS failed_txs, uniqCombinedArrayState(14)(accounts) AS active
FROM txs ARRAY JOIN [60, 3600, 86400] AS res
GROUP BY res, bucket;

INSERT INTO stats_txs
SELECT res, toDateTime(intDiv(toUnixTimestamp(time), res) * res, 'UTC') AS bucket, count() AS txs,
       countIf(code != 0) AS failed_txs, uniqCombinedArrayState(14)(accounts) AS active
FROM txs ARRAY JOIN [60, 3600, 86400] AS res
GROUP BY res, bucket;

CREATE TABLE IF NOT EXISTS stats_msgs
(
    res        UInt32,
    bucket     DateTime('UTC'),
    msg_type   LowCardinality(String),
    txs        SimpleAggregateFunction(sum, UInt64),
    failed_txs SimpleAggregateFunction(sum, UInt64),
    active     AggregateFunction(uniqCombined(14), String)
)
ENGINE = AggregatingMergeTree ORDER BY (res, bucket, msg_type) SETTINGS index_granularity = 256;

CREATE MATERIALIZED VIEW IF NOT EXISTS stats_msgs_mv TO stats_msgs AS
SELECT res, toDateTime(intDiv(toUnixTimestamp(time), res) * res, 'UTC') AS bucket, msg_type, count() AS txs,
       countIf(code != 0) AS failed_txs, uniqCombinedArrayState(14)(accounts) AS active
FROM txs
ARRAY JOIN arrayDistinct(msg_types) AS msg_type
ARRAY JOIN [60, 3600, 86400] AS res
GROUP BY res, bucket, msg_type;

INSERT INTO stats_msgs
SELECT res, toDateTime(intDiv(toUnixTimestamp(time), res) * res, 'UTC') AS bucket, msg_type, count() AS txs,
       countIf(code != 0) AS failed_txs, uniqCombinedArrayState(14)(accounts) AS active
FROM txs
ARRAY JOIN arrayDistinct(msg_types) AS msg_type
ARRAY JOIN [60, 3600, 86400] AS res
GROUP BY res, bucket, msg_type;

-- Accounts first seen per sealed minute. A re-seal after a crash writes the same count again (replaced).
CREATE TABLE IF NOT EXISTS stats_new_accounts
(
    bucket DateTime('UTC'),
    n      UInt64
)
ENGINE = ReplacingMergeTree ORDER BY bucket;

-- The seal: every minute before `sealed_to` is in stats_new_accounts. The latest row (by `at`) holds.
CREATE TABLE IF NOT EXISTS stats_new_accounts_sealed
(
    sealed_to DateTime('UTC'),
    at        DateTime64(6, 'UTC') DEFAULT now64(6)
)
ENGINE = MergeTree ORDER BY at;
