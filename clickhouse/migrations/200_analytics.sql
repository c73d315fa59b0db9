-- Analytics aggregates (issue 15, docs/analytics.md). Each table is maintained at ingest by the materialized
-- view below it, which folds one insert block into a few partial-aggregate rows; readers always GROUP BY and
-- merge (sum / min / uniqMerge), so unmerged parts never change an answer. The raw facts stay the source of
-- truth: clickhouse/analytics.ts rebuilds any table from them (crash recovery and re-ingest rebuild the affected
-- days; a test rebuilds everything and compares). Buckets are UTC and aligned to their size:
-- res = 60 (minute), 3600 (hour), 86400 (day). Time series keep all three sizes; per-key rankings keep
-- hours and days only (a window is read as whole days plus the hours at its edges).

CREATE TABLE IF NOT EXISTS stats_blocks
(
    res           UInt32,
    bucket        DateTime('UTC'),
    blocks        SimpleAggregateFunction(sum, UInt64),
    block_time_ms SimpleAggregateFunction(sum, UInt64),
    gas_used      SimpleAggregateFunction(sum, UInt64),
    min_height    SimpleAggregateFunction(min, UInt64),
    max_height    SimpleAggregateFunction(max, UInt64)
)
ENGINE = AggregatingMergeTree ORDER BY (res, bucket);

CREATE MATERIALIZED VIEW IF NOT EXISTS stats_blocks_mv TO stats_blocks AS
SELECT res, toDateTime(intDiv(toUnixTimestamp(time), res) * res, 'UTC') AS bucket, count() AS blocks,
       sum(block_time_ms) AS block_time_ms, sum(gas_used) AS gas_used, min(height) AS min_height,
       max(height) AS max_height
FROM blocks ARRAY JOIN [60, 3600, 86400] AS res
GROUP BY res, bucket;

-- Fees per denom, from the block's total fee (every tx of the block, failed ones included).
CREATE TABLE IF NOT EXISTS stats_fees
(
    res    UInt32,
    bucket DateTime('UTC'),
    denom  String,
    amount SimpleAggregateFunction(sum, UInt256)
)
ENGINE = AggregatingMergeTree ORDER BY (res, bucket, denom);

CREATE MATERIALIZED VIEW IF NOT EXISTS stats_fees_mv TO stats_fees AS
SELECT res, toDateTime(intDiv(toUnixTimestamp(time), res) * res, 'UTC') AS bucket, fee.1 AS denom,
       sum(toUInt256OrZero(fee.2)) AS amount
FROM blocks
ARRAY JOIN JSONExtract(total_fee, 'Array(Tuple(denom String, amount String))') AS fee
ARRAY JOIN [60, 3600, 86400] AS res
GROUP BY res, bucket, denom;

-- Txs, failed txs and active accounts (distinct accounts a tx touched, its signer included; uniq: exact for
-- small sets, approximate beyond ~65k per merged result).
CREATE TABLE IF NOT EXISTS stats_txs
(
    res        UInt32,
    bucket     DateTime('UTC'),
    txs        SimpleAggregateFunction(sum, UInt64),
    failed_txs SimpleAggregateFunction(sum, UInt64),
    active     AggregateFunction(uniqArray, Array(String))
)
ENGINE = AggregatingMergeTree ORDER BY (res, bucket);

CREATE MATERIALIZED VIEW IF NOT EXISTS stats_txs_mv TO stats_txs AS
SELECT res, toDateTime(intDiv(toUnixTimestamp(time), res) * res, 'UTC') AS bucket, count() AS txs,
       countIf(code != 0) AS failed_txs, uniqArrayState(accounts) AS active
FROM txs ARRAY JOIN [60, 3600, 86400] AS res
GROUP BY res, bucket;

-- The same per message type (a tx counts once for each distinct type it carries): the message-type mix and
-- the `msgs` filter of the activity series.
CREATE TABLE IF NOT EXISTS stats_msgs
(
    res        UInt32,
    bucket     DateTime('UTC'),
    msg_type   LowCardinality(String),
    txs        SimpleAggregateFunction(sum, UInt64),
    failed_txs SimpleAggregateFunction(sum, UInt64),
    active     AggregateFunction(uniqArray, Array(String))
)
ENGINE = AggregatingMergeTree ORDER BY (res, bucket, msg_type);

CREATE MATERIALIZED VIEW IF NOT EXISTS stats_msgs_mv TO stats_msgs AS
SELECT res, toDateTime(intDiv(toUnixTimestamp(time), res) * res, 'UTC') AS bucket, msg_type, count() AS txs,
       countIf(code != 0) AS failed_txs, uniqArrayState(accounts) AS active
FROM txs
ARRAY JOIN arrayDistinct(msg_types) AS msg_type
ARRAY JOIN [60, 3600, 86400] AS res
GROUP BY res, bucket, msg_type;

-- First time each account was touched by a tx (new accounts per bucket = accounts whose minimum falls in it).
-- Keyed by a 64-bit hash of the account, so the per-request grouping of every account is over integers (a
-- collision among 1 M accounts has a probability of ~3e-8); seconds are enough for ≥ 1-minute buckets.
CREATE TABLE IF NOT EXISTS stats_account_first_seen
(
    account_hash UInt64,
    first_seen   SimpleAggregateFunction(min, DateTime('UTC'))
)
ENGINE = AggregatingMergeTree ORDER BY account_hash;

