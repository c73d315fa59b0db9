// The source's floor: the ingest's reads of a height range (block metas, then the heights with txs a batch at a
// time, with the same reads in flight), with no decode and no write. Our backfill rate is judged against it: what
// the node (or chain-sim) can serve to this reader is the most any ingest could reach.
import { heightsPerGroup, readGroups } from '../ingest/fetch.js';
import { type ChainSource, METAS_PER_CALL } from '../ingest/source.js';

/** Reads heights from..to as the batched ingest does; returns blocks per second. */
export async function readFloor(source: ChainSource, from: number, to: number, concurrency: number): Promise<number> {
  // The ingest keeps a pool of concurrency / 4 meta batches and one of `concurrency` groups of heights with txs
  // (ingest/fetch.ts): that many workers, each with its share of the groups, keep the same reads in flight.
  const inFlight = Math.max(1, Math.ceil(concurrency / 4));
  const groupsPerWorker = Math.max(1, Math.ceil(concurrency / inFlight));
  const per = heightsPerGroup(source.rpcBatch());
  const span = METAS_PER_CALL * source.rpcBatch();
  const t0 = process.hrtime.bigint();
  let next = from;
  const worker = async () => {
    while (next <= to) {
      const a = next;
      const b = Math.min(to, a + span - 1);
      next = b + 1;
      const metas = await source.blockMetas(a, b);
      const full = [...metas.values()]
        .filter((m) => m.numTxs > 0)
        .map((m) => m.height)
        .sort((x, y) => x - y);
      const groups = readGroups(full, metas, per);
      for (let i = 0; i < groups.length; i += groupsPerWorker)
        await Promise.all(groups.slice(i, i + groupsPerWorker).map((g) => source.fetchBlocks(g)));
    }
  };
  // One worker alone read an empty chain's metas at a quarter of the ingest's reads in flight.
  await Promise.all(Array.from({ length: inFlight }, () => worker()));
  return (to - from + 1) / (Number(process.hrtime.bigint() - t0) / 1e9);
}
