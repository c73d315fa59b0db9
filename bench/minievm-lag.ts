// Ingest lag behind a live minievm devnet head under the traffic generator's
// load, and the devnet's tx rate at that load.
//
//   bash devnet/minievm/build.sh && npx tsx bench/minievm-lag.ts
//   tiny proof run: STEPS=1 STEP_S=5 npx tsx bench/minievm-lag.ts
//   side by side with rollytics: ROLLYTICS=1 npx tsx bench/minievm-lag.ts (bench/reports/2026-11-24-rollytics.md)
//
// Starts the devnet (start.sh) and our main job, then for each load step
// (number of concurrent senders, each pipelining ERC20 transfers with a small
// in-flight window) runs STEP_S seconds while sampling, for every new block,
// the time from the node reporting it to our /status reporting it (p50, p99, max). A step is
// "sustainable" when the node includes ≥90% of what was submitted and the lag
// p50 stays under 2 s. Prints a markdown table; the highest sustainable step
// is the headline figure for bench/reports/2026-11-24-minievm.md.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Contract, ContractFactory, JsonRpcProvider, Wallet, type InterfaceAbi } from 'ethers';
import { deriveDevAccounts } from '../devnet/minievm/accounts.js';
import { percentile } from '../devnet/minievm/checks.js';
import { getContract } from '../devnet/minievm/contracts.js';
import { freePort, IngestProcess } from '../devnet/minievm/ingest-process.js';
import { startDevnet } from '../devnet/minievm/devnet-process.js';
import { cometRpc, latestHeight, type NodeEndpoints } from '../devnet/minievm/node-client.js';
import { measureStatusLag } from '../devnet/minievm/verify.js';
import { waitForFeeData } from '../devnet/rollytics/probes.js';

const STEPS = (process.env.STEPS ?? '1,2,4,8,16').split(',').map(Number);
const STEP_S = Number(process.env.STEP_S ?? '30');
const WINDOW = Number(process.env.INFLIGHT ?? '8');
/**
 * ROLLYTICS=1: rollytics follows the same devnet (rollytics' genesis edits; POLLING_INTERVAL 100ms like ours'
 * POLL_INTERVAL_MS) and its lag is sampled on the same blocks. Both cache /status for 1 s, so in this mode both
 * are read with a unique `_nc` parameter (each cache keys on the raw query string; both ignore unknown
 * parameters): the lag of the index, not of the cache. Without ROLLYTICS ours is read as before (through it).
 */
const WITH_ROLLYTICS = process.env.ROLLYTICS === '1';
const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

interface StepResult {
  senders: number;
  submitted: number;
  included: number;
  txPerSec: number;
  lagP50: number;
  lagP99: number;
  lagMax: number;
  sustainable: boolean;
  rollytics?: { lagP50: number; lagP99: number; lagMax: number };
}

async function blockTxCount(ep: NodeEndpoints, from: number, to: number): Promise<{ txs: number; seconds: number }> {
  let txs = 0;
  let first = 0;
  let last = 0;
  for (let h = from; h <= to; h++) {
    const b = await cometRpc<{ block: { header: { time: string }; data: { txs: string[] | null } } }>(
      ep.cometRpc,
      'block',
      { height: String(h) },
    );
    txs += b.block.data.txs?.length ?? 0;
    const t = Date.parse(b.block.header.time);
    if (h === from) first = t;
    last = t;
  }
  return { txs, seconds: Math.max(0.001, (last - first) / 1000) };
}

/** Each sender loops ERC20 transfers of 1 unit, keeping at most WINDOW unconfirmed. */
async function load(provider: JsonRpcProvider, token: Contract, senders: Wallet[], untilMs: number): Promise<number> {
  let submitted = 0;
  await Promise.all(
    senders.map(async (w, i) => {
      const t = token.connect(w) as Contract;
      let nonce = await provider.getTransactionCount(w.address, 'pending');
      const inflight: Promise<unknown>[] = [];
      while (Date.now() < untilMs) {
        const to = senders[(i + 1) % senders.length]?.address ?? w.address;
        const tx = await t.getFunction('transfer')(to, 1n, { nonce: nonce++, gasLimit: 100_000n });
        submitted++;
        inflight.push(provider.waitForTransaction(tx.hash, 1, 120_000));
        if (inflight.length >= WINDOW) await inflight.shift();
      }
      await Promise.allSettled(inflight);
    }),
  );
  return submitted;
}

