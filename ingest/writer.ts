// Writes decoded blocks into the raw tables in height order, then records the checkpoint. Inserts into
// several tables are not atomic together, so a crash can leave rows above the checkpoint: `recover()` deletes
// exactly those before the ingest resumes, and `deleteRange()` does the same before any height is re-ingested.
// Together they make re-ingest and kill/restart leave exactly the same data.
import type { Store } from '../clickhouse/client.js';
import { markStatsDirty, rebuildDirtyStats } from '../clickhouse/stats.js';
import type { BlockFacts } from './decode/block.js';
import { SEQUENCE_STRIDE } from './decode/tx.js';
import type { CallFrame, EvmReceipt } from './source.js';

/** Every table holding rows of a height (facts and the lookup tables the views derive from them). */
export const HEIGHT_TABLES = [
  'blocks',
  'txs',
  'evm_logs',
  'evm_txs',
  'evm_internal_txs',
  'nft_events',
  'nft_collection_events',
  'ingest_errors',
  'tx_hashes',
  'account_txs',
  'msg_type_txs',
  'nft_holdings',
  'nft_token_txs',
  'balance_deltas',
  'nft_objects',
  'tx_docs',
] as const;

export interface BlockBatchItem {
  facts: BlockFacts;
  blockTimeMs: number;
  receipts?: EvmReceipt[];
  traces?: { txHash: string; result?: CallFrame; error?: string }[];
}

export async function lastCheckpoint(store: Store): Promise<number> {
  const [row] = await store.rows<{ h: string }>('SELECT max(height) AS h FROM ingest_checkpoints');
  return Number(row?.h ?? 0);
}

export async function deleteRange(store: Store, from: number, to: number): Promise<number> {
  // The analytics aggregates of the affected days are rebuilt from the facts that remain (clickhouse/stats.ts).
  await markStatsDirty(store, from, to);
  let deleted = 0;
  for (const table of HEIGHT_TABLES) {
    const [c] = await store.rows<{ c: string }>(
      `SELECT count() AS c FROM ${table} WHERE height BETWEEN {from:UInt64} AND {to:UInt64}`,
      { from, to },
    );
    if (Number(c?.c ?? 0) === 0) continue;
    deleted += Number(c!.c);
    await store.exec(`DELETE FROM ${table} WHERE height BETWEEN {from:UInt64} AND {to:UInt64}`, { from, to });
  }
  await rebuildDirtyStats(store);
  return deleted;
}

/**
 * Move the last complete height back to `height`: checkpoints above it are deleted first, so a crash at any
 * point afterwards is handled by recover(), which then deletes the data above it. The normal ingest loop then
 * writes those heights again. This is how a range is re-ingested without ever leaving a hole.
 */
export async function rewindTo(store: Store, height: number): Promise<void> {
  await store.exec('DELETE FROM ingest_checkpoints WHERE height > {h:UInt64}', { h: height });
  if (height > 0 && (await lastCheckpoint(store)) < height) await store.insert('ingest_checkpoints', [{ height }]);
  await recover(store);
}

/** Remove rows a crash left above the last complete height. Returns that height. */
export async function recover(store: Store): Promise<{ checkpoint: number; deleted: number }> {
  const checkpoint = await lastCheckpoint(store);
  const deleted = await deleteRange(store, checkpoint + 1, Number.MAX_SAFE_INTEGER);
  return { checkpoint, deleted };
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

export function batchRows(batch: readonly BlockBatchItem[]) {
  const rows = {
    blocks: [] as object[],
    txs: [] as object[],
    evm_logs: [] as object[],
    evm_txs: [] as object[],
    evm_internal_txs: [] as object[],
    nft_events: [] as object[],
    nft_collection_events: [] as object[],
    ingest_errors: [] as object[],
    nft_holdings: [] as object[],
    tx_docs: [] as object[],
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
      rows.tx_docs.push({ sequence: t.sequence, height: b.height, json: t.json });
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
      for (const c of t.nft.collections) {
        const { lookup: _lookup, ...fact } = c;
        rows.nft_collection_events.push({ ...fact, height: b.height, sequence: t.sequence, time });
      }
    }
    for (const e of b.errors) rows.ingest_errors.push({ height: b.height, ...e });
    for (const r of receipts ?? []) {
      // The logs are already rows of evm_logs and the bloom is derivable from them: keep the rest of the receipt.
      const { logs: _logs, logsBloom: _bloom, ...rest } = r;
      rows.evm_txs.push({
        height: b.height,
        tx_index: Number(BigInt(r.transactionIndex)),
        hash: r.transactionHash.toLowerCase(),
        sender: (r.from ?? '').toLowerCase(),
        receipt: JSON.stringify(rest),
      });
    }
    for (const t of traces ?? [])
      if (t.result) rows.evm_internal_txs.push(...flattenCalls(b.height, t.txHash.toLowerCase(), t.result));
  }
  return rows;
}

// Fault injection for the crash/restart test only: INGEST_CRASH_AFTER=<table>:<n> kills the process (SIGKILL,
// no cleanup) right after the n-th insert into <table>, i.e. in the middle of a batch.
const crashSpec = process.env.INGEST_CRASH_AFTER?.split(':');
let crashCount = 0;
function crashHook(table: string) {
  if (crashSpec && crashSpec[0] === table && ++crashCount === Number(crashSpec[1] ?? 1))
    process.kill(process.pid, 'SIGKILL');
}

// Views of one insert run in parallel; Replacing targets skip the merge-on-insert pass (readers never rely on it).
// For the cluster DDL: no insert dedup (a block re-inserted after recovery deleted it must land again) and
// synchronous Distributed inserts (a checkpoint must never be visible before its facts).
const INSERT_SETTINGS = {
  parallel_view_processing: 1,
  optimize_on_insert: 0,
  insert_deduplicate: 0,
  distributed_foreground_insert: 1,
};

/** Write one ordered batch and then its checkpoint (the batch's last height). */
export async function writeBatch(store: Store, batch: readonly BlockBatchItem[]): Promise<void> {
  if (batch.length === 0) return;
  const rows = batchRows(batch);
  // Parents before children of the derived views; txs last among facts so a tx is never visible without its block.
  for (const table of [
    'blocks',
    'evm_logs',
    'evm_txs',
    'evm_internal_txs',
    'nft_events',
    'nft_holdings',
    'nft_collection_events',
    'ingest_errors',
    'tx_docs',
    'txs',
  ] as const) {
    // chDB inlines an insert's whole body into one statement: keep each statement small to bound memory.
    const chunk = table === 'tx_docs' || table === 'evm_txs' ? 2000 : 20_000;
    for (let i = 0; i < rows[table].length; i += chunk)
      await store.insert(table, rows[table].slice(i, i + chunk), INSERT_SETTINGS);
    crashHook(table);
  }
  await store.insert('ingest_checkpoints', [{ height: batch[batch.length - 1]!.facts.height }]);
}
