-- Opening balances of the rich list: every account's bank balances (as ERC20 contract amounts) in the chain's
-- state at the height before the first indexed block (genesis allocations included). The rich list is these
-- seeds plus the balance_deltas above their height (ingest/balance-seed.ts, ingest/richlist.ts).
CREATE TABLE IF NOT EXISTS balance_seeds
(
    token   LowCardinality(String),
    account String,
    amount  Int256,
    height  UInt64
)
ENGINE = MergeTree ORDER BY (token, account);
