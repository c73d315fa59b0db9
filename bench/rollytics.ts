// Side-by-side benchmark: our indexer vs the reference indexer rollytics, same chain, same machine, one run.
//
//  1. chain: a minievm devnet (rollytics' genesis edits) filled by the traffic generator (DEFAULT_SHAPE × --scale),
//     then restarted without empty blocks so its head stays still;
//  2. ingest backfill, one indexer at a time, from height 1 to the still head: wall time, blocks/s, txs/s, peak RSS
//     (ours: the main process; rollytics: indexer + every Postgres process), bytes on disk per tx (our DATA_DIR vs
//     pg_database_size);
//  3. API, both running, ours and theirs in turn for each endpoint (the VM's drift falls on both alike): per
//     endpoint, random keys from the chain (heights, tx hashes, accounts, tokens), p50/p99 at 1 connection and
//     req/s at 32 connections (--rounds turns of 32-connection runs, the median kept: one 5 s run on this VM swings
//     by up to 2×), with the servers' CPU time per 1,000 requests beside it (ours: the main job; rollytics: its API,
//     indexer and Postgres processes; the load generator shares the two cores, so CPU per request is the figure the
//     client does not bound), with each side's default response cache and with caches bypassed
//     (ours: INDEXER_RESPONSE_CACHE=false; rollytics has no switch: a unique `_nc` query parameter per request
//     misses its cache, whose key is the raw query string, and its router ignores unknown parameters);
//  4. one table of ours / theirs ratios with the machine line and the load average; JSON in bench/results/.
//
// `--alone` stops the other side's processes (SIGSTOP, then SIGCONT) while one side's API is measured, so each side
// has the two cores to itself, the chain node and the load generator, as one indexer per machine would. Without it
// both run throughout, and the other side's background work (rollytics' indexer took 50-90 % of a core on a still
// chain in some runs) falls on whichever side is measured then.
//
// `--settle S` (30): both sides sit idle for S seconds after the backfills, each one's CPU printed per 5-s window,
// before the API rows, so the rows measure serving and not a side's clean-up after its backfill (ours: V8's memory
// reducer and the engine's merges, 70-100 ms a second for the first tens of seconds; bench/reports/2026-11-28-idle-cpu.md).
//
// Usage: npx tsx bench/rollytics.ts [--scale N (1)] [--seconds S (5)] [--rounds R (3)] [--endpoints a,b (all)]
//          [--alone] [--settle S (30)]
//   A tiny proof run: --scale 1 --seconds 1. Real figures: a quiet machine (bench/reports/2026-11-24-rollytics.md).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
// @ts-expect-error -- autocannon ships no types; the slice we use is typed below
import autocannonUntyped from 'autocannon';
import { bech32ToEvm } from '../devnet/minievm/accounts.js';
import { freePort, IngestProcess } from '../devnet/minievm/ingest-process.js';
import { latestHeight, sleep, type NodeEndpoints } from '../devnet/minievm/node-client.js';
import { REPO_ROOT, scriptEnv } from '../devnet/run-script.js';
import { backfill, cpuMs, option, rollyticsIndexerExited, rollyticsPids, sh, withChildren } from './side-by-side.js';
import { runTraffic } from '../devnet/minievm/traffic.js';
import { DEFAULT_SHAPE, planTraffic, type TrafficShape } from '../devnet/minievm/traffic-plan.js';
import { freePortBase } from '../devnet/minievm/devnet-process.js';
import { readChainKeys, waitForFeeData } from '../devnet/rollytics/probes.js';
import { cpuCalibrationMs } from './machine.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const opt = (name: string, dflt: string) => option(args, name, dflt);
const scale = Number(opt('--scale', '1'));
const seconds = Number(opt('--seconds', '5'));
const rounds = Number(opt('--rounds', '3'));
const only = opt('--endpoints', '').split(',').filter(Boolean);
const alone = args.includes('--alone');
/** Idle seconds before the API rows, both sides up (their post-backfill GCs and merges end first): --settle. */
const settleS = Number(opt('--settle', '30'));
/** The fixed CPU loop (bench/machine.ts) before anything runs; timed again at the end, both printed with the table. */
const calibrationStart = cpuCalibrationMs();
if (
  !(scale >= 1 && scale <= 100) ||
  !(seconds >= 1 && seconds <= 120) ||
  !(rounds >= 1 && rounds <= 9) ||
  !(settleS >= 0 && settleS <= 600)
) {
  console.error(
    'usage: bench/rollytics.ts [--scale 1..100] [--seconds 1..120] [--rounds 1..9] [--endpoints name,name] [--alone] [--settle 0..600 s]',
  );
  process.exit(2);
}

