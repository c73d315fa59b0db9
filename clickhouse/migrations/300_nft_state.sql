-- Current NFT state, maintained at ingest (issue 14: NFT reads were a fold of every event of a collection per
-- request). Both tables are AggregatingMergeTree of SimpleAggregateFunction columns: "the latest X" is the max of
-- a (sequence, event_index, X) tuple, "the first X" the min of (sequence, …, X), with a neutral tuple for rows that
-- do not carry X. Reads GROUP BY the key (a key-range read; correct on the cluster, where a key's rows live on
-- several shards). max/min are idempotent under a re-inserted event; the sums (collection events, mints − burns)
-- are kept exact because a deleted height range has the state of every key it touched refolded from the facts
-- that remain (clickhouse/nft-state.ts, called by deleteRange; nft_state_dirty survives a crash in between).
-- `last_height` is deliberately not a `height UInt64` column: these tables are not deleted by height.
-- The tables are recreated and refilled from the facts here, so an existing data directory is upgraded in place;
-- every statement can run again after a crash.

DROP VIEW IF EXISTS nft_token_state_mv;
DROP VIEW IF EXISTS nft_collection_state_events_mv;
DROP VIEW IF EXISTS nft_collection_state_nfts_mv;
DROP VIEW IF EXISTS nft_collection_state_contracts_mv;
DROP TABLE IF EXISTS nft_token_state;
DROP TABLE IF EXISTS nft_collection_state;

-- One row per token (after merges): owner of the last mint/transfer, whether the last mint/transfer/burn is a
-- burn, last non-empty uri and object address, time of the last event, height of the latest event.
CREATE TABLE IF NOT EXISTS nft_token_state
(
    collection  String,
    token_id    String,
    owner_v     SimpleAggregateFunction(max, Tuple(UInt64, UInt32, String)),
    burned_v    SimpleAggregateFunction(max, Tuple(UInt64, UInt32, UInt8)),
    uri_v       SimpleAggregateFunction(max, Tuple(UInt64, UInt32, String)),
    object_v    SimpleAggregateFunction(max, Tuple(UInt64, UInt32, String)),
    time_v      SimpleAggregateFunction(max, Tuple(UInt64, UInt32, DateTime64(9, 'UTC'))),
    last_height SimpleAggregateFunction(max, UInt64)
)
ENGINE = AggregatingMergeTree ORDER BY (collection, token_id);

CREATE MATERIALIZED VIEW IF NOT EXISTS nft_token_state_mv TO nft_token_state AS
SELECT collection, token_id,
       max(if(kind IN ('mint', 'transfer'), (sequence, event_index, to_owner), (0, 0, ''))) AS owner_v,
       max(if(kind != 'mutate', (sequence, event_index, toUInt8(kind = 'burn')), (0, 0, 0))) AS burned_v,
       max(if(uri != '', (sequence, event_index, uri), (0, 0, ''))) AS uri_v,
       max(if(object_addr != '', (sequence, event_index, object_addr), (0, 0, ''))) AS object_v,
       max((sequence, event_index, time)) AS time_v,
       max(height) AS last_height
FROM nft_events
GROUP BY collection, token_id;

INSERT INTO nft_token_state
SELECT collection, token_id,
       max(if(kind IN ('mint', 'transfer'), (sequence, event_index, to_owner), (0, 0, ''))) AS owner_v,
       max(if(kind != 'mutate', (sequence, event_index, toUInt8(kind = 'burn')), (0, 0, 0))) AS burned_v,
       max(if(uri != '', (sequence, event_index, uri), (0, 0, ''))) AS uri_v,
       max(if(object_addr != '', (sequence, event_index, object_addr), (0, 0, ''))) AS object_v,
       max((sequence, event_index, time)) AS time_v,
       max(height) AS last_height
FROM nft_events
GROUP BY collection, token_id;

-- One row per collection (after merges): its collection events (listed when > 0), the first one's
-- (sequence, height, time), the latest non-empty name and origin name, the first non-empty creator, the EVM
-- contract's creation (sequence, height, time) when indexed (upstream's height/time of an ERC721 collection), and
-- the live token count (mints − burns). Neutral values: (0, …) for max, (18446744073709551615, …) for min.
CREATE TABLE IF NOT EXISTS nft_collection_state
(
    collection  String,
    events      SimpleAggregateFunction(sum, UInt64),
    first_v     SimpleAggregateFunction(min, Tuple(UInt64, UInt64, DateTime64(9, 'UTC'))),
    name_v      SimpleAggregateFunction(max, Tuple(UInt64, String)),
    origin_v    SimpleAggregateFunction(max, Tuple(UInt64, String)),
    creator_v   SimpleAggregateFunction(min, Tuple(UInt64, String)),
    contract_v  SimpleAggregateFunction(min, Tuple(UInt64, UInt64, DateTime64(9, 'UTC'))),
    nfts        SimpleAggregateFunction(sum, Int64),
    last_height SimpleAggregateFunction(max, UInt64)
)
ENGINE = AggregatingMergeTree ORDER BY collection;

