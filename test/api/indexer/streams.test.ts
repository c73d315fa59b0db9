// The indexer's event streams over HTTP on loopback, on chDB, while the real ingest indexes the recorded EVM sample
// chain (node answers slowed, small batches, so the tip moves many times while the streams are open). Every stream's
// events must equal the REST list of the same filter read ascending: same JSON, ids equal to the list's cursors, no
// gap, no duplicate. Resuming from an event id (Last-Event-ID) or from a REST page's key continues exactly; bad
// resume points and too many streams are clear JSON 4xx. A third API takes the ingest's commits in process, as the
// main job's does: its unfiltered streams take the committed items the ingest hands over instead of reading them
// back, and those items must equal the engine's rows; its filtered streams skip the reads of batches without their
// keys, and each batch's keys must equal the keys of the engine's filtered tables at those heights.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStore, type Store } from '../../../clickhouse/client.js';
import { type CommittedItems, type HandedLists, NO_HANDED_LISTS } from '../../../clickhouse/committed-items.js';
import { listBlocks } from '../../../clickhouse/queries/blocks.js';
import { pickTxDocs, sequenceAbove } from '../../../clickhouse/queries/txs.js';
import { migrate } from '../../../clickhouse/migrate.js';
import { encodeCursor } from '../../../api/indexer/read/page.js';
import { createLogger } from '../../../platform/log.js';
import type { EvmSampleManifest } from '../../../devnet/sample-chains/evm.js';
import { startSampleChain } from '../../../devnet/sample-chains/serve.js';
import { indexerConfig } from '../../support/indexer-config.js';
import { sampleIngest, type SampleChain } from '../../support/sample.js';
import { openSse, type SseClient } from '../../support/sse.js';
import { type Running, startIndexer } from './helpers.js';
import { restAscending } from '../../support/main-job.js';
import { until } from '../../support/until.js';

let tmp: string;
let store: Store;
let sample: SampleChain;
let api: Running;
let strict: Running;
/** An API told of each commit in process, with the committed items of its unfiltered streams. */
let handed: Running;
const handedItems: CommittedItems[] = [];
/** Streams opened before the ingest started. */
const live: Record<string, SseClient> = {};
let signer: string;

/** An account no tx of the sample touches: its stream on the handed API never needs a statement. */
const nobody = '0x1234567890123456789012345678901234567890';
let nft: { collection: string; tokenId: string };

const fromGenesis = encodeCursor({ kind: 'sequence', sequence: 0 });
type Tx = { txhash: string; height: string };

const dataOf = (c: SseClient, event: string) =>
  c.events.filter((e) => e.event === event).map((e) => JSON.parse(e.data));

