// A batch's inserts at once (docs/decisions/025-inserts-in-parallel.md): the plan the facts store follows
// (clickhouse/facts-store.ts `insertPlan`, read from the migrations), and the embedded engine's writer sessions
// (clickhouse/client.ts) that run them, on real chDB.
import { rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createStore, type Store } from '../../clickhouse/client.js';
import { factsStore, HEIGHT_TABLES, insertPlan } from '../../clickhouse/facts-store.js';
import { migrate } from '../../clickhouse/migrate.js';

describe('insertPlan', () => {
  const plan = insertPlan([...HEIGHT_TABLES]);

  it('writes txs alone, after every other table', () => {
    expect(plan).toHaveLength(2);
    expect(plan[1]).toEqual([['txs']]);
    expect(plan[0]!.flat()).not.toContain('txs');
    expect(insertPlan(['blocks'])).toEqual([[['blocks']]]);
  });

  it('holds every table once, in migration order within a lane', () => {
    const all = plan.flat(2);
    expect([...all].sort()).toEqual([...HEIGHT_TABLES].sort());
    for (const lane of plan[0]!)
      expect(lane).toEqual([...lane].sort((a, b) => HEIGHT_TABLES.indexOf(a) - HEIGHT_TABLES.indexOf(b)));
  });

  it('puts tables whose views read each other in one lane, collection events before contracts', () => {
    const lane = plan[0]!.find((l) => l.includes('evm_contracts'));
    expect(lane).toEqual(['nft_collection_events', 'evm_contracts']);
    // The views of every other table read only the rows being inserted: a lane each.
    for (const l of plan[0]!) if (l !== lane) expect(l).toHaveLength(1);
    expect(insertPlan(['evm_contracts', 'blocks', 'nft_collection_events'])[0]).toContainEqual([
      'nft_collection_events',
      'evm_contracts',
    ]);
  });

  it('refuses a table that is not height-keyed', () => {
    expect(() => insertPlan(['blocks', 'richlist'])).toThrow(/not a height-keyed table.*richlist/);
  });
});

describe('writer sessions', () => {
  const dir = path.join(os.tmpdir(), `insert-plan-${process.pid}`);
  const store = createStore({ dataDir: dir, readSessions: 1, writeSessions: 2 });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lands every insert of many at once on two sessions, and a failed one gives its session back', async () => {
    await store.exec('CREATE TABLE w (k UInt64) ENGINE = MergeTree ORDER BY k');
    const results = await Promise.allSettled(
      Array.from({ length: 12 }, (_, i) => store.insert(i % 4 === 3 ? 'no_such_table' : 'w', [{ k: i }])),
    );
    expect(results.filter((r) => r.status === 'rejected')).toHaveLength(3);
    // Both sessions still serve: more inserts than sessions, after the failures.
    await Promise.all([12, 13, 14].map((k) => store.insert('w', [{ k }])));
    const rows = await store.rows<{ k: string }>('SELECT k FROM w ORDER BY k');
    expect(rows.map((r) => Number(r.k))).toEqual([0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14]);
  });

  it('starts the lanes at once, txs after them, the checkpoint last; lane by lane when asked', async () => {
    await migrate(store);
    // The real store, each insert's start and end recorded.
    const events: string[] = [];
    const traced: Store = {
      ...store,
      insert: async (table, values, settings, jsonText) => {
        events.push(`start ${table}`);
        try {
          await store.insert(table, values, settings, jsonText);
        } finally {
          events.push(`end ${table}`);
        }
      },
    };
    const facts = factsStore(traced);
    const rows = (h: number) => ({
      blocks: [{ height: h, hash: `B${h}`, time: '2026-11-29 00:00:00', proposer: 'p', tx_count: 1 }],
      ingest_errors: [{ height: h, tx_index: 0, kind: 'decode', message: `e${h}` }],
      nft_collection_events: [{ height: h, sequence: h * 1_000_000, collection: `0x${h}` }],
      evm_contracts: [{ height: h, sequence: h * 1_000_000, address: `0x${h}` }],
      txs: [{ height: h, sequence: h * 1_000_000, hash: `T${h}` }],
      tx_documents: [],
    });
    const seen: string[] = [];
    await facts.insertBatch(rows(1), 1, (t) => seen.push(t), true);
    const at = (e: string) => events.indexOf(e);
    const firstEnd = events.findIndex((e) => e.startsWith('end '));
    for (const t of ['blocks', 'ingest_errors', 'nft_collection_events'])
      expect(at(`start ${t}`)).toBeLessThan(firstEnd);
    expect(at('start evm_contracts')).toBeGreaterThan(at('end nft_collection_events'));
    for (const t of ['blocks', 'ingest_errors', 'evm_contracts'])
      expect(at('start txs')).toBeGreaterThan(at(`end ${t}`));
    expect(at('start ingest_checkpoints')).toBeGreaterThan(at('end txs'));
    expect(events.filter((e) => e.includes('tx_documents'))).toEqual([]);
    expect(seen.sort()).toEqual(['blocks', 'evm_contracts', 'ingest_errors', 'nft_collection_events', 'txs']);

    events.length = 0;
    await facts.insertBatch(rows(2), 2, undefined, false);
    // One after another: every start follows the end of the insert before it.
    for (let i = 0; i < events.length; i += 2) expect(events[i + 1]).toBe(events[i]!.replace('start', 'end'));
    expect(events.at(-2)).toBe('start ingest_checkpoints');
    expect(await facts.checkpoint()).toBe(2);
    const stored = await store.rows<{ height: string; hash: string }>('SELECT height, hash FROM txs ORDER BY height');
    expect(stored).toEqual([
      { height: '1', hash: 'T1' },
      { height: '2', hash: 'T2' },
    ]);
  });

  it('writes no checkpoint when a lane fails; recover() removes what the other lanes wrote', async () => {
    const facts = factsStore(store);
    const before = await facts.checkpoint();
    const bad = {
      blocks: [{ height: 3, hash: 'B3', time: '2026-11-29 00:00:00', proposer: 'p', tx_count: 0 }],
      ingest_errors: [{ height: 3, tx_index: 'not a number', kind: 'decode', message: 'e3' }],
    };
    await expect(facts.insertBatch(bad, 3, undefined, true)).rejects.toThrow();
    expect(await facts.checkpoint()).toBe(before);
    // The blocks lane's row is above the checkpoint: recover() deletes it.
    const { deleted } = await facts.recover();
    expect(deleted).toBe(1);
  });
});
