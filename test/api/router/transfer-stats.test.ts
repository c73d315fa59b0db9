// GET /v2/stats/transfers over a real chDB projection written by TrackingProjection (the tracking workflow's
// writer): a fixed set of transfers with known bridges, routes, outcomes and durations. Expected figures are
// computed here from that set, not by the query under test.
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TrackingProjection } from '../../../activities/projection.js';
import { closeServer, listen } from '../../../api/http/app.js';
import { createRouterApp } from '../../../api/router/app.js';
import { loadRouterRegistry } from '../../../routing/registry.js';
import { createStore, type Store } from '../../../clickhouse/client.js';
import { migrate } from '../../../clickhouse/migrate.js';
import type { Hop, TxRef } from '../../../workflows/model.js';
import { statusDocument } from '../../../workflows/status.js';

type Outcome = 'success' | 'ack_error' | 'timeout' | 'pending';
interface Fixture {
  kind: 'ibc' | 'op_deposit' | 'layer_zero';
  from: string;
  to: string;
  startMs: number;
  durationS: number;
  outcome: Outcome;
}

const T0 = Date.UTC(2025, 3, 20, 12, 0, 0);
const ref = (chainId: string, n: number): TxRef => ({ chainId, txHash: `H${n}`, explorerLink: '' });

// 4 IBC (2 ok, 1 timeout, 1 pending), 3 OPinit deposits (ok), 1 LayerZero (ok), and 1 IBC outside the window.
const fixtures: Fixture[] = [
  { kind: 'ibc', from: 'initiation-2', to: 'minievm-1', startMs: T0, durationS: 10, outcome: 'success' },
  { kind: 'ibc', from: 'initiation-2', to: 'minievm-1', startMs: T0 + 60_000, durationS: 30, outcome: 'success' },
  { kind: 'ibc', from: 'minievm-1', to: 'initiation-2', startMs: T0 + 120_000, durationS: 600, outcome: 'timeout' },
  { kind: 'ibc', from: 'minievm-1', to: 'initiation-2', startMs: T0 + 180_000, durationS: 0, outcome: 'pending' },
  { kind: 'op_deposit', from: 'initiation-2', to: 'minievm-1', startMs: T0, durationS: 5, outcome: 'success' },
  { kind: 'op_deposit', from: 'initiation-2', to: 'minievm-1', startMs: T0 + 1000, durationS: 7, outcome: 'success' },
  { kind: 'op_deposit', from: 'initiation-2', to: 'minievm-1', startMs: T0 + 2000, durationS: 9, outcome: 'success' },
  { kind: 'layer_zero', from: 'ethereum-1', to: 'minievm-1', startMs: T0 + 5000, durationS: 120, outcome: 'success' },
  {
    kind: 'ibc',
    from: 'initiation-2',
    to: 'minievm-1',
    startMs: T0 - 30 * 86_400_000,
    durationS: 1,
    outcome: 'success',
  },
];

function hop(f: Fixture, n: number, done: boolean): Hop {
  if (f.kind === 'ibc') {
    const base = {
      kind: 'ibc' as const,
      fromChainId: f.from,
      toChainId: f.to,
      srcPort: 'transfer',
      srcChannel: 'channel-0',
      dstPort: 'transfer',
      dstChannel: 'channel-1',
      sequence: String(n),
      timeoutTimestamp: '0',
      denom: 'uinit',
      amount: '1',
      sendTx: ref(f.from, n),
    };
    if (!done) return { ...base, state: 'TRANSFER_PENDING' };
    if (f.outcome === 'timeout')
      return {
        ...base,
        state: 'TRANSFER_FAILURE',
        timeoutTx: ref(f.from, n + 1),
        error: { type: 'PACKET_ERROR_TIMEOUT' },
      };
    return { ...base, state: 'TRANSFER_SUCCESS', receiveTx: ref(f.to, n + 1), acknowledgeTx: ref(f.from, n + 2) };
  }
  if (f.kind === 'op_deposit')
    return {
      kind: 'op_deposit',
      fromChainId: f.from,
      toChainId: f.to,
      bridgeId: '1',
      l1Sequence: String(n),
      l1Denom: 'uinit',
      l2Denom: 'l2/x',
      amount: '1',
      state: done ? 'OPINIT_TRANSFER_RECEIVED' : 'OPINIT_TRANSFER_SENT',
      sendTx: ref(f.from, n),
      ...(done ? { receiveTx: ref(f.to, n + 1), success: true } : {}),
    };
  return {
    kind: 'layer_zero',
    fromChainId: f.from,
    toChainId: f.to,
    guid: `0x${n}`,
    srcEid: 1,
    dstEid: 2,
    amountSent: '1',
    amountReceived: '1',
    state: done ? 'LAYER_ZERO_TRANSFER_RECEIVED' : 'LAYER_ZERO_TRANSFER_SENT',
    sendTx: ref(f.from, n),
    ...(done ? { receiveTx: ref(f.to, n + 1) } : {}),
  };
}

