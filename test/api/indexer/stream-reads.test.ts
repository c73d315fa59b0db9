// The reads behind the indexer's tx streams (api/indexer/read/streams.ts) for one NFT that is burned and minted
// again. The REST list hides a burned token's txs (as upstream) and shows them all again after the new mint; a
// stream passes each height once, so it must send the burn's tx when it comes, or a live client has a gap the REST
// list later shows. Real chDB; the NFT events go through the ingest's views into the token state.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { streamReads } from '../../../api/indexer/read/streams.js';
import { createStore, type Store } from '../../../clickhouse/client.js';
import { migrate } from '../../../clickhouse/migrate.js';
import { pickTxDocs, sequenceAbove } from '../../../clickhouse/queries/txs.js';

const SEQ = 1_000_000;
const collection = `0x${'ab'.repeat(20)}`;
const tokenId = '7';
const list = { kind: 'nft' as const, collection, tokenId };

let dir: string;
let store: Store;
beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'stream-reads-'));
  store = createStore({ dataDir: dir });
  await migrate(store);
});
afterAll(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** One tx at `height` that moves the token (`kind`), as the ingest writes its event and document. */
async function nftTx(kind: string, height: number, from: string, to: string) {
  await store.insert('nft_events', [
    {
      collection,
      token_id: tokenId,
      kind,
      from_owner: from,
      to_owner: to,
      uri: '',
      object_addr: '',
      height,
      sequence: height * SEQ,
      event_index: 0,
      time: '2025-01-01 00:00:00.000000000',
    },
  ]);
  await store.insert('tx_documents', [{ sequence: height * SEQ, height, json: `{"height":"${height}"}` }]);
}
const heights = (docs: { sequence: string }[]) => docs.map((d) => Number(d.sequence) / SEQ);
const rest = async (tip: number) =>
  heights(
    (
      await pickTxDocs(
        store,
        list,
        { desc: false, limit: 100, offset: 0 },
        { msgs: null, maxSequence: sequenceAbove(tip), cursor: null },
        false,
      )
    ).docs,
  );

it("sends a burned token's txs as they come, which the REST list shows again once the token is minted again", async () => {
  const reads = streamReads({ store });
  const advance = async (from: number, to: number) =>
    heights(await reads.txs(list, null, (from + 1) * SEQ - 1, to, 500));
  const sent: number[] = [];
  await nftTx('mint', 10, '', 'alice');
  sent.push(...(await advance(9, 10)));
  await nftTx('transfer', 11, 'alice', 'bob');
  sent.push(...(await advance(10, 11)));
  await nftTx('burn', 12, 'bob', '');
  sent.push(...(await advance(11, 12)));
  expect(await rest(12)).toEqual([]); // burned: upstream's list shows nothing
  await nftTx('mint', 13, '', 'carol');
  sent.push(...(await advance(12, 13)));
  expect(await rest(13)).toEqual([10, 11, 12, 13]);
  expect(sent).toEqual(await rest(13));
});
