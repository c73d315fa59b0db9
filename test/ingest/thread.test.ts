// The ingest on its own thread (INGEST_THREAD, ingest/thread.ts) against the ingest on the main thread: the main job
// (scripts/main.ts) backfills the recorded EVM sample chain either way, and its /metrics, served by the main thread,
// reports the same ingest counters (relayed from the thread's registry) as the in-thread ingest counts itself.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startSampleChain } from '../../devnet/sample-chains/serve.js';
import { freePort, type MainJob, startMainJob } from '../support/main-job.js';
import type { SampleChain } from '../support/sample.js';
import { until } from '../support/until.js';

let tmp: string | undefined;
let sample: SampleChain | undefined;
const jobs: MainJob[] = [];

afterAll(async () => {
  for (const j of jobs) await j.kill();
  await sample?.stop();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

const metric = (text: string, name: string) =>
  Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? Number.NaN);

async function backfill(thread: boolean): Promise<Record<string, number>> {
  const job = startMainJob(sample!, path.join(tmp!, String(thread)), await freePort(), {
    INGEST_THREAD: String(thread),
    INGEST_STOP_AT_HEIGHT: String(sample!.manifest.latestHeight),
  });
  jobs.push(job);
  await job.up();
  let text = '';
  await until(
    async () => {
      text = await (await fetch(`${job.base}/metrics`)).text();
      return metric(text, 'ingest_indexed_height') === sample!.manifest.latestHeight;
    },
    60_000,
    () => `the ingest to reach the chain's tip:\n${job.out().slice(-2000)}`,
    100,
  );
  await job.kill('SIGTERM');
  return {
    height: metric(text, 'ingest_indexed_height'),
    blocks: metric(text, 'ingest_blocks_total'),
    txs: metric(text, 'ingest_txs_total'),
    exitCode: job.child.exitCode ?? Number.NaN,
  };
}

describe('the ingest thread', () => {
  it('indexes the sample chain and reports the same metrics as the ingest on the main thread', async () => {
    tmp = mkdtempSync(path.join(os.tmpdir(), 'ingest-thread-'));
    sample = await startSampleChain('evm');
    const onThread = await backfill(true);
    const onMain = await backfill(false);
    expect(onThread.height).toBe(sample.manifest.latestHeight);
    expect(onThread.txs).toBe(sample.manifest.txs.length);
    expect(onThread.blocks).toBeGreaterThan(0);
    expect(onThread).toEqual(onMain);
    expect(onThread.exitCode).toBe(0); // a clean stop with the thread alive until the process ends
  }, 180_000);

  it('relays its error count while no batch commits (the node failing from the first blocks)', async () => {
    sample ??= await startSampleChain('evm');
    tmp ??= mkdtempSync(path.join(os.tmpdir(), 'ingest-thread-'));
    sample.server.faults.failHeight(2, { kind: 'http500', times: 1_000_000 });
    const job = startMainJob(sample, path.join(tmp, 'faults'), await freePort(), {
      INGEST_STOP_AT_HEIGHT: String(sample.manifest.latestHeight),
    });
    jobs.push(job);
    try {
      await job.up();
      let text = '';
      await until(
        async () => {
          text = await (await fetch(`${job.base}/metrics`)).text();
          return metric(text, 'ingest_errors_total\\{kind="rpc"\\}') >= 2;
        },
        30_000,
        () =>
          `the thread's retries on /metrics:\n${text
            .split('\n')
            .filter((l) => l.startsWith('ingest_'))
            .join('\n')}`,
        200,
      );
      // Nothing was committed: only the thread's timer can have brought the count over.
      expect(Number.isNaN(metric(text, 'ingest_indexed_height')) ? 0 : metric(text, 'ingest_indexed_height')).toBe(0);
    } finally {
      sample.server.faults.clear();
      await job.kill();
    }
  }, 60_000);
});
