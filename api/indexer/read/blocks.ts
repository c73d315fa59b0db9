// Blocks (the /indexer/block/v1 family). A block at or below the tip is final; a descending page after a cursor at
// or below the tip + 1 holds only final blocks; any other page is final for one tip (kept under it). A list's
// total is the tip itself (no count).
import type { Store } from '../../../clickhouse/client.js';
import { blockByHeight, type BlockRow, latestBlockTimes, listBlocks } from '../../../clickhouse/queries/blocks.js';
import type { Served } from '../../http/edge.js';
import { type PageRequest, type PaginationObject, pageResult } from './page.js';
import { type KeyedCache, keys } from './cache.js';
import { windowOf } from './page.js';

/** avg_blocktime averages the intervals of this many latest blocks. */
const AVG_WINDOW = 100;

export interface BlockReads {
  page(page: PageRequest, served: Served): Promise<{ rows: BlockRow[]; pagination: PaginationObject }>;
  /** A block at or below the tip; undefined above it or when not found. */
  at(height: number, served: Served): Promise<BlockRow | undefined>;
  /** The times (ns) of the latest blocks, newest first. */
  latestTimes(served: Served): Promise<string[]>;
}

export function blockReads(d: { store: Store; tip(): Promise<number>; final: KeyedCache<unknown> }): BlockReads {
  return {
    async page(page, served) {
      const tip = await d.tip();
      const cursor = page.cursor?.kind === 'height' ? page.cursor.height : null;
      const w = windowOf(page);
      const key =
        cursor !== null && page.reverse && cursor <= tip + 1
          ? keys.blocksAfter(w.limit, cursor)
          : keys.blocksAt(tip, w.desc, w.limit, w.offset, cursor);
      const rows =
        ((await d.final.through(
          key,
          (load) => {
            load.engine();
            return listBlocks(d.store, w, cursor, tip);
          },
          served,
        )) as BlockRow[] | undefined) ?? [];
      // total is the latest height regardless of count_total (§3.5)
      return pageResult(page, rows, String(tip), (b) => ({ kind: 'height', height: Number(b.height) }));
    },

    async at(height, served) {
      const tip = await d.tip();
      if (height > tip) return undefined;
      return (await d.final.through(
        keys.block(height),
        (load) => {
          load.engine();
          return blockByHeight(d.store, height, tip);
        },
        served,
      )) as BlockRow | undefined;
    },

    async latestTimes(served) {
      const tip = await d.tip();
      const times = await d.final.through(
        keys.blockTimes(tip),
        (load) => {
          load.engine();
          return latestBlockTimes(d.store, AVG_WINDOW, tip);
        },
        served,
      );
      return (times as string[] | undefined) ?? [];
    },
  };
}