beforeAll(async () => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'streams-'));
  store = createStore({ dataDir: path.join(tmp, 'clickhouse') });
  await migrate(store);
  sample = await startSampleChain('evm');
  sample.server.faults.latencyMs = 15; // a slow node: the tip moves batch by batch while the streams are open
  const counts = new Map<string, number>();
  for (const t of sample.manifest.txs) counts.set(t.signer, (counts.get(t.signer) ?? 0) + 1);
  signer = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]![0];
  const config = indexerConfig('evm', sample.chainId);
  api = await startIndexer({ store, config, chain: { restUrl: sample.restUrl } });
  strict = await startIndexer({
    store,
    config,
    chain: { restUrl: sample.restUrl },
    streams: { maxPerClient: 2, maxStreams: 3 },
  });

  const committedListeners: ((height: number, items?: CommittedItems) => void)[] = [];
  let handedLists: HandedLists = NO_HANDED_LISTS;
  handed = await startIndexer({
    store,
    config,
    chain: { restUrl: sample.restUrl },
    onCommitted: (l) => committedListeners.push(l),
    handLists: (lists) => {
      handedLists = lists;
    },
  });

  const base = `${api.base}/indexer/stream/v1`;
  live.txs = await openSse(`${base}/txs`);
  live.genesis = await openSse(`${base}/txs?pagination.key=${encodeURIComponent(fromGenesis)}`);
  live.blocks = await openSse(`${base}/blocks`);
  live.signer = await openSse(`${base}/txs/by_account/${signer}?is_signer=true`);
  live.calls = await openSse(`${base}/txs?msgs=minievm.evm.v1.MsgCall`);
  live.handedTxs = await openSse(`${handed.base}/indexer/stream/v1/txs`);
  live.handedBlocks = await openSse(`${handed.base}/indexer/stream/v1/blocks`);
  const owners = (sample.manifest as EvmSampleManifest).expected.nftOwners;
  const collection = Object.keys(owners).find((c) => Object.keys(owners[c] ?? {}).length > 0)!;
  nft = { collection, tokenId: Object.keys(owners[collection]!)[0]! };
  const handedBase = `${handed.base}/indexer/stream/v1`;
  live.handedSigner = await openSse(`${handedBase}/txs/by_account/${signer}?is_signer=true`);
  live.handedCalls = await openSse(`${handedBase}/txs?msgs=minievm.evm.v1.MsgCall`);
  live.handedNft = await openSse(`${handedBase}/nft/txs/${nft.collection}/${encodeURIComponent(nft.tokenId)}`);
  live.handedNobody = await openSse(`${handedBase}/txs/by_account/${nobody}`);
  for (const c of Object.values(live)) expect(c.status).toBe(200);
  expect(handedLists).toEqual({ blocks: true, txs: true, keys: true });

  const { source, ingest } = sampleIngest(store, sample, {
    log: createLogger({ test: 'streams' }),
    batchBlocks: 3,
    fetchConcurrency: 2,
    pollIntervalMs: 50,
    stopAtHeight: sample.manifest.latestHeight,
    hooks: {
      onCommitted: (height, items) => {
        if (items) handedItems.push(items);
        for (const l of committedListeners) l(height, items);
      },
      handedLists: () => handedLists,
    },
  });
  await ingest.run();
  source.close();
  sample.server.faults.latencyMs = 0;
  await until(async () => (await api.get('/status')).body.height === sample.manifest.latestHeight, 30_000, 'the tip');
}, 180_000);

