-- Opening balances written before migration 112 hold an amount of 2^255 or more wrapped (negative: a bank balance
-- never is): each such seed is written again as the three parts below 2^255 of its unsigned value, as seedRows
-- (clickhouse/balance-seeds.ts) writes them now. The table is small (one height's balances) and is rebuilt beside
-- itself, then swapped in, so a crash at any statement leaves either table whole and a re-run gives the same rows.
DROP TABLE IF EXISTS balance_seeds_parts;

CREATE TABLE balance_seeds_parts AS balance_seeds;

INSERT INTO balance_seeds_parts (token, account, amount, height)
WITH reinterpretAsUInt256(amount) AS unsigned, intDiv(unsigned, 3) AS third
SELECT token, account, toInt256(part), height
FROM balance_seeds
ARRAY JOIN if(amount < 0, [third, third, toUInt256(unsigned - 2 * third)], [toUInt256(amount)]) AS part;

EXCHANGE TABLES balance_seeds AND balance_seeds_parts;

DROP TABLE IF EXISTS balance_seeds_parts;
