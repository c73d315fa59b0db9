// The merge pace (ingest/merge-pace.ts, clickhouse/facts-store.ts): a backfill far behind the head asks the engine to
// merge the height tables at the bulk pace, and the head pace comes back once it has caught up, when it stops, and
// when a process killed mid-backfill starts again at the head. The pace changes how parts are merged, never what is
// stored: an ingest at the bulk pace stores the same rows as one at the head pace.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStore, type Store } from '../../clickhouse/client.js';
import { BULK_MERGE_BASE, factsStore, HEIGHT_TABLES } from '../../clickhouse/facts-store.js';
import { migrate } from '../../clickhouse/migrate.js';
import { startSampleChain } from '../../devnet/sample-chains/serve.js';
import { MERGE_PACE_THRESHOLDS, mergePacer, nextMergePace, workLeft } from '../../ingest/merge-pace.js';
import { createLogger } from '../../platform/log.js';
import { metrics } from '../../platform/metrics.js';
import { dumpTables, type SampleChain, sampleIngest } from '../support/sample.js';

describe('the merge pace decision', () => {
  it('enters the bulk pace with many batches left, and leaves it within about a batch of the head', () => {
    const t = { enterBulk: 100, leaveBulk: 20 };
    expect(nextMergePace('head', 99, t)).toBe('head');
    expect(nextMergePace('head', 100, t)).toBe('bulk');
    // Between the thresholds the pace stays what it is: a head running ahead in bursts does not flip it.
    expect(nextMergePace('bulk', 50, t)).toBe('bulk');
    expect(nextMergePace('head', 50, t)).toBe('head');
    expect(nextMergePace('bulk', 20, t)).toBe('head');
    expect(nextMergePace('bulk', 0, t)).toBe('head');
    expect(MERGE_PACE_THRESHOLDS.leaveBulk).toBeLessThan(MERGE_PACE_THRESHOLDS.enterBulk);
  });

  it('counts the work left in batch units: dense blocks weigh their txs, empty ones the block weight', () => {
    expect(workLeft(600, 100, 0.2)).toBe(60_120);
    expect(workLeft(100_000, 0, 0.2)).toBe(20_000);
    expect(workLeft(-3, 1, 0.2)).toBe(0); // a node behind what is indexed leaves no work
  });
});

let chain: SampleChain;
let store: Store;
let dir: string;

/** The engine's own record of each height table's merge base ('' where the table has the default). */
async function mergeBases(): Promise<string[]> {
  const rows = await store.rows<{ base: string }>(
    `SELECT extract(create_table_query, 'merge_selector_base = ([0-9]+)') AS base FROM system.tables
     WHERE database = currentDatabase() AND name IN {tables:Array(String)} ORDER BY name`,
    { tables: HEIGHT_TABLES },
  );
  expect(rows).toHaveLength(HEIGHT_TABLES.length);
  return [...new Set(rows.map((r) => r.base))];
}

/** The real ingest of the sample chain up to `stopAtHeight`, with the merge-pace events it logged. */
async function ingestTo(stopAtHeight: number, thresholds?: { enterBulk: number; leaveBulk: number }) {
  const events: { event: string; fields?: Record<string, unknown> }[] = [];
  const log = {
    ...createLogger({ test: 'merge-pace' }),
    info: (event: string, fields?: Record<string, unknown>) => void events.push({ event, fields }),
    child() {
      return log;
    },
  };
  const { source, ingest } = sampleIngest(store, chain, {
    log,
    stopAtHeight,
    batchBlocks: 8,
    pollIntervalMs: 20,
    mergePaceThresholds: thresholds,
  });
  return {
    source,
    ingest,
    paces: () => events.filter((e) => e.event === 'ingest.merge_pace').map((e) => e.fields),
  };
}

