// What following a live chain costs: the main job (scripts/main.ts, ROLE=all on chDB, the ingest on its thread)
// follows the recorded EVM sample chain on chain-sim while chain-sim makes a block every INTERVAL_MS holding PER
// replicated EVM txs of the sample (each made unique by its memo). Per window, the main job's CPU by thread group
// (from /proc) per block; then, in a window of its own (its reads cost CPU too), the lag from a block's making to
// /status reporting it (read every 20 ms, past its 1-s cache). A still window first gives the idle floor.
// Run: npx tsx bench/live-follow.ts [seconds=30] [KEY=VALUE ...]   (the main job's extra settings)
// Env: INTERVAL_MS (500), PER (2), POLL_MS (the main job's POLL_INTERVAL_MS, 100).
// Old and new code: run it from each worktree in turn (decision 024's report).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TxInput } from '../devnet/chain-sim/types.js';
import { percentile } from '../devnet/minievm/checks.js';
import { freePort, IngestProcess } from '../devnet/minievm/ingest-process.js';
import { startSampleChain } from '../devnet/sample-chains/serve.js';
import { cpuCalibrationMs, machine } from './machine.js';
import { threadCpuMs } from './side-by-side.js';

const seconds = Number(process.argv[2] ?? 30);
const extra = Object.fromEntries(process.argv.slice(3).map((kv) => kv.split('=', 2) as [string, string]));
const intervalMs = Number(process.env.INTERVAL_MS ?? 500);
const per = Number(process.env.PER ?? 2);
const pollMs = Number(process.env.POLL_MS ?? 100);

const sample = await startSampleChain('evm');
const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-live-'));
const ingest = new IngestProcess({
  endpoints: { chainId: sample.chainId, cometRpc: sample.rpcUrl, rest: sample.restUrl, evmRpc: sample.evmUrl ?? '' },
  dataDir: dir,
  port: await freePort(),
  pollIntervalMs: pollMs,
  extraEnv: { LOG_LEVEL: 'warn', ...extra },
});

// The sample's EVM txs, replayed: a changed memo gives each replay its own bytes and hash.
const pool: TxInput[] = [];
for (let h = 1; h <= sample.chain.latestHeight(); h++)
  for (const t of sample.chain.block(h)?.txs ?? []) if (t.evm) pool.push({ tx: t.tx, result: t.result, evm: t.evm });
if (per > 0 && pool.length === 0) throw new Error('the sample chain has no EVM tx to replay');
let replayed = 0;
const nextBlock = () => ({
  txs: Array.from({ length: per }, () => {
    const t = pool[replayed++ % pool.length]!;
    return { ...t, tx: { ...t.tx, body: { ...t.tx.body, memo: `live ${replayed}` } } };
  }),
});

let nc = 0;
async function statusHeight(): Promise<number> {
  const res = await fetch(`${ingest.baseUrl}/status?_nc=${nc++}`);
  return res.ok ? ((await res.json()) as { height: number }).height : 0;
}

/** CPU ms of the main job's threads, by name (trailing digits dropped: one figure per pool). */
function cpuByGroup(): Map<string, number> {
  const m = new Map<string, number>();
  for (const t of threadCpuMs(ingest.pid!).values()) {
    const k = t.name.replace(/[\d-]+$/, '') || t.name;
    m.set(k, (m.get(k) ?? 0) + t.ms);
  }
  return m;
}

async function window(produce: boolean, probe: boolean) {
  const cal = cpuCalibrationMs();
  const made = new Map<number, number>();
  const off = sample.chain.onBlock((b) => made.set(b.height, performance.now()));
  const h0 = sample.chain.latestHeight();
  const before = cpuByGroup();
  if (produce) sample.chain.startProducing(intervalMs, nextBlock);
  const lags: number[] = [];
  let seen = await statusHeight();
  const end = performance.now() + seconds * 1000;
  while (performance.now() < end) {
    await new Promise((r) => setTimeout(r, 20));
    if (!probe) continue;
    const h = await statusHeight();
    const now = performance.now();
    for (let k = seen + 1; k <= h; k++) if (made.has(k)) lags.push(now - made.get(k)!);
    seen = Math.max(seen, h);
  }
  sample.chain.stopProducing();
  const after = cpuByGroup();
  off();
  const blocks = sample.chain.latestHeight() - h0;
  const groups: Record<string, number> = {};
  let total = 0;
  for (const [k, v] of after) {
    const d = v - (before.get(k) ?? 0);
    total += d;
    if (d >= seconds) groups[k] = Math.round(d / seconds);
  }
  lags.sort((a, b) => a - b);
  return {
    window: `${produce ? `a block every ${intervalMs} ms, ${per} txs each` : 'still'}${probe ? ', /status read every 20 ms' : ''}`,
    cpu_calibration_ms: [cal, cpuCalibrationMs()],
    blocks,
    cpu_ms_per_s: Math.round((total / seconds) * 10) / 10,
    ...(blocks > 0 ? { cpu_ms_per_block: Math.round((total / blocks) * 10) / 10 } : {}),
    cpu_ms_per_s_by_thread: groups,
    ...(lags.length > 0
      ? {
          lag_ms: {
            n: lags.length,
            p50: Math.round(percentile(lags, 50)),
            p95: Math.round(percentile(lags, 95)),
            max: Math.round(lags.at(-1)!),
          },
        }
      : {}),
  };
}

try {
  await ingest.start();
  await ingest.waitForHeight(sample.chain.latestHeight(), 120_000);
  await new Promise((r) => setTimeout(r, 15_000)); // the backfill's merges and memory settle first
  console.log(JSON.stringify({ machine: machine(), settings: extra }));
  console.log(JSON.stringify(await window(false, false)));
  console.log(JSON.stringify(await window(true, false)));
  // The lag apart from the CPU: the reads of /status cost the main job CPU of their own.
  console.log(JSON.stringify(await window(true, true)));
} finally {
  sample.chain.stopProducing();
  await ingest.stop();
  await sample.stop();
  rmSync(dir, { recursive: true, force: true });
}
