// Kill the ingest at any moment, restart it: it resumes from the last complete height with nothing missing
// and nothing duplicated. The ingest runs as the real main job (ROLE=ingest) in child processes against the
// EVM sample chain on loopback; the result is compared with an uninterrupted run.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSampleChain } from '../../devnet/sample-chains/serve.js';
import { dumpIndex as dump, type IngestRunOptions, runIngest as runAt } from '../support/ingest-process.js';

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

const runIngest = (dataDir: string, o?: IngestRunOptions) => runAt(chain, dataDir, o);

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
