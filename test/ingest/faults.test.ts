// Failure policy of the ingest (docs/ingest.md): transient RPC faults are retried and lose nothing; a block
// that stays undecodable stops the pipeline loudly with its height; a block or txs the node answers for another
// height are read again, never stored there; internal EVM calls are indexed when enabled.
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStore, type Store } from '../../clickhouse/client.js';
import { migrate } from '../../clickhouse/migrate.js';
import { MalformedResponseError, TransientSourceError } from '../../chain/retry.js';
import { IngestFatalError } from '../../ingest/fetch.js';
import { createChainSource } from '../../ingest/source.js';
import { createLogger } from '../../platform/log.js';
import { startSampleChain } from '../../devnet/sample-chains/serve.js';
import { factsStore } from '../../clickhouse/facts-store.js';
import { sampleIngest } from '../support/sample.js';
import { until } from '../support/until.js';
import { createIngest } from '../../ingest/pipeline.js';

let chain: Awaited<ReturnType<typeof startSampleChain>>;
let store: Store;
const dir = mkdtempSync(path.join(os.tmpdir(), 'faults-'));

beforeAll(async () => {
  chain = await startSampleChain('evm');
  store = createStore({ dataDir: dir });
  await migrate(store);
});
afterAll(async () => {
  await chain?.stop();
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

const events: { event: string; fields?: Record<string, unknown> }[] = [];
const log = {
  ...createLogger({ test: 'faults' }),
  warn: (event: string, fields?: Record<string, unknown>) => void events.push({ event, fields }),
  error: (event: string, fields?: Record<string, unknown>) => void events.push({ event, fields }),
  child() {
    return log;
  },
};

function ingestTo(stopAtHeight: number, timeoutMs = 2000) {
  return sampleIngest(store, chain, {
    log,
    evmTraces: true,
    timeoutMs,
    batchBlocks: 4,
    fetchConcurrency: 2,
    pollIntervalMs: 20,
    stopAtHeight,
  });
}

/** Every height of [from, to] stored once, with the node's own block at that height. */
async function expectEachBlockOnce(from: number, to: number) {
  const rows = await store.rows<{ height: string; hash: string; n: string }>(
    'SELECT height, any(hash) AS hash, toString(count()) AS n FROM blocks WHERE height BETWEEN {from:UInt64} AND {to:UInt64} GROUP BY height ORDER BY height',
    { from, to },
  );
  const heights = Array.from({ length: to - from + 1 }, (_, i) => from + i);
  expect(rows.map((r) => [Number(r.height), r.n])).toEqual(heights.map((h) => [h, '1']));
  const truth = createChainSource({ rpcUrl: chain.rpcUrl, restUrl: chain.restUrl, evmUrl: chain.evmUrl });
  for (const r of rows) expect(r.hash).toBe((await truth.fetchBlock(Number(r.height))).block.block_id.hash);
  truth.close();
}

describe('ingest failure policy', () => {
  it('retries HTTP 500s, dropped connections and garbled answers, and still indexes every tx once', async () => {
    chain.server.faults.failHeight(3, { kind: 'http500', times: 3 });
    chain.server.faults.failHeight(6, { kind: 'timeout', times: 1, delayMs: 50 });
    chain.server.faults.failHeight(9, { kind: 'malformed', times: 2 });
    const { source, ingest } = ingestTo(12);
    await ingest.run();
    source.close();
    expect(chain.server.faults.served).toBeGreaterThanOrEqual(6);
    expect(events.some((e) => e.event === 'ingest.retry' || e.event === 'ingest.block_decode_retry')).toBe(true);
    const expected = chain.manifest.txs.filter((t) => t.height <= 12);
    const rows = await store.rows<{ hash: string }>('SELECT hash FROM txs');
    expect(rows.map((r) => r.hash).sort()).toEqual(expected.map((t) => t.hash).sort());
    expect(await factsStore(store).checkpoint()).toBe(12);
  });

  it('indexes internal EVM calls (callTracer) when tracing is enabled', async () => {
    const [r] = await store.rows<{ n: string; roots: string }>(
      'SELECT count() AS n, countIf(parent_index = -1) AS roots FROM evm_internal_txs',
    );
    const evmTxs = chain.manifest.txs.filter((t) => t.height <= 12 && t.evmTxHashes.length > 0).length;
    expect(evmTxs).toBeGreaterThan(0);
    expect(Number(r!.roots)).toBeGreaterThan(0);
    expect(Number(r!.n)).toBeGreaterThanOrEqual(Number(r!.roots));
  });

  it('a block the node cannot trace by design (minievm: height 1, "genesis is not traceable") does not stall tracing', async () => {
    // The first test ingested from height 1 with tracing on; chain-sim answers height 1 like minievm.
    const source = createChainSource({
      rpcUrl: chain.rpcUrl,
      restUrl: chain.restUrl,
      evmUrl: chain.evmUrl,
      evmTraces: true,
    });
    const b1 = await source.fetchBlock(1);
    source.close();
    expect(b1.traces).toEqual([]);
    expect(await factsStore(store).checkpoint()).toBeGreaterThanOrEqual(12);
    expect(events.some((e) => e.event === 'ingest.retry' && /traceable/.test(String(e.fields?.error)))).toBe(false);
  });

  it('stops loudly, naming the height, when a block stays undecodable; nothing past it is written', async () => {
    chain.server.faults.failHeight(15, { kind: 'malformed', times: 1000 });
    const { source, ingest } = ingestTo(20);
    await expect(ingest.run()).rejects.toThrow(IngestFatalError);
    await expect(ingest.run()).rejects.toThrow(/block 15 cannot be decoded/);
    source.close();
    expect(events.some((e) => e.event === 'ingest.fatal' && String(e.fields?.error).includes('block 15'))).toBe(true);
    expect(await factsStore(store).checkpoint()).toBeLessThan(15);
    const [above] = await store.rows<{ n: string }>('SELECT count() AS n FROM blocks WHERE height >= 15');
    expect(Number(above!.n)).toBe(0);
    chain.server.faults.clear();
  }, 60_000);

  it('reads again a block the node answered for another height, and stores every height once', async () => {
    // The first batch read of height 17 gets block 15 and its results, a block with as many txs (one), so only its
    // height tells it apart (checkpoint 14 after the test above).
    chain.server.faults.misrouted.set(17, { to: 15, answers: 2, only: 'rpc' });
    const { source, ingest } = ingestTo(20);
    await ingest.run();
    source.close();
    expect(chain.server.faults.misrouted.size).toBe(0); // both wrong answers were served
    await expectEachBlockOnce(15, 20);
    const expected = chain.manifest.txs.filter((t) => t.height <= 20);
    const txs = await store.rows<{ hash: string }>('SELECT hash FROM txs');
    expect(txs.map((r) => r.hash).sort()).toEqual(expected.map((t) => t.hash).sort());
  });

  it('stops loudly, naming the height, when the node keeps answering another height; goes on once it answers right', async () => {
    // Block 20 for height 22: one tx each, so only the height tells them apart.
    chain.server.faults.misrouted.set(22, { to: 20, answers: 1_000_000, only: 'rpc' });
    const first = ingestTo(24);
    await expect(first.ingest.run()).rejects.toThrow(
      /block 22 cannot be decoded: asked for block 22, the node answered block 20/,
    );
    first.source.close();
    expect(await factsStore(store).checkpoint()).toBeLessThan(22);
    chain.server.faults.clear();
    const again = ingestTo(24);
    await again.ingest.run();
    again.source.close();
    expect(await factsStore(store).checkpoint()).toBe(24);
    await expectEachBlockOnce(19, 24);
  }, 60_000);

  it('waits, saying so, for a node whose head is below what is indexed, and keeps what is indexed', async () => {
    const indexed = await factsStore(store).checkpoint();
    expect(indexed).toBeGreaterThan(5);
    const inner = createChainSource({ rpcUrl: chain.rpcUrl, restUrl: chain.restUrl, evmUrl: chain.evmUrl });
    const behind = { ...inner, latestHeight: async () => 5 }; // a lagging node after a failover
    const ingest = createIngest({ store, source: behind, vm: 'evm', log, pollIntervalMs: 20 });
    const run = ingest.run();
    await until(() => events.some((e) => e.event === 'ingest.node_behind'), 10_000, 'ingest.node_behind');
    expect(events.find((e) => e.event === 'ingest.node_behind')?.fields).toEqual({ node_head: 5, indexed });
    await ingest.stop();
    await run;
    inner.close();
    expect(await factsStore(store).checkpoint()).toBe(indexed);
  });

  it("refuses a REST answer of another height's txs, even one with as many txs", async () => {
    const counts = new Map<number, number>();
    for (const t of chain.manifest.txs) counts.set(t.height, (counts.get(t.height) ?? 0) + 1);
    const [h, other] = [...counts.keys()].filter((x) => counts.get(x) === 1);
    expect(other).toBeDefined();
    chain.server.faults.misrouted.set(h!, { to: other!, answers: 1, only: 'rest' });
    const source = createChainSource({
      rpcUrl: chain.rpcUrl,
      restUrl: chain.restUrl,
      evmUrl: chain.evmUrl,
      rangedTxReads: false,
    });
    await expect(source.fetchBlock(h!)).rejects.toThrow(`REST answered the txs of block ${other} for height ${h}`);
    const again = await source.fetchBlock(h!); // the next answer is its own
    source.close();
    expect(again.restTxs).toHaveLength(1);
    chain.server.faults.clear();
  });

  it('refuses EVM receipts of another block, even as many, in the single read and the batched one', async () => {
    // As from a proxy answering from a node at another height: only the receipts' blockNumber tells them apart.
    const counts = new Map<number, number>();
    for (const t of chain.manifest.txs) counts.set(t.height, (counts.get(t.height) ?? 0) + 1);
    const [h, other] = [...counts.keys()].filter((x) => counts.get(x) === 1);
    const source = createChainSource({ rpcUrl: chain.rpcUrl, restUrl: chain.restUrl, evmUrl: chain.evmUrl });
    try {
      const own = (await source.fetchBlock(h!)).receipts!;
      expect(own.length).toBeGreaterThan(0);
      chain.server.faults.misrouted.set(h!, { to: other!, answers: 1, only: 'evm' });
      await expect(source.fetchBlock(h!)).rejects.toThrow(
        `eth_getBlockReceipts(${h}) answered receipts of block ${other}`,
      );
      chain.server.faults.misrouted.set(h!, { to: other!, answers: 1, only: 'evm' });
      await expect(source.fetchBlocks([h!])).rejects.toThrow(`answered receipts of block ${other}`);
      expect(chain.server.faults.misrouted.size).toBe(0);
      expect((await source.fetchBlocks([h!]))[0]!.receipts).toEqual(own); // the next answer is its own
    } finally {
      source.close();
      chain.server.faults.clear();
    }
  });

  it('reads the head from a status answer; a 5xx or an error answer is transient, an answer without a height malformed', async () => {
    const source = createChainSource({ rpcUrl: chain.rpcUrl, restUrl: chain.restUrl, evmUrl: chain.evmUrl });
    expect(await source.latestHeight()).toBe(chain.manifest.latestHeight);
    source.close();
    // A loopback node that answers each status poll with the next of these (the error answer as CometBFT's for a
    // JSON-RPC error: HTTP 200, an `error` object with its data).
    const answers: [number, string][] = [
      [503, 'upstream unavailable'],
      [200, '{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"Internal error","data":"node is syncing"}}'],
      [200, 'not json'],
      [200, '{"jsonrpc":"2.0","id":1,"result":{"sync_info":{}}}'],
      [200, '[]'],
    ];
    const node = http.createServer((req, res) => {
      req.resume();
      const [status, body] = answers.shift()!;
      res.writeHead(status, { 'content-type': 'application/json' }).end(body);
    });
    await new Promise<void>((r) => node.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(node.address() as AddressInfo).port}`;
    const s = createChainSource({ rpcUrl: url, restUrl: url, timeoutMs: 2000 });
    try {
      await expect(s.latestHeight()).rejects.toThrow(TransientSourceError);
      await expect(s.latestHeight()).rejects.toThrow(/status: Internal error \(node is syncing\)/);
      await expect(s.latestHeight()).rejects.toThrow(MalformedResponseError);
      await expect(s.latestHeight()).rejects.toThrow(/no latest_block_height/);
      await expect(s.latestHeight()).rejects.toThrow(/not a JSON-RPC response/);
      expect(answers).toEqual([]);
    } finally {
      s.close();
      await new Promise<void>((r) => node.close(() => r()));
    }
  });
});
