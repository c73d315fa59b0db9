-- Indexer read path (owned by api/indexer). Tx documents keyed by sequence in SMALL granules.
-- Lists by account, by message type and by NFT pick ~100 scattered sequences per page. Read from `txs`
-- (1024-row granules of ~2 KB JSON) every picked row costs decompressing a whole ~1-2 MB granule; here a
-- point read decompresses one ≤64 KB block. The ingest writes it beside `txs` (the only copy of the JSON);
-- its crash recovery deletes from it by height like every other table. ReplacingMergeTree (+ LIMIT 1 BY in the
-- readers) is a second guard against duplicates.
CREATE TABLE IF NOT EXISTS tx_docs
(
    sequence UInt64,
    height   UInt64,
    json     String CODEC(ZSTD(1))
)
ENGINE = ReplacingMergeTree ORDER BY sequence
SETTINGS index_granularity = 32, min_compress_block_size = 16384, max_compress_block_size = 65536;
