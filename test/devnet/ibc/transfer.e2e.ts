// A real ICS-20 transfer between two real minievm devnets, relayed by a real relayer (the Go relayer, rly),
// driven through the whole client flow of the spec against our router + tracking:
//   GET /v2/fungible/assets → POST /v2/fungible/route → POST /v2/fungible/msgs → sign (project's minievm
//   signing) + broadcast → POST /v2/tx/track once → poll GET /v2/tx/status to the terminal state,
// and the failure paths: relayer stopped (in flight, then completes), packet timeout (refund), failed source tx,
// tracking worker SIGKILLed mid-flight and restarted. Every hash we report is compared with what the nodes say.
// The chains and the relayer are built once into ~/.cache/chain-infra; a missing piece fails here, never skips.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeServer, listen } from '../../../api/http/app.js';
import { balanceReaderFor, createRouterApp } from '../../../api/router/app.js';
import {
  balances as skipBalances,
  messages as skipMessages,
  route as skipRoute,
  setApiOptions,
  subscribeToRouteStatus,
  trackTransaction,
  transactionStatus,
  waitForTransaction,
  type RouteDetails,
} from '@skip-go/client';
import { createTrackingRoutes } from '../../../api/router/tracking/index.js';
import { createStore, type Store } from '../../../clickhouse/client.js';
import { IbcDevnets, routerTxMessages, signAndBroadcast, type RouterCosmosTx } from '../../../devnet/ibc/devnets.js';
import { voucherOnB, writeDevnetRegistry } from '../../../devnet/ibc/registry.js';
import { deriveDevAccount, type DevAccount } from '../../../devnet/minievm/accounts.js';
import { waitForCosmosTx } from '../../../devnet/minievm/node-client.js';
import { accountKey } from '../../../chain/address.js';
import type { AbciEvent } from '../../../chain/events.js';
import { ibcAckTx } from '../../../devnet/simnet/templates.js';
import { createLogger } from '../../../platform/log.js';
import { loadSkipOpenapi } from '../../support/skip-openapi.js';
import { killProcess, spawnTrackingWorker } from '../../support/tracking-worker.js';
import { loadRouterRegistry, type Registry } from '../../../routing/registry.js';
import { startTracking, type Tracking } from '../../../tracking/index.js';
import { directoryFromRegistry } from '../../../tracking/registry-adapter.js';

// JSON documents of our own API (any: asserted field by field)
type Doc = Record<string, any>;

let dir: string;
let net: IbcDevnets;
let registry: Registry;
let registryDir: string;
let store: Store;
let tracking: Tracking;
let server: Server;
let url: string;
let worker: ChildProcess | undefined;
let rpcUrls: Record<string, string>;

const A = 'devnet-a';
const B = 'devnet-b';
const TERMINAL = ['STATE_COMPLETED_SUCCESS', 'STATE_COMPLETED_ERROR', 'STATE_ABANDONED'];

