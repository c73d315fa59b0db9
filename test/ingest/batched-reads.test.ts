// Batched reads (issue 29): the ingest reads block metas 20 heights a call and the heights with txs a few to a
// JSON-RPC batch, and their REST txs several heights to a ranged tx search. Against a node that answers batches in
// reverse order, leaves answers out, fails with HTTP 500s, drops connections and answers tx searches from a lagging
// tx index, the index must be byte-identical to a one-height-at-a-time ingest (RPC_BATCH=1) of the
// same chain. Both run as the real main job in child processes over the EVM sample chain on loopback (it holds
// empty blocks, which the batched ingest indexes from their metas alone).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSampleChain } from '../../devnet/sample-chains/serve.js';
import { dumpIndex, runIngest } from '../support/ingest-process.js';

let chain: Awaited<ReturnType<typeof startSampleChain>>;
const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(path.join(os.tmpdir(), 'batched-'));
  dirs.push(d);
  return d;
};

beforeAll(async () => {
  chain = await startSampleChain('evm');
});
afterAll(async () => {
  await chain?.stop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('batched reads', () => {
  it('index the same bytes as one height at a time, against a node answering out of order, with gaps and faults', async () => {
    const latest = chain.manifest.latestHeight;
    const withTxs = new Set(chain.manifest.txs.map((t) => t.height));
    const empty = Array.from({ length: latest }, (_, i) => i + 1).filter((h) => !withTxs.has(h));
    expect(empty.length).toBeGreaterThan(0);

    const single = tmp();
    const before = { ...chain.server.stats };
    const r1 = await runIngest(chain, single, { env: { RPC_BATCH: '1', BATCH_BLOCKS: '7' } });
    expect(r1.code, r1.out).toBe(0);
    const singleComet = chain.server.stats.comet - before.comet;
    const singleRest = chain.server.stats.rest - before.rest;

    const faults = chain.server.faults;
    faults.shuffleBatches = true;
    faults.dropBatchAnswers = 6;
    faults.failHeight(5, { kind: 'http500', times: 2 });
    faults.failHeight(empty[0]!, { kind: 'http500', times: 2 });
    faults.failHeight(23, { kind: 'timeout', times: 1, delayMs: 50 });
    faults.failHeight(30, { kind: 'malformed', times: 1 });
    // Two ranged tx reads answered as by a node whose tx index lags: those heights are read one by one instead.
    faults.laggingTxIndex = 2;
    const servedBefore = faults.served;
    const batched = tmp();
    const mid = { ...chain.server.stats };
    const r2 = await runIngest(chain, batched, {
      env: { RPC_BATCH: '10', BATCH_BLOCKS: '40', FETCH_CONCURRENCY: '8' },
    });
    const batchedRest = chain.server.stats.rest - mid.rest;
    const laggingLeft = faults.laggingTxIndex;
    faults.clear();
    expect(r2.code, r2.out).toBe(0);
    expect(laggingLeft).toBe(0);
    // Fewer REST requests: ranged tx reads cover several heights each, even with the fallbacks above.
    expect(batchedRest).toBeLessThan(singleRest);
    const batchedComet = chain.server.stats.comet - mid.comet;
    // Every kind of fault was met and survived: 2 + 2 + 1 + 1 injected, 6 batch answers cut short.
    expect(faults.served - servedBefore).toBeGreaterThanOrEqual(12);
    expect(r2.out).toMatch(/"event":"ingest.retry"/);
    // Far fewer CometBFT requests than one height at a time (two a height), even with the retries.
    expect(batchedComet).toBeLessThan(singleComet / 3);

    const a = await dumpIndex(single);
    const b = await dumpIndex(batched);
    expect(Object.keys(b).sort()).toEqual(Object.keys(a).sort());
    expect(a.ingest_checkpoints).toBe(String(latest));
    for (const t of Object.keys(a)) expect(b[t], t).toBe(a[t]);
  }, 180_000);
});
