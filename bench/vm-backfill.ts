// Backfill and live lag on real Move and Wasm nodes, ours side by side with rollytics (issue 26).
// For each VM (minimove, miniwasm): a devnet accumulates TXS real signed txs (SENDERS accounts, each with up to
// INFLIGHT unconfirmed: bank sends and Move fungible-asset transfers on minimove; bank sends and `counter`
// executes on miniwasm, since rollytics crashes on CW721: docs/indexer.md); the node restarts without empty blocks
// (a still head); ours backfills it from height 1, then rollytics, one after the other, each timed from the moment
// it answers HTTP until /status reaches the head (blocks/s, txs/s, peak RSS). Then the node makes blocks again
// under the same traffic, both indexers follow it together, and for LAG_BLOCKS new heights the time from the
// node reporting a height to each indexer's /status reporting it is sampled (p50, p99, max).
// The CPU calibration loop (bench/machine.ts) is printed before and after each VM.
//
//   bash devnet/minimove/build.sh && bash devnet/miniwasm/build.sh && npx tsx bench/vm-backfill.ts
//   env: TXS (20000), SENDERS (16), INFLIGHT (16), LAG_BLOCKS (60), VMS (move,wasm); proof run: TXS=200 LAG_BLOCKS=5
// Measure on a quiet machine.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Any } from 'cosmjs-types/google/protobuf/any';
import type { Vm } from '../chain/vm.js';
import { deriveDevAccounts, type DevAccount } from '../devnet/minievm/accounts.js';
import { percentile } from '../devnet/minievm/checks.js';
import { CosmosSender, type Included } from '../devnet/minievm/cosmos-sender.js';
import { freePortBase } from '../devnet/minievm/devnet-process.js';
import { freePort, IngestProcess } from '../devnet/minievm/ingest-process.js';
import { getJson, latestHeight, sleep, txCount, type NodeEndpoints } from '../devnet/minievm/node-client.js';
import { measureStatusLag } from '../devnet/minievm/verify.js';
import { executeJsonAny, moveAddress, msgSendAny } from '../devnet/minimove/traffic.js';
import { eventAttr, wasmArtifact } from '../devnet/miniwasm/traffic.js';
import { REPO_ROOT, scriptEnv } from '../devnet/run-script.js';
import { machine, cpuCalibrationMs } from './machine.js';
import { backfill, rollyticsIndexerExited, rollyticsPids, sh } from './side-by-side.js';

const TXS = Number(process.env.TXS ?? '20000');
const SENDERS = Number(process.env.SENDERS ?? '16');
const INFLIGHT = Number(process.env.INFLIGHT ?? '16');
const LAG_BLOCKS = Number(process.env.LAG_BLOCKS ?? '60');
const VMS = (process.env.VMS ?? 'move,wasm').split(',') as Exclude<Vm, 'evm'>[];
const START = path.join(REPO_ROOT, 'devnet/minievm/start.sh');
const STOP = path.join(REPO_ROOT, 'devnet/minievm/stop.sh');

/** What each sender sends, round-robin: its message for the i-th tx. */
type MsgOf = (from: DevAccount, to: DevAccount, i: number) => Any;

/** Every sender pipelines txs (at most INFLIGHT unconfirmed) until `stop()` says so. Returns the txs sent. */
async function pump(ep: NodeEndpoints, accounts: DevAccount[], msgOf: MsgOf, stop: () => boolean): Promise<number> {
  const sender = new CosmosSender(ep);
  let sent = 0;
  await Promise.all(
    accounts.map(async (from, k) => {
      const to = accounts[(k + 1) % accounts.length] as DevAccount;
      const inflight: Promise<Included>[] = [];
      for (let i = 0; !stop(); i++) {
        inflight.push((await sender.broadcast(from, [msgOf(from, to, i)], { gas: 300_000 })).included);
        sent++;
        if (inflight.length >= INFLIGHT) await inflight.shift();
      }
      await Promise.allSettled(inflight);
    }),
  );
  return sent;
}

