// Webhook delivery latency (issue 30): N transfers registered with a webhook, all in flight at once; for every
// state change, the time from the change (the workflow schedules its status write: `transfer_events.recorded_at`)
// to the receiver's 2xx answer (its own clock, same machine). Target: p99 < 1 s with 1,000 transfers in flight.
//   npx tsx bench/webhook-latency.ts [--transfers 1000] [--rate 100]
// Processes (loopback): this one = the main job (router app with the tracking routes, projection worker, embedded
// chDB, Temporal dev server child; it stores each version the chain worker sends over IPC and makes the fast-path
// POST right after the write); the chain worker child (workflows; its webhook queue delivers what the fast path did
// not), as `npm start` runs them;
// the simnet in its own process; the receiver in its own process (answers 204 at once, logs each receipt's time).
// Version 0 (the registration) sends no event, so events are versions 1 and up.
// Prints the calibration loop before and after, and writes the figures to bench/results/.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { closeServer, listen } from '../api/http/app.js';
import { createRouterApp } from '../api/router/app.js';
import { createTrackingRoutes } from '../api/router/tracking/index.js';
import { SIM, type SentTx } from '../devnet/simnet/index.js';
import { loadRouterRegistry } from '../routing/registry.js';
import type { WebhookSettings } from '../workflows/webhook.js';
import { machine } from './machine.js';
import { procSample, startBenchTracking, startSimnet } from './simnet-process.js';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name: string, def: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : def;
};
const N = arg('transfers', 1000);
const RATE = arg('rate', 100);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? Number.NaN;
};

/** The receiver: its own process, a 204 to every POST, one JSON line {id, at} per receipt on stdout. */
async function startReceiver(): Promise<{
  child: ChildProcess;
  url: string;
  got: Map<string, number>;
  count(): number;
}> {
  const script = `const http = require('node:http');
const s = http.createServer((req, res) => { req.resume(); req.on('end', () => { res.writeHead(204).end();
  process.stdout.write(JSON.stringify({ id: req.headers['webhook-id'], at: Date.now() }) + '\\n'); }); });
s.keepAliveTimeout = 5000;
s.listen(0, '127.0.0.1', () => process.stdout.write(JSON.stringify({ port: s.address().port }) + '\\n'));`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const got = new Map<string, number>();
  let receipts = 0;
  const port = await new Promise<number>((resolve) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const m = JSON.parse(line) as { port?: number; id?: string; at?: number };
      if (m.port) resolve(m.port);
      else if (m.id) {
        receipts++;
        if (!got.has(m.id)) got.set(m.id, m.at!);
      }
    });
  });
  return { child, url: `http://127.0.0.1:${port}/hooks`, got, count: () => receipts };
}

