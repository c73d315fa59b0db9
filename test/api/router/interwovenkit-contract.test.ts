// The calls Initia's wallet widget (initia-labs/interwovenkit, its bridge and deposit pages) makes to the router,
// made the same way over HTTP against the real router app (mainnet registry, real tracking on the simnet), with
// assertions on what the widget requires of each answer. Written from reading how the widget uses each field:
// - chains: `rpc`, `rest`, `hidden`, `evm_fee_asset` on minievm, `fee_assets[].gas_price.average`, decimal EVM ids;
// - assets: numeric `decimals`, boolean `hidden`; a single `chain_ids` value;
// - route: `is_op_withdraw` true or absent; `estimated_fees` an array (null crashes its history item); `warning`
//   absent or null (any object opens "Proceed anyway"); operations with exactly one known key, no null variants;
// - op-hook → signed hook → msgs: `txs[0]` holds exactly one of cosmos_tx / evm_tx (the other key absent);
// - errors: JSON with `message` (and optionally `info`);
// - track → status: the widget polls until `status` is STATE_COMPLETED and reads `state`.
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeServer } from '../../../api/http/app.js';
import { SIM } from '../../../devnet/simnet/index.js';
import { serveRouter, startHarness, terminal, type Harness } from '../../tracking/harness.js';
import { recordedHook } from '../../routing/helpers.js';

const USER = 'init1dw49mn7s2r5mskjdmus5hth80zz8wwaywycq06';
const INIT_ECHELON = 'l2/23c8396041db74441f4268d0c7e0533177dc3e028a47a8e584318f2d0c46fbe9';
/** L1 INIT to echelon-1 over its OPinit bridge, the route the bridge page quotes first. */
const DEPOSIT = {
  amount_in: '1000000',
  source_asset_chain_id: 'interwoven-1',
  source_asset_denom: 'uinit',
  dest_asset_chain_id: 'echelon-1',
  dest_asset_denom: INIT_ECHELON,
};
const WINIT_YOMINET = 'evm/856aB2c9F35B9187aB3eB0Fcd11DCc6160427e96';
const OPERATION_KEYS = [
  'transfer',
  'bank_send',
  'swap',
  'axelar_transfer',
  'cctp_transfer',
  'hyperlane_transfer',
  'evm_swap',
  'op_init_transfer',
  'go_fast_transfer',
  'eureka_transfer',
  'stargate_transfer',
  'layer_zero_transfer',
];

let h: Harness;
let server: Server;
let url: string;
beforeAll(async () => {
  h = await startHarness({ simnet: { delays: { recvMs: 400, ackMs: 300 } } });
  ({ server, url } = await serveRouter(h));
}, 120_000);
afterAll(async () => {
  if (server) await closeServer(server);
  await h?.close();
});

