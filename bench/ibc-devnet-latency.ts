// Detection latency on real chains (issue 16): two minievm devnets + the Go relayer (devnet/ibc/), our router
// app with tracking (embedded chDB, Temporal dev server, in-process chain worker), real transfers sent through
// the client flow (route → msgs → sign → broadcast → track). For every transfer we measure
//   recv: time of the devnet-b block holding recv_packet  → our status first showing receive_tx
//   ack:  time of the devnet-a block holding acknowledge_packet → our status first showing acknowledge_tx
// and report p50 / p95 / max per offered rate (transfers per second, open loop).
//   npx tsx bench/ibc-devnet-latency.ts [--transfers 50] [--rates 1,10] [--status-poll-ms 100] [--poll-ms 250]
//     [--warmup 2] (transfers sent first and not counted)
// Only on a quiet machine do the figures mean anything (BENCHMARKS.md); `--transfers 2 --rates 1` proves it runs.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { closeServer, listen } from '../api/http/app.js';
import { createRouterApp } from '../api/router/app.js';
import { createTrackingRoutes } from '../api/router/tracking/index.js';
import { createStore } from '../clickhouse/client.js';
import { IbcDevnets, routerTxMessages, type RouterCosmosTx } from '../devnet/ibc/devnets.js';
import { voucherOnB, writeDevnetRegistry } from '../devnet/ibc/registry.js';
import { deriveDevAccount, type DevAccount } from '../devnet/minievm/accounts.js';
import { buildSignedTx } from '../devnet/minievm/cosmos-tx.js';
import { broadcastSync, cometRpc, fetchAccount, waitForCosmosTx } from '../devnet/minievm/node-client.js';
import { createLogger } from '../platform/log.js';
import { loadRouterRegistry } from '../routing/registry.js';
import { startTracking } from '../tracking/index.js';
import { directoryFromRegistry } from '../tracking/registry-adapter.js';

