-- Who each tracked transfer is from and for (history by address, GET /v2/tx/history): one row per (account, transfer,
-- role). `address` is the account key (chain/address.ts accountKey: the hex of its bytes, the same for its bech32 on
-- any chain and its 0x form). Written by the projection activity once the source tx is found; a retry writes the
-- same key, which ReplacingMergeTree collapses. The transfer's times and state come from transfer_events.
CREATE TABLE IF NOT EXISTS transfer_parties
(
    address  String,
    chain_id LowCardinality(String),
    tx_hash  String,
    role     LowCardinality(String)
)
ENGINE = ReplacingMergeTree
ORDER BY (address, chain_id, tx_hash, role);
