-- Raw, append-only facts written by the ingest. Every table carries `height`, so recovery after a crash
-- can delete exactly the rows above the last complete height before writing them again (clickhouse/facts-store.ts).

CREATE TABLE IF NOT EXISTS ingest_checkpoints
(
    height     UInt64,
    written_at DateTime64(3, 'UTC') DEFAULT now64(3)
)
ENGINE = MergeTree ORDER BY height;

CREATE TABLE IF NOT EXISTS blocks
(
    height        UInt64,
    hash          String,
    chain_id      LowCardinality(String),
    time          DateTime64(9, 'UTC'),
    block_time_ms UInt64,
    proposer      String,
    gas_used      UInt64,
    gas_wanted    UInt64,
    tx_count      UInt32,
    total_fee     String
)
ENGINE = MergeTree ORDER BY height;

-- sequence = height * 1,000,000 + index in block: a global order that follows (height, index) and can be
-- computed from one block alone, so parallel fetches and re-ingest always give the same key. The rendered API
-- document of each tx is stored once, in tx_docs (050), written by the ingest beside this row.
CREATE TABLE IF NOT EXISTS txs
(
    sequence   UInt64,
    height     UInt64,
    tx_index   UInt32,
    hash       String,
    code       UInt32,
    signer     String,
    msg_types  Array(LowCardinality(String)),
    accounts   Array(String),
    time       DateTime64(9, 'UTC')
)
ENGINE = MergeTree ORDER BY sequence;

-- EVM logs as minievm emits them inside Cosmos events (`evm` event, `log` attribute), keyed to the Cosmos tx.
CREATE TABLE IF NOT EXISTS evm_logs
(
    height    UInt64,
    sequence  UInt64,
    log_index UInt32,
    address   LowCardinality(String),
    topic0    LowCardinality(String),
    topic1    String,
    topic2    String,
    topic3    String,
    topics    UInt8,
    data      String
)
ENGINE = MergeTree ORDER BY (height, sequence, log_index);

-- EVM receipts from eth_getBlockReceipts (one row per EVM tx), as returned by the node minus `logs` (rows of
-- evm_logs) and `logsBloom` (derivable from them).
CREATE TABLE IF NOT EXISTS evm_txs
(
    height   UInt64,
    tx_index UInt32,
    hash     String,
    sender   String,
    receipt  String CODEC(ZSTD(3))
)
ENGINE = MergeTree ORDER BY (height, tx_index);

-- Internal calls from debug_traceBlockByNumber(callTracer), one row per call-tree node (optional by config).
CREATE TABLE IF NOT EXISTS evm_internal_txs
(
    height       UInt64,
    hash         String,
    idx          UInt32,
    parent_index Int32,
    type         LowCardinality(String),
    from_addr    String,
    to_addr      String,
    value        String,
    gas          String,
    gas_used     String,
    input        String CODEC(ZSTD(3)),
    output       String CODEC(ZSTD(3))
)
ENGINE = MergeTree ORDER BY (height, hash, idx);

-- NFT facts extracted by the decoders (ERC721 logs, CW721 wasm events, Move 0x1::collection/nft/object events).
CREATE TABLE IF NOT EXISTS nft_events
(
    collection  String,
    token_id    String,
    kind        Enum8('mint' = 1, 'transfer' = 2, 'burn' = 3, 'mutate' = 4),
    from_owner  String,
    to_owner    String,
    uri         String,
    object_addr String,
    height      UInt64,
    sequence    UInt64,
    event_index UInt32,
    time        DateTime64(9, 'UTC')
)
ENGINE = MergeTree ORDER BY (collection, token_id, sequence, event_index);

CREATE TABLE IF NOT EXISTS nft_collection_events
(
    collection  String,
    name        String,
    origin_name String,
    creator     String,
    height      UInt64,
    sequence    UInt64,
    time        DateTime64(9, 'UTC')
)
ENGINE = MergeTree ORDER BY (collection, sequence);

-- Decode problems: a tx that cannot be decoded is stored without derived rows and recorded here.
CREATE TABLE IF NOT EXISTS ingest_errors
(
    height   UInt64,
    tx_index Int32,
    kind     LowCardinality(String),
    message  String,
    at       DateTime64(3, 'UTC') DEFAULT now64(3)
)
ENGINE = MergeTree ORDER BY (height, tx_index);
