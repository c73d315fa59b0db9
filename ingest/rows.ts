// The rows stage of the ingest: decoded (and enriched) blocks → the rows of each height-keyed table, in block
// order. Pure: the facts store (clickhouse/facts-store.ts) writes them, table by table, then the checkpoint.
import type { BlockInsertRow, TxDocumentInsertRow, TxKeysRow } from '../clickhouse/committed-items.js';
import type { BlockFacts } from './decode/block.js';
import type { NftEventFact } from './decode/nft.js';
import { SEQUENCE_STRIDE } from './decode/tx.js';
import type { CallFrame, EvmReceipt } from './source.js';

export interface BlockBatchItem {
  facts: BlockFacts;
  blockTimeMs: number;
  receipts?: EvmReceipt[];
  traces?: { txHash: string; result?: CallFrame; error?: string }[];
}

function flattenCalls(height: number, hash: string, root: CallFrame) {
  const rows: object[] = [];
  const walk = (f: CallFrame, parent: number) => {
    const idx = rows.length;
    rows.push({
      height,
      hash,
      idx,
      parent_index: parent,
      type: f.type ?? '',
      from_addr: (f.from ?? '').toLowerCase(),
      to_addr: (f.to ?? '').toLowerCase(),
      value: f.value ?? '0x0',
      gas: f.gas ?? '0x0',
      gas_used: f.gasUsed ?? '0x0',
      input: f.input ?? '0x',
      output: f.output ?? '0x',
    });
    for (const c of f.calls ?? []) if (!c.error) walk(c, idx);
  };
  if (!root.error) walk(root, -1);
  return rows;
}

/** The txs table's row (clickhouse/migrations/001). */
interface TxInsertRow extends TxKeysRow {
  sequence: number;
  height: number;
  tx_index: number;
  hash: string;
  code: number;
  signer: string;
  time: string;
}

export function batchRows(batch: readonly BlockBatchItem[]) {
  const rows = {
    blocks: [] as BlockInsertRow[],
    txs: [] as TxInsertRow[],
    evm_logs: [] as object[],
    evm_txs: [] as object[],
    evm_internal_txs: [] as object[],
    nft_events: [] as (NftEventFact & { height: number; sequence: number; time: string })[],
    nft_collection_events: [] as object[],
    evm_contracts: [] as object[],
    ingest_errors: [] as object[],
    nft_holdings: [] as object[],
    nft_token_txs: [] as { collection: string; token_id: string; sequence: number; height: number }[],
    tx_documents: [] as TxDocumentInsertRow[],
  };
  for (const { facts: b, blockTimeMs, receipts, traces } of batch) {
    const time = b.time.clickhouse;
    rows.blocks.push({
      height: b.height,
      hash: b.hash,
      chain_id: b.chainId,
      time,
      block_time_ms: blockTimeMs,
      proposer: b.proposer,
      gas_used: b.gasUsed.toString(),
      gas_wanted: b.gasWanted.toString(),
      tx_count: b.txCount,
      total_fee: JSON.stringify(b.totalFee),
    });
    for (const t of b.txs) {
      rows.txs.push({
        sequence: t.sequence,
        height: b.height,
        tx_index: t.sequence % SEQUENCE_STRIDE,
        hash: t.hash,
        code: t.code,
        signer: t.signer,
        msg_types: t.msgTypes,
        accounts: t.accounts,
        time,
      });
      rows.tx_documents.push({ sequence: t.sequence, height: b.height, json: t.json });
      t.logs.forEach((l, i) => {
        rows.evm_logs.push({
          height: b.height,
          sequence: t.sequence,
          log_index: i,
          address: l.address,
          topic0: l.topics[0] ?? '',
          topic1: l.topics[1] ?? '',
          topic2: l.topics[2] ?? '',
          topic3: l.topics[3] ?? '',
          topics: l.topics.length,
          data: l.data,
        });
      });
      for (const e of t.nft.events) rows.nft_events.push({ ...e, height: b.height, sequence: t.sequence, time });
      for (const o of t.nft.openings ?? [])
        rows.nft_holdings.push({
          owner: o.owner,
          collection: o.collection,
          token_id: o.token_id,
          delta: 1,
          height: b.height,
          sequence: t.sequence,
        });
      for (const x of t.nft.touches ?? [])
        rows.nft_token_txs.push({
          collection: x.collection,
          token_id: x.token_id,
          sequence: t.sequence,
          height: b.height,
        });
      for (const address of t.nft.contracts ?? [])
        rows.evm_contracts.push({ address, height: b.height, sequence: t.sequence, time });
      for (const c of t.nft.collections) {
        const { lookup: _lookup, ...fact } = c;
        rows.nft_collection_events.push({ ...fact, height: b.height, sequence: t.sequence, time });
      }
    }
    for (const e of b.errors) rows.ingest_errors.push({ height: b.height, ...e });
    for (const r of receipts ?? []) {
      // Kept whole: /indexer/tx/v1/evm-txs serves the receipt as the node returned it, logs and bloom included
      // (evm_logs rows are keyed to the Cosmos tx, not to the receipt).
      rows.evm_txs.push({
        height: b.height,
        tx_index: Number(BigInt(r.transactionIndex)),
        hash: r.transactionHash.toLowerCase(),
        sender: (r.from ?? '').toLowerCase(),
        receipt: JSON.stringify(r),
      });
    }
    for (const t of traces ?? [])
      if (t.result) rows.evm_internal_txs.push(...flattenCalls(b.height, t.txHash.toLowerCase(), t.result));
  }
  return rows;
}
