// Ingest side by side with rollytics (issue 13): both indexers backfill the same chain from height 1, one at a
// time, from one chain-sim process serving bench/ingest-chain.ts's replicated EVM chain (the sample chain's real
// txs with new heights and hashes), in its `real-signers` form (every tx with a signer key and its own
// signature, ERC721 tokenURI answers: what rollytics needs, bench/reports/2026-11-24-rollytics.md).
//   npx tsx bench/rollytics-ingest.ts [--txs 200000] [--per-block 100]
// Reports, per indexer: wall time from the moment it answers HTTP to /status at the chain's height, blocks/s,
// txs/s, peak RSS (ours: the main process; rollytics: indexer + API + every Postgres process, summed), bytes on
// disk per tx (ours: ClickHouse `bytes_on_disk` of the active parts, read after it stopped; rollytics:
// `pg_database_size`), and ours ÷ rollytics. Machine line and load average included; the table is printed and
// written with the raw figures to bench/results/rollytics-ingest-<time>.json. Each backfill has 15 minutes.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createStore } from '../clickhouse/client.js';
import { freePort, IngestProcess } from '../devnet/minievm/ingest-process.js';
import type { NodeEndpoints } from '../devnet/minievm/node-client.js';
import { REPO_ROOT, scriptEnv } from '../devnet/run-script.js';
import { machine as calibrate } from './machine.js';
import { serveReplicatedChain } from './replicated-chain.js';
import { backfill, option, rollyticsIndexerExited, rollyticsPids, sh } from './side-by-side.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const opt = (name: string, dflt: string) => option(args, name, dflt);
const txs = Number(opt('--txs', '200000'));
const perBlock = Number(opt('--per-block', '100'));
if (!Number.isSafeInteger(txs) || txs < 100 || !Number.isSafeInteger(perBlock) || perBlock < 1 || perBlock > 10_000) {
  console.error('usage: bench/rollytics-ingest.ts [--txs N ≥ 100] [--per-block 1..10000]');
  process.exit(2);
}

