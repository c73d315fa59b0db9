-- Indexer read path (issue 14): the rendered tx documents in 4-row granules and 2-8 KB compressed blocks, so a
-- scattered read (the ~20 documents of a random account's page, a tx by hash) decompresses ~8 KB per document
-- instead of ~64 KB. Measured on 2 M documents of the 10 M-tx bench set, 20 random documents per read: p50 3.6 ms
-- against 5.6-6.5 ms for tx_docs (32-row granules, 16-64 KB blocks, migration 050); on disk 1.86x as much
-- (docs/bench-indexer.md). Replaces tx_docs: the ingest writes here, the readers read here, migration 211 drops
-- tx_docs once this copy is recorded (a crash before that re-runs this file, which starts the copy over).
CREATE TABLE IF NOT EXISTS tx_documents
(
    sequence UInt64,
    height   UInt64,
    json     String CODEC(ZSTD(1))
)
ENGINE = ReplacingMergeTree ORDER BY sequence
SETTINGS index_granularity = 4, min_compress_block_size = 2048, max_compress_block_size = 8192;

TRUNCATE TABLE tx_documents;

INSERT INTO tx_documents SELECT sequence, height, json FROM tx_docs;
