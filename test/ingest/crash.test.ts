// Kill the ingest at any moment, restart it: it resumes from the last complete height with nothing missing
// and nothing duplicated. The ingest runs as the real main job (ROLE=ingest) in child processes against the
// EVM sample chain on loopback; the result is compared with an uninterrupted run.
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
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

interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  out: string;
}

/**
 * Run the ingest role (scripts/main.ts); with `crashAfter` (<table>:<n>), the same main job with a crash hook
 * injected (devnet/tools/ingest-crash-main.ts); with `killAfterFirstBatchMs`, SIGKILL it that long after its
 * first batch is written.
 */
function runIngest(
  dataDir: string,
  { crashAfter, killAfterFirstBatchMs }: { crashAfter?: string; killAfterFirstBatchMs?: number } = {},
): Promise<RunResult> {
  const entry = crashAfter ? ['devnet/tools/ingest-crash-main.ts', crashAfter] : ['scripts/main.ts'];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', ...entry], {
      cwd: root,
      env: {
        ...process.env,
        ROLE: 'ingest',
        DATA_DIR: dataDir,
        CHAIN_ID: chain.chainId,
        VM: 'evm',
        COMETBFT_RPC_URL: chain.rpcUrl,
        COSMOS_REST_URL: chain.restUrl,
        EVM_JSONRPC_URL: chain.evmUrl!,
        BATCH_BLOCKS: '3',
        FETCH_CONCURRENCY: '2',
        POLL_INTERVAL_MS: '50',
        RICHLIST_INTERVAL_MS: '0',
        INGEST_STOP_AT_HEIGHT: String(chain.manifest.latestHeight),
        LOG_LEVEL: 'debug',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let timer: NodeJS.Timeout | undefined;
    child.stdout.on('data', (d) => {
      out += d;
      if (killAfterFirstBatchMs !== undefined && !timer && out.includes('"event":"ingest.batch_written"')) {
        timer = setTimeout(() => child.kill('SIGKILL'), killAfterFirstBatchMs);
      }
    });
    child.stderr.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, out });
    });
  });
}

async function dump(dataDir: string): Promise<Record<string, string>> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', 'devnet/tools/dump-main.ts', dataDir],
    { cwd: root, encoding: 'utf8', maxBuffer: 256 << 20 },
  );
  return JSON.parse(stdout) as Record<string, string>;
}

describe('crash and restart', () => {
  let reference: Record<string, string>;

  it('an uninterrupted run indexes the whole sample chain', async () => {
    const dir = tmp();
    const r = await runIngest(dir);
    expect(r.code, r.out).toBe(0);
    reference = await dump(dir);
    expect(reference.ingest_checkpoints).toBe(String(chain.manifest.latestHeight));
    expect(JSON.parse(reference.txs!).length).toBe(chain.manifest.txs.length);
  }, 120_000);

  for (const point of ['blocks:2', 'evm_logs:3', 'nft_events:2', 'txs:2', 'txs:4']) {
    it(`killed mid-batch (SIGKILL right after insert ${point}) then restarted: same data as the uninterrupted run`, async () => {
      const dir = tmp();
      const crashed = await runIngest(dir, { crashAfter: point });
      expect(crashed.signal, crashed.out).toBe('SIGKILL');
      const resumed = await runIngest(dir);
      expect(resumed.code, resumed.out).toBe(0);
      expect(resumed.out).toMatch(/"event":"ingest.recovered"/);
      const after = await dump(dir);
      for (const t of Object.keys(reference)) expect(after[t], t).toBe(reference[t]);
    }, 120_000);
  }

  it('killed from outside at an arbitrary moment, twice, then restarted: same data', async () => {
    const dir = tmp();
    for (let i = 0; i < 2; i++) {
      const r = await runIngest(dir, { killAfterFirstBatchMs: Math.floor(Math.random() * 400) });
      // It may finish before the kill lands; either way the data must converge.
      expect(r.signal === 'SIGKILL' || r.code === 0, r.out).toBe(true);
    }
    const resumed = await runIngest(dir);
    expect(resumed.code, resumed.out).toBe(0);
    const after = await dump(dir);
    for (const t of Object.keys(reference)) expect(after[t], t).toBe(reference[t]);
  }, 180_000);
});