interface CannonResult {
  requests: { average: number; total: number };
  throughput: { average: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}
const autocannon = autocannonUntyped as (opts: Record<string, unknown>) => Promise<CannonResult>;

/** Send a signal to a process that may have exited meanwhile. Stopped processes are continued if the bench exits. */
const stoppedPids = new Set<number>();
function signal(pid: number, sig: 'SIGSTOP' | 'SIGCONT'): void {
  try {
    process.kill(pid, sig);
    if (sig === 'SIGSTOP') stoppedPids.add(pid);
    else stoppedPids.delete(pid);
  } catch {
    stoppedPids.delete(pid); // gone
  }
}
process.on('exit', () => {
  for (const pid of stoppedPids) signal(pid, 'SIGCONT');
});

function duBytes(dir: string): number {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) n += duBytes(p);
    else if (e.isFile()) n += statSync(p).size;
  }
  return n;
}

const tmp = mkdtempSync(path.join(os.tmpdir(), 'bench-rollytics-'));
let ours: IngestProcess | undefined;
let rollyticsUp = false;
let nodeUp = false;
try {
  // 1. chain
  sh(path.join(REPO_ROOT, 'devnet/minievm/build.sh'), []);
  sh(path.join(REPO_ROOT, 'devnet/rollytics/build.sh'), []);
  const shape: TrafficShape = {
    ...DEFAULT_SHAPE,
    bankSends: DEFAULT_SHAPE.bankSends * scale,
    erc20Transfers: DEFAULT_SHAPE.erc20Transfers * scale,
    nftMints: DEFAULT_SHAPE.nftMints * scale,
    nftTransfers: DEFAULT_SHAPE.nftTransfers * scale,
    nftBurns: DEFAULT_SHAPE.nftBurns * scale,
  };
  const nodeOpts = {
    PORT_BASE: String(await freePortBase()),
    DEVNET_ACCOUNTS: String(shape.accounts),
    GENESIS_FOR_ROLLYTICS: '1',
  };
  const nodeEnv = scriptEnv(sh(path.join(REPO_ROOT, 'devnet/minievm/start.sh'), [path.join(tmp, 'node')], nodeOpts));
  nodeUp = true;
  const ep: NodeEndpoints = {
    chainId: nodeEnv.CHAIN_ID ?? '',
    cometRpc: nodeEnv.COMETBFT_RPC_URL ?? '',
    rest: nodeEnv.COSMOS_REST_URL ?? '',
    evmRpc: nodeEnv.EVM_JSONRPC_URL ?? '',
  };
  const plan = planTraffic(shape);
  await waitForFeeData(ep);
  const traffic = await runTraffic(ep, plan);
  // rollytics' rich list runs 5 blocks behind its head: let 7 empty blocks pass before the head stops
  while ((await latestHeight(ep)) < traffic.lastHeight + 7) await sleep(250);
  // still head: the node restarted on its data without empty blocks
  sh(path.join(REPO_ROOT, 'devnet/minievm/stop.sh'), [path.join(tmp, 'node')]);
  sh(path.join(REPO_ROOT, 'devnet/minievm/start.sh'), [path.join(tmp, 'node')], {
    ...nodeOpts,
    RESUME: '1',
    EMPTY_BLOCKS: 'false',
  });
  let height = await latestHeight(ep);
  for (let still = 0; still < 6; ) {
    await sleep(500);
    const h = await latestHeight(ep);
    still = h === height ? still + 1 : 0;
    height = h;
  }
  const tokenIds = plan.phases.flat().flatMap((op) => (op.kind === 'erc721-mint' ? [op.tokenId.toString()] : []));
  const keys = await readChainKeys(ep, {
    collections: [{ address: traffic.nftAddress, name: 'Devnet Collection' }],
    tokens: tokenIds.map((tokenId) => ({ collection: traffic.nftAddress, tokenId })),
    denoms: ['umin', traffic.erc20Address],
  });
  const txs = keys.txHashes.length;
  process.stdout.write(`chain: height ${height}, ${txs} txs, ${keys.accounts.length} accounts\n`);

  // 2. ingest backfill, one at a time
  const oursDir = path.join(tmp, 'ours');
  const oursEnv = { RICHLIST_INTERVAL_MS: '1000', EVM_INTERNAL_TXS: 'true', LOG_LEVEL: 'warn' };
  // The clock starts when each indexer answers HTTP (after chDB / Postgres set-up and migrations).
  ours = new IngestProcess({ endpoints: ep, dataDir: oursDir, port: await freePort(), extraEnv: oursEnv });
  await ours.start();
  let t0 = Date.now();
  const oursIngest = await backfill(ours.baseUrl, height, () => (ours?.pid ? [ours.pid] : []), t0);
  const oursBytes = duBytes(oursDir);

  const rState = path.join(tmp, 'rollytics');
  rollyticsUp = true;
  const r = scriptEnv(sh(path.join(REPO_ROOT, 'devnet/rollytics/start.sh'), [rState], nodeEnv));
  t0 = Date.now();
  const theirs = r.ROLLYTICS_API_URL ?? '';
  const theirIngest = await backfill(
    theirs,
    height,
    () => rollyticsPids(rState),
    t0,
    () => rollyticsIndexerExited(rState),
  );
  const theirBytes = Number(
    execFileSync('psql', ['-X', '-At', r.ROLLYTICS_DB_DSN ?? '', '-c', 'select pg_database_size(current_database())'], {
      encoding: 'utf8',
    }).trim(),
  );

  // Each side's CPU with no request, in 5-s windows (its background work on a still chain: polling the node, timers,
  // engine threads, and right after a backfill its GCs and merges). It is inside every row's CPU per request, so the
  // rows start after --settle seconds of it (a deployment serves reads long after its backfill, not during its
  // clean-up), and the last window is printed beside them.
  const idleCpu = async (pids: () => number[]) => {
    const c0 = cpuMs(pids());
    await sleep(5000);
    return Math.round((cpuMs(pids()) - c0) / 5);
  };
  const idleSeries = { ours: [] as number[], rollytics: [] as number[] };
  // One 5-s window a side per 10 s of --settle, and at least one.
  for (let w = Math.max(1, Math.ceil(settleS / 10)); w > 0; w--) {
    idleSeries.ours.push(await idleCpu(() => (ours?.pid ? withChildren(ours.pid) : [])));
    idleSeries.rollytics.push(await idleCpu(() => rollyticsPids(rState)));
  }
  const idleMsPerS = { ours: idleSeries.ours.at(-1) ?? 0, rollytics: idleSeries.rollytics.at(-1) ?? 0 };
  process.stdout.write(
    `idle CPU ms/s by 5-s window: ours ${idleSeries.ours.join(' / ')}, rollytics ${idleSeries.rollytics.join(' / ')}\n`,
  );

  // 3. API
  const rnd = <T>(xs: T[]): T => xs[Math.floor(Math.random() * xs.length)] as T;
  const heights = Array.from({ length: height }, (_, i) => i + 1);
  const accts = keys.accounts.flatMap((a) => [a, bech32ToEvm(a).toLowerCase()]);
  const coll = traffic.nftAddress;
  const I = '/indexer';
  const scenarios: [string, () => string][] = [
    ['status', () => '/status'],
    ['avg_blocktime', () => `${I}/block/v1/avg_blocktime`],
    ['blocks first page', () => `${I}/block/v1/blocks`],
    ['block by height', () => `${I}/block/v1/blocks/${rnd(heights)}`],
    ['txs first page', () => `${I}/tx/v1/txs`],
    ['tx by hash', () => `${I}/tx/v1/txs/${rnd(keys.txHashes)}`],
    ['txs by_height', () => `${I}/tx/v1/txs/by_height/${rnd(keys.heightsWithTxs)}`],
    ['txs by_account', () => `${I}/tx/v1/txs/by_account/${rnd(accts)}`],
    ['collections', () => `${I}/nft/v1/collections`],
    ['collection by address', () => `${I}/nft/v1/collections/${coll}`],
    ['collections by_account', () => `${I}/nft/v1/collections/by_account/${rnd(accts)}`],
    ['collections by_name', () => `${I}/nft/v1/collections/by_name/Devnet`],
    ['tokens by_collection', () => `${I}/nft/v1/tokens/by_collection/${coll}`],
    ['tokens by_account', () => `${I}/nft/v1/tokens/by_account/${rnd(accts)}`],
    ['nft txs', () => `${I}/nft/v1/txs/${coll}/${rnd(tokenIds)}`],
    ['richlist (ERC20)', () => `${I}/richlist/v1/${traffic.erc20Address}`],
  ].filter(([n]) => only.length === 0 || only.includes(n as string)) as [string, () => string][];

  interface Row {
    endpoint: string;
    cache: 'default' | 'bypassed';
    side: 'ours' | 'rollytics';
    p50: number;
    p99: number;
    rps1: number;
    /** The median of the rounds' req/s at 32 connections, and each round's. */
    rps32: number;
    rounds: number[];
    /** The server's CPU time per 1,000 requests at 32 connections (the median round's). */
    cpuPer1000: number;
    /** Bytes per response at 32 connections, headers included (autocannon's throughput / requests). */
    bytes: number;
    non2xx: number;
  }
  const rows: Row[] = [];
  const cannon = (base: string, pathOf: () => string, connections: number, duration: number) =>
    autocannon({
      url: base,
      connections,
      duration,
      requests: [{ method: 'GET', setupRequest: (req: Record<string, unknown>) => ({ ...req, path: pathOf() }) }],
    });
  /** A row being measured: its figures so far, its request paths, and each round's CPU per 1,000 requests. */
  interface Measured {
    row: Row;
    pathOf: () => string;
    cpus: number[];
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
  /** One endpoint on one side, first round: a warm-up, then 1 and 32 connections. */
  const measure = async (
    side: Row['side'],
    cache: Row['cache'],
    base: string,
    pids: () => number[],
    endpoint: string,
    gen: () => string,
  ) => {
    let n = 0;
    const pathOf =
      side === 'rollytics' && cache === 'bypassed'
        ? () => {
            const p = gen();
            return `${p}${p.includes('?') ? '&' : '?'}_nc=${++n}`;
          }
        : gen;
    await cannon(base, pathOf, 1, 1); // warm-up
    const one = await cannon(base, pathOf, 1, seconds);
    const m: Measured = {
      row: {
        endpoint,
        cache,
        side,
        p50: one.latency.p50,
        p99: one.latency.p99,
        rps1: Math.round(one.requests.average),
        rps32: 0,
        rounds: [],
        cpuPer1000: 0,
        bytes: 0,
        non2xx: one.non2xx + one.errors + one.timeouts,
      },
      pathOf,
      cpus: [],
    };
    await again(m, base, pids);
    const row = m.row;
    row.rps32 = row.rounds[0] ?? 0;
    row.cpuPer1000 = m.cpus[0] ?? 0;
    rows.push(row);
    process.stdout.write(
      `${side.padEnd(9)} ${cache.padEnd(8)} ${endpoint.padEnd(24)} p50 ${row.p50} ms  p99 ${row.p99} ms  ${row.rps32} req/s @32  ${row.cpuPer1000} CPU ms/1k  ${row.bytes} B/resp  errors ${row.non2xx}\n`,
    );
    return m;
  };
  /** One 32-connection round of a row: its req/s, the servers' CPU per 1,000 requests, bytes per response. */
  async function again(m: Measured, base: string, pids: () => number[]) {
    const cpu0 = cpuMs(pids());
    const many = await cannon(base, m.pathOf, 32, seconds);
    const cpu = cpuMs(pids()) - cpu0;
    m.row.rounds.push(Math.round(many.requests.average));
    m.cpus.push(many.requests.total > 0 ? Math.round((cpu * 1000) / many.requests.total) : 0);
    if (m.row.bytes === 0 && many.requests.average > 0)
      m.row.bytes = Math.round(many.throughput.average / many.requests.average);
    m.row.non2xx += many.non2xx + many.errors + many.timeouts;
  }
  const settle = (m: Measured) => {
    m.row.rps32 = median(m.row.rounds);
    m.row.cpuPer1000 = median(m.cpus);
    process.stdout.write(
      `${m.row.side.padEnd(9)} ${m.row.cache.padEnd(8)} ${m.row.endpoint.padEnd(24)} rounds ${m.row.rounds.join(' / ')} req/s, median ${m.row.rps32}; CPU ms/1k ${m.cpus.join(' / ')}\n`,
    );
  };
  const oursPids = () => (ours?.pid ? withChildren(ours.pid) : []);
  const theirPids = () => rollyticsPids(rState);
  /** With --alone, the other side's processes are stopped while `run` measures one side, and continued after. */
  const withOtherStopped = async <T>(other: () => number[], run: () => Promise<T>): Promise<T> => {
    if (!alone) return run();
    const pids = other();
    for (const pid of pids) signal(pid, 'SIGSTOP');
    try {
      return await run();
    } finally {
      for (const pid of pids) signal(pid, 'SIGCONT');
    }
  };
  /** Ours and theirs take turns endpoint by endpoint and round by round, so the VM's drift falls on both alike. */
  const sideBySide = async (cache: Row['cache'], oursBase: string) => {
    for (const [endpoint, gen] of scenarios) {
      const o = await withOtherStopped(theirPids, () => measure('ours', cache, oursBase, oursPids, endpoint, gen));
      const t = await withOtherStopped(oursPids, () => measure('rollytics', cache, theirs, theirPids, endpoint, gen));
      for (let r = 1; r < rounds; r++) {
        await withOtherStopped(theirPids, () => again(o, oursBase, oursPids));
        await withOtherStopped(oursPids, () => again(t, theirs, theirPids));
      }
      settle(o);
      settle(t);
    }
  };
  await sideBySide('default', ours.baseUrl);
  await ours.stop();
  ours = new IngestProcess({
    endpoints: ep,
    dataDir: oursDir,
    port: await freePort(),
    extraEnv: { ...oursEnv, INDEXER_RESPONSE_CACHE: 'false' },
  });
  await ours.start();
  await sideBySide('bypassed', ours.baseUrl);

  // 4. report
  const cpus = os.cpus();
  const machine = `${cpus.length} × ${cpus[0]?.model ?? '?'}, ${Math.round(os.totalmem() / 2 ** 30)} GB, ${os.platform()} ${os.release()}, node ${process.version}`;
  const load = os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
  const ratio = (a: number, b: number) => (b > 0 ? (a / b).toFixed(2) : 'n/a');
  const calibrationEnd = cpuCalibrationMs();
  const lines = [
    `machine: ${machine}; load average at the end: ${load}; CPU calibration loop ${calibrationStart} ms at the start, ${calibrationEnd} ms at the end`,
    `chain: minievm devnet, height ${height}, ${txs} txs (traffic scale ${scale}); ${seconds} s per API run, ${rounds} rounds at 32 connections (median); ${alone ? 'each side measured alone (the other stopped)' : 'both sides running throughout'}`,
    '',
    '| figure | ours | rollytics | ours / rollytics |',
    '|---|---|---|---|',
    `| backfill wall time (s, lower is better) | ${oursIngest.seconds.toFixed(1)} | ${theirIngest.seconds.toFixed(1)} | ${ratio(oursIngest.seconds, theirIngest.seconds)} |`,
    `| backfill blocks/s | ${(height / oursIngest.seconds).toFixed(1)} | ${(height / theirIngest.seconds).toFixed(1)} | ${ratio(theirIngest.seconds, oursIngest.seconds)} |`,
    `| backfill txs/s | ${(txs / oursIngest.seconds).toFixed(1)} | ${(txs / theirIngest.seconds).toFixed(1)} | ${ratio(theirIngest.seconds, oursIngest.seconds)} |`,
    `| peak RSS during backfill (MB) | ${oursIngest.peakRssMb} | ${theirIngest.peakRssMb} | ${ratio(oursIngest.peakRssMb, theirIngest.peakRssMb)} |`,
    `| bytes on disk per tx | ${Math.round(oursBytes / txs)} | ${Math.round(theirBytes / txs)} | ${ratio(oursBytes, theirBytes)} |`,
    '',
    '| endpoint | caches | p50 ms ours / theirs | p99 ms ours / theirs | req/s @32 ours / theirs | req/s ratio | server CPU ms per 1k requests ours / theirs | bytes per response ours / theirs |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const cache of ['default', 'bypassed'] as const) {
    for (const [endpoint] of scenarios) {
      const o = rows.find((x) => x.side === 'ours' && x.cache === cache && x.endpoint === endpoint);
      const t = rows.find((x) => x.side === 'rollytics' && x.cache === cache && x.endpoint === endpoint);
      if (!o || !t) continue;
      const errs = o.non2xx || t.non2xx ? ` (errors: ours ${o.non2xx}, theirs ${t.non2xx})` : '';
      lines.push(
        `| ${endpoint} | ${cache} | ${o.p50} / ${t.p50} | ${o.p99} / ${t.p99} | ${o.rps32} / ${t.rps32} | ${ratio(o.rps32, t.rps32)}${errs} | ${o.cpuPer1000} / ${t.cpuPer1000} | ${o.bytes} / ${t.bytes} |`,
      );
    }
  }
  const table = lines.join('\n');
  process.stdout.write(`\n${table}\n`);
  mkdirSync(path.join(here, 'results'), { recursive: true });
  const out = path.join(here, 'results', `rollytics-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(
    out,
    JSON.stringify(
      {
        machine,
        load,
        scale,
        seconds,
        rounds,
        alone,
        height,
        txs,
        ingest: { ours: { ...oursIngest, bytes: oursBytes }, rollytics: { ...theirIngest, bytes: theirBytes } },
        idleCpuMsPerS: idleMsPerS,
        api: rows,
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
  if (nodeUp) sh(path.join(REPO_ROOT, 'devnet/minievm/stop.sh'), [path.join(tmp, 'node')]);
  rmSync(tmp, { recursive: true, force: true });
}
