-- Move NFT object address → (collection, token id), so 0x1::object::TransferEvent can be attributed to a token.
CREATE TABLE IF NOT EXISTS nft_objects
(
    object_addr String,
    collection  String,
    token_id    String,
    height      UInt64
)
ENGINE = MergeTree ORDER BY object_addr;

CREATE MATERIALIZED VIEW IF NOT EXISTS nft_objects_mv TO nft_objects AS
SELECT object_addr, collection, token_id, height FROM nft_events WHERE kind = 'mint' AND object_addr != '';
