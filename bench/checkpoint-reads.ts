// The reads the ingest makes after every batch, and the dashboard's rate, on a long history: N synthetic blocks (one
// every 500 ms) and as many checkpoints (one a batch: at the head, one a block) in embedded chDB. Times
// `sealNewAccounts` (after every checkpoint) and `ingestRate` (the dashboard's blocks a second), the real functions.
// Their cost must not grow with the history (decision 024).
// Run: npx tsx bench/checkpoint-reads.ts [blocks=5000000] [rounds=5]; old code: the same from its worktree.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as progress from '../api/indexer/read/progress.js';
import { sealNewAccounts } from '../clickhouse/analytics.js';
import { createStore } from '../clickhouse/client.js';
import { migrate } from '../clickhouse/migrate.js';
import { cpuCalibrationMs, machine } from './machine.js';

const blocks = Number(process.argv[2] ?? 5_000_000);
const rounds = Number(process.argv[3] ?? 5);
const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-checkpoint-reads-'));
const store = createStore({ dataDir: path.join(dir, 'clickhouse') });
try {
  await migrate(store);
  // The history's block rows only (its analytics views would fill with synthetic buckets).
  for (const v of ['stats_blocks_mv', 'stats_fees_mv']) await store.exec(`DROP VIEW IF EXISTS ${v}`);
  await store.exec(
    `INSERT INTO blocks (height, hash, time)
     SELECT number + 1, hex(number), toDateTime64('2025-01-01 00:00:00', 9, 'UTC') + toIntervalMillisecond(number * 500)
     FROM numbers({n:UInt64})`,
    { n: blocks },
  );
  await store.exec(
    `INSERT INTO ingest_checkpoints (height, written_at)
     SELECT number + 1, now64(3) - toIntervalMillisecond(({n:UInt64} - number) * 500) FROM numbers({n:UInt64})`,
    { n: blocks },
  );
  for (const t of ['blocks', 'ingest_checkpoints']) await store.exec(`OPTIMIZE TABLE ${t} FINAL`);
  const rate = (progress as { ingestRate?: (s: typeof store) => Promise<number | null> }).ingestRate;
  const timed = async (f: () => Promise<unknown>) => {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    await f();
    const c = process.cpuUsage(c0);
    return { ms: Math.round((performance.now() - t0) * 10) / 10, cpu_ms: Math.round((c.user + c.system) / 100) / 10 };
  };
  console.log(JSON.stringify({ machine: machine(), blocks }));
  for (let r = 0; r < rounds; r++)
    console.log(
      JSON.stringify({
        round: r,
        cpu_calibration_ms: cpuCalibrationMs(),
        seal_new_accounts: await timed(() => sealNewAccounts(store)),
        ingest_rate: rate ? await timed(() => rate(store)) : 'not in this code',
      }),
    );
} finally {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}