async function http(method: 'GET' | 'POST', p: string, body?: unknown): Promise<{ status: number; body: Doc }> {
  const r = await fetch(`${url}${p}`, {
    method,
    headers: body ? { 'content-type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: r.status, body: (await r.json()) as Doc };
}

const skipOpenapi = loadSkipOpenapi();

/** The status document, checked against Skip's own OpenAPI schema on every read. */
async function status(txHash: string, chainId = A): Promise<Doc> {
  const r = await http('GET', `/v2/tx/status?chain_id=${chainId}&tx_hash=${txHash}`);
  expect(r.status).toBe(200);
  expect(skipOpenapi.check('/v2/tx/status', 'get', r.body)).toEqual([]);
  return r.body;
}

async function waitStatus(txHash: string, pred: (d: Doc) => boolean, timeoutMs = 90_000, seen?: Doc[]): Promise<Doc> {
  const end = Date.now() + timeoutMs;
  let last: Doc = {};
  while (Date.now() < end) {
    last = await status(txHash);
    seen?.push(last);
    if (pred(last)) return last;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out waiting on ${txHash}; last status ${JSON.stringify(last).slice(0, 2000)}`);
}
const terminal = (d: Doc) => TERMINAL.includes(d.state);

function startWorker(): Promise<ChildProcess> {
  // The standalone worker loads the devnet registry exactly like the real one (ROUTER_NETWORK=custom).
  return spawnTrackingWorker({
    TEMPORAL_ADDRESS: tracking.address,
    ROUTER_NETWORK: 'custom',
    ROUTER_REGISTRY_FILE: registryDir,
    TRACKING_RPC_URLS: JSON.stringify(rpcUrls),
    TRACKING_POLL_INTERVAL_MS: '250',
    TRACKING_FEED_INTERVAL_MS: '250',
    DATA_DIR: path.join(dir, 'worker'),
  });
}

interface Sent {
  txHash: string;
  routeReq: Doc;
  msgs: Doc;
}

/** The client flow up to the broadcast: route, msgs, sign and broadcast the returned cosmos_tx. */
async function routeAndSend(
  from: DevAccount,
  to: DevAccount,
  amount: string,
  extra: Doc = {},
  expectCheckTx = 0,
): Promise<Sent> {
  const routeReq = {
    amount_in: amount,
    source_asset_chain_id: A,
    source_asset_denom: 'umin',
    dest_asset_chain_id: B,
    dest_asset_denom: voucherOnB(net.env),
  };
  const route = await http('POST', '/v2/fungible/route', routeReq);
  expect(route.status, JSON.stringify(route.body)).toBe(200);
  expect(route.body.required_chain_addresses).toEqual([A, B]);
  expect(route.body.operations).toHaveLength(1);
  expect(route.body.operations[0].transfer).toMatchObject({
    from_chain_id: A,
    to_chain_id: B,
    channel: net.env.CHANNEL_A,
    denom_in: 'umin',
    denom_out: voucherOnB(net.env),
  });
  const msgs = await http('POST', '/v2/fungible/msgs', {
    ...routeReq,
    address_list: [from.bech32, to.bech32],
    operations: route.body.operations,
    slippage_tolerance_percent: '1',
    ...extra,
  });
  expect(msgs.status, JSON.stringify(msgs.body)).toBe(200);
  expect(msgs.body.txs).toHaveLength(1);
  const tx = msgs.body.txs[0].cosmos_tx as RouterCosmosTx;
  expect(tx.chain_id).toBe(A);
  expect(tx.signer_address).toBe(from.bech32);
  const sent = await signAndBroadcast(net.a, from, routerTxMessages(tx));
  expect({ code: sent.code, log: sent.log }).toMatchObject({ code: expectCheckTx });
  return { txHash: sent.txHash, routeReq, msgs: msgs.body };
}

async function trackOnce(txHash: string): Promise<void> {
  const r = await http('POST', '/v2/tx/track', { chain_id: A, tx_hash: txHash });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  expect(r.body.tx_hash).toBe(txHash);
}

/** The packet's sequence from the source tx events, and the txs the nodes report for it. */
async function nodeView(txHash: string) {
  const src = await waitForCosmosTx(net.a, txHash);
  const seqQ = (ev: string, seq: string) =>
    `${ev}.packet_sequence='${seq}' AND ${ev}.packet_src_channel='${net.env.CHANNEL_A}'`;
  const sendTx = await net.txSearch(A, `tx.hash='${txHash}'`);
  const ev = (
    sendTx[0] as unknown as { tx_result: { events: { type: string; attributes: { key: string; value: string }[] }[] } }
  ).tx_result.events;
  const seq = ev.find((e) => e.type === 'send_packet')!.attributes.find((a) => a.key === 'packet_sequence')!.value;
  return {
    height: Number(src.height),
    seq,
    recv: (await net.txSearch(B, seqQ('recv_packet', seq))).map((t) => t.hash),
    writeAck: (await net.txSearch(B, seqQ('write_acknowledgement', seq))).map((t) => t.hash),
    ack: (await net.txSearch(A, seqQ('acknowledge_packet', seq))).map((t) => t.hash),
    timeout: (await net.txSearch(A, seqQ('timeout_packet', seq))).map((t) => t.hash),
  };
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'ibc-devnet-e2e-'));
  net = await IbcDevnets.start(path.join(dir, 'net'));
  registryDir = writeDevnetRegistry(net.env, path.join(dir, 'registry'));
  registry = loadRouterRegistry({ ROUTER_NETWORK: 'custom', ROUTER_REGISTRY_FILE: registryDir });
  rpcUrls = { [A]: net.env.A_RPC, [B]: net.env.B_RPC };
  store = createStore({ dataDir: path.join(dir, 'clickhouse') });
  tracking = await startTracking({
    config: {
      DATA_DIR: dir,
      TEMPORAL_ADDRESS: undefined,
      TEMPORAL_NAMESPACE: 'default',
      TEMPORAL_TASK_QUEUE: 'transfer-tracking',
    },
    store,
    chains: directoryFromRegistry(registry, rpcUrls),
    log: createLogger({ test: 'ibc-devnet' }),
    timings: {
      pollIntervalMs: 250,
      pollWindowMs: 5_000,
      sourceTimeoutMs: 60_000,
      ibcStallMs: 300_000,
      lzStallMs: 300_000,
      depositStallMs: 300_000,
      withdrawalStallMs: 300_000,
      lzRetryWindowMs: 2_000,
    },
    runChainWorker: false,
  });
  worker = await startWorker();
  // Balances read the devnets' own REST endpoints, which their registry names (loopback).
  const balances = balanceReaderFor(registry, { fromRegistry: true });
  server = await listen(createRouterApp({ registry, tracking: createTrackingRoutes(tracking.service), balances }), 0);
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  await net.startRelayer();
}, 900_000);

afterAll(async () => {
  if (worker) await killProcess(worker);
  if (server) await closeServer(server);
  await tracking?.stop();
  await store?.close();
  await net?.stop();
  if (dir && !process.env.KEEP_IBC_DEVNET) rmSync(dir, { recursive: true, force: true });
}, 120_000);

describe('real IBC transfer devnet-a → devnet-b (minievm ×2, Go relayer)', () => {
  it('the router lists devnet-b’s voucher of devnet-a umin under the denom our code derives', async () => {
    const assets = await http('GET', `/v2/fungible/assets?chain_ids=${B}`);
    expect(assets.status).toBe(200);
    const list = assets.body.chain_to_assets_map[B].assets as Doc[];
    const voucher = list.find((x) => x.origin_chain_id === A && x.origin_denom === 'umin');
    expect(voucher).toBeDefined();
    expect(voucher!.denom).toBe(voucherOnB(net.env));
    expect(voucher!.trace).toBe(`transfer/${net.env.CHANNEL_B}`);
  });

  it('route → msgs → sign → broadcast → track → status: TRANSFER_SUCCESS with the nodes’ packet tx hashes', async () => {
    const from = deriveDevAccount(1);
    const to = deriveDevAccount(11);
    const voucher = voucherOnB(net.env);
    const before = await net.balance(B, to.bech32, voucher);
    const sent = await routeAndSend(from, to, '1000');
    await trackOnce(sent.txHash);
    const seen: Doc[] = [];
    const done = await waitStatus(sent.txHash, terminal, 90_000, seen);
    expect(done.state).toBe('STATE_COMPLETED_SUCCESS');
    expect(done.status).toBe('STATE_COMPLETED');
    // Every status on the way: states only move forward, a hop is never failed or unknown in between.
    const order = ['STATE_SUBMITTED', 'STATE_PENDING', 'STATE_COMPLETED_SUCCESS'];
    const hopOrder = ['TRANSFER_PENDING', 'TRANSFER_RECEIVED', 'TRANSFER_SUCCESS'];
    const idx = seen.map((d) => order.indexOf(d.state));
    expect(idx.every((v, i) => v >= 0 && (i === 0 || v >= idx[i - 1]!))).toBe(true);
    const hops = seen.flatMap((d) =>
      (d.transfer_sequence ?? []).map((e: Doc) => hopOrder.indexOf(e.ibc_transfer.state)),
    );
    expect(hops.every((v, i) => v >= 0 && (i === 0 || v >= hops[i - 1]!))).toBe(true);
    expect(done.error ?? null).toBeNull();
    expect(done.transfer_sequence).toHaveLength(1);
    const hop = done.transfer_sequence[0].ibc_transfer;
    expect(hop).toMatchObject({ from_chain_id: A, to_chain_id: B, state: 'TRANSFER_SUCCESS' });
    const node = await nodeView(sent.txHash);
    expect(node.recv).toHaveLength(1);
    expect(node.ack).toHaveLength(1);
    expect(node.writeAck).toEqual(node.recv); // ibc-go writes the ack in the recv tx
    expect(hop.packet_txs.send_tx).toMatchObject({ chain_id: A, tx_hash: sent.txHash });
    expect(hop.packet_txs.receive_tx).toMatchObject({ chain_id: B, tx_hash: node.recv[0] });
    expect(hop.packet_txs.acknowledge_tx).toMatchObject({ chain_id: A, tx_hash: node.ack[0] });
    expect(hop.packet_txs.timeout_tx).toBeNull();
    expect(done.transfer_asset_release).toEqual({ chain_id: B, denom: voucher, amount: '1000', released: true });
    expect((await net.balance(B, to.bech32, voucher)) - before).toBe(1000n);
    // The node's own denom trace hash for the path equals the denom our registry / tracking derived.
    expect(await net.denomHash(B, `transfer/${net.env.CHANNEL_B}/umin`)).toBe(voucher);
  });

  it('relayer stopped: the packet is in flight (pending, not failed); it completes after the relayer resumes', async () => {
    await net.stopRelayer();
    const from = deriveDevAccount(2);
    const to = deriveDevAccount(12);
    const sent = await routeAndSend(from, to, '2500');
    await trackOnce(sent.txHash);
    const pending = await waitStatus(sent.txHash, (d) => d.transfer_sequence?.length === 1);
    // Hold the relayer back a while: the status must stay a pending transfer, never an error.
    await new Promise((r) => setTimeout(r, 6_000));
    const held = await status(sent.txHash);
    for (const d of [pending, held]) {
      expect(d.state).toBe('STATE_PENDING');
      expect(d.status).toBe('STATE_PENDING');
      expect(d.transfer_sequence[0].ibc_transfer.state).toBe('TRANSFER_PENDING');
      expect(d.transfer_sequence[0].ibc_transfer.packet_txs.receive_tx).toBeNull();
      expect(d.error ?? null).toBeNull();
    }
    expect((await nodeView(sent.txHash)).recv).toEqual([]); // the node agrees: nothing received yet
    await net.startRelayer();
    const done = await waitStatus(sent.txHash, terminal);
    expect(done.state).toBe('STATE_COMPLETED_SUCCESS');
    const node = await nodeView(sent.txHash);
    const hop = done.transfer_sequence[0].ibc_transfer;
    expect(hop.packet_txs.receive_tx.tx_hash).toBe(node.recv[0]);
    expect(hop.packet_txs.acknowledge_tx.tx_hash).toBe(node.ack[0]);
  });

  it('relayer stopped, then the pending packet cleared once without the daemon (rly tx flush): completes', async () => {
    await net.stopRelayer();
    const from = deriveDevAccount(8);
    const to = deriveDevAccount(18);
    const sent = await routeAndSend(from, to, '2500');
    await trackOnce(sent.txHash);
    const pending = await waitStatus(sent.txHash, (d) => d.transfer_sequence?.length === 1);
    expect(pending.transfer_sequence[0].ibc_transfer.state).toBe('TRANSFER_PENDING');
    // One flush relays recv_packet (+ its ack written on B); the acknowledgement back to A needs the next one.
    let done: Doc = pending;
    for (let i = 0; i < 4 && !terminal(done); i++) {
      await net.clearPackets();
      done = await waitStatus(
        sent.txHash,
        (d) => terminal(d) || !!d.transfer_sequence[0].ibc_transfer.packet_txs.receive_tx,
        30_000,
      );
      if (!terminal(done)) done = await waitStatus(sent.txHash, () => true, 3_000);
    }
    done = await waitStatus(sent.txHash, terminal, 30_000);
    expect(done.state).toBe('STATE_COMPLETED_SUCCESS');
    const node = await nodeView(sent.txHash);
    const hop = done.transfer_sequence[0].ibc_transfer;
    expect(hop.packet_txs.receive_tx.tx_hash).toBe(node.recv[0]);
    expect(hop.packet_txs.acknowledge_tx.tx_hash).toBe(node.ack[0]);
    await net.startRelayer();
  });

  it('packet timeout: relayer held back past a short timeout, then the timeout relayed: COMPLETED_ERROR + refund', async () => {
    await net.stopRelayer();
    const from = deriveDevAccount(3);
    const to = deriveDevAccount(13);
    const balanceBefore = await net.balance(A, from.bech32, 'umin');
    const sent = await routeAndSend(from, to, '777', { timeout_seconds: 4 });
    await trackOnce(sent.txHash);
    await waitForCosmosTx(net.a, sent.txHash);
    expect(await net.balance(A, from.bech32, 'umin')).toBe(balanceBefore - 777n); // escrowed (fees are 0)
    // Past the timeout on devnet-b's clock (1 block ≈ 0.5 s): wait 8 s, then let the relayer run.
    await new Promise((r) => setTimeout(r, 8_000));
    const mid = await status(sent.txHash);
    expect(mid.state).toBe('STATE_PENDING');
    await net.startRelayer();
    const done = await waitStatus(sent.txHash, terminal);
    expect(done.state).toBe('STATE_COMPLETED_ERROR');
    expect(done.status).toBe('STATE_FAILED');
    const hop = done.transfer_sequence[0].ibc_transfer;
    expect(hop.state).toBe('TRANSFER_FAILURE');
    const node = await nodeView(sent.txHash);
    expect(node.recv).toEqual([]);
    expect(node.timeout).toHaveLength(1);
    expect(hop.packet_txs.receive_tx).toBeNull();
    expect(hop.packet_txs.acknowledge_tx).toBeNull();
    expect(hop.packet_txs.timeout_tx).toMatchObject({ chain_id: A, tx_hash: node.timeout[0] });
    expect(hop.packet_txs.error.type).toBe('PACKET_ERROR_TIMEOUT');
    // Skip clients read the refund from transfer_asset_release: released back on the source chain.
    expect(done.transfer_asset_release).toEqual({ chain_id: A, denom: 'umin', amount: '777', released: true });
    expect(await net.balance(A, from.bech32, 'umin')).toBe(balanceBefore);
    // No recorded timeout existed: the simnet's timeout tx must carry the real node's event names and keys.
    const real = (await net.txSearch(A, `tx.hash='${node.timeout[0]}'`))[0] as unknown as {
      tx_result: { events: AbciEvent[] };
    };
    const sim = ibcAckTx(
      {
        sequence: node.seq,
        srcPort: 'transfer',
        srcChannel: net.env.CHANNEL_A,
        dstPort: 'transfer',
        dstChannel: net.env.CHANNEL_B,
        timeoutNs: '1',
        data: { amount: '777', denom: 'umin', receiver: to.bech32, sender: from.bech32, memo: '' },
      },
      'timeout_packet',
    ).result.events;
    const keys = (ev: AbciEvent[], type: string) =>
      ev.filter((e) => e.type === type).map((e) => e.attributes.map((a) => a.key));
    for (const type of ['timeout_packet', 'timeout'])
      expect({ type, keys: keys(sim, type) }).toEqual({ type, keys: keys(real.tx_result.events, type) });
  });

  it('failed source tx (insufficient funds, code ≠ 0 on chain): COMPLETED_ERROR / TRANSACTION_EXECUTION', async () => {
    const from = deriveDevAccount(4);
    const to = deriveDevAccount(14);
    const have = await net.balance(A, from.bech32, 'umin');
    const sent = await routeAndSend(from, to, (have + 1n).toString());
    await trackOnce(sent.txHash);
    const onChain = await waitForCosmosTx(net.a, sent.txHash);
    expect(onChain.tx_result.code).not.toBe(0);
    const done = await waitStatus(sent.txHash, terminal);
    expect(done).toMatchObject({
      state: 'STATE_COMPLETED_ERROR',
      status: 'STATE_FAILED',
      transfer_sequence: [],
      error: { type: 'STATUS_ERROR_TRANSACTION_EXECUTION' },
    });
    // minievm keeps balances in ERC20 contracts: the node's own DeliverTx log, verbatim.
    expect(done.error.message).toContain('transfer amount exceeds balance');
    const again = await http('POST', '/v2/tx/track', { chain_id: A, tx_hash: sent.txHash });
    expect(again.status).toBe(400);
  });

  it('tracking worker SIGKILLed mid-flight and restarted: right terminal state, no duplicate events', async () => {
    await net.stopRelayer();
    const pairs = [5, 6, 7].map((i) => [deriveDevAccount(i), deriveDevAccount(i + 10)] as const);
    const sent: Sent[] = [];
    for (const [from, to] of pairs) sent.push(await routeAndSend(from, to, '100'));
    for (const s of sent) await trackOnce(s.txHash);
    for (const s of sent) await waitStatus(s.txHash, (d) => d.transfer_sequence?.length === 1);
    await killProcess(worker!);
    await net.startRelayer(); // packets relayed while no tracking worker runs
    await new Promise((r) => setTimeout(r, 4_000));
    worker = await startWorker();
    for (const s of sent) {
      const done = await waitStatus(s.txHash, terminal);
      expect(done.state).toBe('STATE_COMPLETED_SUCCESS');
      const node = await nodeView(s.txHash);
      expect(done.transfer_sequence[0].ibc_transfer.packet_txs.receive_tx.tx_hash).toBe(node.recv[0]);
      expect(done.transfer_sequence[0].ibc_transfer.packet_txs.acknowledge_tx.tx_hash).toBe(node.ack[0]);
    }
    const hs = sent.map((s) => s.txHash);
    const [dup] = await store.rows<{ rows: string; keys: string }>(
      'SELECT count() AS rows, uniqExact(chain_id, tx_hash, version) AS keys FROM transfer_events WHERE tx_hash IN {hs:Array(String)}',
      { hs },
    );
    expect(dup!.rows).toBe(dup!.keys);
    const gaps = await store.rows<{ tx_hash: string }>(
      'SELECT tx_hash FROM transfer_events WHERE tx_hash IN {hs:Array(String)} GROUP BY tx_hash HAVING uniqExact(version) != max(version) + 1 OR min(version) != 0',
      { hs },
    );
    expect(gaps).toEqual([]);
  });
});

/**
 * The unmodified @skip-go/client on the supported path (docs/router.md "The stock Skip client"): its route() and
 * messages(), the returned cosmos tx signed with this devnet's keys and broadcast to the node (the router never
 * broadcasts; executeRoute would send it to /v2/tx/submit), then trackTransaction, and waitForTransaction and
 * subscribeToRouteStatus side by side. Every status the client's own converters produce is checked.
 */
describe('the stock @skip-go/client over the real devnets', () => {
  interface Watched {
    waited: Promise<{ state?: string; transferAssetRelease?: Record<string, unknown> }>;
    waitStates: string[];
    routeUpdates: RouteDetails[];
    done: Promise<RouteDetails>;
  }

  async function clientSend(from: DevAccount, to: DevAccount, amount: string, timeoutSeconds?: string) {
    setApiOptions({ apiUrl: url });
    const r = await skipRoute({
      amountIn: amount,
      sourceAssetChainId: A,
      sourceAssetDenom: 'umin',
      destAssetChainId: B,
      destAssetDenom: voucherOnB(net.env),
    });
    expect(r!.requiredChainAddresses).toEqual([A, B]);
    const m = await skipMessages({
      amountIn: r!.amountIn,
      amountOut: r!.estimatedAmountOut,
      sourceAssetChainId: A,
      sourceAssetDenom: 'umin',
      destAssetChainId: B,
      destAssetDenom: voucherOnB(net.env),
      addressList: [from.bech32, to.bech32],
      operations: r!.operations,
      slippageTolerancePercent: '1',
      ...(timeoutSeconds ? { timeoutSeconds } : {}),
    });
    const tx = m!.txs![0]! as {
      cosmosTx: { chainId: string; signerAddress: string; msgs: { msg: string; msgTypeUrl: string }[] };
    };
    const cosmos: RouterCosmosTx = {
      chain_id: tx.cosmosTx.chainId,
      signer_address: tx.cosmosTx.signerAddress,
      msgs: tx.cosmosTx.msgs.map((x) => ({ msg: x.msg, msg_type_url: x.msgTypeUrl })),
    };
    const sent = await signAndBroadcast(net.a, from, routerTxMessages(cosmos));
    expect(sent.code).toBe(0);
    const tracked = await trackTransaction({ chainId: A, txHash: sent.txHash });
    expect(tracked!.txHash).toBe(sent.txHash);
    return { txHash: sent.txHash, route: r! };
  }

  function watch(txHash: string, route: Awaited<ReturnType<typeof skipRoute>>): Watched {
    const waitStates: string[] = [];
    const waited = waitForTransaction({
      chainId: A,
      txHash,
      explorerLink: 'tracked', // already registered: no second track
      onStatusUpdated: (st) => waitStates.push(st.state ?? 'none'),
    }) as Watched['waited'];
    waited.catch(() => undefined); // a failure is asserted by the test that expects it
    const routeUpdates: RouteDetails[] = [];
    const done = new Promise<RouteDetails>((resolve) => {
      subscribeToRouteStatus({
        routeDetails: {
          id: txHash,
          timestamp: Date.now(),
          status: 'pending',
          route: {
            sourceAssetChainId: A,
            destAssetChainId: B,
            amountIn: route!.amountIn,
            operations: route!.operations,
          },
          txsRequired: 1,
          txsSigned: 1,
          transactionDetails: [{ chainId: A, txHash }],
          transferEvents: undefined as unknown as RouteDetails['transferEvents'],
          userAddresses: [],
        },
        onRouteStatusUpdated: (d) => {
          routeUpdates.push(structuredClone(d));
          if (['completed', 'failed', 'incomplete'].includes(d.status)) resolve(d);
        },
      });
    });
    return { waited, waitStates, routeUpdates, done };
  }

  it('balances() reads the node through the router: the same amounts the node reports', async () => {
    setApiOptions({ apiUrl: url });
    const who = deriveDevAccount(9);
    const b = await skipBalances({ chains: { [A]: { address: who.bech32, denoms: ['umin'] } } });
    expect(b!.chains![A]!.denoms!.umin!.amount).toBe((await net.balance(A, who.bech32, 'umin')).toString());
    expect(b!.chains![A]!.denoms!.umin!.error ?? null).toBeNull();
  });

  it('a transfer: never failed while pending, success at the end, the voucher released on devnet-b', async () => {
    const to = deriveDevAccount(19);
    const { txHash, route } = await clientSend(deriveDevAccount(9), to, '4321', '600');
    const w = watch(txHash, route);
    const final = await w.done;
    const res = await w.waited;
    expect(res.state).toBe('STATE_COMPLETED_SUCCESS');
    expect(w.waitStates.every((x) => ['STATE_SUBMITTED', 'STATE_PENDING', 'STATE_COMPLETED_SUCCESS'].includes(x))).toBe(
      true,
    );
    expect(final.status).toBe('completed');
    expect(final.transactionDetails[0]!.status).toBe('success');
    for (const d of w.routeUpdates.slice(0, -1)) {
      expect(d.status).not.toBe('failed');
      for (const e of d.transferEvents ?? []) expect(e.status).not.toBe('failed');
    }
    const node = await nodeView(txHash);
    const ev = final.transferEvents[0]!;
    expect(ev).toMatchObject({ transferType: 'ibcTransfer', status: 'completed', fromChainId: A, toChainId: B });
    expect(ev.fromTxHash).toBe(txHash);
    expect(ev.toTxHash).toBe(node.recv[0]);
    expect(final.transferAssetRelease).toMatchObject({ chainId: B, denom: voucherOnB(net.env), released: true });
    expect(res.transferAssetRelease).toMatchObject({ chainId: B, amount: '4321', released: true });
    const st = await transactionStatus({ chainId: A, txHash });
    expect(st!.transfers).toHaveLength(1);
    expect(st!.transfers![0]!.state).toBe('STATE_COMPLETED_SUCCESS');
  }, 120_000);

  it('a packet timeout: pending (never failed) until the timeout is relayed, then failed with the refund', async () => {
    await net.stopRelayer();
    const from = deriveDevAccount(10);
    const { txHash, route } = await clientSend(from, deriveDevAccount(0), '555', '4');
    const w = watch(txHash, route);
    await new Promise((r) => setTimeout(r, 8_000));
    // Held back past the timeout: the client still reads it as pending.
    expect(w.routeUpdates.every((d) => d.status !== 'failed')).toBe(true);
    await net.startRelayer();
    const final = await w.done;
    await expect(w.waited).rejects.toThrow(/^STATUS_ERROR_TRANSFER: packet timed out/);
    expect(final.status).toBe('failed');
    expect(final.transactionDetails[0]!.status).toBe('failed');
    expect(final.transferEvents[0]).toMatchObject({ transferType: 'ibcTransfer', status: 'failed' });
    expect(final.transferAssetRelease).toMatchObject({ chainId: A, denom: 'umin', amount: '555', released: true });
    const node = await nodeView(txHash);
    expect(node.timeout).toHaveLength(1);
    for (const d of w.routeUpdates.slice(0, -1)) expect(d.status).not.toBe('failed');
  }, 120_000);
});

describe('history by address after every transfer above', () => {
  it('lists, for each account, exactly the tracked transfers the node shows it sent or received', async () => {
    // What the node says: every tracked tx's send_packet, read from devnet-a itself.
    const tracked = await store.rows<{ tx_hash: string }>(
      'SELECT DISTINCT tx_hash FROM transfer_events WHERE chain_id = {c:String}',
      { c: A },
    );
    expect(tracked.length).toBeGreaterThan(5);
    const want = new Map<string, Set<string>>();
    for (const { tx_hash } of tracked) {
      const found = (await net.txSearch(A, `tx.hash='${tx_hash}'`))[0] as unknown as
        | { tx_result: { code: number; events: AbciEvent[] } }
        | undefined;
      if (found?.tx_result.code !== 0) continue;
      // The transfer's first packet (every transfer here is one direct packet, no forward in its memo).
      const ev = found.tx_result.events.find((e) => e.type === 'send_packet');
      if (!ev) continue;
      const data = JSON.parse(ev.attributes.find((a) => a.key === 'packet_data')!.value) as Record<string, string>;
      expect(data.memo ?? '').not.toContain('forward');
      for (const address of [data.sender!, data.receiver!]) {
        const key = accountKey(address)!;
        want.set(key, (want.get(key) ?? new Set()).add(tx_hash));
      }
    }
    expect(want.size).toBeGreaterThan(3);
    for (const [key, hashes] of want) {
      const address = `0x${key.padStart(40, '0')}`; // the 0x form: the same account as the node's bech32
      const r = await http('GET', `/v2/tx/history?address=${address}&limit=100`);
      expect(r.status).toBe(200);
      const got = r.body.transfers as { chain_id: string; tx_hash: string; registered_at: string }[];
      expect(new Set(got.map((t) => t.tx_hash))).toEqual(hashes);
      expect(got.every((t) => t.chain_id === A)).toBe(true);
      const times = got.map((t) => Date.parse(t.registered_at));
      expect(times).toEqual([...times].sort((x, y) => y - x)); // newest first
    }
  }, 120_000);
});
