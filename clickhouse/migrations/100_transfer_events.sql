-- Transfer tracking projection (issue 5). Append-only: every state change of a tracked tx is one row
-- holding the full status document at that version. Version 0 is the registration row (STATE_SUBMITTED).
-- (chain_id, tx_hash, version) is deterministic per workflow step, so an activity retry writes the same key:
-- ReplacingMergeTree collapses it, and the insert-block dedup window drops identical retried inserts outright.
CREATE TABLE IF NOT EXISTS transfer_events
(
    chain_id    LowCardinality(String),
    tx_hash     String,
    version     UInt32,
    event_id    String,
    phase       LowCardinality(String),
    state       LowCardinality(String),
    status      LowCardinality(String),
    doc         String,
    recorded_at DateTime64(3, 'UTC') DEFAULT now64(3)
)
ENGINE = ReplacingMergeTree
ORDER BY (chain_id, tx_hash, version)
SETTINGS non_replicated_deduplication_window = 10000;
