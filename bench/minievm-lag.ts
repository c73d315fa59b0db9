// Ingest lag behind a live minievm devnet head under the traffic generator's
// load, and the devnet's tx rate at that load.
//
//   bash devnet/minievm/build.sh && npx tsx bench/minievm-lag.ts
//
// Starts the devnet (start.sh) and our main job, then for each load step
// (number of concurrent senders, each pipelining ERC20 transfers with a small
// in-flight window) runs STEP_S seconds while sampling, for every new block,
// the time from the node reporting it to our /status reporting it. A step is
// "sustainable" when the node includes ≥90% of what was submitted and the lag
// p50 stays under 2 s. Prints a markdown table; the highest sustainable step
// is the headline figure for docs/bench-minievm.md.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Contract, ContractFactory, JsonRpcProvider, Wallet, type InterfaceAbi } from 'ethers';
import { deriveDevAccounts } from '../devnet/minievm/accounts.js';
import { percentile } from '../devnet/minievm/checks.js';
import { getContract } from '../devnet/minievm/contracts.js';
import { freePort, IngestProcess } from '../devnet/minievm/ingest-process.js';
import { cometRpc, latestHeight, type NodeEndpoints } from '../devnet/minievm/node-client.js';
import { measureStatusLag } from '../devnet/minievm/verify.js';

const STEPS = (process.env.STEPS ?? '1,2,4,8,16').split(',').map(Number);
const STEP_S = Number(process.env.STEP_S ?? '30');
const WINDOW = Number(process.env.INFLIGHT ?? '8');
const ROOT = path.resolve(import.meta.dirname, '..');

interface StepResult {
  senders: number;
  submitted: number;
  included: number;
  txPerSec: number;
  lagP50: number;
  lagMax: number;
  sustainable: boolean;
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
  const out = execFileSync('bash', ['devnet/minievm/start.sh', home], {
    cwd: ROOT,
    env: { ...process.env, DEVNET_ACCOUNTS: String(maxSenders + 1) },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const env = Object.fromEntries(
    out
      .trim()
      .split('\n')
      .map((l) => l.split('=', 2) as [string, string]),
  );
  const ep: NodeEndpoints = {
    chainId: env.CHAIN_ID ?? '',
    cometRpc: env.COMETBFT_RPC_URL ?? '',
    rest: env.COSMOS_REST_URL ?? '',
    evmRpc: env.EVM_JSONRPC_URL ?? '',
  };
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
    let nonce = await provider.getTransactionCount(deployer.address, 'pending');
    const funding = await Promise.all(
      senders.map(async (s) => (await token.getFunction('transfer')(s.address, 10n ** 24n, { nonce: nonce++ })).wait()),
    );
    if (funding.some((r) => r?.status !== 1)) throw new Error('funding failed');
    await ingest.waitForHeight(await latestHeight(ep), 120_000);

    for (const n of STEPS) {
      const startHeight = await latestHeight(ep);
      const until = Date.now() + STEP_S * 1000;
      const [submitted, lags] = await Promise.all([
        load(provider, token, senders.slice(0, n), until),
        measureStatusLag(ep, ingest.baseUrl, Math.max(3, Math.floor(STEP_S * 1.5)), {
          timeoutMs: (STEP_S + 60) * 1000,
          alive: () => ingest.running,
        }).catch(() => [] as number[]),
      ]);
      const endHeight = await latestHeight(ep);
      const { txs, seconds } = await blockTxCount(ep, startHeight + 1, endHeight);
      const r: StepResult = {
        senders: n,
        submitted,
        included: txs,
        txPerSec: txs / seconds,
        lagP50: lags.length ? percentile(lags, 50) : Number.NaN,
        lagMax: lags.length ? Math.max(...lags) : Number.NaN,
        sustainable: txs >= 0.9 * submitted && lags.length > 0 && percentile(lags, 50) < 2_000,
      };
      results.push(r);
      process.stderr.write(`${JSON.stringify(r)}\n`);
    }
  } finally {
    provider.destroy();
    await ingest.stop();
    execFileSync('bash', ['devnet/minievm/stop.sh', home], { cwd: ROOT, stdio: 'inherit' });
    rmSync(tmp, { recursive: true, force: true });
  }
  console.log('| senders | submitted | included | devnet tx/s | lag p50 (ms) | lag max (ms) | sustainable |');
  console.log('|---|---|---|---|---|---|---|');
  for (const r of results) {
    console.log(
      `| ${r.senders} | ${r.submitted} | ${r.included} | ${r.txPerSec.toFixed(1)} | ${r.lagP50} | ${r.lagMax} | ${r.sustainable ? 'yes' : 'no'} |`,
    );
  }
}

await main();
