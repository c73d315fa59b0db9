-- Disk per tx on a dense chain (issue 29: under 800 bytes; 1,110 before this file, 100 txs a block). Both changes
-- are metadata only: parts written before keep their old blocks and codec until a merge rewrites them, and every
-- statement is idempotent. Measured on 60,000 replicated real EVM txs (docs/decisions/010-backfill-writes-and-storage.md):
--  - tx hashes are 64 hex characters, which LZ4 (the default codec) does not shrink: ZSTD entropy-codes them to
--    about half (txs 71 -> 39, tx_hashes 72 -> 41, evm_txs 148 -> 115 B/tx);
--  - tx documents in 16-64 KB compressed blocks instead of 2-8 KB: each block holds ~8 documents instead of ~3, so
--    their repeated keys compress across documents (779 -> 487 B/tx). Granules stay 4 rows, so a scattered read still
--    decompresses one block per document: 20 random documents of 1 M took p50 12.2 ms against 10.5 (+16 %), the
--    price of the 37 % smaller store.
ALTER TABLE txs MODIFY COLUMN hash String CODEC(ZSTD(1));

ALTER TABLE tx_hashes MODIFY COLUMN hash String CODEC(ZSTD(1));

ALTER TABLE evm_txs MODIFY COLUMN hash String CODEC(ZSTD(1));

ALTER TABLE tx_documents MODIFY SETTING min_compress_block_size = 16384, max_compress_block_size = 65536;