/** The VM's traffic: its set-up txs, then the per-tx message. */
async function trafficFor(vm: Exclude<Vm, 'evm'>, ep: NodeEndpoints, accounts: DevAccount[]): Promise<MsgOf> {
  const sender = new CosmosSender(ep);
  if (vm === 'move') {
    const umin = await getJson<{ metadata: string }>(`${ep.rest}/initia/move/v1/metadata?denom=umin`);
    return (from, to, i) =>
      i % 2 === 0
        ? msgSendAny(from.bech32, to.bech32, 1n)
        : executeJsonAny(
            from.bech32,
            '0x1::primary_fungible_store::transfer',
            ['0x1::fungible_asset::Metadata'],
            [umin.metadata, moveAddress(to), '1'],
          );
  }
  const owner = accounts[0] as DevAccount;
  const { MsgStoreCode, MsgInstantiateContract, MsgExecuteContract } = await import('cosmjs-types/cosmwasm/wasm/v1/tx');
  const stored = await sender.send(
    owner,
    [
      {
        typeUrl: '/cosmwasm.wasm.v1.MsgStoreCode',
        value: MsgStoreCode.encode(
          MsgStoreCode.fromPartial({ sender: owner.bech32, wasmByteCode: wasmArtifact('counter') }),
        ).finish(),
      },
    ],
    { gas: 20_000_000 },
  );
  const inst = await sender.send(owner, [
    {
      typeUrl: '/cosmwasm.wasm.v1.MsgInstantiateContract',
      value: MsgInstantiateContract.encode(
        MsgInstantiateContract.fromPartial({
          sender: owner.bech32,
          codeId: BigInt(eventAttr(stored, 'store_code', 'code_id')),
          label: 'bench counter',
          msg: new TextEncoder().encode('{}'),
        }),
      ).finish(),
    },
  ]);
  const counter = eventAttr(inst, 'instantiate', '_contract_address');
  const increase = new TextEncoder().encode('{"increase":{}}');
  return (from, to, i) =>
    i % 2 === 0
      ? msgSendAny(from.bech32, to.bech32, 1n)
      : {
          typeUrl: '/cosmwasm.wasm.v1.MsgExecuteContract',
          value: MsgExecuteContract.encode(
            MsgExecuteContract.fromPartial({ sender: from.bech32, contract: counter, msg: increase }),
          ).finish(),
        };
}

const fmt = (n: number, d = 1) => n.toFixed(d);

async function runVm(vm: Exclude<Vm, 'evm'>, tmp: string): Promise<Record<string, unknown>> {
  const flavor = vm === 'move' ? 'minimove' : 'miniwasm';
  const before = machine();
  const accounts = deriveDevAccounts(SENDERS);
  const nodeOpts = {
    FLAVOR: flavor,
    PORT_BASE: String(await freePortBase()),
    DEVNET_ACCOUNTS: String(SENDERS),
    GENESIS_FOR_ROLLYTICS: '1',
  };
  const home = path.join(tmp, `${vm}-node`);
  const nodeEnv = scriptEnv(sh(START, [home], nodeOpts));
  const ep: NodeEndpoints = {
    chainId: nodeEnv.CHAIN_ID ?? '',
    cometRpc: nodeEnv.COMETBFT_RPC_URL ?? '',
    rest: nodeEnv.COSMOS_REST_URL ?? '',
    evmRpc: '',
  };
  let ours: IngestProcess | undefined;
  const rState = path.join(tmp, `${vm}-rollytics`);
  let rollyticsUp = false;
  try {
    // 1. History.
    const msgOf = await trafficFor(vm, ep, accounts);
    const g0 = Date.now();
    let have = 0;
    const poll = setInterval(() => {
      txCount(ep).then(
        (n) => {
          have = n;
          process.stderr.write(`[${vm}] ${n}/${TXS} txs\n`);
        },
        () => undefined,
      );
    }, 3_000);
    await pump(ep, accounts, msgOf, () => have >= TXS);
    clearInterval(poll);
    const generatedSeconds = (Date.now() - g0) / 1000;
    // 2. A still head.
    sh(STOP, [home]);
    sh(START, [home], { ...nodeOpts, RESUME: '1', EMPTY_BLOCKS: 'false' });
    const head = await latestHeight(ep);
    const txs = await txCount(ep);
    process.stderr.write(`[${vm}] history: ${head} blocks, ${txs} txs (generated in ${fmt(generatedSeconds)} s)\n`);
    // 3. Ours, then rollytics, from height 1.
    ours = new IngestProcess({
      endpoints: ep,
      dataDir: path.join(tmp, `${vm}-ours`),
      port: await freePort(),
      vm,
      extraEnv: { LOG_LEVEL: 'warn' },
    });
    await ours.start(120_000);
    const oursPid = ours.pid ?? 0;
    const oursRun = await backfill(ours.baseUrl, head, () => [oursPid], Date.now());
    process.stderr.write(`[${vm}] ours: ${fmt(oursRun.seconds)} s\n`);
    rollyticsUp = true;
    const r = scriptEnv(
      sh(path.join(REPO_ROOT, 'devnet/rollytics/start.sh'), [rState], { ...nodeEnv, ROLLYTICS_VM_TYPE: vm }),
    );
    const theirs = r.ROLLYTICS_API_URL ?? '';
    const theirRun = await backfill(
      theirs,
      head,
      () => rollyticsPids(rState),
      Date.now(),
      () => rollyticsIndexerExited(rState),
    );
    process.stderr.write(`[${vm}] rollytics: ${fmt(theirRun.seconds)} s\n`);
    // 4. Live lag: blocks again (1 per ~0.5 s), the same traffic, both indexers following.
    sh(STOP, [home]);
    sh(START, [home], { ...nodeOpts, RESUME: '1' });
    let stopLive = false;
    const live = pump(ep, accounts, msgOf, () => stopLive);
    // both indexers back at the head after the node's restart before any sample is taken
    const now = await latestHeight(ep);
    for (const base of [ours.baseUrl, theirs])
      while ((await getJson<{ height: number }>(`${base}/status`).catch(() => ({ height: 0 }))).height < now)
        await sleep(200);
    const h0 = await latestHeight(ep);
    const heightOf = (base: string) => async () => (await getJson<{ height: number }>(`${base}/status`)).height;
    const [oursLag, theirLag] = await Promise.all([
      measureStatusLag(ep, ours.baseUrl, LAG_BLOCKS, { timeoutMs: 600_000, heightOf: heightOf(ours.baseUrl) }),
      measureStatusLag(ep, theirs, LAG_BLOCKS, { timeoutMs: 600_000, heightOf: heightOf(theirs) }),
    ]);
    const h1 = await latestHeight(ep);
    stopLive = true;
    const liveSent = await live;
    const lag = (s: number[]) => ({ p50: percentile(s, 50), p99: percentile(s, 99), max: Math.max(...s) });
    return {
      vm,
      machineBefore: before,
      history: { blocks: head, txs, generatedSeconds },
      ours: {
        ...oursRun,
        blocksPerSecond: head / oursRun.seconds,
        txsPerSecond: txs / oursRun.seconds,
      },
      rollytics: {
        ...theirRun,
        blocksPerSecond: head / theirRun.seconds,
        txsPerSecond: txs / theirRun.seconds,
      },
      live: { blocks: h1 - h0, txsSent: liveSent, oursLagMs: lag(oursLag), rollyticsLagMs: lag(theirLag) },
      cpuCalibrationMsAfter: cpuCalibrationMs(),
    };
  } finally {
    await ours?.stop();
    if (rollyticsUp) sh(path.join(REPO_ROOT, 'devnet/rollytics/stop.sh'), [rState]);
    sh(STOP, [home]);
  }
}

