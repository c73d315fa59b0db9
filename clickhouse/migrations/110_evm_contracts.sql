-- EVM contracts created by indexed txs (minievm's `contract_created` event, internal creations included):
-- an ERC721 collection's height/time is its deployment, not its first mint (as upstream reports it).
CREATE TABLE IF NOT EXISTS evm_contracts
(
    address  String,
    height   UInt64,
    sequence UInt64,
    time     DateTime64(9, 'UTC')
)
ENGINE = MergeTree ORDER BY (address, sequence);
