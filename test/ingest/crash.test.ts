// Kill the ingest at any moment, restart it: it resumes from the last complete height with nothing missing
// and nothing duplicated. The ingest runs as the real main job (ROLE=ingest) in child processes against the
// EVM sample chain on loopback; the result is compared with an uninterrupted run.
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSampleChain } from '../../devnet/sample-chains/serve.js';

const root = path.resolve(import.meta.dirname, '..', '..');
let chain: Awaited<ReturnType<typeof startSampleChain>>;
const dirs: string[] = [];

beforeAll(async () => {
  chain = await startSampleChain('evm');
});
afterAll(async () => {
  await chain?.stop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function tmp(): string {
  const d = mkdtempSync(path.join(os.tmpdir(), 'crash-'));
  dirs.push(d);
  return d;
}

interface RunResult { code: number | null; signal: NodeJS.Signals | null; out: string }

function runIngest(dataDir: string, extra: Record<string, string> = {}, killAfterMs?: number): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/main.ts'], {
      cwd: root,
      env: {
        ...process.env, ROLE: 'ingest', DATA_DIR: dataDir, CHAIN_ID: chain.chainId, VM: 'evm',
        COMETBFT_RPC_URL: chain.rpcUrl, COSMOS_REST_URL: chain.restUrl, EVM_JSONRPC_URL: chain.evmUrl!,
        BATCH_BLOCKS: '3', FETCH_CONCURRENCY: '2', POLL_INTERVAL_MS: '50', RICHLIST_INTERVAL_MS: '0',
        INGEST_STOP_AT_HEIGHT: String(chain.manifest.latestHeight), LOG_LEVEL: 'info', ...extra,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const timer = killAfterMs !== undefined ? setTimeout(() => child.kill('SIGKILL'), killAfterMs) : undefined;
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, out });
    });
  });
}

function dump(dataDir: string): Record<string, string> {
  return JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', 'test/support/dump-main.ts', dataDir], { cwd: root, encoding: 'utf8', maxBuffer: 256 << 20 })) as Record<string, string>;
}

describe('crash and restart', () => {
  let reference: Record<string, string>;

  it('an uninterrupted run indexes the whole sample chain', async () => {
    const dir = tmp();
    const r = await runIngest(dir);
    expect(r.code, r.out).toBe(0);
    reference = dump(dir);
    expect(reference.ingest_checkpoints).toBe(String(chain.manifest.latestHeight));
    expect(JSON.parse(reference.txs!).length).toBe(chain.manifest.txs.length);
  }, 120_000);

  for (const point of ['blocks:2', 'evm_logs:3', 'nft_events:2', 'txs:2', 'txs:4']) {
    it(`killed mid-batch (SIGKILL right after insert ${point}) then restarted: same data as the uninterrupted run`, async () => {
      const dir = tmp();
      const crashed = await runIngest(dir, { INGEST_CRASH_AFTER: point });
      expect(crashed.signal, crashed.out).toBe('SIGKILL');
      const resumed = await runIngest(dir);
      expect(resumed.code, resumed.out).toBe(0);
      expect(resumed.out).toMatch(/"event":"ingest.recovered"/);
      const after = dump(dir);
      for (const t of Object.keys(reference)) expect(after[t], t).toBe(reference[t]);
    }, 120_000);
  }

  it('killed from outside at an arbitrary moment, twice, then restarted: same data', async () => {
    const dir = tmp();
    for (const ms of [1800, 2600]) {
      const r = await runIngest(dir, {}, ms);
      // It may have finished before the kill on a fast machine; either way the data must converge.
      expect(r.signal === 'SIGKILL' || r.code === 0, r.out).toBe(true);
    }
    const resumed = await runIngest(dir);
    expect(resumed.code, resumed.out).toBe(0);
    const after = dump(dir);
    for (const t of Object.keys(reference)) expect(after[t], t).toBe(reference[t]);
  }, 180_000);
});
