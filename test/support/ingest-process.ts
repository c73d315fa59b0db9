// The ingest as the real main job (ROLE=ingest, scripts/main.ts) in a child process over a served sample chain, and
// a deterministic dump of what it indexed (devnet/tools/dump-main.ts): chDB binds one data directory per process,
// so runs are compared directory against directory.
import { execFile, spawn } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import type { startSampleChain } from '../../devnet/sample-chains/serve.js';
import { chainEnv } from './main-job.js';

const root = path.resolve(import.meta.dirname, '..', '..');

export interface IngestRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  out: string;
}

export interface IngestRunOptions {
  /** `<table>:<n>`: the same main job with a crash hook injected (devnet/tools/ingest-crash-main.ts). */
  crashAfter?: string;
  /** SIGKILL the job that long after its first batch is written. */
  killAfterFirstBatchMs?: number;
  /** Extra environment (e.g. RPC_BATCH). */
  env?: Record<string, string>;
}

export function runIngest(
  chain: Awaited<ReturnType<typeof startSampleChain>>,
  dataDir: string,
  { crashAfter, killAfterFirstBatchMs, env }: IngestRunOptions = {},
): Promise<IngestRun> {
  const entry = crashAfter ? ['devnet/tools/ingest-crash-main.ts', crashAfter] : ['scripts/main.ts'];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', ...entry], {
      cwd: root,
      env: {
        ...process.env,
        ROLE: 'ingest',
        DATA_DIR: dataDir,
        ...chainEnv(chain),
        BATCH_BLOCKS: '3',
        FETCH_CONCURRENCY: '2',
        POLL_INTERVAL_MS: '50',
        RICHLIST_INTERVAL_MS: '0',
        INGEST_STOP_AT_HEIGHT: String(chain.manifest.latestHeight),
        LOG_LEVEL: 'debug',
        ...env,
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

/** Every height-keyed table of a data directory, as deterministic JSON per table. */
export async function dumpIndex(dataDir: string): Promise<Record<string, string>> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', 'devnet/tools/dump-main.ts', dataDir],
    { cwd: root, encoding: 'utf8', maxBuffer: 256 << 20 },
  );
  return JSON.parse(stdout) as Record<string, string>;
}