beforeAll(async () => {
  chain = await startSampleChain('evm');
  dir = mkdtempSync(path.join(os.tmpdir(), 'merge-pace-'));
  store = createStore({ dataDir: path.join(dir, 'ch') });
  await migrate(store);
}, 60_000);
afterAll(async () => {
  await chain?.stop();
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the merge pace of the height tables', () => {
  it('is set on every height table, read back, and reset', async () => {
    const facts = factsStore(store);
    expect(await facts.mergePace()).toBe('head');
    expect(await mergeBases()).toEqual(['']);
    await facts.setMergePace('bulk');
    expect(await facts.mergePace()).toBe('bulk');
    expect(await mergeBases()).toEqual([String(BULK_MERGE_BASE)]);
    await facts.setMergePace('head');
    expect(await facts.mergePace()).toBe('head');
    expect(await mergeBases()).toEqual(['']);
  });

  it('is bulk during a backfill far behind the head, head again once caught up, with the same rows as at the head pace', async () => {
    const latest = chain.manifest.latestHeight;
    // The sample chain is short: thresholds of a few units make its backfill "far behind". The ingest runs past the
    // chain's end, so it catches up while running and then waits for blocks that do not come.
    const bulk = await ingestTo(latest + 1, { enterBulk: 2, leaveBulk: 1 });
    const running = bulk.ingest.run();
    await expect.poll(() => bulk.paces().length, { timeout: 60_000 }).toBe(2);
    await bulk.ingest.stop();
    await running;
    bulk.source.close();
    const [enter, leave] = bulk.paces();
    // Bulk after the first batch (the chain's density known), head at the head read once caught up: not on the way out.
    expect(enter?.pace).toBe('bulk');
    expect(enter?.blocks_left).toBeGreaterThan(0);
    expect(leave).toEqual({ pace: 'head', blocks_left: 0 });
    expect(await factsStore(store).checkpoint()).toBe(latest);
    expect(await mergeBases()).toEqual(['']);
    const atBulkPace = await dumpTables(store, HEIGHT_TABLES);
    expect(JSON.parse(atBulkPace.txs!).length).toBe(chain.manifest.txs.length);

    // The same chain again from nothing with the default thresholds: it never leaves the head pace.
    await factsStore(store).rewindTo(0);
    const head = await ingestTo(latest);
    await head.ingest.run();
    head.source.close();
    expect(head.paces()).toEqual([]);
    expect(await dumpTables(store, HEIGHT_TABLES)).toEqual(atBulkPace);
  }, 120_000);

  it('left at bulk by a killed process, is set back to head by the next start at the head', async () => {
    const latest = chain.manifest.latestHeight;
    expect(await factsStore(store).checkpoint()).toBe(latest);
    // What a SIGKILL mid-backfill leaves: the setting is in each table's metadata, not in the process.
    await factsStore(store).setMergePace('bulk');
    const again = await ingestTo(latest + 1);
    const running = again.ingest.run();
    await expect.poll(() => factsStore(store).mergePace(), { timeout: 10_000 }).toBe('head');
    expect(again.paces()).toEqual([{ pace: 'head', blocks_left: 0 }]);
    await again.ingest.stop();
    await running;
    again.source.close();
    expect(await mergeBases()).toEqual(['']);
  }, 60_000);
});

/** The ingest_merge_pace_bulk gauge as /metrics would report it. */
const paceGauge = async () => (await metrics.ingestMergePaceBulk.get()).values[0]?.value;

describe('the merge pacer on the height tables', () => {
  const log = createLogger({ test: 'merge-pace' });
  const t = { enterBulk: 100, leaveBulk: 20 };

  it('sets tables a killed change left disagreeing, whichever pace it decides', async () => {
    const facts = factsStore(store);
    for (const table of HEIGHT_TABLES.slice(0, 5))
      await store.exec(`ALTER TABLE ${table} MODIFY SETTING merge_selector_base = ${BULK_MERGE_BASE}`);
    expect(await facts.mergePace()).toBeNull();
    const toBulk = await mergePacer(facts, log, 0.2, t);
    await toBulk.update({ blocksLeft: 1_000, txsPerBlock: 1, headFresh: true });
    expect(await mergeBases()).toEqual([String(BULK_MERGE_BASE)]);
    for (const table of HEIGHT_TABLES.slice(0, 5))
      await store.exec(`ALTER TABLE ${table} RESET SETTING merge_selector_base`);
    expect(await facts.mergePace()).toBeNull();
    const toHead = await mergePacer(facts, log, 0.2, t);
    await toHead.update({ blocksLeft: 3, txsPerBlock: null, headFresh: true });
    expect(await mergeBases()).toEqual(['']);
  });

  it("waits for the chain's density before the bulk pace, and for a fresh head before leaving it", async () => {
    const facts = factsStore(store);
    const pacer = await mergePacer(facts, log, 0.2, t);
    // Before the first batch: a million blocks may be empty ones (200,000 units) or dense ones; the pace waits.
    await pacer.update({ blocksLeft: 1_000_000, txsPerBlock: null, headFresh: true });
    expect(await facts.mergePace()).toBe('head');
    await pacer.update({ blocksLeft: 1_000_000, txsPerBlock: 0, headFresh: false });
    expect(await facts.mergePace()).toBe('bulk');
    expect(await paceGauge()).toBe(1);
    // Caught up with a head read long ago: not yet.
    await pacer.update({ blocksLeft: 5, txsPerBlock: 0, headFresh: false });
    expect(await facts.mergePace()).toBe('bulk');
    await pacer.update({ blocksLeft: 5, txsPerBlock: 0, headFresh: true });
    expect(await facts.mergePace()).toBe('head');
    expect(await paceGauge()).toBe(0);
    await pacer.finish();
    expect(await facts.mergePace()).toBe('head');
  });
});
