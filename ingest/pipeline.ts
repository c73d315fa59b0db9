// The ingest loop: resume after the last complete height, then per ordered batch the stages fetch and decode
// (ingest/fetch.ts; the next batch is fetched while the current one is written), enrich (ingest/enrich.ts), rows
// (ingest/rows.ts) and the facts store's insert and checkpoint (clickhouse/facts-store.ts); follow the head once
// caught up. Rich-list snapshots are scheduled by ingest/richlist-schedule.ts, opened by ingest/balance-seed.ts.
// Failure policy (docs/ingest.md): a tx that cannot be decoded is stored in ingest_errors and skipped; a block that
// cannot be decoded stops the ingest loudly (IngestFatalError, ingest/fetch.ts) rather than leaving a silent hole.
import { withRetry } from '../chain/retry.js';
import type { Store } from '../clickhouse/client.js';
import {
  type CommittedItems,
  committedItems,
  type HandedLists,
  NO_HANDED_LISTS,
} from '../clickhouse/committed-items.js';
import { factsStore } from '../clickhouse/facts-store.js';
import type { Logger } from '../platform/log.js';
import { metrics } from '../platform/metrics.js';
import { openRichList } from './balance-seed.js';
import type { Vm } from './decode/nft.js';
import { blockTimeMs } from './decode/block.js';
import { createEnricher } from './enrich.js';
import { blockFetcher, type DecodedBlock, IngestFatalError } from './fetch.js';
import { type MergePaceThresholds, mergePacer } from './merge-pace.js';
import { createBackfillReporter } from './progress.js';
import { richListSchedule } from './richlist-schedule.js';
import { batchRows, type BlockBatchItem } from './rows.js';
import { type ChainSource, type ChainSourceOptions, createChainSource } from './source.js';

export interface IngestOptions {
  store: Store;
  /** When a backfill merges at the bulk pace (ingest/merge-pace.ts); tests lower them. */
  mergePaceThresholds?: MergePaceThresholds;
  source: ChainSource;
  vm: Vm;
  log: Logger;
  prefix?: string;
  startHeight?: number;
  fetchConcurrency?: number;
  /** Most blocks in one write batch (fewer on dense chains: TARGET_BATCH_TXS). */
  batchBlocks?: number;
  pollIntervalMs?: number;
  /** Minimum time between rich-list snapshots while backfilling (and the cap of richListHeadIntervalMs). */
  richListIntervalMs?: number;
  /** Minimum time between rich-list snapshots once caught up (capped at richListIntervalMs; default 2 s). */
  richListHeadIntervalMs?: number;
  /** Stop once this height is indexed (backfills, tests, benchmarks). */
  stopAtHeight?: number;
  /**
   * EVM: seed the rich list with the chain's bank balances at the height before the first indexed block
   * (on by default; ingest/balance-seed.ts).
   */
  seedBalances?: boolean;
  /**
   * Draw a live progress line on stderr (by default when stderr is a terminal; a worker thread's stderr is not,
   * so its host says whether its own is).
   */
  statusLine?: boolean;
  /** Look up NFT names/URIs over RPC (on by default). */
  enrich?: boolean;
  /** Called after each table's inserts of a batch (fault injection for the crash test; FactsStore.insertBatch). */
  afterInsert?: (table: string) => void;
  /** Called once a batch's checkpoint or a rich-list snapshot is written (the API's status feed in this process). */
  onIndexed?: (height: number) => void;
  /**
   * Called with a batch's height once its checkpoint is written: every row at or below it is committed (the event
   * streams of the API in this process advance on it without reading the checkpoint back).
   */
  onCommitted?: (height: number, items?: CommittedItems) => void;
  /**
   * Which lists' items `onCommitted` carries (the lists with a live stream in this process), asked once a batch;
   * none when absent. Building them costs the ingest little, handing them across threads more: only what is asked.
   */
  handedLists?: () => HandedLists;
}

/** The ingest as the main job configures it: plain data, so it can be cloned into the ingest's thread. */
export interface IngestSettings {
  source: ChainSourceOptions;
  /** IngestOptions without the store, source, logger and hooks, which `ingestFromSettings` makes or takes. */
  ingest: Omit<IngestOptions, 'store' | 'source' | 'log' | 'afterInsert' | 'onIndexed' | 'onCommitted' | 'handedLists'>;
  /** The crash test's hook (devnet/tools/ingest-crash-main.ts): SIGKILL after the n-th insert into `table`. */
  crashAfterInsert?: { table: string; n: number };
}

/** The main job's ingest over `store`, on whichever thread calls it (ingest/thread-main.ts or scripts/main.ts). */
export function ingestFromSettings(
  s: IngestSettings,
  store: Store,
  log: Logger,
  hooks: Pick<IngestOptions, 'onIndexed' | 'onCommitted' | 'handedLists'>,
): Ingest {
  return createIngest({
    ...s.ingest,
    store,
    source: createChainSource(s.source),
    log: log.child({ component: 'ingest' }),
    afterInsert: s.crashAfterInsert && killAfterInsert(s.crashAfterInsert),
    ...hooks,
  });
}