// The widget's HTTP client (ky) posts JSON and drops undefined fields.
async function call(method: 'GET' | 'POST', p: string, body?: unknown) {
  const r = await fetch(`${url}/${p}`, {
    method,
    headers: { 'content-type': 'application/json', 'InterwovenKit-Version': 'test' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: r.status, type: r.headers.get('content-type') ?? '', body: (await r.json()) as Record<string, any> };
}

function checkRoute(r: Record<string, any>) {
  expect(Array.isArray(r.estimated_fees)).toBe(true);
  expect(r.warning === undefined || r.warning === null).toBe(true);
  expect(typeof r.estimated_route_duration_seconds).toBe('number');
  expect(typeof r.does_swap).toBe('boolean');
  expect(typeof r.required_op_hook).toBe('boolean');
  for (const k of ['extra_infos', 'extra_warnings']) expect(Array.isArray(r[k])).toBe(true);
  for (const op of r.operations as Record<string, unknown>[]) {
    const kinds = Object.keys(op).filter((k) => OPERATION_KEYS.includes(k));
    expect(kinds).toHaveLength(1);
    expect(Object.values(op)).not.toContain(null);
  }
}

describe('InterwovenKit → router', () => {
  it('GET v2/info/chains (no query): the fields the bridge and deposit pages read', async () => {
    const { status, body } = await call('GET', 'v2/info/chains');
    expect(status).toBe(200);
    const chains = body.chains as Record<string, any>[];
    expect(chains.find((c) => c.chain_name === 'initia')).toBeDefined();
    for (const c of chains) {
      expect(typeof c.chain_id).toBe('string');
      expect(typeof c.pretty_name).toBe('string');
      expect(typeof c.hidden).toBe('boolean');
      expect(['cosmos', 'evm']).toContain(c.chain_type);
      if (c.chain_type === 'cosmos') {
        expect(Array.isArray(c.fee_assets)).toBe(true);
        expect(typeof c.bech32_prefix).toBe('string');
      }
    }
    // Registry chains carry rpc and rest (signing client, account creation check).
    const l1 = chains.find((c) => c.chain_id === 'interwoven-1')!;
    expect(l1.rpc).toMatch(/^https?:\/\//);
    expect(l1.rest).toMatch(/^https?:\/\//);
    expect(typeof l1.fee_assets[0].gas_price.average).toBe('string');
    // A minievm rollup names its EVM fee asset (wallet_addEthereumChain's nativeCurrency).
    const yominet = chains.find((c) => c.chain_id === 'yominet-1')!;
    expect(yominet.evm_fee_asset).toMatchObject({ name: expect.any(String), symbol: expect.any(String), decimals: 18 });
  });

  it('GET v2/fungible/assets, with no query and with a single chain_ids value', async () => {
    for (const p of ['v2/fungible/assets', 'v2/fungible/assets?chain_ids=echelon-1']) {
      const { status, body } = await call('GET', p);
      expect(status).toBe(200);
      const map = body.chain_to_assets_map as Record<string, { assets: Record<string, any>[] }>;
      expect(map['echelon-1']!.assets.length).toBeGreaterThan(0);
      for (const a of Object.values(map).flatMap((x) => x.assets)) {
        expect(typeof a.decimals).toBe('number');
        expect(typeof a.hidden).toBe('boolean');
      }
    }
  });

  it('POST v2/info/balances with denoms: [] (all denoms): chains[id].denoms is an object', async () => {
    const { status, body } = await call('POST', 'v2/info/balances', {
      chains: { 'interwoven-1': { address: USER, denoms: [] } },
    });
    expect(status).toBe(200);
    expect(typeof body.chains['interwoven-1'].denoms).toBe('object');
  });

  it('POST v2/fungible/route: default and is_op_withdraw (the L2 → L1 "Lossless" option)', async () => {
    const deposit = await call('POST', 'v2/fungible/route', DEPOSIT);
    expect(deposit.status).toBe(200);
    checkRoute(deposit.body);
    const back = {
      amount_in: '1000000',
      source_asset_chain_id: 'echelon-1',
      source_asset_denom: INIT_ECHELON,
      dest_asset_chain_id: 'interwoven-1',
      dest_asset_denom: 'uinit',
    };
    const lossless = await call('POST', 'v2/fungible/route', { ...back, is_op_withdraw: true });
    expect(lossless.status).toBe(200);
    checkRoute(lossless.body);
    // The widget's OP_WITHDRAW test: the first operation is op_init_transfer and the destination is uinit.
    expect(lossless.body.operations[0]).toHaveProperty('op_init_transfer');
    expect(lossless.body.dest_asset_denom).toBe('uinit');
    expect(lossless.body.extra_infos.join(' ')).toMatch(/OPinit withdrawal/);
    // The default query the bridge page fires beside it (compared by estimated_route_duration_seconds). Without
    // swaps no faster route reaches uinit, so it is the same withdrawal (docs/router.md "Fast vs Lossless").
    const fast = await call('POST', 'v2/fungible/route', back);
    expect(fast.status).toBe(200);
    checkRoute(fast.body);
    expect(fast.body.estimated_route_duration_seconds).toBe(lossless.body.estimated_route_duration_seconds);
  });

  it('route with required_op_hook → POST op-hook → msgs with signed_op_hook: one cosmos_tx, amino-JSON msgs', async () => {
    const req = {
      amount_in: '1000000',
      source_asset_chain_id: 'interwoven-1',
      source_asset_denom: 'uinit',
      dest_asset_chain_id: 'yominet-1',
      dest_asset_denom: WINIT_YOMINET,
    };
    const route = await call('POST', 'v2/fungible/route', req);
    expect(route.status).toBe(200);
    checkRoute(route.body);
    expect(route.body.required_op_hook).toBe(true);
    const hook = await call('POST', 'op-hook', {
      source_address: USER,
      source_asset_chain_id: req.source_asset_chain_id,
      source_asset_denom: req.source_asset_denom,
      dest_address: USER,
      dest_asset_chain_id: req.dest_asset_chain_id,
      dest_asset_denom: req.dest_asset_denom,
    });
    expect(hook.status).toBe(200);
    expect(hook.body.chain_id).toBe('yominet-1');
    for (const m of hook.body.hook as { msg_type_url: string; msg: string }[]) {
      expect(m.msg_type_url).toMatch(/^\/[a-z]/);
      expect(() => JSON.parse(m.msg)).not.toThrow();
    }
    const msgs = await call('POST', 'v2/fungible/msgs', {
      address_list: [USER, USER],
      amount_in: route.body.amount_in,
      amount_out: route.body.amount_out,
      source_asset_chain_id: req.source_asset_chain_id,
      source_asset_denom: req.source_asset_denom,
      dest_asset_chain_id: req.dest_asset_chain_id,
      dest_asset_denom: req.dest_asset_denom,
      slippage_tolerance_percent: String(0.5),
      operations: route.body.operations,
      signed_op_hook: { signer: USER, hook: recordedHook('mockMsgFinalizeTokenDepositSuccess').data },
    });
    expect(msgs.status).toBe(200);
    const tx = msgs.body.txs[0] as Record<string, any>;
    expect(Object.keys(tx).filter((k) => k === 'cosmos_tx' || k === 'evm_tx')).toEqual(['cosmos_tx']);
    expect(tx.cosmos_tx.msgs.length).toBeGreaterThan(0);
    for (const m of tx.cosmos_tx.msgs) {
      expect(typeof m.msg_type_url).toBe('string');
      expect(() => JSON.parse(m.msg)).not.toThrow();
    }
  });

  it('errors are JSON with a message the widget shows', async () => {
    const r = await call('POST', 'v2/fungible/route', { ...DEPOSIT, dest_asset_denom: 'nope' });
    expect(r.status).toBe(400);
    expect(r.type).toMatch(/^application\/json/);
    expect(typeof r.body.message).toBe('string');
    expect(r.body.info === undefined || typeof r.body.info === 'string').toBe(true);
  });

  it('track → status: polled until status is STATE_COMPLETED, with state STATE_COMPLETED_SUCCESS', async () => {
    const tx = h.simnet.deposit({ l2: SIM.move });
    const tracked = await call('POST', 'v2/tx/track', { tx_hash: tx.txHash, chain_id: tx.chainId });
    expect(tracked.status).toBe(200);
    expect(tracked.body.tx_hash).toBe(tx.txHash);
    const end = Date.now() + 30_000;
    let last: Record<string, any> = {};
    while (Date.now() < end) {
      const s = await call('GET', `v2/tx/status?tx_hash=${tx.txHash}&chain_id=${tx.chainId}`);
      expect(s.status).toBe(200);
      last = s.body;
      expect(typeof last.status).toBe('string');
      if (last.status === 'STATE_COMPLETED') break;
      expect(terminal(last)).toBe(false); // never a final state without the status that stops the polling
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(last).toMatchObject({ status: 'STATE_COMPLETED', state: 'STATE_COMPLETED_SUCCESS' });
  }, 40_000);
});
