// Batched reads (issue 29): the ingest reads block metas 20 heights a call and the heights with txs a few to a
// JSON-RPC batch, and their REST txs several heights to a ranged tx search. Against a node that answers batches in
// reverse order, leaves answers out, fails with HTTP 500s, drops connections, and answers tx searches from a lagging
// tx index, from none, or not at all, the index must be byte-identical to a one-height-at-a-time ingest
// (RPC_BATCH=1) of the same chain. Both run as the real main job in child processes over the EVM sample chain on
// loopback (it holds empty blocks, which the batched ingest indexes from their metas alone).
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
    const searches = chain.server.stats.txSearches - mid.txSearches;
    const laggingLeft = faults.laggingTxIndex;
    const dropsLeft = faults.dropBatchAnswers;
    faults.clear();
    expect(r2.code, r2.out).toBe(0);
    expect(laggingLeft).toBe(0);
    expect(dropsLeft).toBe(0);
    // The history probe, the two lagging answers and at least one exact one.
    expect(searches).toBeGreaterThan(3);
    // Fewer REST requests: ranged tx reads cover several heights each, even with the fallbacks above.
    expect(batchedRest).toBeLessThan(singleRest);
    const batchedComet = chain.server.stats.comet - mid.comet;
    // Every fault was met and survived: 2 + 2 + 1 + 1 at heights, 6 batch answers cut short, 2 lagging searches.
    expect(faults.served - servedBefore).toBe(14);
    expect(r2.out).toMatch(/"event":"ingest.retry"/);
    // Far fewer CometBFT requests than one height at a time (two a height), even with the retries.
    expect(batchedComet).toBeLessThan(singleComet / 3);

    const a = await dumpIndex(single);
    const b = await dumpIndex(batched);
    expect(Object.keys(b).sort()).toEqual(Object.keys(a).sort());
    expect(a.ingest_checkpoints).toBe(String(latest));
    for (const t of Object.keys(a)) expect(b[t], t).toBe(a[t]);

    // A node with tx indexing off refuses the history probe, its first search: the ingest makes no other and reads
    // every height on its own. Small groups (RPC_BATCH 2: five heights) give this chain several runs of heights; a
    // run with the index on counts its searches (the probe and one a run).
    const small = { RPC_BATCH: '2', BATCH_BLOCKS: '40', FETCH_CONCURRENCY: '1' };
    const counted = { ...chain.server.stats };
    const r3 = await runIngest(chain, tmp(), { env: small });
    expect(r3.code, r3.out).toBe(0);
    const runs = chain.server.stats.txSearches - counted.txSearches;
    expect(runs).toBeGreaterThan(3);
    faults.txIndexOff = true;
    const noIndex = tmp();
    const before4 = { ...chain.server.stats };
    const r4 = await runIngest(chain, noIndex, { env: small });
    const offSearches = chain.server.stats.txSearches - before4.txSearches;
    faults.clear();
    expect(r4.code, r4.out).toBe(0);
    expect(offSearches).toBe(1);
    const c = await dumpIndex(noIndex);
    for (const t of Object.keys(a)) expect(c[t], t).toBe(a[t]);

    // Searches that get no answer at all (the node restarting) fall back without counting against ranged reads:
    // three in a row (the history probe, made again at each next run), and the ingest still searches every run.
    faults.unansweredTxSearches = 3;
    const dropped = tmp();
    const before5 = { ...chain.server.stats };
    const r5 = await runIngest(chain, dropped, { env: small });
    const droppedLeft = faults.unansweredTxSearches;
    faults.clear();
    expect(r5.code, r5.out).toBe(0);
    expect(droppedLeft).toBe(0);
    expect(chain.server.stats.txSearches - before5.txSearches).toBe(runs);
    const d = await dumpIndex(dropped);
    for (const t of Object.keys(a)) expect(d[t], t).toBe(a[t]);

    // RANGED_TX_READS=false: no search at all. A node holding more txs than RANGED_TX_READS_MAX_HISTORY: the probe
    // alone.
    const before6 = { ...chain.server.stats };
    const r6 = await runIngest(chain, tmp(), { env: { ...small, RANGED_TX_READS: 'false' } });
    expect(r6.code, r6.out).toBe(0);
    expect(chain.server.stats.txSearches - before6.txSearches).toBe(0);
    const held = chain.manifest.txs.length;
    const before7 = { ...chain.server.stats };
    const r7 = await runIngest(chain, tmp(), { env: { ...small, RANGED_TX_READS_MAX_HISTORY: String(held - 1) } });
    expect(r7.code, r7.out).toBe(0);
    expect(chain.server.stats.txSearches - before7.txSearches).toBe(1);
  }, 180_000);
});