const arg = (name: string, def: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : def;
};
const N = Number(arg('transfers', '50'));
const RATES = arg('rates', '1,10').split(',').map(Number);
const STATUS_POLL_MS = Number(arg('status-poll-ms', '100'));
const POLL_MS = Number(arg('poll-ms', '250'));
const OUT = arg('out', '');
const WARMUP = Number(arg('warmup', '2'));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? Number.NaN;
};
const stats = (xs: number[]) => ({ n: xs.length, p50: pct(xs, 50), p95: pct(xs, 95), max: Math.max(...xs) });

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'ibc-bench-'));
  const log = createLogger({ bench: 'ibc-devnet' });
  console.error(`[bench] starting devnets + relayer in ${dir} (builds cached in ~/.cache/chain-infra)`);
  const net = await IbcDevnets.start(path.join(dir, 'net'));
  const stops: (() => Promise<unknown>)[] = [() => net.stop()];
  try {
    const registry = loadRouterRegistry({
      ROUTER_NETWORK: 'custom',
      ROUTER_REGISTRY_FILE: writeDevnetRegistry(net.env, path.join(dir, 'registry')),
    });
    const store = createStore({ dataDir: path.join(dir, 'clickhouse') });
    const tracking = await startTracking({
      config: { DATA_DIR: dir, TEMPORAL_ADDRESS: undefined, TEMPORAL_NAMESPACE: 'default', TEMPORAL_TASK_QUEUE: 'tt' },
      store,
      chains: directoryFromRegistry(registry, {
        [net.env.A_CHAIN_ID]: net.env.A_RPC,
        [net.env.B_CHAIN_ID]: net.env.B_RPC,
      }),
      log,
      timings: {
        pollIntervalMs: POLL_MS,
        pollWindowMs: 20_000,
        sourceTimeoutMs: 120_000,
        ibcStallMs: 600_000,
        lzStallMs: 600_000,
        depositStallMs: 600_000,
        withdrawalStallMs: 600_000,
        lzRetryWindowMs: 2_000,
      },
    });
    stops.unshift(async () => {
      await tracking.stop();
      await store.close();
    });
    const server = await listen(createRouterApp({ registry, tracking: createTrackingRoutes(tracking.service) }), 0);
    stops.unshift(() => closeServer(server));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    await net.startRelayer();
    const post = async (p: string, body: unknown) => {
      const r = await fetch(`${url}${p}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (r.status !== 200) throw new Error(`${p} → ${r.status}: ${await r.text()}`);
      return (await r.json()) as Record<string, any>; // any: our own API's JSON, read field by field
    };
    // Senders: dev accounts 1..19 round-robin (genesis-funded on both chains), sequences counted locally.
    const senders: { acc: DevAccount; number: bigint; seq: bigint }[] = [];
    for (let i = 1; i < 20; i++) {
      const acc = deriveDevAccount(i);
      const a = await fetchAccount(net.a, acc.bech32);
      senders.push({ acc, number: a.accountNumber, seq: a.sequence });
    }
    const routeReq = {
      amount_in: '10',
      source_asset_chain_id: net.env.A_CHAIN_ID,
      source_asset_denom: 'umin',
      dest_asset_chain_id: net.env.B_CHAIN_ID,
      dest_asset_denom: voucherOnB(net.env),
    };
    const route = await post('/v2/fungible/route', routeReq);
    const blockTime = new Map<string, number>();
    const timeOf = async (rpc: string, height: number) => {
      const k = `${rpc}|${height}`;
      if (!blockTime.has(k)) {
        const b = await cometRpc<{ block: { header: { time: string } } }>(rpc, 'block', { height: String(height) });
        blockTime.set(k, Date.parse(b.block.header.time));
      }
      return blockTime.get(k)!;
    };
    const results: Record<string, unknown> = {};
    let k = 0;
    let recvLat: number[] = [];
    let ackLat: number[] = [];
    const one = async (i: number) => {
      const s = senders[k++ % senders.length]!;
      const msgs = await post('/v2/fungible/msgs', {
        ...routeReq,
        address_list: [s.acc.bech32, deriveDevAccount(20 + (i % 20)).bech32],
        operations: route.operations,
      });
      const tx = msgs.txs[0].cosmos_tx as RouterCosmosTx;
      const signed = buildSignedTx(
        { account: s.acc, chainId: net.env.A_CHAIN_ID, accountNumber: s.number, sequence: s.seq++ },
        routerTxMessages(tx),
        { amount: [{ denom: 'umin', amount: '0' }], gasLimit: 400_000 },
      );
      const b = await broadcastSync(net.a, signed.txBytes);
      if (b.code !== 0) throw new Error(`CheckTx ${b.code}: ${b.log}`);
      await post('/v2/tx/track', { chain_id: net.env.A_CHAIN_ID, tx_hash: signed.txHash });
      let seenRecv = 0;
      let seenAck = 0;
      let hop: Record<string, any> = {}; // any: status JSON
      const end = Date.now() + 180_000;
      while ((!seenRecv || !seenAck) && Date.now() < end) {
        const r = await fetch(`${url}/v2/tx/status?chain_id=${net.env.A_CHAIN_ID}&tx_hash=${signed.txHash}`);
        const d = (await r.json()) as Record<string, any>; // any: status JSON
        hop = d.transfer_sequence?.[0]?.ibc_transfer ?? {};
        const now = Date.now();
        if (!seenRecv && hop.packet_txs?.receive_tx) seenRecv = now;
        if (!seenAck && hop.packet_txs?.acknowledge_tx) seenAck = now;
        if (!seenAck) await sleep(STATUS_POLL_MS);
      }
      if (!seenRecv || !seenAck) throw new Error(`transfer ${signed.txHash} not settled within 180 s`);
      const recvTx = await waitForCosmosTx(net.b, hop.packet_txs.receive_tx.tx_hash);
      const ackTx = await waitForCosmosTx(net.a, hop.packet_txs.acknowledge_tx.tx_hash);
      recvLat.push(seenRecv - (await timeOf(net.env.B_RPC, Number(recvTx.height))));
      ackLat.push(seenAck - (await timeOf(net.env.A_RPC, Number(ackTx.height))));
    };
    // Block times are the nodes' (same host clock): how far the newest block's time trails the wall clock.
    const skew = async (rpc: string) => {
      const st = await cometRpc<{ sync_info: { latest_block_time: string } }>(rpc, 'status', {});
      return Date.now() - Date.parse(st.sync_info.latest_block_time);
    };
    const clock = { a_head_age_ms: await skew(net.env.A_RPC), b_head_age_ms: await skew(net.env.B_RPC) };
    // Warm-up (not counted): the first workflows pay for worker start-up, bundle loading and the chain feeds.
    for (let i = 0; i < WARMUP; i++) await one(1000 + i);
    for (const rate of RATES) {
      recvLat = [];
      ackLat = [];
      const started: Promise<void>[] = [];
      const t0 = Date.now();
      for (let i = 0; i < N; i++) {
        const due = t0 + (i * 1000) / rate;
        if (due > Date.now()) await sleep(due - Date.now());
        started.push(one(i));
      }
      await Promise.all(started);
      results[`${rate}/s`] = { recv_ms: stats(recvLat), ack_ms: stats(ackLat) };
      console.error(`[bench] ${rate}/s: ${JSON.stringify(results[`${rate}/s`])}`);
    }
    const report = {
      clock,
      warmup: WARMUP,
      transfers_per_rate: N,
      status_poll_ms: STATUS_POLL_MS,
      tracking_poll_ms: POLL_MS,
      results,
    };
    console.log(JSON.stringify(report, null, 2));
    if (OUT) writeFileSync(OUT, `${JSON.stringify(report, null, 2)}\n`);
  } finally {
    for (const s of stops) await s().catch((e) => console.error(`[bench] stop: ${(e as Error).message}`));
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(`[bench] failed: ${(e as Error).stack ?? e}`);
  process.exit(1);
});
