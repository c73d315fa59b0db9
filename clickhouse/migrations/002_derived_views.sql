-- Lookup tables derived from the facts by materialized views (they run on every insert into the source).

CREATE TABLE IF NOT EXISTS tx_hashes
(
    hash     String,
    sequence UInt64,
    height   UInt64
)
ENGINE = MergeTree ORDER BY hash;

CREATE MATERIALIZED VIEW IF NOT EXISTS tx_hashes_mv TO tx_hashes AS
SELECT hash, sequence, height FROM txs;

CREATE TABLE IF NOT EXISTS account_txs
(
    account   String,
    sequence  UInt64,
    height    UInt64,
    is_signer UInt8,
    msg_types Array(LowCardinality(String))
)
ENGINE = MergeTree ORDER BY (account, sequence);

CREATE MATERIALIZED VIEW IF NOT EXISTS account_txs_mv TO account_txs AS
SELECT arrayJoin(accounts) AS account, sequence, height, toUInt8(account = signer) AS is_signer, msg_types FROM txs;

CREATE TABLE IF NOT EXISTS msg_type_txs
(
    msg_type LowCardinality(String),
    sequence UInt64,
    height   UInt64
)
ENGINE = MergeTree ORDER BY (msg_type, sequence);

CREATE MATERIALIZED VIEW IF NOT EXISTS msg_type_txs_mv TO msg_type_txs AS
SELECT arrayJoin(arrayDistinct(msg_types)) AS msg_type, sequence, height FROM txs;

-- Txs by height need no view: txs is ordered by sequence = height * 1e6 + index, so a height is one key range.

-- NFT ownership ledger: -1 for the previous owner and +1 for the new one per mint/transfer/burn (owning = sum > 0).
-- The ingest also writes an opening +1 for the sender of the first transfer of a token minted before the indexed
-- range (ingest/enrich.ts), so a holder from before the range is not left at 0.
CREATE TABLE IF NOT EXISTS nft_holdings
(
    owner      String,
    collection String,
    token_id   String,
    delta      Int8,
    height     UInt64,
    sequence   UInt64
)
ENGINE = MergeTree ORDER BY (owner, collection, token_id, sequence);

CREATE MATERIALIZED VIEW IF NOT EXISTS nft_holdings_mv TO nft_holdings AS
SELECT side.1 AS owner, collection, token_id, side.2 AS delta, height, sequence
FROM nft_events
ARRAY JOIN [(from_owner, toInt8(-1)), (to_owner, toInt8(1))] AS side
WHERE kind IN ('mint', 'transfer', 'burn') AND side.1 != '';

-- NFT txs: every tx that touched a token (mint, transfer, burn, mutation).
CREATE TABLE IF NOT EXISTS nft_token_txs
(
    collection String,
    token_id   String,
    sequence   UInt64,
    height     UInt64
)
ENGINE = ReplacingMergeTree ORDER BY (collection, token_id, sequence);

CREATE MATERIALIZED VIEW IF NOT EXISTS nft_token_txs_mv TO nft_token_txs AS
SELECT collection, token_id, sequence, height FROM nft_events;

-- ERC20 balance deltas from Transfer(address,address,uint256) logs (3 topics; ERC721 has 4).
-- On minievm bank coin movements appear as the same logs of the coin's ERC20 contract.
CREATE TABLE IF NOT EXISTS balance_deltas
(
    token    LowCardinality(String),
    account  String,
    delta    Int256,
    height   UInt64,
    sequence UInt64
)
ENGINE = MergeTree ORDER BY (token, account, sequence);

CREATE MATERIALIZED VIEW IF NOT EXISTS balance_deltas_mv TO balance_deltas AS
SELECT address AS token, side.1 AS account, side.2 AS delta, height, sequence
FROM evm_logs
ARRAY JOIN [
    (concat('0x', substring(topic1, 27)), -reinterpretAsInt256(reverse(unhex(substring(data, 3))))),
    (concat('0x', substring(topic2, 27)),  reinterpretAsInt256(reverse(unhex(substring(data, 3)))))
] AS side
WHERE topic0 = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'
  AND topics = 3 AND length(data) = 66
  AND side.1 != '0x0000000000000000000000000000000000000000';

-- Rich list snapshots: holders ranked by (amount DESC, account ASC) per token at one height, so any page is a
-- key-range read on (token, snapshot_height, rank). Rebuilt by the ingest from balance_deltas (clickhouse/richlist-snapshots.ts).
CREATE TABLE IF NOT EXISTS richlist
(
    token           LowCardinality(String),
    snapshot_height UInt64,
    rank            UInt64,
    account         String,
    amount          UInt256
)
ENGINE = MergeTree PARTITION BY snapshot_height ORDER BY (token, snapshot_height, rank);

CREATE TABLE IF NOT EXISTS richlist_snapshots
(
    snapshot_height UInt64,
    holders         UInt64,
    built_at        DateTime64(3, 'UTC') DEFAULT now64(3)
)
ENGINE = MergeTree ORDER BY snapshot_height;
