// Failure policy of the ingest (docs/ingest.md): transient RPC faults are retried and lose nothing; a block
// that stays undecodable stops the pipeline loudly with its height; internal EVM calls are indexed when enabled.
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
