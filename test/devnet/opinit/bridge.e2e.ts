// OPinit token transfers over a real optimistic bridge on loopback (devnet/opinit/: L1 initiad, L2 minievm, the
// executor opinitd; 5 s submission interval, 10 s finalization period), driven through the client flow against
// our router + tracking:
//   POST /v2/fungible/route → POST /v2/fungible/msgs → sign + broadcast → POST /v2/tx/track → GET /v2/tx/status,
// and for a withdrawal on to its claim: claimable → GET /v2/tx/claim_msgs → sign + broadcast on L1 → completed.
// Every hash, output index and time we report is compared with what the nodes say, and the amounts with the
// balance changes. Faults: the executor stopped mid-deposit, and an output deleted by the challenger while a
// withdrawal waits out its finalization period. The binaries are built once into ~/.cache/chain-infra; a
// missing piece fails here, never skips.
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setApiOptions, transactionStatus, waitForTransaction } from '@skip-go/client';
import { closeServer, listen } from '../../../api/http/app.js';
import { createRouterApp } from '../../../api/router/app.js';
import { createTrackingRoutes } from '../../../api/router/tracking/index.js';
import { createStore, type Store } from '../../../clickhouse/client.js';
import { deriveDevAccount } from '../../../devnet/minievm/accounts.js';
import { getJson, waitForCosmosTx } from '../../../devnet/minievm/node-client.js';
import { OpinitDevnet, type WrappedInit, writeOpinitRegistry } from '../../../devnet/opinit/bridge.js';
import { createLogger } from '../../../platform/log.js';
import { loadRouterRegistry, type Registry } from '../../../routing/registry.js';
import { startTracking, type Tracking } from '../../../tracking/index.js';
import { directoryFromRegistry } from '../../../tracking/registry-adapter.js';
import { loadSkipOpenapi } from '../../support/skip-openapi.js';

// JSON documents of our own API (asserted field by field)
type Doc = Record<string, any>;

let dir: string;
let net: OpinitDevnet;
let registry: Registry;
let store: Store;
let tracking: Tracking;
let server: Server;
let url: string;
let L1 = '';
let L2 = '';

const user = deriveDevAccount(1); // start.sh funds it with uinit on L1 and umin on L2 (same address on both)
const TERMINAL = ['STATE_COMPLETED_SUCCESS', 'STATE_COMPLETED_ERROR', 'STATE_ABANDONED'];
const terminal = (d: Doc) => TERMINAL.includes(d.state);
const skipOpenapi = loadSkipOpenapi();

