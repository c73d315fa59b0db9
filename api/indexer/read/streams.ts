// The reads behind the indexer's event streams (api/indexer/streams.ts, api/http/stream-hub.ts): a list in
// ascending order, strictly after a position and at or below a given tip. They are the REST lists' own statements
// (clickhouse/queries/txs.ts `pickTxDocs`, clickhouse/queries/blocks.ts `listBlocks`) with the direction set to
// ascending and the bound set to the stream's tip instead of the current one, so a stream's items are exactly the
// REST list's items, and its ids their cursors. One exception: an NFT's txs while it is burned, which REST hides
// until it is minted again, and a stream sends as they come.
import type { Store } from '../../../clickhouse/client.js';
import { accountKey, msgTypeKey, nftKey } from '../../../clickhouse/committed-items.js';
import { type BlockRow, listBlocks } from '../../../clickhouse/queries/blocks.js';
import { pickTxDocs, sequenceAbove, type TxDoc, type TxList } from '../../../clickhouse/queries/txs.js';

export interface StreamReads {
  /** Tx documents of a list with `after < sequence`, at or below `through`, ascending, at most `limit`. */
  txs(list: TxList, msgs: string[] | null, after: number, through: number, limit: number): Promise<TxDoc[]>;
  /** Blocks with `after < height <= through`, ascending, at most `limit`. */
  blocks(after: number, through: number, limit: number): Promise<BlockRow[]>;
}

export function streamReads(d: { store: Store }): StreamReads {
  const ascending = (limit: number) => ({ desc: false, limit, offset: 0 });
  return {
    async txs(list, msgs, after, through, limit) {
      // An NFT's txs are read whether or not it is burned now: a stream passes each height once, and a token burned
      // then minted again shows its whole history in REST (clickhouse/queries/txs.ts TxListScope.burned).
      const scope = { msgs, maxSequence: sequenceAbove(through), cursor: after, burned: 'shown' as const };
      return (await pickTxDocs(d.store, list, ascending(limit), scope, false)).docs;
    },
    blocks: (after, through, limit) => listBlocks(d.store, ascending(limit), after, through),
  };
}

/**
 * Whether a batch's filter keys may give a filtered list an item: the keys its statement matches on
 * (clickhouse/queries/txs.ts) are all present. A superset test: a tx of the batch must hold the account and one of
 * the types, and the batch holding both does not say one tx does.
 */
export function listHolds(list: TxList, msgs: string[] | null): (keys: ReadonlySet<string>) => boolean {
  const anyType = (keys: ReadonlySet<string>) => msgs === null || msgs.some((m) => keys.has(msgTypeKey(m)));
  switch (list.kind) {
    case 'all':
      return anyType;
    case 'account': {
      const account = accountKey(list.account);
      return (keys) => keys.has(account) && anyType(keys);
    }
    case 'nft': {
      const nft = nftKey(list.collection, list.tokenId);
      return (keys) => keys.has(nft);
    }
    case 'height':
      return () => true; // no stream follows one height
  }
}
