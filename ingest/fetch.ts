// The fetch and decode stages of the ingest: blocks' CometBFT, REST and EVM answers (ingest/source.ts) decoded into
// facts (ingest/decode/block.ts), a height range at a time with a bounded number of reads in flight. With batches on
// (the default) a range is read as block metas first; an empty block is decoded from its meta alone, the heights with
// txs are read a few to a batch. Without batches (rpcBatch 1) every height is read on its own.
// Failure policy (docs/ingest.md): transient RPC errors are retried forever with backoff; a block that still cannot
// be decoded after retries, or a node that keeps answering malformed data, is an IngestFatalError.
import { MalformedResponseError, withRetry } from '../chain/retry.js';
import type { Logger } from '../platform/log.js';
import { metrics } from '../platform/metrics.js';
import { type BlockFacts, decodeBlock } from './decode/block.js';
import type { Vm } from './decode/nft.js';
import { type BlockMeta, type ChainSource, type FetchedBlock, METAS_PER_CALL } from './source.js';

export class IngestFatalError extends Error {
  override name = 'IngestFatalError';
}

/** A decoded block and what the rows stage still needs of its raw answers (the raw block JSON is dropped). */
export interface DecodedBlock {
  fetched: Pick<FetchedBlock, 'height' | 'receipts' | 'traces'>;
  facts: BlockFacts;
}

export interface BlockFetcher {
  /**
   * Heights from..to, in order, at most `concurrency` reads in flight. With batched reads the range may end early,
   * once its txs pass `maxTxs` (always at least one height): the caller continues after the last height returned.
   */
  range(from: number, to: number, maxTxs?: number): Promise<DecodedBlock[]>;
}

export function blockFetcher(opts: {
  source: ChainSource;
  vm: Vm;
  prefix: string;
  log: Logger;
  /** Reads in flight: heights without batches; with batches, a quarter as many batches (each up to ~7 requests). */
  concurrency: number;
  isStopped: () => boolean;
}): BlockFetcher {
  const { source, vm, prefix, log } = opts;

  const retryOpts = (height: number) => ({
    baseMs: 100,
    isStopped: opts.isStopped,
    onRetry: (err: Error, attempt: number) => {
      metrics.ingestErrors.inc({ kind: 'rpc' });
      if (attempt % 5 === 1) log.warn('ingest.retry', { height, attempt, error: err.message });
    },
  });

  /** A read retried while transient; a node that keeps answering malformed data is fatal. */
  function retrying<T>(read: () => Promise<T>, height: number): Promise<T> {
    return withRetry(read, retryOpts(height)).catch((e: Error) => {
      if (e instanceof MalformedResponseError)
        throw new IngestFatalError(
          `block ${height} cannot be decoded: the node keeps answering malformed data (${e.message})`,
        );
      throw e;
    });
  }

  /**
   * A batched read retried while transient; undefined when its answers stay malformed (3 tries), and the heights
   * it covered are then read alone, so a fatal error names the one height that cannot be read.
   */
  function batchRetrying<T>(read: () => Promise<T>, height: number): Promise<T | undefined> {
    return withRetry(read, { ...retryOpts(height), malformedAttempts: 3 }).catch((e: Error) => {
      if (!(e instanceof MalformedResponseError)) throw e;
      log.warn('ingest.batch_degraded', { height, error: e.message });
      return undefined;
    });
  }

  const decode = (f: FetchedBlock): DecodedBlock => {
    const facts = decodeBlock(vm, f.block, f.results, f.restTxs, prefix);
    // A node (or a proxy before it) answering another height than the one asked for would store that block here and
    // leave a hole: it is read again, and past the retries the ingest stops naming the height.
    if (facts.height !== f.height)
      throw new Error(`asked for block ${f.height}, the node answered block ${facts.height}`);
    return { fetched: { height: f.height, receipts: f.receipts, traces: f.traces }, facts };
  };

  /** One height read and decoded on its own; a block that fails to decode is read again (5 tries). */
  async function one(height: number): Promise<DecodedBlock> {
    let decodeFailures = 0;
    for (;;) {
      const fetched = await retrying(() => source.fetchBlock(height), height);
      try {
        return decode(fetched);
      } catch (e) {
        metrics.ingestErrors.inc({ kind: 'block_decode' });
        if (++decodeFailures >= 5 || opts.isStopped())
          throw new IngestFatalError(`block ${height} cannot be decoded: ${(e as Error).message}`);
        log.warn('ingest.block_decode_retry', { height, attempt: decodeFailures, error: (e as Error).message });
        await new Promise((r) => setTimeout(r, 500 * decodeFailures));
      }
    }
  }

  /** A block read in a batch, decoded; one that fails is handed to one() (read again alone, then fatal). */
  const decodeOrReread = (f: FetchedBlock): DecodedBlock | Promise<DecodedBlock> => {
    try {
      return decode(f);
    } catch {
      metrics.ingestErrors.inc({ kind: 'block_decode' });
      return one(f.height);
    }
  };

  /**
   * Heights from..to read in batches: first their metas (a pool of batches in flight), then the range is cut where
   * its txs pass `maxTxs` (a write batch's memory follows its txs, and a stretch of empty blocks can hide a burst of
   * full ones), then the heights with txs a group at a time. Returns from..(the cut), at least one height.
   */
  async function batched(from: number, to: number, maxTxs: number): Promise<DecodedBlock[]> {
    const pool = taskPool(Math.max(1, Math.ceil(opts.concurrency / 4)));
    const per = Math.max(1, Math.floor(source.rpcBatch() / 2));
    const span = METAS_PER_CALL * source.rpcBatch();
    const metas = new Map<number, BlockMeta>();
    // At the head a range is a height or two: one batch reads them whole, without a round trip for their metas.
    const readMetas = to - from + 1 > per;
    for (let a = from; readMetas && a <= to; a += span) {
      const b = Math.min(to, a + span - 1);
      pool.add(async () => {
        const got = await batchRetrying(() => source.blockMetas(a, b), a);
        for (const [h, m] of got ?? []) metas.set(h, m);
      });
    }
    await pool.done();
    // A height without a meta (a short range, above the node's head, pruned, or its batch degraded) takes the full
    // read, which says why; it counts as 100 txs.
    let end = from;
    for (let txs = metas.get(from)?.numTxs ?? 100; end < to; end++) {
      txs += metas.get(end + 1)?.numTxs ?? 100;
      if (txs > maxTxs) break;
    }
    const out: DecodedBlock[] = new Array(end - from + 1);
    const full: number[] = [];
    for (let h = from; h <= end; h++) {
      const m = metas.get(h);
      if (m && m.numTxs === 0) out[h - from] = await decodeOrReread(emptyBlock(m));
      else full.push(h);
    }
    for (const g of readGroups(full, metas, heightsPerGroup(source.rpcBatch())))
      pool.add(async () => {
        const fetched = await batchRetrying(() => source.fetchBlocks(g), g[0]!);
        if (fetched) for (const f of fetched) out[f.height - from] = await decodeOrReread(f);
        else for (const h of g) out[h - from] = await one(h);
      });
    await pool.done();
    return out;
  }

  return {
    async range(from, to, maxTxs = Number.POSITIVE_INFINITY) {
      if (source.rpcBatch() > 1) return batched(from, to, maxTxs);
      const out: DecodedBlock[] = new Array(to - from + 1);
      const pool = taskPool(opts.concurrency);
      for (let h = from; h <= to; h++)
        pool.add(async () => {
          out[h - from] = await one(h);
        });
      await pool.done();
      return out;
    },
  };
}