const tmp = mkdtempSync(path.join(os.tmpdir(), 'bench-rollytics-ingest-'));
// Generated while rollytics builds below.
const { proc: sim, ready } = serveReplicatedChain([String(txs), String(perBlock), 'evm', 'real-signers'], {
  cwd: REPO_ROOT,
});
let ours: IngestProcess | undefined;
let rollyticsUp = false;
try {
  sh(path.join(REPO_ROOT, 'devnet/rollytics/build.sh'), []);
  sh(path.join(REPO_ROOT, 'devnet/rollytics/install-postgres.sh'), []);
  const chain = await ready;
  if (chain.evmUrl === undefined) throw new Error('bench/ingest-chain.ts served an EVM chain without EVM JSON-RPC');

  const height = chain.blocks;
  const ep: NodeEndpoints = {
    chainId: chain.chainId,
    cometRpc: chain.rpcUrl,
    rest: chain.restUrl,
    evmRpc: chain.evmUrl,
  };
  process.stdout.write(`chain: ${chain.chainId}, ${height} blocks, ${txs} txs (${perBlock} per block)\n`);

  // The calibration loop before ours, between the two and after rollytics: figures compare only beside it.
  const calibration = [calibrate().cpuCalibrationMs];
  // 1. ours (internal txs off: rollytics skips them on this chain, whose node reports minievm v1.0.0 < v1.1.0)
  const oursDir = path.join(tmp, 'ours');
  ours = new IngestProcess({
    endpoints: ep,
    dataDir: oursDir,
    port: await freePort(),
    extraEnv: { LOG_LEVEL: 'warn', EVM_INTERNAL_TXS: 'false' },
  });
  await ours.start();
  const oursPid = ours.pid ?? 0;
  const oursIngest = await backfill(ours.baseUrl, height, () => [oursPid], Date.now());
  process.stdout.write(`ours: ${oursIngest.seconds.toFixed(1)} s, peak RSS ${oursIngest.peakRssMb} MB\n`);
  await ours.stop();
  ours = undefined;
  const store = createStore({ dataDir: path.join(oursDir, 'clickhouse') });
  const [disk] = await store.rows<{ bytes: string }>(
    'SELECT sum(bytes_on_disk) AS bytes FROM system.parts WHERE active AND database = currentDatabase()',
  );
  const oursBytes = Number(disk?.bytes ?? 0);

  calibration.push(calibrate().cpuCalibrationMs);
  // 2. rollytics
  const rState = path.join(tmp, 'rollytics');
  rollyticsUp = true;
  const r = scriptEnv(
    sh(path.join(REPO_ROOT, 'devnet/rollytics/start.sh'), [rState], {
      CHAIN_ID: chain.chainId,
      COMETBFT_RPC_URL: chain.rpcUrl,
      COSMOS_REST_URL: chain.restUrl,
      EVM_JSONRPC_URL: chain.evmUrl,
      // rollytics' rich-list extension starts by reading every account and its bank balances at the head
      // (/cosmos/auth/v1beta1/accounts, /cosmos/bank/v1beta1/balances/…), state chain-sim does not keep: it
      // panics without it. Off here, so this backfill favours rollytics (ours builds its rich list meanwhile).
      ROLLYTICS_EXTRA_ENV: `${process.env.ROLLYTICS_EXTRA_ENV ?? ''} RICH_LIST=false`.trim(),
    }),
  );
  const t0 = Date.now();
  const theirIngest = await backfill(
    r.ROLLYTICS_API_URL ?? '',
    height,
    () => rollyticsPids(rState),
    t0,
    () => rollyticsIndexerExited(rState),
  );
  process.stdout.write(`rollytics: ${theirIngest.seconds.toFixed(1)} s, peak RSS ${theirIngest.peakRssMb} MB\n`);
  const theirBytes = Number(
    execFileSync('psql', ['-X', '-At', r.ROLLYTICS_DB_DSN ?? '', '-c', 'select pg_database_size(current_database())'], {
      encoding: 'utf8',
    }).trim(),
  );
  const theirTxs = Number(
    execFileSync('psql', ['-X', '-At', r.ROLLYTICS_DB_DSN ?? '', '-c', 'select count(*) from tx'], {
      encoding: 'utf8',
    }).trim(),
  );

  calibration.push(calibrate().cpuCalibrationMs);
  // 3. report
  const cpus = os.cpus();
  const machine = `${cpus.length} × ${cpus[0]?.model ?? '?'}, ${Math.round(os.totalmem() / 2 ** 30)} GB, ${os.platform()} ${os.release()}, node ${process.version}`;
  const load = os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
  const ratio = (a: number, b: number) => (b > 0 ? (a / b).toFixed(2) : 'n/a');
  const lines = [
    `machine: ${machine}; load average at the end: ${load}; CPU calibration loop before ours, between, after rollytics: ${calibration.join(' / ')} ms`,
    `chain: chain-sim replicated EVM chain (real-signers), ${height} blocks, ${txs} txs (${perBlock}/block); rollytics stored ${theirTxs} txs`,
    '',
    '| figure | ours | rollytics | ours / rollytics |',
    '|---|---|---|---|',
    `| backfill wall time (s, lower is better) | ${oursIngest.seconds.toFixed(1)} | ${theirIngest.seconds.toFixed(1)} | ${ratio(oursIngest.seconds, theirIngest.seconds)} |`,
    `| blocks/s | ${(height / oursIngest.seconds).toFixed(1)} | ${(height / theirIngest.seconds).toFixed(1)} | ${ratio(theirIngest.seconds, oursIngest.seconds)} |`,
    `| txs/s | ${(txs / oursIngest.seconds).toFixed(1)} | ${(txs / theirIngest.seconds).toFixed(1)} | ${ratio(theirIngest.seconds, oursIngest.seconds)} |`,
    `| peak RSS (MB; rollytics: indexer + API + Postgres) | ${oursIngest.peakRssMb} | ${theirIngest.peakRssMb} | ${ratio(oursIngest.peakRssMb, theirIngest.peakRssMb)} |`,
    `| bytes on disk per tx (ClickHouse bytes_on_disk / pg_database_size) | ${Math.round(oursBytes / txs)} | ${Math.round(theirBytes / txs)} | ${ratio(oursBytes, theirBytes)} |`,
  ];
  const table = lines.join('\n');
  process.stdout.write(`\n${table}\n`);
  mkdirSync(path.join(here, 'results'), { recursive: true });
  const out = path.join(here, 'results', `rollytics-ingest-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(
    out,
    JSON.stringify(
      {
        machine,
        load,
        calibration,
        txs,
        perBlock,
        height,
        ours: { ...oursIngest, bytes: oursBytes },
        rollytics: { ...theirIngest, bytes: theirBytes, txs: theirTxs },
        table,
      },
      null,
      1,
    ),
  );
  process.stdout.write(`results: ${path.relative(REPO_ROOT, out)}\n`);
} finally {
  await ours?.stop();
  if (rollyticsUp) sh(path.join(REPO_ROOT, 'devnet/rollytics/stop.sh'), [path.join(tmp, 'rollytics')]);
  sim.kill('SIGTERM');
  rmSync(tmp, { recursive: true, force: true });
}
process.exit(0);