afterAll(async () => {
  for (const c of Object.values(live)) c.close();
  await api?.close();
  await strict?.close();
  await handed?.close();
  await sample?.stop();
  await store?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe('event streams during an ingest', () => {
  it('a stream opened before the ingest sends every tx of the list, as the REST list ascending, ids = cursors', async () => {
    const rest = await restAscending<Tx>(api.base, '/indexer/tx/v1/txs', 'txs');
    expect(rest.length).toBe(sample.manifest.txs.length);
    for (const c of [live.txs!, live.genesis!]) {
      await until(() => c.events.length >= rest.length, 30_000, 'the tx events');
      await new Promise((r) => setTimeout(r, 200)); // nothing more may come
      expect(dataOf(c, 'tx')).toEqual(rest);
      expect(c.events.every((e) => e.event === 'tx')).toBe(true);
    }
    // the live path ran: the txs arrived as the tip moved, in many deliveries, not in one catch-up
    expect(new Set(live.txs!.receivedAt).size).toBeGreaterThan(5);
    // Each id is the item's cursor: the REST list ascending after that id starts with the next event.
    const ev = live.txs!.events;
    for (const i of [0, 5, ev.length - 2]) {
      const { body } = await api.get(
        `/indexer/tx/v1/txs?pagination.reverse=false&pagination.limit=1&pagination.key=${encodeURIComponent(ev[i]!.id!)}`,
      );
      expect(body.txs[0]).toEqual(JSON.parse(ev[i + 1]!.data));
    }
  });

  it('blocks, an account with is_signer and a msgs filter stream their REST lists', async () => {
    const blocks = await restAscending(api.base, '/indexer/block/v1/blocks', 'blocks');
    expect(blocks.length).toBe(sample.manifest.latestHeight);
    const bySigner = await restAscending<Tx>(api.base, `/indexer/tx/v1/txs/by_account/${signer}?is_signer=true`, 'txs');
    const calls = await restAscending<Tx>(api.base, '/indexer/tx/v1/txs?msgs=minievm.evm.v1.MsgCall', 'txs');
    expect(bySigner.length).toBeGreaterThan(1);
    expect(calls.length).toBeGreaterThan(1);
    expect(calls.length).toBeLessThan(sample.manifest.txs.length);
    for (const [c, want, event] of [
      [live.blocks!, blocks, 'block'],
      [live.signer!, bySigner, 'tx'],
      [live.calls!, calls, 'tx'],
    ] as const) {
      await until(() => c.events.length >= want.length, 30_000, `${event} events`);
      expect(dataOf(c, event)).toEqual(want);
    }
    expect(live.blocks!.events.map((e) => e.id)).toEqual(
      blocks.map((_, i) => encodeCursor({ kind: 'height', height: i + 1 })),
    );
  });

  it('resumes after an event id (Last-Event-ID) or a REST page key with no gap and no duplicate', async () => {
    const rest = await restAscending<Tx>(api.base, '/indexer/tx/v1/txs', 'txs');
    const all = live.txs!.events;
    const cut = 11;
    const resumed = await openSse(
      `${api.base}/indexer/stream/v1/txs?pagination.key=${encodeURIComponent(fromGenesis)}`,
      {
        'Last-Event-ID': all[cut - 1]!.id!, // the header wins over the URL's key, as on an EventSource reconnect
      },
    );
    await until(() => resumed.events.length >= rest.length - cut, 10_000, 'the resumed events');
    resumed.close();
    expect([...dataOf(live.txs!, 'tx').slice(0, cut), ...dataOf(resumed, 'tx')]).toEqual(rest);

    // The newest tx's cursor, from a REST page (descending, limit 1): the stream starts after it, so nothing yet.
    const first = await api.get('/indexer/tx/v1/txs?pagination.limit=1');
    const page = await api.get(`/indexer/tx/v1/txs?pagination.limit=2`);
    const afterSecond = await openSse(
      `${api.base}/indexer/stream/v1/txs?pagination.key=${encodeURIComponent(page.body.pagination.next_key)}`,
    );
    await until(() => afterSecond.events.length >= 1, 10_000, 'the event after the page');
    await new Promise((r) => setTimeout(r, 200));
    afterSecond.close();
    expect(dataOf(afterSecond, 'tx')).toEqual([first.body.txs[0]]);
  });

  it('an NFT token stream from a cursor sends its REST tx list', async () => {
    const owners = (sample.manifest as EvmSampleManifest).expected.nftOwners;
    const collection = Object.keys(owners).find((c) => Object.keys(owners[c] ?? {}).length > 0)!;
    const tokenId = Object.keys(owners[collection]!)[0]!;
    const nftPath = `${collection}/${encodeURIComponent(tokenId)}`;
    const want = await restAscending<Tx>(api.base, `/indexer/nft/v1/txs/${nftPath}`, 'txs');
    expect(want.length).toBeGreaterThan(0);
    const c = await openSse(
      `${api.base}/indexer/stream/v1/nft/txs/${nftPath}?pagination.key=${encodeURIComponent(fromGenesis)}`,
    );
    await until(() => c.events.length >= want.length, 10_000, 'the NFT events');
    c.close();
    expect(dataOf(c, 'tx')).toEqual(want);
  });
});

describe('committed items handed over by the ingest in process', () => {
  it('equal the engine rows of their heights, and streams built from them equal the REST lists', async () => {
    expect(handedItems.length).toBeGreaterThan(5);
    let next = 1;
    for (const items of handedItems) {
      expect(items.from).toBe(next); // every batch, contiguous
      next = items.to + 1;
      const asc = { desc: false, limit: 1_000, offset: 0 };
      expect(items.blocks).toEqual(await listBlocks(store, asc, items.from - 1, items.to));
      const docs = await pickTxDocs(
        store,
        { kind: 'all' },
        asc,
        { msgs: null, maxSequence: sequenceAbove(items.to), cursor: Number(sequenceAbove(items.from - 1)) - 1 },
        false,
      );
      expect(items.txs).toEqual(docs.docs);
    }
    expect(next).toBe(sample.manifest.latestHeight + 1);
    expect(handedItems.reduce((n, i) => n + i.txs!.length, 0)).toBe(sample.manifest.txs.length);

    const txs = await restAscending<Tx>(api.base, '/indexer/tx/v1/txs', 'txs');
    const blocks = await restAscending(api.base, '/indexer/block/v1/blocks', 'blocks');
    await until(() => live.handedTxs!.events.length >= txs.length, 30_000, 'the handed tx events');
    await until(() => live.handedBlocks!.events.length >= blocks.length, 30_000, 'the handed block events');
    await new Promise((r) => setTimeout(r, 200)); // nothing more may come
    expect(dataOf(live.handedTxs!, 'tx')).toEqual(txs);
    expect(dataOf(live.handedBlocks!, 'block')).toEqual(blocks);
    expect(live.handedTxs!.events.map((e) => e.id)).toEqual(
      live.genesis!.events.map((e) => e.id), // the same cursors as the streams that read the engine
    );
    // The tip advances took the handed items (several advances may share one read, so fewer than two a batch).
    const metrics = await (await fetch(`${handed.base}/metrics`)).text();
    const reads = (list: string, from: string) =>
      Number(
        new RegExp(`^indexer_stream_reads_total\\{list="${list}",from="${from}"\\} (\\d+)`, 'm').exec(metrics)?.[1] ??
          0,
      );
    expect(reads('block', 'committed')).toBeGreaterThan(5);
    expect(reads('tx', 'committed')).toBeGreaterThan(5);
  });

  it("hold each batch's filter keys, and filtered streams skip the batches without theirs", async () => {
    const keysAt = async (from: number, to: number) => {
      const h = { from, to };
      const q = (sql: string) => store.rows<{ k: string }>(sql, h).then((rows) => rows.map((r) => r.k));
      const between = 'height BETWEEN {from:UInt64} AND {to:UInt64}';
      return [
        ...(await q(`SELECT DISTINCT concat('a:', account) AS k FROM account_txs WHERE ${between}`)),
        ...(await q(`SELECT DISTINCT concat('m:', msg_type) AS k FROM msg_type_txs WHERE ${between}`)),
        ...(await q(
          `SELECT DISTINCT concat('n:', collection, '\n', token_id) AS k FROM nft_token_txs WHERE ${between}`,
        )),
      ].sort();
    };
    for (const items of handedItems) expect([...items.keys!].sort()).toEqual(await keysAt(items.from, items.to));

    const nftPath = `${nft.collection}/${encodeURIComponent(nft.tokenId)}`;
    const lists: [SseClient, string][] = [
      [live.handedSigner!, `/indexer/tx/v1/txs/by_account/${signer}?is_signer=true`],
      [live.handedCalls!, '/indexer/tx/v1/txs?msgs=minievm.evm.v1.MsgCall'],
      [live.handedNft!, `/indexer/nft/v1/txs/${nftPath}`],
      [live.handedNobody!, `/indexer/tx/v1/txs/by_account/${nobody}`],
    ];
    for (const [c, restPath] of lists) {
      const want = await restAscending<Tx>(api.base, restPath, 'txs');
      await until(() => c.events.length >= want.length, 30_000, `the events of ${restPath}`);
      await new Promise((r) => setTimeout(r, 200)); // nothing more may come
      expect(dataOf(c, 'tx')).toEqual(want);
    }
    expect(dataOf(live.handedNobody!, 'tx')).toEqual([]);
    expect(dataOf(live.handedNft!, 'tx').length).toBeGreaterThan(0);

    // The signer and the NFT are in some batches only (every batch of the sample has a contract call), the made-up
    // account in none: their advances over the other batches read nothing. (The registry is the process's, so the
    // engine reads of the two other APIs count in it too; only this API skips.)
    const batchesWith = (key: string) => handedItems.filter((i) => i.keys!.has(key)).length;
    expect(batchesWith(`a:${signer}`)).toBeLessThan(handedItems.length);
    expect(batchesWith(`n:${nft.collection}\n${nft.tokenId}`)).toBeGreaterThan(0);
    expect(batchesWith(`n:${nft.collection}\n${nft.tokenId}`)).toBeLessThan(handedItems.length);
    const metrics = await (await fetch(`${handed.base}/metrics`)).text();
    const skipped = Number(/^indexer_stream_reads_total\{list="tx",from="skipped"\} (\d+)/m.exec(metrics)?.[1] ?? 0);
    expect(skipped).toBeGreaterThanOrEqual(5);
  });
});

describe('bad input and limits', () => {
  it('answers a bad resume point with a JSON 400', async () => {
    const base = `${api.base}/indexer/stream/v1`;
    const cases: [string, Record<string, string>, RegExp][] = [
      [`${base}/txs`, { 'Last-Event-ID': 'not base64!' }, /Last-Event-ID: pagination.key must be a valid base64/],
      [
        `${base}/txs?pagination.key=${encodeURIComponent(Buffer.from('12').toString('base64'))}`,
        {},
        /must be a cursor/,
      ],
      [`${base}/txs`, { 'Last-Event-ID': encodeCursor({ kind: 'height', height: 3 }) }, /\{"sequence":N\}/],
      [`${base}/blocks?pagination.key=${encodeURIComponent(fromGenesis)}`, {}, /\{"height":N\}/],
      [`${base}/txs/by_account/nonsense?is_signer=maybe`, {}, /./],
      [`${base}/txs?msgs=${'a'.repeat(300)}`, {}, /./],
    ];
    for (const [url, headers, message] of cases) {
      const c = await openSse(url, headers);
      expect(c.status, url).toBe(400);
      expect(c.contentType).toMatch(/^application\/json/);
      expect(JSON.parse(c.body).message).toMatch(message);
    }
  });

  it('refuses a stream past the per-client and per-process limits with a JSON 429, and admits again after a close', async () => {
    const url = `${strict.base}/indexer/stream/v1/blocks`;
    const a = await openSse(url);
    const b = await openSse(url);
    const refused = await openSse(url);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.body).message).toMatch(/too many open streams from this client \(at most 2\)/);
    a.close();
    const admitted = async () => {
      const c = await openSse(url);
      c.close();
      return c.status === 200;
    };
    await until(admitted, 5000, 'a free slot');
    b.close();
  });

  it('two clients on one URL both stream (the response cache keeps and shares no stream)', async () => {
    // Two clients on the same URL both stream (the response cache must not make the second wait for the first),
    // whatever the path's case: express routes it case-insensitively, so the cache must tell a stream the same way.
    const key = encodeURIComponent(encodeCursor({ kind: 'height', height: 40 }));
    for (const route of ['/indexer/stream/v1/blocks', '/indexer/Stream/v1/BLOCKS']) {
      const url = `${api.base}${route}?pagination.key=${key}`;
      const one = await openSse(url);
      const two = await openSse(url);
      expect([one.status, two.status], route).toEqual([200, 200]);
      await until(() => one.events.length >= 3 && two.events.length >= 3, 5000, `both streams of ${route}`);
      one.close();
      two.close();
      expect(two.events.map((e) => e.id)).toEqual(one.events.map((e) => e.id));
    }
  });
});
