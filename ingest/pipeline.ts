// The ingest loop: resume after the last complete height, fetch blocks concurrently, decode, enrich, write in
// ordered batches (the next batch is fetched while the current one is written), follow the head once caught up.
// Failure policy (documented in docs/ingest.md): transient RPC errors are retried forever with backoff; a tx
// that cannot be decoded is stored in ingest_errors and skipped; a block that still cannot be decoded after
// retries stops the pipeline loudly (IngestFatalError) rather than leaving a silent hole.
import type { Store } from '../clickhouse/client.js';
import { blockTimeMs } from '../chain/block-time.js';
import type { Logger } from '../platform/log.js';
import { metrics } from '../platform/metrics.js';
import { decodeBlock, type BlockFacts } from './decode/block.js';
import type { Vm } from './decode/nft.js';
import { createEnricher } from './enrich.js';
import { createBackfillReporter } from './progress.js';
import { buildRichListSnapshot } from '../clickhouse/richlist-snapshots.js';
import { latestSnapshot } from '../clickhouse/queries/richlist.js';
import { seedBalances, seedHeightFor } from './balance-seed.js';
import type { ChainSource, FetchedBlock } from './source.js';
import { MalformedResponseError, withRetry } from '../chain/retry.js';
import { blockTimeNs, lastCheckpoint, recover, rewindTo } from '../clickhouse/chain-facts.js';
import { writeBatch, type BlockBatchItem } from './writer.js';

export interface IngestOptions {
  store: Store;
  source: ChainSource;
  vm: Vm;
  log: Logger;
  prefix?: string;
  startHeight?: number;
  fetchConcurrency?: number;
  batchBlocks?: number;
  pollIntervalMs?: number;
  /** Minimum time between rich-list snapshots while backfilling (a snapshot is always built when caught up). */
  richListIntervalMs?: number;
  /** Stop once this height is indexed (backfills, tests, benchmarks). */
  stopAtHeight?: number;
  /**
   * EVM: seed the rich list with the chain's bank balances at the height before the first indexed block
   * (on by default; ingest/balance-seed.ts).
   */
  seedBalances?: boolean;
  /** Look up NFT names/URIs over RPC (on by default). */
  enrich?: boolean;
  /** Called after each table's inserts of a batch (fault injection for the crash test; see writer.writeBatch). */
  afterInsert?: (table: string) => void;
  /** Called once a batch's checkpoint or a rich-list snapshot is written (the API's status feed in this process). */
  onIndexed?: (height: number) => void;
}

type Fetched = Pick<FetchedBlock, 'height' | 'receipts' | 'traces'>;

/** Target txs per write batch: batches are sized in blocks from the recent txs/block, so memory stays bounded. */
const TARGET_BATCH_TXS = 4000;

export class IngestFatalError extends Error {
  override name = 'IngestFatalError';
}

export interface Ingest {
  /** Runs until stop() or stopAtHeight; rejects with IngestFatalError on an undecodable block. */
  run(): Promise<void>;
  stop(): Promise<void>;
  indexedHeight(): number;
  /**
   * Re-ingest from `from`: the index is rewound to from-1 (crash-safe, see writer.rewindTo) and rewritten by
   * the normal loop up to max(previous checkpoint, to). Needs a stopped ingest.
   */
  reingest(from: number, to: number): Promise<void>;
}