-- Collection events, with the contract's creation when it was indexed before them (a contract created later in
-- the same batch is added by nft_collection_state_contracts_mv: evm_contracts is written after these events).
CREATE MATERIALIZED VIEW IF NOT EXISTS nft_collection_state_events_mv TO nft_collection_state AS
SELECT e.collection AS collection, count() AS events,
       min((e.sequence, e.height, e.time)) AS first_v,
       max(if(e.name != '', (e.sequence, e.name), (0, ''))) AS name_v,
       max(if(e.origin_name != '', (e.sequence, e.origin_name), (0, ''))) AS origin_v,
       min(if(e.creator != '', (e.sequence, e.creator), (18446744073709551615, ''))) AS creator_v,
       min(if(k.address != '', k.c, (18446744073709551615, 0, toDateTime64(0, 9, 'UTC')))) AS contract_v,
       toInt64(0) AS nfts, max(e.height) AS last_height
FROM nft_collection_events AS e
LEFT JOIN (
  SELECT address, min((sequence, height, time)) AS c FROM evm_contracts
  WHERE address IN (SELECT collection FROM nft_collection_events) GROUP BY address
) AS k ON k.address = e.collection
GROUP BY e.collection;

CREATE MATERIALIZED VIEW IF NOT EXISTS nft_collection_state_nfts_mv TO nft_collection_state AS
SELECT collection, toUInt64(0) AS events,
       (18446744073709551615, 0, toDateTime64(0, 9, 'UTC')) AS first_v, (0, '') AS name_v, (0, '') AS origin_v,
       (18446744073709551615, '') AS creator_v, (18446744073709551615, 0, toDateTime64(0, 9, 'UTC')) AS contract_v,
       toInt64(countIf(kind = 'mint')) - toInt64(countIf(kind = 'burn')) AS nfts, max(height) AS last_height
FROM nft_events
GROUP BY collection;

-- Contracts of collections already seen (the usual order is the other way round: handled by the events view).
CREATE MATERIALIZED VIEW IF NOT EXISTS nft_collection_state_contracts_mv TO nft_collection_state AS
SELECT address AS collection, toUInt64(0) AS events,
       (18446744073709551615, 0, toDateTime64(0, 9, 'UTC')) AS first_v, (0, '') AS name_v, (0, '') AS origin_v,
       (18446744073709551615, '') AS creator_v, min((sequence, height, time)) AS contract_v,
       toInt64(0) AS nfts, max(height) AS last_height
FROM evm_contracts
WHERE address IN (SELECT collection FROM nft_collection_events)
GROUP BY address;

INSERT INTO nft_collection_state
SELECT e.collection AS collection, count() AS events,
       min((e.sequence, e.height, e.time)) AS first_v,
       max(if(e.name != '', (e.sequence, e.name), (0, ''))) AS name_v,
       max(if(e.origin_name != '', (e.sequence, e.origin_name), (0, ''))) AS origin_v,
       min(if(e.creator != '', (e.sequence, e.creator), (18446744073709551615, ''))) AS creator_v,
       min(if(k.address != '', k.c, (18446744073709551615, 0, toDateTime64(0, 9, 'UTC')))) AS contract_v,
       toInt64(0) AS nfts, max(e.height) AS last_height
FROM nft_collection_events AS e
LEFT JOIN (
  SELECT address, min((sequence, height, time)) AS c FROM evm_contracts
  WHERE address IN (SELECT collection FROM nft_collection_events) GROUP BY address
) AS k ON k.address = e.collection
GROUP BY e.collection;

INSERT INTO nft_collection_state
SELECT collection, toUInt64(0) AS events,
       (18446744073709551615, 0, toDateTime64(0, 9, 'UTC')) AS first_v, (0, '') AS name_v, (0, '') AS origin_v,
       (18446744073709551615, '') AS creator_v, (18446744073709551615, 0, toDateTime64(0, 9, 'UTC')) AS contract_v,
       toInt64(countIf(kind = 'mint')) - toInt64(countIf(kind = 'burn')) AS nfts, max(height) AS last_height
FROM nft_events
GROUP BY collection;

-- Keys whose state must be refolded from the facts after a height range is deleted (written before the delete,
-- cleared after the refold; clickhouse/nft-state.ts).
CREATE TABLE IF NOT EXISTS nft_state_dirty
(
    kind       Enum8('token' = 1, 'collection' = 2),
    collection String,
    token_id   String
)
ENGINE = MergeTree ORDER BY (kind, collection, token_id);