CREATE MATERIALIZED VIEW IF NOT EXISTS stats_account_first_seen_mv TO stats_account_first_seen AS
SELECT cityHash64(arrayJoin(accounts)) AS account_hash, toDateTime(min(time), 'UTC') AS first_seen
FROM txs
GROUP BY account_hash;

-- Txs sent per signer (top accounts). Grouped by a 64-bit hash of the signer, so ranking a window aggregates
-- integers; the name rides along (any) and is read only for the few winners.
CREATE TABLE IF NOT EXISTS stats_senders
(
    res         UInt32,
    bucket      DateTime('UTC'),
    signer_hash UInt64,
    name        SimpleAggregateFunction(any, String),
    txs         SimpleAggregateFunction(sum, UInt64)
)
ENGINE = AggregatingMergeTree ORDER BY (res, bucket, signer_hash);

CREATE MATERIALIZED VIEW IF NOT EXISTS stats_senders_mv TO stats_senders AS
SELECT res, toDateTime(intDiv(toUnixTimestamp(time), res) * res, 'UTC') AS bucket, cityHash64(signer) AS signer_hash,
       any(signer) AS name, count() AS txs
FROM txs ARRAY JOIN [3600, 86400] AS res
WHERE signer != ''
GROUP BY res, bucket, signer_hash;

-- Contracts and modules executed, from the tx's messages: EVM MsgCall (contract_addr), Move MsgExecute /
-- MsgExecuteJSON (module_address::module_name), Wasm MsgExecuteContract (contract). One call per message.
-- The document is parsed once (one typed JSONExtract), and only when it names one of those messages.
CREATE TABLE IF NOT EXISTS stats_contracts
(
    res          UInt32,
    bucket       DateTime('UTC'),
    kind         LowCardinality(String),
    target       String,
    calls        SimpleAggregateFunction(sum, UInt64),
    failed_calls SimpleAggregateFunction(sum, UInt64)
)
ENGINE = AggregatingMergeTree ORDER BY (res, bucket, kind, target);

CREATE MATERIALIZED VIEW IF NOT EXISTS stats_contracts_mv TO stats_contracts AS
SELECT res, toDateTime(intDiv(toUnixTimestamp(t), res) * res, 'UTC') AS bucket, call.1 AS kind, call.2 AS target,
       count() AS calls, countIf(code != 0) AS failed_calls
FROM
(
    SELECT JSONExtract(json, 'Tuple(timestamp String, code UInt32, tx Tuple(body Tuple(messages Array(Tuple(`@type` String, contract_addr String, module_address String, module_name String, contract String)))))') AS doc,
           parseDateTime64BestEffort(doc.timestamp, 9, 'UTC') AS t,
           doc.code AS code,
           arrayJoin(arrayFilter(c -> c.1 != '', arrayMap(m -> multiIf(
               tupleElement(m, '@type') = '/minievm.evm.v1.MsgCall',
               ('evm', lower(m.contract_addr)),
               tupleElement(m, '@type') IN ('/initia.move.v1.MsgExecute', '/initia.move.v1.MsgExecuteJSON'),
               ('move', concat(m.module_address, '::', m.module_name)),
               tupleElement(m, '@type') = '/cosmwasm.wasm.v1.MsgExecuteContract',
               ('wasm', m.contract),
               ('', '')), doc.tx.body.messages))) AS call
    FROM tx_docs
    WHERE position(json, 'MsgCall') > 0 OR position(json, 'MsgExecute') > 0
)
ARRAY JOIN [3600, 86400] AS res
GROUP BY res, bucket, kind, target;

-- NFT mints / transfers / burns per collection and bucket.
CREATE TABLE IF NOT EXISTS stats_nft
(
    collection String,
    res        UInt32,
    bucket     DateTime('UTC'),
    mints      SimpleAggregateFunction(sum, UInt64),
    transfers  SimpleAggregateFunction(sum, UInt64),
    burns      SimpleAggregateFunction(sum, UInt64)
)
ENGINE = AggregatingMergeTree ORDER BY (collection, res, bucket);

CREATE MATERIALIZED VIEW IF NOT EXISTS stats_nft_mv TO stats_nft AS
SELECT collection, res, toDateTime(intDiv(toUnixTimestamp(time), res) * res, 'UTC') AS bucket,
       countIf(kind = 'mint') AS mints, countIf(kind = 'transfer') AS transfers, countIf(kind = 'burn') AS burns
FROM nft_events ARRAY JOIN [60, 3600, 86400] AS res
WHERE kind IN ('mint', 'transfer', 'burn')
GROUP BY collection, res, bucket;

-- Days whose aggregates must be rebuilt from the facts (written before a height range is deleted, removed
-- once the rebuild is done; a crash in between leaves the marker for the next recovery).
CREATE TABLE IF NOT EXISTS stats_dirty
(
    from_day DateTime('UTC'),
    at       DateTime64(3, 'UTC') DEFAULT now64(3)
)
ENGINE = MergeTree ORDER BY from_day;

-- Holders and supply of every token at each rich-list snapshot (the snapshots themselves keep only the latest
-- height). Written by the snapshot build (clickhouse/richlist-snapshots.ts) from the snapshot's rows, one row per token, so
-- building a height again replaces its point; rebuildable from balance_deltas at each recorded height.
CREATE TABLE IF NOT EXISTS stats_richlist_history
(
    token           LowCardinality(String),
    snapshot_height UInt64,
    holders         UInt64,
    supply          UInt256
)
ENGINE = ReplacingMergeTree ORDER BY (token, snapshot_height);
