// The embedded engine's read queue (clickhouse/client.ts): with every session busy, a follow-up statement
// (ReadOptions.followUp) is served before first statements that were already waiting, and each kind keeps its order.
// Real chDB, one session, so the order in which statements finish is the order in which they got it.
import { rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { createStore } from '../../clickhouse/client.js';

const dir = path.join(os.tmpdir(), `read-queue-${process.pid}`);
const store = createStore({ dataDir: dir, readSessions: 1 });
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

it('serves follow-up statements before waiting first statements, each in arrival order', async () => {
  const done: string[] = [];
  const read = (name: string, query: string, followUp: boolean) =>
    store.rows<{ v: number }>(query, { v: name.length }, { followUp }).then((rows) => {
      expect(rows).toEqual([{ v: name.length }]);
      done.push(name);
    });
  // The only session is busy for 300 ms while the others queue.
  const busy = read('busy', 'SELECT {v:UInt8} AS v FROM numbers(1) WHERE sleep(0.3) = 0', false);
  await new Promise((r) => setTimeout(r, 50));
  const queued = [
    read('first-a', 'SELECT {v:UInt8} AS v', false),
    read('first-b', 'SELECT {v:UInt8} AS v', false),
    read('follow-c', 'SELECT {v:UInt8} AS v', true),
    read('first-d', 'SELECT {v:UInt8} AS v', false),
    read('follow-e', 'SELECT {v:UInt8} AS v', true),
  ];
  await Promise.all([busy, ...queued]);
  expect(done).toEqual(['busy', 'follow-c', 'follow-e', 'first-a', 'first-b', 'first-d']);
});

it('gives a session only the parameter values it does not hold, and never answers with a stale one', async () => {
  // One session: every read runs on it, so each read after the first holds some of the values it needs.
  const seen: string[] = [];
  for (let i = 0; i < 60; i++) {
    const a = i % 3;
    const b = `x${(i * 7) % 4}'\\`; // quotes and backslashes travel escaped
    const withB = i % 2 === 0;
    const rows = await store.rows<{ a: number; b?: string }>(
      withB ? 'SELECT {a:UInt8} AS a, {b:String} AS b' : 'SELECT {a:UInt8} AS a',
      withB ? { a, b } : { a },
    );
    expect(rows).toEqual([withB ? { a, b } : { a }]);
    seen.push(`${a}${withB ? b : ''}`);
  }
  expect(new Set(seen).size).toBeGreaterThan(6); // the values did change between reads
  // A placeholder without a value still fails, even when the session holds one from an earlier read.
  await expect(store.rows('SELECT {a:UInt8} AS a', {})).rejects.toThrow(/has no value/);
});
