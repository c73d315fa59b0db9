// Fault tolerance: 100 in-flight transfers; the standalone worker process is SIGKILLed and restarted, and
// (separately) the Temporal dev server is SIGKILLed and restarted on its SQLite file. Every transfer must
// still reach its correct terminal state, with no lost and no duplicated rows in the projection.
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, startWorkerProcess, terminal, type Harness } from './harness.js';
import { killProcess } from '../support/tracking-worker.js';
import { SIM, type SentTx } from '../../devnet/simnet/index.js';
import { startDevServer, type DevServer } from '../../tracking/devserver.js';

let h: Harness;
let worker: ChildProcess | undefined;
let restartedServer: DevServer | undefined;

type Expect = { tx: SentTx; state: string };

/** 100 transfers of every kind and outcome, with relayer delays long enough to be in flight during the fault. */
function launch100(): Expect[] {
  const s = h.simnet;
  const out: Expect[] = [];
  for (let i = 0; i < 100; i++) {
    const k = i % 10;
    if (k < 3)
      out.push({
        tx: s.ibcTransfer({ from: SIM.l1, channel: k === 0 ? 'channel-1' : 'channel-2' }),
        state: 'STATE_COMPLETED_SUCCESS',
      });
    else if (k === 3)
      out.push({
        tx: s.ibcTransfer({ from: SIM.move, channel: 'channel-0', forward: { channel: 'channel-2' } }),
        state: 'STATE_COMPLETED_SUCCESS',
      });
    else if (k === 4)
      out.push({
        tx: s.ibcTransfer({ from: SIM.l1, channel: 'channel-1', outcome: 'errorAck' }),
        state: 'STATE_COMPLETED_ERROR',
      });
    else if (k === 5)
      out.push({
        tx: s.ibcTransfer({ from: SIM.l1, channel: 'channel-2', outcome: 'timeout' }),
        state: 'STATE_COMPLETED_ERROR',
      });
    else if (k === 6) out.push({ tx: s.deposit({ l2: SIM.move }), state: 'STATE_COMPLETED_SUCCESS' });
    else if (k === 7) out.push({ tx: s.deposit({ l2: SIM.evm, outcome: 'hookFail' }), state: 'STATE_COMPLETED_ERROR' });
    else if (k === 8) out.push({ tx: s.lzSend(), state: 'STATE_COMPLETED_SUCCESS' });
    else out.push({ tx: s.withdraw({ l2: SIM.move }), state: 'STATE_COMPLETED_SUCCESS' });
  }
  return out;
}

async function trackAll(xs: Expect[]): Promise<void> {
  for (let i = 0; i < xs.length; i += 20) {
    const rs = await Promise.all(xs.slice(i, i + 20).map((x) => h.track(x.tx.chainId, x.tx.txHash)));
    for (const r of rs) expect(r.status).toBe(200);
  }
}

async function allTerminal(xs: Expect[], timeoutMs: number): Promise<Map<string, string>> {
  const end = Date.now() + timeoutMs;
  const states = new Map<string, string>();
  while (Date.now() < end) {
    const rows = await h.store.rows<{ tx_hash: string; state: string }>(
      `SELECT tx_hash, argMax(state, version) AS state FROM transfer_events WHERE tx_hash IN {hs:Array(String)} GROUP BY tx_hash`,
      { hs: xs.map((x) => x.tx.txHash) },
    );
    for (const r of rows) states.set(r.tx_hash, r.state);
    if (xs.every((x) => terminal({ state: states.get(x.tx.txHash) }))) return states;
    await new Promise((r) => setTimeout(r, 500));
  }
  return states;
}

/** How many of `xs` are not terminal right now (the fault must hit transfers really in flight). */
async function inFlight(xs: Expect[]): Promise<number> {
  const rows = await h.store.rows<{ state: string }>(
    `SELECT argMax(state, version) AS state FROM transfer_events WHERE tx_hash IN {hs:Array(String)} GROUP BY tx_hash`,
    { hs: xs.map((x) => x.tx.txHash) },
  );
  return rows.filter((r) => !terminal(r)).length;
}

async function assertProjection(xs: Expect[]): Promise<void> {
  const hs = xs.map((x) => x.tx.txHash);
  const [dup] = await h.store.rows<{ rows: string; keys: string }>(
    `SELECT count() AS rows, uniqExact(chain_id, tx_hash, version) AS keys FROM transfer_events WHERE tx_hash IN {hs:Array(String)}`,
    { hs },
  );
  expect(dup!.rows).toBe(dup!.keys); // nothing duplicated
  const gaps = await h.store.rows<{ tx_hash: string }>(
    `SELECT tx_hash FROM transfer_events WHERE tx_hash IN {hs:Array(String)} GROUP BY tx_hash HAVING uniqExact(version) != max(version) + 1 OR min(version) != 0`,
    { hs },
  );
  expect(gaps).toEqual([]); // nothing lost: versions 0..n contiguous
}

beforeAll(async () => {
  h = await startHarness({
    runChainWorker: false,
    timings: {
      sourceTimeoutMs: 120_000,
      ibcStallMs: 120_000,
      lzStallMs: 120_000,
      depositStallMs: 120_000,
      withdrawalStallMs: 120_000,
    },
    simnet: {
      delays: { recvMs: 2_500, ackMs: 2_000, depositMs: 3_000, outputMs: 2_000, claimMs: 500, lzMs: 3_000 },
      finalizationPeriodS: 3,
    },
  });
  worker = await startWorkerProcess(h);
}, 180_000);
afterAll(async () => {
  if (worker) await killProcess(worker);
  await restartedServer?.stop();
  await h?.close();
});

describe('fault tolerance with 100 in-flight transfers', () => {
  it('SIGKILL the worker process mid-flight, restart it: all transfers reach their correct terminal state', async () => {
    const xs = launch100();
    await trackAll(xs);
    await new Promise((r) => setTimeout(r, 1_500));
    expect(await inFlight(xs)).toBeGreaterThanOrEqual(80);
    await killProcess(worker!);
    await new Promise((r) => setTimeout(r, 3_000));
    worker = await startWorkerProcess(h);
    const states = await allTerminal(xs, 120_000);
    for (const x of xs)
      expect({ tx: x.tx.txHash, state: states.get(x.tx.txHash) }).toEqual({ tx: x.tx.txHash, state: x.state });
    await assertProjection(xs);
  }, 200_000);

  it('SIGKILL the Temporal dev server mid-flight, restart it on its SQLite file: same guarantees', async () => {
    const xs = launch100();
    await trackAll(xs);
    await new Promise((r) => setTimeout(r, 1_500));
    expect(await inFlight(xs)).toBeGreaterThanOrEqual(80);
    const dev = h.tracking.devServer!;
    await killProcess(dev.process);
    await new Promise((r) => setTimeout(r, 2_000));
    restartedServer = await startDevServer({
      dataDir: h.dataDir,
      port: dev.port,
      log: {
        info() {},
        warn() {},
        error() {},
        debug() {},
        child() {
          return this;
        },
      },
      readyTimeoutMs: 90_000,
    });
    const states = await allTerminal(xs, 150_000);
    for (const x of xs)
      expect({ tx: x.tx.txHash, state: states.get(x.tx.txHash) }).toEqual({ tx: x.tx.txHash, state: x.state });
    await assertProjection(xs);
  }, 260_000);
});
