-- The balance ledger holds every delta at its exact signed value. ERC20 amounts are uint256, and an Int256 holds
-- only those below 2^255: an amount of 2^255 or more (a uint256-maximum mint) is written as three parts, each below
-- 2^255, with the transfer's sign. Balances are then sums of exact signed deltas, which the rich list reads
-- with an approximate sum beside the exact one to tell a balance of 2^255 or more from a deficit
-- (clickhouse/balance-seeds.ts BALANCES_AT_SQL). Amounts below 2^255 keep their one row a side, as before.
DROP VIEW IF EXISTS balance_deltas_mv;

-- Rows written by the view before this file for amounts of 2^255 or more hold them wrapped (negative): every
-- ledger row of those (token, tx) pairs is written again from its logs. Idempotent, and no ingest runs during
-- migrations; a chain without such amounts deletes and inserts nothing.
DELETE FROM balance_deltas WHERE (token, sequence) IN (
    SELECT address, sequence FROM evm_logs
    WHERE topic0 = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'
      AND topics = 3 AND length(data) = 66 AND substring(data, 3, 1) >= '8'
);

INSERT INTO balance_deltas (token, account, delta, height, sequence)
WITH reinterpretAsUInt256(reverse(unhex(substring(data, 3)))) AS amount,
     if(substring(data, 3, 1) >= '8', [intDiv(amount, 3), intDiv(amount, 3), toUInt256(amount - 2 * intDiv(amount, 3))], [amount]) AS parts
SELECT address, part.1, part.2, height, sequence
FROM evm_logs
ARRAY JOIN arrayFilter(p -> p.1 != '0x0000000000000000000000000000000000000000', arrayFlatten(arrayMap(
    side -> arrayMap(x -> (side.1, side.2 * toInt256(x)), parts),
    [(concat('0x', substring(topic1, 27)), toInt256(-1)), (concat('0x', substring(topic2, 27)), toInt256(1))]
))) AS part
WHERE topic0 = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'
  AND topics = 3 AND length(data) = 66
  AND (address, sequence) IN (
    SELECT address, sequence FROM evm_logs
    WHERE topic0 = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'
      AND topics = 3 AND length(data) = 66 AND substring(data, 3, 1) >= '8'
  );

CREATE MATERIALIZED VIEW IF NOT EXISTS balance_deltas_mv TO balance_deltas AS
WITH reinterpretAsUInt256(reverse(unhex(substring(data, 3)))) AS amount,
     if(substring(data, 3, 1) >= '8', [intDiv(amount, 3), intDiv(amount, 3), toUInt256(amount - 2 * intDiv(amount, 3))], [amount]) AS parts
SELECT address AS token, part.1 AS account, part.2 AS delta, height, sequence
FROM evm_logs
ARRAY JOIN arrayFilter(p -> p.1 != '0x0000000000000000000000000000000000000000', arrayFlatten(arrayMap(
    side -> arrayMap(x -> (side.1, side.2 * toInt256(x)), parts),
    [(concat('0x', substring(topic1, 27)), toInt256(-1)), (concat('0x', substring(topic2, 27)), toInt256(1))]
))) AS part
WHERE topic0 = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'
  AND topics = 3 AND length(data) = 66;
