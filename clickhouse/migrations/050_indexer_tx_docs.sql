-- Indexer read path (owned by api/indexer). Tx documents keyed by sequence in SMALL granules.
-- Lists by account, by message type and by NFT pick ~100 scattered sequences per page. Read from `txs`
-- (1024-row granules of ~2 KB JSON) every picked row costs decompressing a whole ~1-2 MB granule; here a
-- point read decompresses one ≤64 KB block. ReplacingMergeTree (+ LIMIT 1 BY in the readers) makes a
-- re-ingested height harmless. The ingest's crash recovery should also delete from it by height.
CREATE TABLE IF NOT EXISTS tx_docs
(
    sequence UInt64,
    height   UInt64,
    json     String CODEC(ZSTD(1))
)
ENGINE = ReplacingMergeTree ORDER BY sequence
SETTINGS index_granularity = 32, min_compress_block_size = 16384, max_compress_block_size = 65536;

CREATE MATERIALIZED VIEW IF NOT EXISTS tx_docs_mv TO tx_docs AS
SELECT sequence, height, json FROM txs;

-- A store that already held txs before this migration: copy them once (no-op on a fresh store).
INSERT INTO tx_docs SELECT sequence, height, json FROM txs WHERE (SELECT count() FROM tx_docs) = 0;