async function http(method: 'GET' | 'POST', p: string, body?: unknown): Promise<{ status: number; body: Doc }> {
  const r = await fetch(`${url}${p}`, {
    method,
    headers: body ? { 'content-type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: r.status, body: (await r.json()) as Doc };
}

/** The status document, checked against Skip's own OpenAPI schema on every read. */
async function status(chainId: string, txHash: string): Promise<Doc> {
  const r = await http('GET', `/v2/tx/status?chain_id=${chainId}&tx_hash=${txHash}`);
  expect(r.status).toBe(200);
  expect(skipOpenapi.check('/v2/tx/status', 'get', r.body)).toEqual([]);
  return r.body;
}

async function waitStatus(
  chainId: string,
  txHash: string,
  pred: (d: Doc) => boolean,
  seen: Doc[] = [],
  timeoutMs = 90_000,
): Promise<Doc> {
  const end = Date.now() + timeoutMs;
  let last: Doc = {};
  while (Date.now() < end) {
    last = await status(chainId, txHash);
    seen.push(last);
    if (pred(last)) return last;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out waiting on ${txHash}; last status ${JSON.stringify(last).slice(0, 2000)}`);
}
const op = (d: Doc): Doc => d.transfer_sequence?.[0]?.op_init_transfer ?? {};

/** route → msgs → sign → broadcast → track, as a client does; returns the source tx hash. */
async function transfer(
  from: string,
  fromDenom: string,
  to: string,
  toDenom: string,
  amount: string,
  hook?: (routeReq: Doc) => Promise<string>,
): Promise<string> {
  const routeReq = {
    amount_in: amount,
    source_asset_chain_id: from,
    source_asset_denom: fromDenom,
    dest_asset_chain_id: to,
    dest_asset_denom: toDenom,
  };
  const route = await http('POST', '/v2/fungible/route', routeReq);
  expect(route.status, JSON.stringify(route.body)).toBe(200);
  expect(route.body.operations).toHaveLength(1);
  expect(route.body.operations[0].op_init_transfer).toMatchObject({ from_chain_id: from, to_chain_id: to });
  expect(route.body.required_op_hook).toBe(hook !== undefined);
  const msgs = await http('POST', '/v2/fungible/msgs', {
    ...routeReq,
    ...(hook ? { signed_op_hook: { signer: user.bech32, hook: await hook(routeReq) } } : {}),
    address_list: [user.bech32, user.bech32],
    operations: route.body.operations,
    slippage_tolerance_percent: '1',
  });
  expect(msgs.status, JSON.stringify(msgs.body)).toBe(200);
  expect(msgs.body.txs).toHaveLength(1);
  const tx = msgs.body.txs[0].cosmos_tx;
  expect([tx.chain_id, tx.signer_address]).toEqual([from, user.bech32]);
  const sent = await net.signRouterTx(user, tx);
  expect({ code: sent.code, log: sent.log }).toMatchObject({ code: 0 });
  const tracked = await http('POST', '/v2/tx/track', { chain_id: from, tx_hash: sent.txHash });
  expect(tracked.status, JSON.stringify(tracked.body)).toBe(200);
  return sent.txHash;
}

/** A broadcast tx once in a block: its code and log there (broadcast's code 0 is CheckTx, which runs no message). */
async function inBlock(chainId: string, txHash: string, timeoutMs = 30_000): Promise<{ code: number; log?: string }> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    const [t] = await net.txSearch(chainId, `tx.hash='${txHash}'`);
    if (t) return { code: t.tx_result.code, log: t.tx_result.log };
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`${txHash} was not in a block of ${chainId} within ${timeoutMs} ms`);
}

/** The txs the nodes report for an event attribute, by hash. */
async function hashes(chainId: string, query: string): Promise<string[]> {
  return (await net.txSearch(chainId, query)).map((t) => t.hash);
}
function attr(events: { type: string; attributes: { key: string; value: string }[] }[], type: string, key: string) {
  return events.find((e) => e.type === type)?.attributes.find((a) => a.key === key)?.value;
}

const TIMINGS = {
  pollIntervalMs: 250,
  pollWindowMs: 5_000,
  sourceTimeoutMs: 60_000,
  ibcStallMs: 300_000,
  lzStallMs: 300_000,
  depositStallMs: 300_000,
  withdrawalStallMs: 300_000,
  lzRetryWindowMs: 2_000,
  outputCheckMs: 1_000,
};
let registryDir = '';
let rpcUrls: Record<string, string> = {};

/**
 * The main job's tracking (dev server, client, projection) with the chain worker as a child process that loads
 * this registry like the real one; the router app serves its routes. Started again, it resumes on the same data.
 */
async function startMainJob(): Promise<void> {
  tracking = await startTracking({
    config: {
      DATA_DIR: dir,
      TEMPORAL_ADDRESS: undefined,
      TEMPORAL_NAMESPACE: 'default',
      TEMPORAL_TASK_QUEUE: 'transfer-tracking',
    },
    store,
    // The executor comes from the registry's executor_uri, as on a real network.
    chains: directoryFromRegistry(registry, rpcUrls),
    log: createLogger({ test: 'opinit-devnet' }),
    timings: TIMINGS,
    chainWorkerProcess: {
      env: {
        ROUTER_NETWORK: 'custom',
        ROUTER_REGISTRY_FILE: registryDir,
        TRACKING_RPC_URLS: JSON.stringify(rpcUrls),
        TRACKING_FEED_INTERVAL_MS: '250',
        LOG_LEVEL: 'warn',
      },
    },
  });
  await startRouter();
}

/** The router app over `registry`, serving the routes of the running tracking. */
async function startRouter(): Promise<void> {
  server = await listen(createRouterApp({ registry, tracking: createTrackingRoutes(tracking.service) }), 0);
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

/** The router alone, started again over a new registry (as an operator's registry update does); tracking runs on. */
async function restartRouter(): Promise<void> {
  await closeServer(server);
  await startRouter();
}

async function stopMainJob(): Promise<void> {
  if (server) await closeServer(server);
  await tracking?.stop();
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'opinit-devnet-e2e-'));
  net = await OpinitDevnet.start(path.join(dir, 'net'));
  L1 = net.l1.chainId;
  L2 = net.l2.chainId;
  registryDir = writeOpinitRegistry(net.env, path.join(dir, 'registry'));
  registry = loadRouterRegistry({ ROUTER_NETWORK: 'custom', ROUTER_REGISTRY_FILE: registryDir });
  rpcUrls = { [L1]: net.env.L1_RPC_URL, [L2]: net.env.L2_RPC_URL };
  store = createStore({ dataDir: path.join(dir, 'clickhouse') });
  await startMainJob();
}, 1_500_000);

afterAll(async () => {
  await stopMainJob();
  await store?.close();
  await net?.stop();
  if (dir && !process.env.KEEP_OPINIT_DEVNET) rmSync(dir, { recursive: true, force: true });
}, 120_000);

describe('real OPinit bridge (initiad L1, minievm L2, opinitd executor)', () => {
  it('the router lists the bridged INIT on L2 under the denom the chain derives', async () => {
    const assets = await http('GET', `/v2/fungible/assets?chain_ids=${L2}`);
    expect(assets.status).toBe(200);
    const list = assets.body.chain_to_assets_map[L2].assets as Doc[];
    expect(list.find((a) => a.origin_chain_id === L1 && a.origin_denom === 'uinit')?.denom).toBe(
      net.env.L2_DENOM_UINIT,
    );
  });

  it('deposit: route → msgs → sign → broadcast → track → finalized on L2, hashes and amounts as the nodes say', async () => {
    const before = await net.balance(L2, user.bech32, net.env.L2_DENOM_UINIT);
    const txHash = await transfer(L1, 'uinit', L2, net.env.L2_DENOM_UINIT, '3000000');
    const seen: Doc[] = [];
    const done = await waitStatus(L1, txHash, terminal, seen);
    expect(done.state).toBe('STATE_COMPLETED_SUCCESS');
    expect(seen.some((d) => d.state === 'STATE_COMPLETED_ERROR' || d.status === 'STATE_FAILED')).toBe(false);
    const src = await waitForCosmosTx(net.l1, txHash);
    const l1Sequence = attr(src.tx_result.events ?? [], 'initiate_token_deposit', 'l1_sequence');
    expect(op(done)).toMatchObject({
      from_chain_id: L1,
      to_chain_id: L2,
      state: 'OPINIT_TRANSFER_RECEIVED',
      phase: 'finalized',
      bridge_id: net.env.BRIDGE_ID,
      l1_sequence: l1Sequence,
    });
    expect(op(done).txs.send_tx).toMatchObject({ chain_id: L1, tx_hash: txHash });
    expect([op(done).txs.receive_tx.tx_hash]).toEqual(
      await hashes(L2, `finalize_token_deposit.l1_sequence='${l1Sequence}'`),
    );
    expect(done.transfer_asset_release).toEqual({
      chain_id: L2,
      denom: net.env.L2_DENOM_UINIT,
      amount: '3000000',
      released: true,
    });
    expect((await net.balance(L2, user.bech32, net.env.L2_DENOM_UINIT)) - before).toBe(3_000_000n);
  });

  it('withdrawal: covered by an output, claimable after the bridge period, claimed with our claim message', async () => {
    const beforeL1 = await net.balance(L1, user.bech32, 'uinit');
    const txHash = await transfer(L2, net.env.L2_DENOM_UINIT, L1, 'uinit', '1000000');
    const seen: Doc[] = [];
    // The stock client watches it too, unchanged: it must never report this days-long transfer as failed.
    setApiOptions({ apiUrl: url });
    const stockStates: string[] = [];
    const stockWait = waitForTransaction({
      chainId: L2,
      txHash,
      explorerLink: 'tracked', // already registered: no second track
      onStatusUpdated: (st) => stockStates.push(st.state ?? 'none'),
    });
    stockWait.catch(() => undefined); // asserted below
    // 1. covered by an output: the first propose_output on L1 with l2_block_number ≥ the withdrawal's height
    const proposed = await waitStatus(L2, txHash, (d) => op(d).phase === 'output_proposed', seen);
    const src = await waitForCosmosTx(net.l2, txHash);
    const l2Sequence = attr(src.tx_result.events ?? [], 'initiate_token_withdrawal', 'l2_sequence');
    expect(op(proposed)).toMatchObject({ state: 'OPINIT_TRANSFER_SENT', l2_sequence: l2Sequence });
    const outputs = (await net.txSearch(L1, `propose_output.bridge_id='${net.env.BRIDGE_ID}'`)).flatMap((t) =>
      (t.tx_result.events ?? [])
        .filter((e) => e.type === 'propose_output')
        .map((e) => Object.fromEntries(e.attributes.map((a) => [a.key, a.value]))),
    );
    const covering = outputs
      .filter((o) => Number(o.l2_block_number) >= Number(src.height))
      .sort((a, b) => Number(a.output_index) - Number(b.output_index))[0];
    expect(op(proposed).output_index).toBe(covering?.output_index);
    // claimable_at = the output's L1 block time + the bridge's finalization period, both read from L1
    const rest = net.l1.rest;
    const out = await getJson<Doc>(
      `${rest}/opinit/ophost/v1/bridges/${net.env.BRIDGE_ID}/outputs/${covering?.output_index}`,
    );
    const bridge = await getJson<Doc>(`${rest}/opinit/ophost/v1/bridges/${net.env.BRIDGE_ID}`);
    expect(bridge.bridge_config.finalization_period).toBe(net.env.FINALIZATION_PERIOD);
    expect(Date.parse(op(proposed).claimable_at)).toBe(
      Math.floor(Date.parse(out.output_proposal.l1_block_time)) + net.finalizationMs,
    );
    // 2. claimable: the claim is the next action, and the stock client's states never said failed meanwhile
    const claimable = await waitStatus(L2, txHash, (d) => op(d).phase === 'claimable', seen, 60_000);
    expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(op(proposed).claimable_at));
    expect(claimable.state).toBe('STATE_PENDING');
    expect(op(claimable).state).toBe('OPINIT_TRANSFER_SENT');
    expect(claimable.next_action).toMatchObject({ type: 'CLAIM_WITHDRAWAL', chain_id: L1, transfer_sequence_index: 0 });
    const ready = claimable.next_action.ready
      ? claimable
      : await waitStatus(L2, txHash, (d) => d.next_action?.ready === true, seen, 30_000);
    expect(ready.next_action.reason).toBeUndefined();
    const stockPending = await transactionStatus({ chainId: L2, txHash });
    expect(stockPending!.state).toBe('STATE_PENDING');
    expect(stockPending!.transfers![0]!.state).toBe('STATE_PENDING');
    // 3. the claim: our unsigned message, signed and broadcast by the test (any signer may claim)
    const claim = await http('GET', `/v2/tx/claim_msgs?chain_id=${L2}&tx_hash=${txHash}`);
    expect(claim.status, JSON.stringify(claim.body)).toBe(200);
    const claimTx = claim.body.txs[0].cosmos_tx;
    expect([claimTx.chain_id, claimTx.signer_address]).toEqual([L1, user.bech32]);
    const sent = await net.signRouterTx(user, claimTx);
    expect({ code: sent.code, log: sent.log }).toMatchObject({ code: 0 });
    // the claim passed on chain: L1 found the output finalized at its block's time (the status said ready)
    expect(await inBlock(L1, sent.txHash)).toMatchObject({ code: 0 });
    const done = await waitStatus(L2, txHash, terminal, seen);
    expect(done.state).toBe('STATE_COMPLETED_SUCCESS');
    expect(op(done)).toMatchObject({ state: 'OPINIT_TRANSFER_RECEIVED', phase: 'claimed' });
    expect(done.next_action).toBeUndefined();
    expect(op(done).txs.receive_tx.tx_hash).toBe(sent.txHash);
    expect(await hashes(L1, `finalize_token_withdrawal.l2_sequence='${l2Sequence}'`)).toEqual([sent.txHash]);
    expect(done.transfer_asset_release).toEqual({ chain_id: L1, denom: 'uinit', amount: '1000000', released: true });
    expect((await net.balance(L1, user.bech32, 'uinit')) - beforeL1).toBe(1_000_000n);
    // phases only moved forward, and no answer on the way read as failed
    const order = ['initiated', 'output_proposed', 'claimable', 'claimed'];
    const phases = seen.map((d) => order.indexOf(op(d).phase ?? 'initiated'));
    expect(phases.every((p, i) => p >= 0 && (i === 0 || p >= phases[i - 1]!))).toBe(true);
    expect(seen.some((d) => d.status === 'STATE_FAILED')).toBe(false);
    const stock = await stockWait;
    expect(stock!.state).toBe('STATE_COMPLETED_SUCCESS');
    expect(stockStates.length).toBeGreaterThan(0);
    expect(
      stockStates.filter((x) => !['STATE_SUBMITTED', 'STATE_PENDING', 'STATE_COMPLETED_SUCCESS'].includes(x)),
    ).toEqual([]);
    // a claim asked for again: nothing left to claim (400, machine-readable reason)
    const again = await http('GET', `/v2/tx/claim_msgs?chain_id=${L2}&tx_hash=${txHash}`);
    expect([again.status, again.body.reason]).toEqual([400, 'NOTHING_TO_CLAIM']);
  });

  it('the executor stopped mid-deposit: pending with EXECUTOR_UNREACHABLE (never failed) until it is back, then finalized', async () => {
    await net.executor('stop');
    let txHash = '';
    try {
      txHash = await transfer(L1, 'uinit', L2, net.env.L2_DENOM_UINIT, '2000');
      const seen: Doc[] = [];
      await waitStatus(L1, txHash, (d) => d.state === 'STATE_PENDING', seen);
      await new Promise((r) => setTimeout(r, 4_000)); // longer than a relay takes with the executor up (~3 s)
      const held = await status(L1, txHash);
      // pending with the machine-readable reason, never failed
      expect([held.state, op(held).state, op(held).phase, op(held).waiting_reason]).toEqual([
        'STATE_PENDING',
        'OPINIT_TRANSFER_SENT',
        'initiated',
        'EXECUTOR_UNREACHABLE',
      ]);
      expect(seen.some((d) => d.status === 'STATE_FAILED')).toBe(false);
    } finally {
      await net.executor('start');
    }
    const done = await waitStatus(L1, txHash, terminal);
    expect(done.state).toBe('STATE_COMPLETED_SUCCESS');
    expect([op(done).phase, op(done).waiting_reason]).toEqual(['finalized', null]);
  });

  it('an output deleted by the challenger during the finalization wait: back to waiting, claimable_at moves', async () => {
    const txHash = await transfer(L2, net.env.L2_DENOM_UINIT, L1, 'uinit', '3000');
    const first = await waitStatus(L2, txHash, (d) => op(d).phase === 'output_proposed');
    const firstAt = Date.parse(op(first).claimable_at);
    await net.deleteOutput(op(first).output_index);
    // the executor does not follow a deletion by itself (devnet/opinit/executor.sh recover)
    await net.executor('recover');
    const seen: Doc[] = [];
    const moved = await waitStatus(
      L2,
      txHash,
      (d) => op(d).phase === 'output_proposed' && Date.parse(op(d).claimable_at) > firstAt,
      seen,
      60_000,
    );
    expect(Date.parse(op(moved).claimable_at)).toBeGreaterThan(firstAt);
    // in between, the hop went back to waiting for an output (no output, no claimable_at)
    expect(seen.some((d) => op(d).phase === 'initiated' && op(d).output_index === null)).toBe(true);
    const claimable = await waitStatus(L2, txHash, (d) => d.next_action?.ready === true, seen, 60_000);
    expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(op(moved).claimable_at));
    const claim = await http('GET', `/v2/tx/claim_msgs?chain_id=${L2}&tx_hash=${txHash}`);
    expect(claim.status, JSON.stringify(claim.body)).toBe(200);
    expect(JSON.parse(claim.body.txs[0].cosmos_tx.msgs[0].msg).output_index).toBe(op(claimable).output_index);
    const sent = await net.signRouterTx(user, claim.body.txs[0].cosmos_tx);
    expect({ code: sent.code, log: sent.log }).toMatchObject({ code: 0 });
    const done = await waitStatus(L2, txHash, terminal, seen);
    expect(done.state).toBe('STATE_COMPLETED_SUCCESS');
    expect(seen.some((d) => d.status === 'STATE_FAILED')).toBe(false);
  });

  /** Claims a claimable withdrawal with our message and waits for the end; returns the final status. */
  async function claimAndFinish(txHash: string, seen: Doc[]): Promise<Doc> {
    await waitStatus(L2, txHash, (d) => d.next_action?.ready === true, seen, 60_000);
    const claim = await http('GET', `/v2/tx/claim_msgs?chain_id=${L2}&tx_hash=${txHash}`);
    expect(claim.status, JSON.stringify(claim.body)).toBe(200);
    const sent = await net.signRouterTx(user, claim.body.txs[0].cosmos_tx);
    expect({ code: sent.code, log: sent.log }).toMatchObject({ code: 0 });
    const done = await waitStatus(L2, txHash, terminal, seen);
    expect(done.state).toBe('STATE_COMPLETED_SUCCESS');
    expect(op(done).txs.receive_tx.tx_hash).toBe(sent.txHash);
    return done;
  }

  /** The projection of a transfer has one row per version, versions 0…n without a gap. */
  async function expectProjectionWhole(txHash: string): Promise<void> {
    const [r] = await store.rows<{ rows: string; keys: string; top: string }>(
      'SELECT count() AS rows, uniqExact(version) AS keys, max(version) AS top FROM transfer_events WHERE chain_id = {c:String} AND tx_hash = {h:String}',
      { c: L2, h: txHash },
    );
    expect([Number(r!.rows), Number(r!.keys)]).toEqual([Number(r!.top) + 1, Number(r!.top) + 1]);
  }

  it('the tracking worker SIGKILLed during the finalization wait: the timer still fires, nothing lost or doubled', async () => {
    const txHash = await transfer(L2, net.env.L2_DENOM_UINIT, L1, 'uinit', '4000');
    const seen: Doc[] = [];
    const proposed = await waitStatus(L2, txHash, (d) => op(d).phase === 'output_proposed', seen);
    const worker = tracking.chainWorker!;
    const restarts = worker.restarts;
    process.kill(worker.pid!, 'SIGKILL'); // restarted by the main job after its back-off
    const claimable = await waitStatus(L2, txHash, (d) => op(d).phase === 'claimable', seen, 90_000);
    expect(worker.restarts).toBe(restarts + 1);
    expect(op(claimable).claimable_at).toBe(op(proposed).claimable_at);
    await claimAndFinish(txHash, seen);
    await expectProjectionWhole(txHash);
  });

  it('the whole main job restarted mid-withdrawal: it resumes from its own data and completes the claim', async () => {
    const txHash = await transfer(L2, net.env.L2_DENOM_UINIT, L1, 'uinit', '5000');
    const seen: Doc[] = [];
    await waitStatus(L2, txHash, (d) => op(d).phase === 'output_proposed', seen);
    await stopMainJob();
    await new Promise((r) => setTimeout(r, 3_000)); // the chains move on meanwhile
    await startMainJob();
    await claimAndFinish(txHash, seen);
    await expectProjectionWhole(txHash);
  });

  // Deposits with an op-hook, into the wrapped INIT. Last in this file: the stock hook wraps the receiver's whole
  // balance of the bridged INIT, which the withdrawals above spend.
  describe('deposits with an op-hook (route with required_op_hook → /op-hook → signed hook → /msgs)', () => {
    let wrapped: WrappedInit;
    let winit = '';

    /** /op-hook for this route, signed by the L2 receiver as a wallet does (`sequenceAhead`: see signHook). */
    const signedHook = (sequenceAhead: number) => async (routeReq: Doc) => {
      const hook = await http('POST', '/op-hook', {
        source_address: user.bech32,
        source_asset_chain_id: routeReq.source_asset_chain_id,
        source_asset_denom: routeReq.source_asset_denom,
        dest_address: user.bech32,
        dest_asset_chain_id: routeReq.dest_asset_chain_id,
        dest_asset_denom: routeReq.dest_asset_denom,
      });
      expect(hook.status, JSON.stringify(hook.body)).toBe(200);
      expect(hook.body.chain_id).toBe(L2);
      return net.signHook(user, hook.body as never, sequenceAhead);
    };

    /** The L2 finalize_token_deposit event of a deposit, as the node reports it. */
    async function finalizeEvent(txHash: string): Promise<Record<string, string>> {
      const src = await waitForCosmosTx(net.l1, txHash);
      const l1Sequence = attr(src.tx_result.events ?? [], 'initiate_token_deposit', 'l1_sequence');
      const [tx] = await net.txSearch(L2, `finalize_token_deposit.l1_sequence='${l1Sequence}'`);
      const e = tx!.tx_result.events!.find((x) => x.type === 'finalize_token_deposit')!;
      return { hash: tx!.hash, ...Object.fromEntries(e.attributes.map((a) => [a.key, a.value])) };
    }

    beforeAll(async () => {
      // The bridged denom's ERC20 exists since the first deposit above; the wrapped token's address is the one
      // the wrapper computes. The operator adds the wrapped asset to the registry, and the router reloads it.
      wrapped = await net.decimalWrapper(net.env.L2_DENOM_UINIT, 6);
      winit = `evm/${wrapped.local.slice(2)}`;
      writeOpinitRegistry(net.env, registryDir, wrapped);
      registry = loadRouterRegistry({ ROUTER_NETWORK: 'custom', ROUTER_REGISTRY_FILE: registryDir });
      await restartRouter();
    }, 60_000);

    it('a hook that fails on L2 (signed for a later sequence): error, the INIT minted to the receiver unwrapped', async () => {
      const before = await net.balance(L2, user.bech32, net.env.L2_DENOM_UINIT);
      const wrappedBefore = await net.erc20Balance(wrapped.local, user.evmAddress);
      const txHash = await transfer(L1, 'uinit', L2, winit, '1500000', signedHook(1));
      const seen: Doc[] = [];
      const done = await waitStatus(L1, txHash, terminal, seen);
      const event = await finalizeEvent(txHash);
      expect(event.success).toBe('false');
      expect(event.reason).toMatch(/^hook failed; /);
      expect(done.state).toBe('STATE_COMPLETED_ERROR');
      expect(op(done)).toMatchObject({ state: 'OPINIT_TRANSFER_RECEIVED', phase: 'failed' });
      expect(op(done).txs.receive_tx.tx_hash).toBe(event.hash);
      expect(done.error).toMatchObject({ type: 'STATUS_ERROR_TRANSFER', message: event.reason });
      // The deposit itself succeeded: the bridged INIT is the receiver's on L2, nothing is refunded to L1.
      expect(done.transfer_asset_release).toEqual({
        chain_id: L2,
        denom: net.env.L2_DENOM_UINIT,
        amount: '1500000',
        released: true,
      });
      expect((await net.balance(L2, user.bech32, net.env.L2_DENOM_UINIT)) - before).toBe(1_500_000n);
      expect(await net.erc20Balance(wrapped.local, user.evmAddress)).toBe(wrappedBefore);
      // pending was never shown as failed before the chain said so
      expect(seen.filter((d) => !terminal(d)).map((d) => d.state)).not.toContain('STATE_PENDING_ERROR');
    });

    it('a hook that succeeds: the deposit lands wrapped to 18 decimals, as the route quoted', async () => {
      const before = await net.balance(L2, user.bech32, net.env.L2_DENOM_UINIT);
      const wrappedBefore = await net.erc20Balance(wrapped.local, user.evmAddress);
      const route = await http('POST', '/v2/fungible/route', {
        amount_in: '2000000',
        source_asset_chain_id: L1,
        source_asset_denom: 'uinit',
        dest_asset_chain_id: L2,
        dest_asset_denom: winit,
      });
      expect(route.body.amount_out).toBe('2000000000000000000');
      const txHash = await transfer(L1, 'uinit', L2, winit, '2000000', signedHook(0));
      const done = await waitStatus(L1, txHash, terminal);
      const event = await finalizeEvent(txHash);
      expect(event.success).toBe('true');
      expect(done.state).toBe('STATE_COMPLETED_SUCCESS');
      expect(op(done)).toMatchObject({ state: 'OPINIT_TRANSFER_RECEIVED', phase: 'finalized' });
      expect(op(done).txs.receive_tx.tx_hash).toBe(event.hash);
      // The stock hook wraps min(allowance, balance): the receiver's whole bridged INIT, this deposit included.
      expect(await net.balance(L2, user.bech32, net.env.L2_DENOM_UINIT)).toBe(0n);
      expect((await net.erc20Balance(wrapped.local, user.evmAddress)) - wrappedBefore).toBe(
        (before + 2_000_000n) * 10n ** 12n,
      );
    });
  });
});