async function main(): Promise<void> {
  const before = machine();
  console.log('machine', before);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'webhook-bench-'));
  const sim = await startSimnet();
  // Deliveries 10-20 s after the send, so all N transfers are in flight at once.
  await sim.call('setDelays', { recvMs: 10_000, ackMs: 5_000, depositMs: 12_000, lzMs: 12_000 });
  const receiver = await startReceiver();
  const settings: WebhookSettings = {
    secret: `whsec_${randomBytes(32).toString('base64')}`,
    hosts: ['127.0.0.1'],
    privateAddresses: true,
  };
  const { store, tracking } = await startBenchTracking({
    dataDir,
    chains: sim.chains,
    bench: 'webhooks',
    webhooks: settings,
    env: {
      WEBHOOK_SECRET: settings.secret,
      WEBHOOK_HOSTS: settings.hosts.join(','),
      WEBHOOK_PRIVATE_ADDRESSES: 'true',
    },
  });
  const server = await listen(
    createRouterApp({
      registry: loadRouterRegistry({ ROUTER_NETWORK: 'mainnet' }),
      tracking: createTrackingRoutes(tracking.service),
      clientLimits: { perMinute: 0, burst: 0 }, // one loopback client stands for many wallets
    }),
    0,
  );
  const api = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  try {
    const txs: SentTx[] = [];
    for (let i = 0; i < N; i++) {
      const k = i % 4;
      const [op, args] =
        k === 0
          ? ['deposit', { l2: SIM.move }]
          : k === 1
            ? ['lzSend', {}]
            : ['ibcTransfer', { from: SIM.l1, channel: k === 2 ? 'channel-1' : 'channel-2' }];
      txs.push((await sim.call(op, args)) as SentTx);
    }
    const worker0 = procSample(tracking.chainWorker!.pid!);
    const t0 = Date.now();
    // Open loop at RATE registrations a second, each naming the webhook.
    await Promise.all(
      txs.map(async (tx, i) => {
        await sleep(t0 + (i * 1000) / RATE - Date.now());
        const r = await fetch(`${api}/v2/tx/track`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ chain_id: tx.chainId, tx_hash: tx.txHash, webhook_url: receiver.url }),
        });
        await r.arrayBuffer();
        if (r.status !== 200) throw new Error(`track answered ${r.status}`);
      }),
    );
    console.log(`registered ${N} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    // The starter hands each registration to Temporal (signalWithStart) asynchronously: when had it started them all?
    while (tracking.starter.backlog > 0) await sleep(100);
    const allStartedAfterS = +((Date.now() - t0) / 1000).toFixed(1);
    console.log(`all ${N} workflows started after ${allStartedAfterS} s`);
    // Until every transfer's last stored version has reached the receiver (each workflow returns after it).
    const deadline = Date.now() + 600_000;
    let stored: { chain_id: string; tx_hash: string; version: number; at: string }[] = [];
    let inFlightMax = 0;
    for (;;) {
      stored = await store.rows(
        `SELECT chain_id, tx_hash, version, toString(toUnixTimestamp64Milli(min(recorded_at))) AS at FROM transfer_events
          WHERE tx_hash IN {hs:Array(String)} GROUP BY chain_id, tx_hash, version`,
        { hs: txs.map((t) => t.txHash) },
      );
      const last = new Map<string, number>();
      for (const r of stored) {
        const k = `${r.chain_id}:${r.tx_hash}`;
        last.set(k, Math.max(last.get(k) ?? -1, Number(r.version)));
      }
      const delivered = [...last].filter(([k, v]) => receiver.got.has(`${k}:${v}`)).length;
      const [{ open }] = (await store.rows<{ open: string }>(
        `SELECT countIf(s NOT IN ('STATE_COMPLETED_SUCCESS', 'STATE_COMPLETED_ERROR', 'STATE_ABANDONED')) AS open
           FROM (SELECT argMax(state, version) AS s FROM transfer_events WHERE tx_hash IN {hs:Array(String)} GROUP BY chain_id, tx_hash)`,
        { hs: txs.map((t) => t.txHash) },
      )) as [{ open: string }];
      inFlightMax = Math.max(inFlightMax, Number(open));
      if (Number(open) === 0 && delivered === N) break;
      if (Date.now() > deadline) throw new Error(`timed out: ${open} open, ${delivered}/${N} last events delivered`);
      await sleep(1_000);
    }
    const totalS = (Date.now() - t0) / 1000;
    const worker1 = procSample(tracking.chainWorker!.pid!);
    // Version 0 is the registration itself: no event (the track request's answer reports it).
    const events = stored.filter((r) => Number(r.version) > 0);
    const lat: number[] = [];
    let missing = 0;
    for (const r of events) {
      const at = receiver.got.get(`${r.chain_id}:${r.tx_hash}:${r.version}`);
      if (at === undefined) missing++;
      else lat.push(at - Number(r.at));
    }
    const summary = (xs: number[]) => ({
      n: xs.length,
      p50: pct(xs, 50),
      p90: pct(xs, 90),
      p99: pct(xs, 99),
      max: Math.max(...xs),
    });
    const after = machine();
    const result = {
      bench: 'webhook-latency',
      at: new Date().toISOString(),
      transfers: N,
      registrationsPerSecond: RATE,
      inFlightMax,
      events: events.length,
      receipts: receiver.count(),
      repeats: receiver.count() - receiver.got.size,
      missing,
      changeToReceiverMs: summary(lat),
      allWorkflowsStartedAfterS: allStartedAfterS,
      secondsFromFirstTrackToLastDelivery: +totalS.toFixed(1),
      chainWorkerCpuSeconds: +(worker1.cpuS - worker0.cpuS).toFixed(1),
      cpuCalibrationMs: [before.cpuCalibrationMs, after.cpuCalibrationMs],
      load: [before.load, after.load],
      machine: { cpus: before.cpus, cpu: before.cpu, memGb: before.memGb, node: before.node },
    };
    console.log(JSON.stringify(result, null, 2));
    mkdirSync(path.join(repo, 'bench/results'), { recursive: true });
    writeFileSync(
      path.join(repo, `bench/results/webhook-latency-${result.at.replace(/[:.]/g, '-')}.json`),
      `${JSON.stringify(result, null, 2)}\n`,
    );
  } finally {
    await closeServer(server);
    await tracking.stop();
    await store.close();
    receiver.child.kill();
    sim.child.kill();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
