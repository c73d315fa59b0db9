// The fetch and decode stages of the ingest: one block's CometBFT, REST and EVM answers (ingest/source.ts) decoded
// into facts (ingest/decode/block.ts), and a height range read with a bounded number of blocks in flight.
// Failure policy (docs/ingest.md): transient RPC errors are retried forever with backoff; a block that still cannot
// be decoded after retries, or a node that keeps answering malformed data, is an IngestFatalError.
import { MalformedResponseError, withRetry } from '../chain/retry.js';
import type { Logger } from '../platform/log.js';
import { metrics } from '../platform/metrics.js';
import { type BlockFacts, decodeBlock } from './decode/block.js';
import type { Vm } from './decode/nft.js';
import type { ChainSource, FetchedBlock } from './source.js';

export class IngestFatalError extends Error {
  override name = 'IngestFatalError';
}

/** A decoded block and what the rows stage still needs of its raw answers (the raw block JSON is dropped). */
export interface DecodedBlock {
  fetched: Pick<FetchedBlock, 'height' | 'receipts' | 'traces'>;
  facts: BlockFacts;
}

export interface BlockFetcher {
  /** Heights from..to, in order, at most `concurrency` fetched at once. */
  range(from: number, to: number): Promise<DecodedBlock[]>;
}

export function blockFetcher(opts: {
  source: ChainSource;
  vm: Vm;
  prefix: string;
  log: Logger;
  concurrency: number;
  isStopped: () => boolean;
}): BlockFetcher {
  const { source, vm, prefix, log } = opts;

  async function one(height: number): Promise<DecodedBlock> {
    let decodeFailures = 0;
    for (;;) {
      const fetched = await withRetry(() => source.fetchBlock(height), {
        baseMs: 100,
        isStopped: opts.isStopped,
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
        return { fetched: { height, receipts: fetched.receipts, traces: fetched.traces }, facts };
      } catch (e) {
        metrics.ingestErrors.inc({ kind: 'block_decode' });
        if (++decodeFailures >= 5 || opts.isStopped())
          throw new IngestFatalError(`block ${height} cannot be decoded: ${(e as Error).message}`);
        log.warn('ingest.block_decode_retry', { height, attempt: decodeFailures, error: (e as Error).message });
        await new Promise((r) => setTimeout(r, 500 * decodeFailures));
      }
    }
  }

  return {
    async range(from, to) {
      const out: DecodedBlock[] = new Array(to - from + 1);
      let nextIdx = 0;
      const worker = async () => {
        while (nextIdx < out.length) {
          const i = nextIdx++;
          out[i] = await one(from + i);
        }
      };
      await Promise.all(Array.from({ length: Math.min(opts.concurrency, out.length) }, worker));
      return out;
    },
  };
}