export function createIngest(opts: IngestOptions): Ingest {
  const { store, source, vm, log } = opts;
  const prefix = opts.prefix ?? 'init';
  const concurrency = opts.fetchConcurrency ?? 16;
  const batchBlocks = opts.batchBlocks ?? 200;
  const pollMs = opts.pollIntervalMs ?? 500;
  const richListEvery = opts.richListIntervalMs ?? 10_000;
  const newEnricher = () => (opts.enrich === false ? null : createEnricher(vm, store, source, log, prefix));
  const enricher = newEnricher();
  let stopped = false;
  let indexed = 0;
  let prevTimeNanos: bigint | null = null;
  let lastRichList = 0;
  let richListDirty = false;
  let wake: (() => void) | null = null;
  let avgTxsPerBlock = 0;
  const blocksPerBatch = () =>
    Math.max(1, Math.min(batchBlocks, avgTxsPerBlock > 0 ? Math.floor(TARGET_BATCH_TXS / avgTxsPerBlock) : 10));
  let running: Promise<void> | null = null;
  let active = false;

  const sleep = (ms: number) =>
    new Promise<void>((r) => {
      const t = setTimeout(r, ms);
      wake = () => {
        clearTimeout(t);
        r();
      };
    });

  async function fetchOne(height: number): Promise<{ fetched: Fetched; facts: BlockFacts }> {
    let decodeFailures = 0;
    for (;;) {
      const fetched = await withRetry(() => source.fetchBlock(height), {
        baseMs: 100,
        isStopped: () => stopped,
        onRetry: (err, attempt) => {
          metrics.ingestErrors.inc({ kind: 'rpc' });
          if (attempt % 5 === 1) log.warn('ingest.retry', { height, attempt, error: err.message });
        },
      }).catch((e: Error) => {
        if (e instanceof MalformedResponseError)
          throw new IngestFatalError(
            `block ${height} cannot be decoded: the node keeps answering malformed data (${e.message})`,
          );
        throw e;
      });
      try {
        const facts = decodeBlock(vm, fetched.block, fetched.results, fetched.restTxs, prefix);
        // Keep only what the writer still needs: the raw block JSON is the largest thing in memory.
        return { fetched: { height, receipts: fetched.receipts, traces: fetched.traces }, facts };
      } catch (e) {
        metrics.ingestErrors.inc({ kind: 'block_decode' });
        if (++decodeFailures >= 5 || stopped)
          throw new IngestFatalError(`block ${height} cannot be decoded: ${(e as Error).message}`);
        log.warn('ingest.block_decode_retry', { height, attempt: decodeFailures, error: (e as Error).message });
        await new Promise((r) => setTimeout(r, 500 * decodeFailures));
      }
    }
  }

  async function fetchRange(from: number, to: number) {
    const out: { fetched: Fetched; facts: BlockFacts }[] = new Array(to - from + 1);
    let nextIdx = 0;
    const worker = async () => {
      while (nextIdx < out.length) {
        const i = nextIdx++;
        out[i] = await fetchOne(from + i);
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, out.length) }, worker));
    return out;
  }

  async function previousBlockTime(height: number): Promise<bigint | null> {
    if (height < 1) return null;
    return blockTimeNs(store, height);
  }

  async function write(range: { fetched: Fetched; facts: BlockFacts }[]) {
    const facts = range.map((r) => r.facts);
    const t0 = Date.now();
    if (enricher) await enricher.enrich(facts);
    const t1 = Date.now();
    const batch: BlockBatchItem[] = range.map(({ fetched, facts: f }) => {
      const ms = blockTimeMs(f.time.nanos, prevTimeNanos);
      prevTimeNanos = f.time.nanos;
      return { facts: f, blockTimeMs: ms, receipts: fetched.receipts, traces: fetched.traces };
    });
    for (const f of facts)
      for (const e of f.errors)
        log.error('ingest.tx_decode_error', { height: f.height, tx_index: e.tx_index, error: e.message });
    await writeBatch(store, batch, { afterInsert: opts.afterInsert });
    const t2 = Date.now();
    const txs = facts.reduce((n, f) => n + f.txCount, 0);
    avgTxsPerBlock = avgTxsPerBlock === 0 ? txs / facts.length : 0.7 * avgTxsPerBlock + 0.3 * (txs / facts.length);
    log.debug('ingest.batch_written', {
      from: facts[0]!.height,
      to: facts[facts.length - 1]!.height,
      txs,
      enrich_ms: t1 - t0,
      write_ms: t2 - t1,
    });
    metrics.ingestBlocks.inc(facts.length);
    metrics.ingestTxs.inc(txs);
    indexed = facts[facts.length - 1]!.height;
    metrics.ingestHeight.set(indexed);
    opts.onIndexed?.(indexed);
    if (vm === 'evm' && facts.some((f) => f.txs.some((t) => t.logs.length > 0))) richListDirty = true;
    return { txs, events: facts.reduce((n, f) => n + f.txs.reduce((m, t) => m + t.eventCount, 0), 0) };
  }

  let lastBuildMs = 0;
  async function maybeRichList(caughtUp: boolean, force = false) {
    if (vm !== 'evm' || !richListDirty) return;
    // A build re-ranks every holder: while backfilling wait RICHLIST_INTERVAL_MS; at the head wait at least
    // 5× the last build time, so snapshots never take more than ~1/6 of the ingest's time.
    const wait = caughtUp ? 5 * lastBuildMs : Math.max(richListEvery, 5 * lastBuildMs);
    if (!force && Date.now() - lastRichList < wait) return;
    const t0 = Date.now();
    const { holders } = await buildRichListSnapshot(store, indexed);
    richListDirty = false;
    lastRichList = Date.now();
    lastBuildMs = lastRichList - t0;
    log.info('ingest.richlist_snapshot', { height: indexed, holders, ms: lastRichList - t0 });
    opts.onIndexed?.(indexed);
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
    const { checkpoint, deleted } = await recover(store);
    if (deleted > 0) log.warn('ingest.recovered', { checkpoint, deleted_rows: deleted });
    indexed = checkpoint;
    // A crash between the last checkpoint and its snapshot leaves the rich list behind: catch up.
    if (vm === 'evm' && checkpoint > 0 && (await latestSnapshot(store)) < checkpoint) richListDirty = true;
    let next = Math.max(checkpoint + 1, opts.startHeight ?? 1);
    // Nothing indexed yet: open the rich list with the chain's balances before the first block (genesis
    // allocations, history before START_HEIGHT). Re-run after a crash before the first checkpoint.
    if (vm === 'evm' && checkpoint === 0 && opts.seedBalances !== false) {
      const at = seedHeightFor(next);
      try {
        const r = await seedBalances(store, source, at, log, prefix);
        log.info('ingest.balance_seed', { height: r.height, accounts: r.accounts, balances: r.rows });
        richListDirty = true;
      } catch (e) {
        // A node that does not serve the auth/bank state at that height (pruned, or a bare RPC proxy):
        // the rich list then holds the in-range deltas only, which this line says loudly.
        log.error('ingest.balance_seed_failed', { height: at, error: (e as Error).message.slice(0, 300) });
      }
    }
    prevTimeNanos = await previousBlockTime(next - 1);
    log.info('ingest.start', { from: next, checkpoint });
    const progress = createBackfillReporter(log);
    type Pending = { from: number; to: number; p: Promise<{ fetched: Fetched; facts: BlockFacts }[]> };
    let prefetch: Pending | null = null;
    let head = 0;
    try {
      while (!stopped) {
        if (opts.stopAtHeight !== undefined && indexed >= opts.stopAtHeight) break;
        if (next > head) head = await withRetry(() => source.latestHeight(), { isStopped: () => stopped });
        if (opts.stopAtHeight !== undefined) head = Math.min(head, opts.stopAtHeight);
        if (next > head) {
          await maybeRichList(true);
          await sleep(pollMs);
          continue;
        }
        const to = Math.min(head, next + blocksPerBatch() - 1);
        const current: Pending =
          prefetch && prefetch.from === next ? prefetch : { from: next, to, p: fetchRange(next, to) };
        const tw = Date.now();
        const range = await current.p;
        log.debug('ingest.fetch_wait', { from: current.from, to: current.to, ms: Date.now() - tw });
        const after: number = current.to + 1;
        const afterTo = Math.min(head, after + blocksPerBatch() - 1);
        prefetch = after <= head ? { from: after, to: afterTo, p: fetchRange(after, afterTo) } : null;
        prefetch?.p.catch(() => undefined); // surfaced when awaited
        const { txs, events } = await write(range);
        progress.add(range.length, txs, events, indexed, head);
        next = current.to + 1;
        await maybeRichList(next > head);
      }
      await maybeRichList(true, true);
    } finally {
      progress.done();
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
      const target = Math.max(await lastCheckpoint(store), to);
      await rewindTo(store, from - 1);
      // Rewritten by the normal (crash-safe) loop up to where the index was before.
      const again = createIngest({ ...opts, stopAtHeight: target });
      await again.run();
      indexed = again.indexedHeight();
    },
  };
}
