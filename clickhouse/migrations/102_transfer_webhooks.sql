-- The webhook a tracked transfer was registered with (POST /v2/tx/track `webhook_url`, docs/tracking.md "Webhooks").
-- Written before the workflow is told of it, so a restart's reconcile() hands it to the restarted workflow. One per
-- transfer: the first registration's wins (argMin by registered_at when read); a retried track writes the same key.
CREATE TABLE IF NOT EXISTS transfer_webhooks
(
    chain_id      LowCardinality(String),
    tx_hash       String,
    url           String,
    registered_at DateTime64(3, 'UTC')
)
ENGINE = ReplacingMergeTree
ORDER BY (chain_id, tx_hash, url);