/** The crash test's `afterInsert`: SIGKILL the whole process, with no cleanup, right after the n-th insert into `table`. */
function killAfterInsert(at: { table: string; n: number }): (table: string) => void {
  let count = 0;
  return (table) => {
    if (table === at.table && ++count === at.n) process.kill(process.pid, 'SIGKILL');
  };
}

/**
 * Target size of a write batch, in txs: batches are sized in blocks from the recent txs/block, so memory stays
 * bounded. A block counts as BLOCK_WEIGHT of a tx (its one row against a tx's rows in five tables), so a stretch of
 * empty blocks is written 20,000 blocks to a batch instead of paying a statement per table every few blocks.
 */
const TARGET_BATCH_TXS = 4000;
const BLOCK_WEIGHT = 0.2;

export interface Ingest {
  /** Runs until stop() or stopAtHeight; rejects with IngestFatalError on an undecodable block. */
  run(): Promise<void>;
  stop(): Promise<void>;
  indexedHeight(): number;
  /**
   * Re-ingest from `from`: the index is rewound to from-1 (crash-safe, FactsStore.rewindTo) and rewritten by
   * the normal loop up to max(previous checkpoint, to). Needs a stopped ingest.
   */
  reingest(from: number, to: number): Promise<void>;
}

export function createIngest(opts: IngestOptions): Ingest {
  const { store, source, vm, log } = opts;
  const prefix = opts.prefix ?? 'init';
  const batchBlocks = opts.batchBlocks ?? 20_000;
  const pollMs = opts.pollIntervalMs ?? 500;
  const facts = factsStore(store);
  const enricher = opts.enrich === false ? null : createEnricher(vm, store, source, log, prefix);
  let stopped = false;
  let indexed = 0;
  let prevTimeNanos: bigint | null = null;
  let wake: (() => void) | null = null;
  let avgTxsPerBlock = 0;
  let written = 0;
  // The first batch is small: nothing is known of the chain's density yet.
  const blocksPerBatch = () =>
    Math.max(
      1,
      Math.min(batchBlocks, written === 0 ? 10 : Math.floor(TARGET_BATCH_TXS / (avgTxsPerBlock + BLOCK_WEIGHT))),
    );
  let running: Promise<void> | null = null;
  let active = false;
  const fetcher = blockFetcher({
    source,
    vm,
    prefix,
    log,
    concurrency: opts.fetchConcurrency ?? 16,
    isStopped: () => stopped,
  });
  const richList = richListSchedule({
    store,
    enabled: vm === 'evm',
    intervalMs: opts.richListIntervalMs ?? 10_000,
    headIntervalMs: opts.richListHeadIntervalMs ?? 2_000,
    log,
    onBuilt: (h) => opts.onIndexed?.(h),
  });

  const sleep = (ms: number) =>
    new Promise<void>((r) => {
      const t = setTimeout(r, ms);
      wake = () => {
        clearTimeout(t);
        r();
      };
    });

  async function write(range: DecodedBlock[]) {
    const blocks = range.map((r) => r.facts);
    const t0 = Date.now();
    if (enricher) await enricher.enrich(blocks);
    const t1 = Date.now();
    const batch: BlockBatchItem[] = range.map(({ fetched, facts: f }) => {
      const ms = blockTimeMs(f.time.nanos, prevTimeNanos);
      prevTimeNanos = f.time.nanos;
      return { facts: f, blockTimeMs: ms, receipts: fetched.receipts, traces: fetched.traces };
    });
    for (const f of blocks)
      for (const e of f.errors)
        log.error('ingest.tx_decode_error', { height: f.height, tx_index: e.tx_index, error: e.message });
    const last = blocks[blocks.length - 1]!.height;
    const rows = batchRows(batch);
    await facts.insertBatch(rows, last, opts.afterInsert);
    const t2 = Date.now();
    const txs = blocks.reduce((n, f) => n + f.txCount, 0);
    avgTxsPerBlock = written === 0 ? txs / blocks.length : 0.7 * avgTxsPerBlock + 0.3 * (txs / blocks.length);
    written += blocks.length;
    log.debug('ingest.batch_written', {
      from: blocks[0]!.height,
      to: last,
      txs,
      enrich_ms: t1 - t0,
      write_ms: t2 - t1,
    });
    metrics.ingestBlocks.inc(blocks.length);
    metrics.ingestTxs.inc(txs);
    indexed = last;
    metrics.ingestHeight.set(indexed);
    opts.onCommitted?.(indexed, committedItems(rows, blocks[0]!.height, last, opts.handedLists?.() ?? NO_HANDED_LISTS));
    opts.onIndexed?.(indexed);
    if (blocks.some((f) => f.txs.some((t) => t.logs.length > 0))) richList.markDirty();
    return { txs, events: blocks.reduce((n, f) => n + f.txs.reduce((m, t) => m + t.eventCount, 0), 0) };
  }

  async function loop() {
    active = true;
    try {
      await loopBody();
    } finally {
      active = false;
    }
  }

  async function loopBody() {
    const { checkpoint, deleted } = await facts.recover();
    if (deleted > 0) log.warn('ingest.recovered', { checkpoint, deleted_rows: deleted });
    const pacer = await mergePacer(facts, log, BLOCK_WEIGHT, opts.mergePaceThresholds);
    indexed = checkpoint;
    await richList.resume(checkpoint);
    // START_HEIGHT is where an empty store begins. Once a height is indexed the store goes on from it: a raised
    // START_HEIGHT would leave a hole (every height between, its txs and its balance changes) that nothing fills.
    let next = checkpoint > 0 ? checkpoint + 1 : (opts.startHeight ?? 1);
    if (checkpoint > 0 && (opts.startHeight ?? 1) > next)
      log.warn('ingest.start_height_ignored', { start_height: opts.startHeight, checkpoint, from: next });
    if (vm === 'evm' && checkpoint === 0 && opts.seedBalances !== false)
      if (await openRichList(store, source, next, log, prefix, { isStopped: () => stopped })) richList.markDirty();
    prevTimeNanos = next - 1 < 1 ? null : await facts.blockTimeNs(next - 1);
    log.info('ingest.start', { from: next, checkpoint });
    const progress = createBackfillReporter(log, opts.statusLine);
    type Pending = { from: number; p: Promise<DecodedBlock[]> };
    let prefetch: Pending | null = null;
    let head = 0;
    /** When the node's head was last logged as below what is indexed (at most once a minute). */
    let behindLoggedAt = 0;
    try {
      while (!stopped) {
        // Done at the stop height, or at once when the store starts above it (nothing to index).
        if (opts.stopAtHeight !== undefined && (indexed >= opts.stopAtHeight || next > opts.stopAtHeight)) break;
        const headFresh = next > head;
        if (headFresh) head = await withRetry(() => source.latestHeight(), { isStopped: () => stopped });
        if (opts.stopAtHeight !== undefined) head = Math.min(head, opts.stopAtHeight);
        // A node whose head is below what is indexed (a lagging node behind a failover, or another chain) is waited
        // for, never followed down: what is indexed stays. Said loudly, since the index then looks stalled.
        if (head < indexed && Date.now() - behindLoggedAt >= 60_000) {
          behindLoggedAt = Date.now();
          log.warn('ingest.node_behind', { node_head: head, indexed });
        }
        await pacer.update({
          blocksLeft: head - indexed,
          txsPerBlock: written === 0 ? null : avgTxsPerBlock,
          headFresh,
        });
        if (next > head) {
          await richList.maybeBuild(indexed, true);
          await sleep(pollMs);
          continue;
        }
        const to = Math.min(head, next + blocksPerBatch() - 1);
        const current: Pending =
          prefetch && prefetch.from === next ? prefetch : { from: next, p: fetcher.range(next, to, TARGET_BATCH_TXS) };
        const tw = Date.now();
        const range = await current.p;
        // The fetcher may end a range early (its txs passed the target): the next one starts after what came back.
        const after: number = range[range.length - 1]!.fetched.height + 1;
        log.debug('ingest.fetch_wait', { from: current.from, to: after - 1, ms: Date.now() - tw });
        const afterTo = Math.min(head, after + blocksPerBatch() - 1);
        prefetch = after <= head ? { from: after, p: fetcher.range(after, afterTo, TARGET_BATCH_TXS) } : null;
        prefetch?.p.catch(() => undefined); // surfaced when awaited
        const { txs, events } = await write(range);
        progress.add(range.length, txs, events, indexed, head);
        next = after;
        await richList.maybeBuild(indexed, next > head);
      }
      await richList.maybeBuild(indexed, true, true);
    } finally {
      progress.done();
      await pacer.finish();
    }
  }

  return {
    run() {
      running ??= loop().catch((e) => {
        if (e instanceof IngestFatalError) log.error('ingest.fatal', { error: e.message });
        throw e;
      });
      return running;
    },
    async stop() {
      stopped = true;
      wake?.();
      await running?.catch(() => undefined);
    },
    indexedHeight: () => indexed,
    async reingest(from, to) {
      if (active) throw new Error('reingest needs a stopped ingest');
      const target = Math.max(await facts.checkpoint(), to);
      await facts.rewindTo(from - 1);
      // Rewritten by the normal (crash-safe) loop up to where the index was before.
      const again = createIngest({ ...opts, stopAtHeight: target });
      await again.run();
      indexed = again.indexedHeight();
    },
  };
}
