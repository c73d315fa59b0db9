// A stream client survives crashes of the main job (scripts/main.ts, ROLE=all on chDB: the ingest and the indexer
// API in one process, so a SIGKILL takes both down). The client reads the tx stream from the chain's start while the
// recorded EVM sample chain is ingested from a slowed node; the job is SIGKILLed mid-ingest twice and restarted on
// the same data directory; each time the client reconnects with Last-Event-ID, as a browser's EventSource does.
// The concatenated events must equal the REST list ascending exactly: no gap, no duplicate, the same order.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { encodeCursor } from '../../../api/indexer/read/page.js';
import { startSampleChain } from '../../../devnet/sample-chains/serve.js';
import { freePort, type MainJob, restAscending, smallBatches, startMainJob } from '../../support/main-job.js';
import type { SampleChain } from '../../support/sample.js';
import { type ParsedEvent, openSse } from '../../support/sse.js';
import { until } from '../../support/until.js';

let tmp: string | undefined;
let sample: SampleChain | undefined;
let job: MainJob | undefined;

afterAll(async () => {
  await job?.kill();
  await sample?.stop();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe('a stream client across SIGKILLs of the main job', () => {
  it('resumes with Last-Event-ID after each crash; the events equal the REST list exactly', async () => {
    tmp = mkdtempSync(path.join(os.tmpdir(), 'streams-crash-'));
    sample = await startSampleChain('evm');
    sample.server.faults.latencyMs = 25; // a slow node: the ingest takes seconds, the crashes land mid-way
    const total = sample.manifest.txs.length;
    const port = await freePort();
    const dataDir = path.join(tmp, 'data');
    const got: ParsedEvent[] = [];
    let resume = encodeCursor({ kind: 'sequence', sequence: 0 }); // from the chain's start
    const killedAt: number[] = [];

    for (const crashAfter of [Math.floor(total / 4), Math.floor(total / 2), null]) {
      job = startMainJob(sample, dataDir, port, smallBatches(sample));
      await job.up();
      const client = await openSse(`${job.base}/indexer/stream/v1/txs`, { 'Last-Event-ID': resume });
      expect(client.status).toBe(200);
      const ended = client.ended.catch(() => undefined); // the connection is reset by the kill
      const seen = () => got.length + client.events.length;
      if (crashAfter === null) {
        await until(
          () => seen() >= total,
          60_000,
          () => `every tx:\n${job?.out().slice(-2000)}`,
        );
        await new Promise((r) => setTimeout(r, 300)); // and nothing after
        client.close();
        // Live, the stream took the items the ingest's thread handed over with its commits (decision 020).
        const metrics = await (await fetch(`${job.base}/metrics`)).text();
        const handed = /^indexer_stream_reads_total\{list="tx",from="committed"\} (\d+)/m.exec(metrics)?.[1];
        expect(Number(handed ?? 0)).toBeGreaterThan(0);
      } else {
        await until(
          () => seen() >= crashAfter,
          60_000,
          () => `${crashAfter} txs:\n${job?.out().slice(-2000)}`,
        );
        killedAt.push(seen());
        await job.kill();
        await ended;
      }
      got.push(...client.events);
      resume = got[got.length - 1]!.id!;
    }
    // Each crash came before the ingest was done (the client had not seen every tx yet).
    expect(killedAt.every((n) => n < total)).toBe(true);

    const rest = await restAscending<unknown>(job!.base, '/indexer/tx/v1/txs', 'txs');
    expect(rest.length).toBe(total);
    expect(got.map((e) => e.event)).toEqual(rest.map(() => 'tx'));
    expect(got.map((e) => JSON.parse(e.data))).toEqual(rest);
  }, 240_000);
});
