// The shared chain feed against a node whose tx indexer lags its reported height, as CometBFT's does: `/status`
// can name block H before `tx_search` returns H's txs. Found on the real IBC devnets (issue 16): a recv_packet
// in such a block was skipped by the feed and only seen when the activity's 20 s poll window ended.
import { describe, expect, it } from 'vitest';
import { ChainFeed, type FeedSource } from '../../activities/feed.js';
import type { ChainTx } from '../../workflows/model.js';

const tx = (height: number, hash: string): ChainTx => ({
  chainId: 'c',
  hash,
  height,
  time: '2026-01-01T00:00:00Z',
  code: 0,
  events: [],
});

/** A chain whose tip's txs become searchable only on the second search that covers the tip. */
function laggingChain() {
  const txs: ChainTx[] = [];
  let head = 10;
  const searchesOfTip = new Map<number, number>();
  const source: FeedSource = {
    latest: async () => head,
    range: async (from, to) => {
      const n = (searchesOfTip.get(head) ?? 0) + 1;
      if (to >= head) searchesOfTip.set(head, n);
      return txs.filter((t) => t.height >= from && t.height <= to && (t.height < head || n > 1));
    },
  };
  return {
    source,
    produce(hash: string) {
      head += 1;
      txs.push(tx(head, hash));
    },
    get head() {
      return head;
    },
  };
}

describe('ChainFeed', () => {
  it('delivers a tx of the tip block even when the first search of that block does not return it', async () => {
    const chain = laggingChain();
    const feed = new ChainFeed(chain.source, 5);
    const sub = await feed.subscribe((t) => t.hash === 'packet');
    chain.produce('packet'); // lands in the tip, not yet indexed at the feed's first read of it
    const seen = await Promise.race([sub.next, new Promise<null>((r) => setTimeout(() => r(null), 1_000))]);
    sub.cancel();
    expect(seen?.hash).toBe('packet');
    expect(seen?.height).toBe(chain.head);
  });

  it('a subscription covers the tip at subscribe time: a tx already in it (unindexed) is still delivered', async () => {
    const chain = laggingChain();
    chain.produce('early'); // in the tip before anyone listens; a backfill search would not see it yet
    const feed = new ChainFeed(chain.source, 5);
    const sub = await feed.subscribe((t) => t.hash === 'early');
    const seen = await Promise.race([sub.next, new Promise<null>((r) => setTimeout(() => r(null), 1_000))]);
    sub.cancel();
    expect(seen?.hash).toBe('early');
  });

  it('delivers a tx of a block below the tip that the indexer indexes only later (trailing by more than a block)', async () => {
    // The tip is 12; the tx at 11 becomes searchable only at the third search. A feed started at the tip (and a
    // backfill lookup run before the indexing) missed it, and its transfer was abandoned after the source timeout.
    let searches = 0;
    const late = tx(11, 'late');
    const source: FeedSource = {
      latest: async () => 12,
      range: async (from, to) => {
        searches++;
        return searches >= 3 && from <= 11 && to >= 11 ? [late] : [];
      },
    };
    const feed = new ChainFeed(source, 5);
    const sub = await feed.subscribe((t) => t.hash === 'late');
    const seen = await Promise.race([sub.next, new Promise<null>((r) => setTimeout(() => r(null), 1_000))]);
    sub.cancel();
    expect(seen?.hash).toBe('late');
  });

  it('each subscriber resolves once, with the first match, however often a height is read', async () => {
    const chain = laggingChain();
    const feed = new ChainFeed(chain.source, 5);
    const got: string[] = [];
    const sub = await feed.subscribe((t) => t.hash.startsWith('m'));
    sub.next.then((t) => got.push(t.hash));
    chain.produce('m1');
    chain.produce('m2');
    await new Promise((r) => setTimeout(r, 100));
    sub.cancel();
    expect(got).toEqual(['m1']);
  });
});
