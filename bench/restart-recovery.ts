// What a restart of the ingest costs on an indexed chain: every start runs the facts store's recovery (delete what a
// crash left above the checkpoint, usually nothing) and the analytics' rebuild of the days that touched. An empty
// range used to mark every day, so each start truncated every aggregate and refilled it from all the facts while the
// API served them (bench/reports/2026-11-29-reviewed-data.md). Skip indexes on height did not make it cheaper
// (docs/decisions/029-height-range-indexes.md).
// Run: npx tsx bench/restart-recovery.ts [txs=100000] [txsPerBlock=100] [--rounds 2] [--root OLD_WORKTREE]
//   Builds one chain in embedded chDB (the real ingest over chain-sim; with --root, by the old worktree's code, so the
//   store is one the old code wrote), then times the recovery on a fresh copy of it for this code and, with --root,
//   for the old code (its own copy of this script), interleaved. Each copy is started twice: the first start runs
//   the migrations an upgrade brings (timed apart), the second is a restart once their background work is done.
// Internal: --measure DIR times one start (migrations, then the recovery) on DIR with this script's own code and
//   prints a JSON line; --build DIR builds the chain into DIR with this script's own code.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createStore } from '../clickhouse/client.js';
import { factsStore } from '../clickhouse/facts-store.js';
import { migrate } from '../clickhouse/migrate.js';
import { createIngest } from '../ingest/pipeline.js';
import { createChainSource } from '../ingest/source.js';
import { createLogger } from '../platform/log.js';
import { cpuCalibrationMs } from './machine.js';
import { serveReplicatedChain } from './replicated-chain.js';

const args = process.argv.slice(2);
const flag = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};

const measureDir = flag('--measure');
if (measureDir) {
  const store = createStore({ dataDir: measureDir });
  const m0 = performance.now();
  const applied = await migrate(store);
  const migrateMs = performance.now() - m0;
  const [stats] = await store.rows<{ n: string }>('SELECT count() AS n FROM stats_txs');
  const t0 = performance.now();
  const { checkpoint, deleted } = await factsStore(store).recover();
  const ms = performance.now() - t0;
  const [after] = await store.rows<{ n: string }>('SELECT count() AS n FROM stats_txs');
  // Background work a migration started (an index built for old parts): waited for, so the next start is a restart.
  const w0 = performance.now();
  for (;;) {
    const [m] = await store.rows<{ n: string }>('SELECT count() AS n FROM system.mutations WHERE is_done = 0');
    if (Number(m?.n ?? 0) === 0) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  const backgroundMs = performance.now() - w0;
  await store.close();
  console.log(
    JSON.stringify({
      recover_ms: Math.round(ms),
      migrations: applied.length,
      migrate_ms: Math.round(migrateMs),
      background_ms: Math.round(backgroundMs),
      checkpoint,
      deleted,
      stats_rows: [Number(stats?.n), Number(after?.n)],
    }),
  );
  process.exit(0);
}

const here = path.dirname(fileURLToPath(import.meta.url));
const positional = args.filter((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--'));
const count = Number(positional[0] ?? 100_000);
const perBlock = positional[1] ?? '100';
const rounds = Number(flag('--rounds') ?? 2);
const oldRoot = flag('--root');

/** Build the chain into `dir` with this script's own code (the real ingest over chain-sim). */
async function build(dir: string): Promise<number> {
  const { proc: server, ready } = serveReplicatedChain([String(count), perBlock, 'evm']);
  const chain = await ready;
  const store = createStore({ dataDir: dir });
  await migrate(store);
  const source = createChainSource({
    rpcUrl: chain.rpcUrl,
    restUrl: chain.restUrl,
    evmUrl: chain.evmUrl,
    rpcBatch: 10,
  });
  const ingest = createIngest({
    store,
    source,
    vm: 'evm',
    log: createLogger({ bench: 'restart-recovery' }),
    stopAtHeight: chain.blocks,
  });
  await ingest.run();
  source.close();
  await store.close();
  server.kill('SIGTERM');
  return chain.blocks;
}

const buildDir = flag('--build');
if (buildDir) {
  console.log(JSON.stringify({ built: await build(buildDir) }));
  process.exit(0);
}

const base = mkdtempSync(path.join(os.tmpdir(), 'bench-restart-'));
const built = path.join(base, 'built');
// With --root, the store is the old code's: what an upgrade meets.
let blocks: number;
if (oldRoot) {
  const script = path.join(oldRoot, 'bench', 'restart-recovery.ts');
  copyFileSync(fileURLToPath(import.meta.url), script);
  const run = spawnSync('npx', ['tsx', 'bench/restart-recovery.ts', String(count), perBlock, '--build', built], {
    cwd: oldRoot,
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });
  const line = run.stdout.split('\n').find((l) => l.startsWith('{"built"'));
  if (!line) throw new Error(`build with ${oldRoot} failed\n${run.stderr.slice(-2000)}`);
  blocks = (JSON.parse(line) as { built: number }).built;
} else blocks = await build(built);

const roots = [{ code: 'new', root: path.resolve(here, '..') }];
if (oldRoot) roots.push({ code: 'old', root: path.resolve(oldRoot) });
console.log(`chain: ${count} txs, ${perBlock} a block, ${blocks} blocks${oldRoot ? ' (written by the old code)' : ''}`);
const measure = (root: string, dir: string) => {
  const run = spawnSync('npx', ['tsx', 'bench/restart-recovery.ts', '--measure', dir], { cwd: root, encoding: 'utf8' });
  const line = run.stdout
    .trim()
    .split('\n')
    .filter((l) => l.startsWith('{"recover_ms"'))
    .at(-1);
  if (!line) throw new Error(`no result\n${run.stdout}\n${run.stderr}`);
  return JSON.parse(line) as Record<string, unknown>;
};
for (let r = 1; r <= rounds; r++)
  for (const { code, root } of roots) {
    const copy = path.join(base, `copy-${code}-${r}`);
    cpSync(built, copy, { recursive: true });
    execFileSync('sync');
    for (const start of ['first', 'restart']) {
      const cal = cpuCalibrationMs();
      console.log(JSON.stringify({ round: r, code, start, cpu_calibration_ms: cal, ...measure(root, copy) }));
    }
    rmSync(copy, { recursive: true, force: true });
  }
rmSync(base, { recursive: true, force: true });
