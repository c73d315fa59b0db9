-- The contract-calls view reads the tx documents from their new table (migration 210): dropped and declared again
-- on tx_documents (clickhouse/analytics.ts takes the latest declaration for its rebuild), then the old documents table
-- goes. Every statement is idempotent, and no ingest runs during migrations, so no document is missed or counted
-- twice: the copy of migration 210 ran before this view existed.
DROP VIEW IF EXISTS stats_contracts_mv;

CREATE MATERIALIZED VIEW IF NOT EXISTS stats_contracts_mv TO stats_contracts AS
SELECT res, toDateTime(intDiv(toUnixTimestamp(t), res) * res, 'UTC') AS bucket, call.1 AS kind, call.2 AS target,
       count() AS calls, countIf(code != 0) AS failed_calls
FROM
(
    SELECT JSONExtract(json, 'Tuple(timestamp String, code UInt32, tx Tuple(body Tuple(messages Array(Tuple(`@type` String, contract_addr String, module_address String, module_name String, contract String)))))') AS doc,
           parseDateTime64BestEffort(doc.timestamp, 9, 'UTC') AS t,
           doc.code AS code,
           arrayJoin(arrayFilter(c -> c.1 != '', arrayMap(m -> multiIf(
               tupleElement(m, '@type') = '/minievm.evm.v1.MsgCall',
               ('evm', lower(m.contract_addr)),
               tupleElement(m, '@type') IN ('/initia.move.v1.MsgExecute', '/initia.move.v1.MsgExecuteJSON'),
               ('move', concat(m.module_address, '::', m.module_name)),
               tupleElement(m, '@type') = '/cosmwasm.wasm.v1.MsgExecuteContract',
               ('wasm', m.contract),
               ('', '')), doc.tx.body.messages))) AS call
    FROM tx_documents
    WHERE position(json, 'MsgCall') > 0 OR position(json, 'MsgExecute') > 0
)
ARRAY JOIN [3600, 86400] AS res
GROUP BY res, bucket, kind, target;

DROP TABLE IF EXISTS tx_docs;
