// Ingest lag behind a live minievm devnet head under the traffic generator's
// load, and the devnet's tx rate at that load.
//
//   bash devnet/minievm/build.sh && npx tsx bench/minievm-lag.ts
//   tiny proof run: STEPS=1 STEP_S=5 npx tsx bench/minievm-lag.ts
//
// Starts the devnet (start.sh) and our main job, then for each load step
// (number of concurrent senders, each pipelining ERC20 transfers with a small
// in-flight window) runs STEP_S seconds while sampling, for every new block,
// the time from the node reporting it to our /status reporting it (p50, p99, max). A step is
// "sustainable" when the node includes ≥90% of what was submitted and the lag
// p50 stays under 2 s. Prints a markdown table; the highest sustainable step
// is the headline figure for docs/bench-minievm.md.
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

const STEPS = (process.env.STEPS ?? '1,2,4,8,16').split(',').map(Number);
const STEP_S = Number(process.env.STEP_S ?? '30');
const WINDOW = Number(process.env.INFLIGHT ?? '8');

interface StepResult {
  senders: number;
  submitted: number;
  included: number;
  txPerSec: number;
  lagP50: number;
  lagP99: number;
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
  const devnet = await startDevnet(home, { DEVNET_ACCOUNTS: String(maxSenders + 1) });
  const ep = devnet.ep;
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
    // minievm's pending nonce can trail a just-mined deploy: count from the deploy tx itself
    let nonce = (token.deploymentTransaction()?.nonce ?? 0) + 1;
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
        lagP99: lags.length ? percentile(lags, 99) : Number.NaN,
        lagMax: lags.length ? Math.max(...lags) : Number.NaN,
        sustainable: txs >= 0.9 * submitted && lags.length > 0 && percentile(lags, 50) < 2_000,
      };
      results.push(r);
      process.stderr.write(`${JSON.stringify(r)}\n`);
    }
  } finally {
    provider.destroy();
    await ingest.stop();
    devnet.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
  console.log(
    '| senders | submitted | included | devnet tx/s | lag p50 (ms) | lag p99 (ms) | lag max (ms) | sustainable |',
  );
  console.log('|---|---|---|---|---|---|---|---|');
  for (const r of results) {
    console.log(
      `| ${r.senders} | ${r.submitted} | ${r.included} | ${r.txPerSec.toFixed(1)} | ${r.lagP50} | ${r.lagP99} | ${r.lagMax} | ${r.sustainable ? 'yes' : 'no'} |`,
    );
  }
}

await main();