const tmp = mkdtempSync(path.join(os.tmpdir(), 'bench-vm-backfill-'));
const results: Record<string, unknown>[] = [];
try {
  sh(path.join(REPO_ROOT, 'devnet/rollytics/build.sh'), []);
  sh(path.join(REPO_ROOT, 'devnet/rollytics/install-postgres.sh'), []);
  for (const vm of VMS) results.push(await runVm(vm, tmp));
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
const lines = [
  '| VM | blocks | txs | ours blocks/s | ours txs/s | rollytics blocks/s | rollytics txs/s | ours ÷ rollytics | peak RSS ours / rollytics (MB) | live lag p50 / p99 ours (ms) | live lag p50 / p99 rollytics (ms) | calibration before / after (ms) |',
  '|---|---|---|---|---|---|---|---|---|---|---|---|',
];
for (const r of results as {
  vm: string;
  machineBefore: { cpuCalibrationMs: number };
  history: { blocks: number; txs: number };
  ours: { seconds: number; blocksPerSecond: number; txsPerSecond: number; peakRssMb: number };
  rollytics: { seconds: number; blocksPerSecond: number; txsPerSecond: number; peakRssMb: number };
  live: { oursLagMs: { p50: number; p99: number }; rollyticsLagMs: { p50: number; p99: number } };
  cpuCalibrationMsAfter: number;
}[])
  lines.push(
    `| ${r.vm} | ${r.history.blocks} | ${r.history.txs} | ${fmt(r.ours.blocksPerSecond)} | ${fmt(r.ours.txsPerSecond)} | ${fmt(r.rollytics.blocksPerSecond)} | ${fmt(r.rollytics.txsPerSecond)} | ${fmt(r.rollytics.seconds / r.ours.seconds, 2)}× | ${r.ours.peakRssMb} / ${r.rollytics.peakRssMb} | ${r.live.oursLagMs.p50} / ${r.live.oursLagMs.p99} | ${r.live.rollyticsLagMs.p50} / ${r.live.rollyticsLagMs.p99} | ${r.machineBefore.cpuCalibrationMs} / ${r.cpuCalibrationMsAfter} |`,
  );
const table = lines.join('\n');
process.stdout.write(`${JSON.stringify(machine())}\n\n${table}\n`);
const dir = path.join(REPO_ROOT, 'bench', 'results');
mkdirSync(dir, { recursive: true });
const out = path.join(dir, `vm-backfill-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
writeFileSync(out, JSON.stringify({ txs: TXS, senders: SENDERS, inflight: INFLIGHT, results, table }, null, 1));
process.stdout.write(`results: ${path.relative(REPO_ROOT, out)}\n`);
process.exit(0);
