// What a restart of the ingest costs on an indexed chain: every start runs the facts store's recovery (delete what a
// crash left above the checkpoint, usually nothing) and the analytics' rebuild of the days that touched. An empty
// range used to mark every day, so each start truncated every aggregate and refilled it from all the facts while the
// API served them (bench/reports/2026-11-29-reviewed-data.md).
// Run: npx tsx bench/restart-recovery.ts [txs=100000] [txsPerBlock=100] [--rounds 2] [--root OLD_WORKTREE]
//   Builds one chain in embedded chDB (the real ingest over chain-sim), then times the recovery on a fresh copy of it
//   for this code and, with --root, for another worktree's code (its own copy of this script), interleaved.
// Internal: --measure DIR times one recovery on DIR with this script's own code and prints a JSON line.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
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
  await migrate(store);
  const [stats] = await store.rows<{ n: string }>('SELECT count() AS n FROM stats_txs');
  const t0 = performance.now();
  const { checkpoint, deleted } = await factsStore(store).recover();
  const ms = performance.now() - t0;
  const [after] = await store.rows<{ n: string }>('SELECT count() AS n FROM stats_txs');
  await store.close();
  console.log(
    JSON.stringify({
      recover_ms: Math.round(ms),
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

// One indexed chain, built once with this code.
const { proc: server, ready } = serveReplicatedChain([String(count), perBlock, 'evm']);
const chain = await ready;
const base = mkdtempSync(path.join(os.tmpdir(), 'bench-restart-'));
const built = path.join(base, 'built');
{
  const store = createStore({ dataDir: built });
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
}
server.kill('SIGTERM');

const roots = [{ code: 'new', root: path.resolve(here, '..') }];
if (oldRoot) {
  const script = path.join(oldRoot, 'bench', 'restart-recovery.ts');
  if (!existsSync(script)) copyFileSync(fileURLToPath(import.meta.url), script);
  roots.push({ code: 'old', root: path.resolve(oldRoot) });
}
console.log(`chain: ${count} txs, ${perBlock} a block, ${chain.blocks} blocks`);
for (let r = 1; r <= rounds; r++)
  for (const { code, root } of roots) {
    const copy = path.join(base, `copy-${code}-${r}`);
    cpSync(built, copy, { recursive: true });
    execFileSync('sync');
    const cal = cpuCalibrationMs();
    const run = spawnSync('npx', ['tsx', 'bench/restart-recovery.ts', '--measure', copy], {
      cwd: root,
      encoding: 'utf8',
    });
    const line = run.stdout
      .trim()
      .split('\n')
      .filter((l) => l.startsWith('{"recover_ms"'))
      .at(-1);
    if (!line) throw new Error(`${code}: no result\n${run.stdout}\n${run.stderr}`);
    console.log(JSON.stringify({ round: r, code, cpu_calibration_ms: cal, ...JSON.parse(line) }));
    rmSync(copy, { recursive: true, force: true });
  }
rmSync(base, { recursive: true, force: true });