/** An empty block as `block` and `block_results` would have answered it, from its meta. */
function emptyBlock(m: BlockMeta): FetchedBlock {
  return {
    height: m.height,
    block: { block_id: m.block_id, block: { header: m.header, data: { txs: [] } } },
    results: { height: String(m.height), txs_results: [] },
    restTxs: [],
  };
}

/**
 * Heights with txs read as one group: GROUP_BATCHES CometBFT batches of their `block` + `block_results` (two calls a
 * height), posted at once, one EVM batch of their receipts and their REST txs by ranged queries (a page of 100 txs
 * each). Larger groups mean fewer requests a block on a sparse chain, where each height has few txs; a dense chain's
 * groups are cut at about 500 txs first. Five batches (25 heights at the default 10 calls a batch) read a 1-tx-a-block
 * chain 10-19 % faster than one batch a group (decision 017); ten were no faster.
 */
export const GROUP_BATCHES = 5;
export const heightsPerGroup = (rpcBatch: number): number => Math.max(1, Math.floor(rpcBatch / 2)) * GROUP_BATCHES;

/** Heights to read together: at most `per` heights and about 500 txs a group (a height without a meta counts 100). */
export function readGroups(
  heights: readonly number[],
  metas: ReadonlyMap<number, Pick<BlockMeta, 'numTxs'>>,
  per: number,
): number[][] {
  const out: number[][] = [];
  let g: number[] = [];
  let txs = 0;
  for (const h of heights) {
    const n = metas.get(h)?.numTxs ?? 100;
    if (g.length > 0 && (g.length >= per || txs + n > 500)) {
      out.push(g);
      g = [];
      txs = 0;
    }
    g.push(h);
    txs += n;
  }
  if (g.length) out.push(g);
  return out;
}

/**
 * Tasks run at most `limit` at a time; a task may add more. done() settles once every task has ended: rejected with
 * the first failure (the tasks already running are still awaited, so nothing is left in flight).
 */
function taskPool(limit: number) {
  const queue: (() => Promise<void>)[] = [];
  let active = 0;
  let failure: { error: unknown } | undefined;
  let settle: (() => void) | undefined;
  const pump = () => {
    while (active < limit && queue.length > 0 && !failure) {
      const task = queue.shift()!;
      active++;
      task().then(
        () => {
          active--;
          pump();
        },
        (error: unknown) => {
          active--;
          failure ??= { error };
          pump();
        },
      );
    }
    if (active === 0 && (queue.length === 0 || failure)) settle?.();
  };
  return {
    add(task: () => Promise<void>) {
      queue.push(task);
      pump();
    },
    done: () =>
      new Promise<void>((resolve, reject) => {
        settle = () => (failure ? reject(failure.error) : resolve());
        pump();
      }),
  };
}