async function main(): Promise<void> {
  const maxSenders = Math.max(...STEPS);
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'bench-minievm-'));
  const home = path.join(tmp, 'node');
  const devnet = await startDevnet(home, {
    DEVNET_ACCOUNTS: String(maxSenders + 1),
    ...(WITH_ROLLYTICS ? { GENESIS_FOR_ROLLYTICS: '1' } : {}),
  });
  const ep = devnet.ep;
  const rState = path.join(tmp, 'rollytics');
  let theirs = '';
  let nc = 0;
  // Both cache /status for 1 s (as upstream): side by side, both are read past their caches.
  const heightVia = (base: () => string) => async () => {
    const r = await fetch(`${base()}/status?_nc=${nc++}`, { signal: AbortSignal.timeout(5_000) });
    return r.ok ? Number(((await r.json()) as { height?: number }).height ?? 0) : 0;
  };
  const theirHeight = heightVia(() => theirs);
  const ingest = new IngestProcess({
    endpoints: ep,
    dataDir: path.join(tmp, 'data'),
    port: await freePort(),
    extraEnv: { LOG_LEVEL: 'warn' },
  });
  const provider = new JsonRpcProvider(ep.evmRpc);
  provider.pollingInterval = 200;
  const results: StepResult[] = [];
  try {
    await ingest.start();
    if (WITH_ROLLYTICS) {
      const out = execFileSync('bash', [path.join(ROOT, 'devnet/rollytics/start.sh'), rState], {
        cwd: ROOT,
        env: {
          ...process.env,
          CHAIN_ID: ep.chainId,
          COMETBFT_RPC_URL: ep.cometRpc,
          COSMOS_REST_URL: ep.rest,
          EVM_JSONRPC_URL: ep.evmRpc,
          ROLLYTICS_POLLING_INTERVAL: '100ms',
        },
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'inherit'],
        timeout: 900_000,
      });
      theirs = /ROLLYTICS_API_URL=(\S+)/.exec(out)?.[1] ?? '';
      await waitForFeeData(ep);
    }
    const wallets = deriveDevAccounts(maxSenders + 1).map((a) => new Wallet(a.privateKey, provider));
    const deployer = wallets[0] as Wallet;
    const { abi, bytecode } = getContract('DevToken');
    const token = (await new ContractFactory(abi as InterfaceAbi, bytecode, deployer).deploy(
      'Bench',
      'BNCH',
      10n ** 30n,
    )) as Contract;
    await token.waitForDeployment();
    const senders = wallets.slice(1);
    // minievm's pending nonce can trail a just-mined deploy: count from the deploy tx itself
    let nonce = (token.deploymentTransaction()?.nonce ?? 0) + 1;
    const funding = await Promise.all(
      senders.map(async (s) => (await token.getFunction('transfer')(s.address, 10n ** 24n, { nonce: nonce++ })).wait()),
    );
    if (funding.some((r) => r?.status !== 1)) throw new Error('funding failed');
    await ingest.waitForHeight(await latestHeight(ep), 120_000);
    if (WITH_ROLLYTICS) {
      const h = await latestHeight(ep);
      const deadline = Date.now() + 120_000;
      while ((await theirHeight().catch(() => 0)) < h) {
        if (Date.now() > deadline) throw new Error(`rollytics did not reach ${h}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    }

    for (const n of STEPS) {
      const startHeight = await latestHeight(ep);
      const until = Date.now() + STEP_S * 1000;
      const samples = Math.max(3, Math.floor(STEP_S * 1.5));
      const [submitted, lags, theirLags] = await Promise.all([
        load(provider, token, senders.slice(0, n), until),
        measureStatusLag(ep, ingest.baseUrl, samples, {
          timeoutMs: (STEP_S + 60) * 1000,
          alive: () => ingest.running,
          ...(WITH_ROLLYTICS ? { heightOf: heightVia(() => ingest.baseUrl) } : {}),
        }).catch(() => [] as number[]),
        WITH_ROLLYTICS
          ? measureStatusLag(ep, theirs, samples, { timeoutMs: (STEP_S + 60) * 1000, heightOf: theirHeight }).catch(
              () => [] as number[],
            )
          : Promise.resolve([] as number[]),
      ]);
      const endHeight = await latestHeight(ep);
      const { txs, seconds } = await blockTxCount(ep, startHeight + 1, endHeight);
      const r: StepResult = {
        senders: n,
        submitted,
        included: txs,
        txPerSec: txs / seconds,
        lagP50: lags.length ? percentile(lags, 50) : Number.NaN,
        lagP99: lags.length ? percentile(lags, 99) : Number.NaN,
        lagMax: lags.length ? Math.max(...lags) : Number.NaN,
        sustainable: txs >= 0.9 * submitted && lags.length > 0 && percentile(lags, 50) < 2_000,
        ...(WITH_ROLLYTICS
          ? {
              rollytics: {
                lagP50: theirLags.length ? percentile(theirLags, 50) : Number.NaN,
                lagP99: theirLags.length ? percentile(theirLags, 99) : Number.NaN,
                lagMax: theirLags.length ? Math.max(...theirLags) : Number.NaN,
              },
            }
          : {}),
      };
      results.push(r);
      process.stderr.write(`${JSON.stringify(r)}\n`);
    }
  } finally {
    provider.destroy();
    await ingest.stop();
    if (theirs) execFileSync('bash', [path.join(ROOT, 'devnet/rollytics/stop.sh'), rState], { stdio: 'inherit' });
    devnet.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
  const cpus = os.cpus();
  console.log(
    `machine: ${cpus.length} × ${cpus[0]?.model ?? '?'}, ${Math.round(os.totalmem() / 2 ** 30)} GB; load average at the end: ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
  const their = WITH_ROLLYTICS ? ' rollytics lag p50 / p99 / max (ms) |' : '';
  console.log(
    `| senders | submitted | included | devnet tx/s | lag p50 (ms) | lag p99 (ms) | lag max (ms) | sustainable |${their}`,
  );
  console.log(`|---|---|---|---|---|---|---|---|${WITH_ROLLYTICS ? '---|' : ''}`);
  for (const r of results) {
    const t = r.rollytics ? ` ${r.rollytics.lagP50} / ${r.rollytics.lagP99} / ${r.rollytics.lagMax} |` : '';
    console.log(
      `| ${r.senders} | ${r.submitted} | ${r.included} | ${r.txPerSec.toFixed(1)} | ${r.lagP50} | ${r.lagP99} | ${r.lagMax} | ${r.sustainable ? 'yes' : 'no'} |${t}`,
    );
  }
}

await main();