let dir: string;
let store: Store;
let server: Server;
let base: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'transfer-stats-'));
  store = createStore({ dataDir: path.join(dir, 'clickhouse') });
  await migrate(store);
  const p = new TrackingProjection(store, { ttlMs: 0 });
  await Promise.all(
    fixtures.map(async (f, i) => {
      const chainId = f.from;
      const txHash = i.toString(16).toUpperCase().padStart(64, '0');
      await p.register(chainId, txHash, f.startMs);
      const pending = statusDocument({ chainId, txHash, phase: 'tracking', hops: [hop(f, i * 10, false)], version: 1 });
      await p.append(chainId, txHash, 1, 'tracking', pending, f.startMs + 500);
      if (f.outcome === 'pending') return;
      const done = statusDocument({ chainId, txHash, phase: 'finished', hops: [hop(f, i * 10, true)], version: 2 });
      await p.append(chainId, txHash, 2, 'finished', done, f.startMs + f.durationS * 1000);
    }),
  );
  server = await listen(
    createRouterApp({ registry: loadRouterRegistry({ ROUTER_NETWORK: 'mainnet' }), store }),
    0,
    '127.0.0.1',
  );
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  if (server) await closeServer(server);
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

const get = async (p: string) => {
  const res = await fetch(base + p);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  return { status: res.status, body: (await res.json()) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads JSON
};

/** Nearest-rank-free exact quantile as ClickHouse's quantileExact: the element at floor(q·n) of the sorted set. */
const quantileExact = (xs: number[], q: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;

describe('GET /v2/stats/transfers', () => {
  const from = Math.floor((T0 - 3600_000) / 1000);
  const to = Math.floor((T0 + 86_400_000) / 1000);
  const inWindow = fixtures.filter((f) => f.startMs >= from * 1000 && f.startMs < to * 1000);
  const bridgeName = { ibc: 'ibc_transfer', op_deposit: 'op_init_transfer', layer_zero: 'layer_zero_transfer' };

  it('counts by state, bridge kind and route; completion times and failure/timeout rates per bridge', async () => {
    const { status, body } = await get(`/v2/stats/transfers?from=${from}&to=${to}`);
    expect(status).toBe(200);
    expect(body.total).toBe(inWindow.length);
    const stateOf = (f: Fixture) =>
      f.outcome === 'pending'
        ? 'STATE_PENDING'
        : f.outcome === 'success'
          ? 'STATE_COMPLETED_SUCCESS'
          : 'STATE_COMPLETED_ERROR';
    const states = new Map<string, number>();
    for (const f of inWindow) states.set(stateOf(f), (states.get(stateOf(f)) ?? 0) + 1);
    expect(
      Object.fromEntries(body.by_state.map((s: { state: string; transfers: number }) => [s.state, s.transfers])),
    ).toEqual(Object.fromEntries(states));
    for (const kind of ['ibc', 'op_deposit', 'layer_zero'] as const) {
      const fs = inWindow.filter((f) => f.kind === kind);
      const ok = fs.filter((f) => f.outcome === 'success');
      const bad = fs.filter((f) => f.outcome === 'timeout' || f.outcome === 'ack_error');
      const finished = ok.length + bad.length;
      const durations = ok.map((f) => f.durationS);
      const b = body.by_bridge.find((x: { bridge: string }) => x.bridge === bridgeName[kind]);
      expect(b, kind).toEqual({
        bridge: bridgeName[kind],
        transfers: fs.length,
        completed: ok.length,
        failed: bad.length,
        pending: fs.filter((f) => f.outcome === 'pending').length,
        timed_out: fs.filter((f) => f.outcome === 'timeout').length,
        failure_rate: bad.length / finished,
        timeout_rate: fs.filter((f) => f.outcome === 'timeout').length / finished,
        completion_seconds: {
          p50: quantileExact(durations, 0.5),
          p95: quantileExact(durations, 0.95),
          max: Math.max(...durations),
        },
      });
    }
    const routes = new Map<string, number>();
    for (const f of inWindow) {
      const k = `${bridgeName[f.kind]}|${f.from} → ${f.to}`;
      routes.set(k, (routes.get(k) ?? 0) + 1);
    }
    expect(
      Object.fromEntries(
        body.by_route.map((r: { bridge: string; route: string; transfers: number }) => [
          `${r.bridge}|${r.route}`,
          r.transfers,
        ]),
      ),
    ).toEqual(Object.fromEntries(routes));
  });

  it('an empty window answers zeros; bad windows are JSON 400s', async () => {
    const { body } = await get('/v2/stats/transfers?from=0&to=1000');
    expect(body).toMatchObject({ total: 0, by_state: [], by_bridge: [], by_route: [] });
    for (const [q, msg] of [
      ['from=200&to=100', /from: must be before to/],
      ['from=0&to=1700000000', /at most 400 days/],
      ['from=soon', /from: give unix seconds/],
      ['to=99999999999', /to: out of range/],
    ] as const) {
      const { status, body: e } = await get(`/v2/stats/transfers?${q}`);
      expect(status, q).toBe(400);
      expect(e.message, q).toMatch(msg);
    }
  });

  it('is in the router OpenAPI document', async () => {
    const { body } = await get('/swagger/doc.json');
    expect(body.paths['/v2/stats/transfers']).toBeDefined();
    expect(body.components.schemas.TransferStats).toBeDefined();
  });
});
