// Route search on the real mainnet registry: concrete operations, denoms, amounts and the selection rule.
import { describe, expect, it } from 'vitest';
import { parseAmount } from '../../routing/amount.js';
import { decimalsOf } from '../../routing/assets.js';
import { type ApiError, toApiError } from '../../api/http/errors.js';
import { ibcDenom, l2Denom } from '../../routing/denom.js';
import { compareRoutes, DURATION, type RoutePlan } from '../../routing/graph.js';
import { loadRouterRegistry } from '../../routing/registry.js';
import { routeHandler, type RouteRequest } from '../../routing/route.js';

const registry = loadRouterRegistry({ ROUTER_NETWORK: 'mainnet' });
const deps = { registry };
type Op = Record<string, any>; // route JSON is walked field by field in assertions
const route = async (r: Partial<RouteRequest>) =>
  (await routeHandler(deps, { amount_in: '1000000', ...r } as RouteRequest)) as Record<string, any>;
const USDC_L1 = 'ibc/6490A7EAB61059BFC1CDDEB05917DD70BDF3A611654162A1A47DB930D40D8AF4';
const USDC_ECHELON = 'ibc/AA4E7DF065DC4D4B29B8662A919295F525B19251FB2618C41C0DED3BD1128FEE';
const INIT_ECHELON = 'l2/23c8396041db74441f4268d0c7e0533177dc3e028a47a8e584318f2d0c46fbe9';
const INIT_YOMINET_L2 = 'l2/8f73cfaf153520f511b4fc0bd71d60d64b4e19eff04a350e642718a3c1ab3b06';
const ETH_L1 = 'move/edfcddacac79ab86737a1e9e65805066d8be286a37cb94f4884b892b0e39f954';
const WEEK = 7 * 24 * 3600;

async function expectApiError(p: Promise<unknown>, status: number, code: number, msg: RegExp) {
  const err = toApiError(
    await p.then(
      () => null,
      (e: unknown) => e,
    ),
  );
  expect(err).not.toBeNull();
  expect((err as ApiError).status).toBe(status);
  expect((err as ApiError).grpcCode).toBe(code);
  expect((err as ApiError).message).toMatch(msg);
}

describe('L1 INIT to every rollup by OPinit', () => {
  const rollups = [...registry.chains.values()].filter(
    (c) => c.opBridgeId !== undefined && c.opDenoms.includes('uinit'),
  );
  it('covers the current and removed mainnet rollups', () =>
    expect(rollups.map((c) => c.chainId).sort()).toHaveLength(14));
  for (const c of rollups)
    it(`interwoven-1 uinit → ${c.chainId}`, async () => {
      const dest = l2Denom(c.opBridgeId!, 'uinit');
      const r = await route({
        source_asset_chain_id: 'interwoven-1',
        source_asset_denom: 'uinit',
        dest_asset_chain_id: c.chainId,
        dest_asset_denom: dest,
      });
      expect(r.operations).toEqual([
        {
          op_init_transfer: {
            from_chain_id: 'interwoven-1',
            to_chain_id: c.chainId,
            chain_id: 'interwoven-1',
            denom_in: 'uinit',
            denom_out: dest,
            op_init_bridge_id: String(c.opBridgeId),
            bridge_id: 'OPINIT',
            smart_relay: false,
          },
          tx_index: 0,
          amount_in: '1000000',
          amount_out: '1000000',
        },
      ]);
      expect(r).toMatchObject({
        amount_out: '1000000',
        estimated_amount_out: '1000000',
        txs_required: 1,
        chain_ids: ['interwoven-1', c.chainId],
        required_chain_addresses: ['interwoven-1', c.chainId],
        required_op_hook: false,
        does_swap: false,
        estimated_route_duration_seconds: DURATION.opDeposit,
      });
      expect(r.extra_warnings).toEqual(c.removed ? [`${c.chainId} has been removed from the Initia registry`] : []);
    });
  it('echelon-1 is bridge 16 (docs/router.md)', async () => {
    const r = await route({
      source_asset_chain_id: 'interwoven-1',
      source_asset_denom: 'uinit',
      dest_asset_chain_id: 'echelon-1',
      dest_asset_denom: INIT_ECHELON,
    });
    expect(r.operations[0].op_init_transfer.op_init_bridge_id).toBe('16');
  });
  it('yominet-1 registry INIT (decimal-wrapped ERC20) needs an op-hook and re-scales 6 → 18 decimals', async () => {
    const r = await route({
      source_asset_chain_id: 'interwoven-1',
      source_asset_denom: 'uinit',
      dest_asset_chain_id: 'yominet-1',
      dest_asset_denom: 'evm/856aB2c9F35B9187aB3eB0Fcd11DCc6160427e96',
    });
    expect(r.required_op_hook).toBe(true);
    expect(r.amount_out).toBe('1000000000000000000');
    expect(r.operations[0].op_init_transfer.op_init_bridge_id).toBe('11');
  });
});

describe('IBC', () => {
  it('an IBC asset back to its origin: L1 USDC unwinds to noble-1 uusdc over channel-3', async () => {
    const r = await route({
      source_asset_chain_id: 'interwoven-1',
      source_asset_denom: USDC_L1,
      dest_asset_chain_id: 'noble-1',
      dest_asset_denom: 'uusdc',
    });
    expect(r.operations).toHaveLength(1);
    expect(r.operations[0].transfer).toMatchObject({
      port: 'transfer',
      channel: 'channel-3',
      from_chain_id: 'interwoven-1',
      to_chain_id: 'noble-1',
      denom_in: USDC_L1,
      denom_out: 'uusdc',
      bridge_id: 'IBC',
    });
    expect(r.estimated_route_duration_seconds).toBe(DURATION.ibcHop);
  });
  it('knows a voucher a route can reach from a fresh registry, before any search derived it', async () => {
    // L1 INIT sent over IBC to echelon-1 (its channel-0 end). It was refused as an unknown denom until an unrelated
    // route had derived its trace in the same process: replicas, or one process before and after a restart,
    // answered differently.
    const fresh = loadRouterRegistry({ ROUTER_NETWORK: 'mainnet' });
    const r = (await routeHandler({ registry: fresh }, {
      amount_in: '1000000',
      source_asset_chain_id: 'interwoven-1',
      source_asset_denom: 'uinit',
      dest_asset_chain_id: 'echelon-1',
      dest_asset_denom: ibcDenom('transfer/channel-0/uinit'),
    } as RouteRequest)) as Record<string, any>;
    expect(r.operations.map((o: Op) => o.transfer?.channel)).toEqual(['channel-35']);
  });
  it("amount_out alone to and from noble uusdc: 6 decimals, carried unchanged (not a decimal wrapper's 18)", async () => {
    // noble-1 is outside the registry: its uusdc takes the decimals of an asset bridged from it, never of a
    // decimal-wrapped ERC20 over one (18 on a minievm rollup).
    expect(decimalsOf(registry, 'noble-1', 'uusdc')).toBe(6);
    for (const [from, denom, to, destDenom] of [
      ['interwoven-1', USDC_L1, 'noble-1', 'uusdc'],
      ['noble-1', 'uusdc', 'interwoven-1', USDC_L1],
    ] as const) {
      const r = await routeHandler(deps, {
        source_asset_chain_id: from,
        source_asset_denom: denom,
        dest_asset_chain_id: to,
        dest_asset_denom: destDenom,
        amount_out: '1000000',
      } as unknown as RouteRequest);
      expect([r.amount_in, r.amount_out]).toEqual(['1000000', '1000000']);
    }
  });
  it('multi-hop in one tx: echelon USDC → noble uusdc unwinds through L1 with packet-forward', async () => {
    const r = await route({
      source_asset_chain_id: 'echelon-1',
      source_asset_denom: USDC_ECHELON,
      dest_asset_chain_id: 'noble-1',
      dest_asset_denom: 'uusdc',
    });
    const ops = r.operations as Op[];
    expect(ops.map((o) => [o.transfer.from_chain_id, o.transfer.channel, o.transfer.denom_out, o.tx_index])).toEqual([
      ['echelon-1', 'channel-0', USDC_L1, 0],
      ['interwoven-1', 'channel-3', 'uusdc', 0],
    ]);
    expect(ops[0]!.transfer.pfm_enabled).toBe(true); // L1 forwards the packet
    expect(r.txs_required).toBe(1);
    expect(r.chain_ids).toEqual(['echelon-1', 'interwoven-1', 'noble-1']);
    expect(r.estimated_route_duration_seconds).toBe(2 * DURATION.ibcHop);
  });
  it('rollup to rollup over IBC: echelon iUSD → inertia iUSD (same voucher hash: both rollups use channel-0)', async () => {
    const iusd = ibcDenom('transfer/channel-0/move/6c69733a9e722f3660afb524f89fce957801fa7e4408b8ef8fe89db9627b570e');
    const r = await route({
      source_asset_chain_id: 'echelon-1',
      source_asset_denom: iusd,
      dest_asset_chain_id: 'inertia-2',
      dest_asset_denom: iusd,
    });
    expect((r.operations as Op[]).map((o) => [o.transfer.channel, o.transfer.denom_out])).toEqual([
      ['channel-0', 'move/6c69733a9e722f3660afb524f89fce957801fa7e4408b8ef8fe89db9627b570e'],
      ['channel-69', iusd],
    ]);
    expect(r.txs_required).toBe(1);
  });
});

describe('OPinit withdrawals', () => {
  it('rollup to rollup INIT: withdraw to L1 (7 days) then deposit, two txs, only with allow_multi_tx', async () => {
    const q = {
      source_asset_chain_id: 'echelon-1',
      source_asset_denom: INIT_ECHELON,
      dest_asset_chain_id: 'yominet-1',
      dest_asset_denom: INIT_YOMINET_L2,
    };
    // As Skip's route search: one user tx unless asked for more (InterwovenKit never asks, and signs txs[0] alone).
    for (const flag of [{}, { allow_multi_tx: false }, { allow_multi_tx: 'false' }])
      await expectApiError(
        route({ ...q, ...flag }),
        400,
        3,
        /in one transaction: the routes need 2 \(set allow_multi_tx/,
      );
    const r = await route({ ...q, allow_multi_tx: true });
    const ops = r.operations as Op[];
    expect(
      ops.map((o) => [
        o.op_init_transfer.from_chain_id,
        o.op_init_transfer.to_chain_id,
        o.op_init_transfer.denom_out,
        o.op_init_transfer.op_init_bridge_id,
        o.tx_index,
      ]),
    ).toEqual([
      ['echelon-1', 'interwoven-1', 'uinit', '16', 0],
      ['interwoven-1', 'yominet-1', INIT_YOMINET_L2, '11', 1],
    ]);
    expect(r.txs_required).toBe(2);
    expect(r.estimated_route_duration_seconds).toBe(WEEK + DURATION.opDeposit);
    expect(r.extra_infos).toEqual(['OPinit withdrawal: claim on interwoven-1 after the 7-day finalization period']);
  });
  it('is_op_withdraw gives the Lossless withdrawal; the default falls back to it when no other route exists', async () => {
    const q = {
      source_asset_chain_id: 'echelon-1',
      source_asset_denom: INIT_ECHELON,
      dest_asset_chain_id: 'interwoven-1',
      dest_asset_denom: 'uinit',
    };
    for (const r of [await route({ ...q, is_op_withdraw: true }), await route(q)]) {
      expect(Object.keys(r.operations[0])).toContain('op_init_transfer');
      expect(r.estimated_route_duration_seconds).toBe(WEEK);
    }
  });
  it('a request with amount_out alone (Skip allows either) routes that amount; one LayerZero cannot deliver exactly is a 400', async () => {
    const q = {
      source_asset_chain_id: 'interwoven-1',
      source_asset_denom: 'uinit',
      dest_asset_chain_id: 'echelon-1',
      dest_asset_denom: INIT_ECHELON,
    };
    const byOut = await routeHandler(deps, { ...q, amount_out: '2500000' } as unknown as RouteRequest);
    expect([byOut.amount_in, byOut.amount_out]).toEqual(['2500000', '2500000']);
    // L1 ETH (6 dp) → Ethereum (18 dp): 10^12 base units out are 1 unit in.
    const eth = {
      source_asset_chain_id: 'interwoven-1',
      source_asset_denom: ETH_L1,
      dest_asset_chain_id: '1',
      dest_asset_denom: 'ethereum-native',
    };
    const lz = await routeHandler(deps, { ...eth, amount_out: '3000000000000' } as unknown as RouteRequest);
    expect([lz.amount_in, lz.amount_out]).toEqual(['3', '3000000000000']);
    await expectApiError(
      routeHandler(deps, { ...eth, amount_out: '3000000000001' } as unknown as RouteRequest),
      400,
      3,
      /amount_out 3000000000001 cannot be delivered exactly/,
    );
    await expectApiError(
      routeHandler(deps, q as unknown as RouteRequest),
      400,
      3,
      /amount_in or amount_out is required/,
    );
  });
  it('is_op_withdraw on a route without a withdrawal is a clear 400', () =>
    expectApiError(
      route({
        source_asset_chain_id: 'interwoven-1',
        source_asset_denom: 'uinit',
        dest_asset_chain_id: 'echelon-1',
        dest_asset_denom: INIT_ECHELON,
        is_op_withdraw: true,
      }),
      400,
      3,
      /no OPinit withdrawal route/,
    ));
});

describe('LayerZero', () => {
  it('L1 ETH (6 dp) → Ethereum (18 dp) over endpoint 30101', async () => {
    const r = await route({
      amount_in: '1234567',
      source_asset_chain_id: 'interwoven-1',
      source_asset_denom: ETH_L1,
      dest_asset_chain_id: '1',
      dest_asset_denom: 'ethereum-native',
    });
    const op = r.operations[0];
    expect(op.layer_zero_transfer).toMatchObject({
      from_chain_id: 'interwoven-1',
      to_chain_id: '1',
      denom_in: ETH_L1,
      denom_out: 'ethereum-native',
      destination_endpoint_id: 30101,
      bridge_id: 'LAYER_ZERO',
      messaging_fee_amount: '0',
    });
    expect(op.amount_out).toBe('1234567000000000000');
    expect(r.estimated_route_duration_seconds).toBe(DURATION.lz);
    expect(r.extra_warnings).toContain('LayerZero messaging fee on interwoven-1 not quoted');
  });
  it('Ethereum → L1 drops the dust below 6 shared decimals, then forwards over IBC to echelon in a second tx', async () => {
    const ethEchelon = ibcDenom(`transfer/channel-0/${ETH_L1}`);
    const r = await route({
      amount_in: '1234567891234567891',
      source_asset_chain_id: '1',
      source_asset_denom: 'ethereum-native',
      dest_asset_chain_id: 'echelon-1',
      dest_asset_denom: ethEchelon,
      allow_multi_tx: true,
    });
    const ops = r.operations as Op[];
    expect(ops[0]!.layer_zero_transfer.destination_endpoint_id).toBe(30326);
    expect(ops[0]!.amount_out).toBe('1234567');
    expect(ops[1]!).toMatchObject({
      tx_index: 1,
      amount_in: '1234567',
      amount_out: '1234567',
      transfer: { channel: 'channel-35', denom_out: ethEchelon },
    });
    expect(r.amount_out).toBe('1234567');
    expect(r.extra_infos).toContain('LayerZero drops 891234567891 base units below 6 shared decimals');
  });
  it("an amount past the OFT's uint64 in shared decimals is a clear 400", async () => {
    const eth = { source_asset_chain_id: '1', source_asset_denom: 'ethereum-native' };
    const toL1 = { ...eth, dest_asset_chain_id: 'interwoven-1', dest_asset_denom: ETH_L1 };
    // 18 local decimals, 6 shared: (2^64 - 1) × 10^12 base units is the most one send moves.
    const most = ((1n << 64n) - 1n) * 10n ** 12n;
    expect((await route({ ...toL1, amount_in: most.toString() })).amount_out).toBe(((1n << 64n) - 1n).toString());
    await expectApiError(
      route({ ...toL1, amount_in: (most + 10n ** 12n).toString() }),
      400,
      3,
      /LayerZero moves at most 18446744073709551615000000000000 base units/,
    );
  });
  it('an amount that is all dust is a clear 400', () =>
    expectApiError(
      route({
        amount_in: '999',
        source_asset_chain_id: '1',
        source_asset_denom: 'ethereum-native',
        dest_asset_chain_id: 'interwoven-1',
        dest_asset_denom: ETH_L1,
      }),
      400,
      3,
      /too small/,
    ));
});

describe('bad input', () => {
  const ok = {
    source_asset_chain_id: 'interwoven-1',
    source_asset_denom: 'uinit',
    dest_asset_chain_id: 'echelon-1',
    dest_asset_denom: INIT_ECHELON,
  };
  it('no route is a clear 400', () =>
    expectApiError(
      route({
        source_asset_chain_id: 'echelon-1',
        source_asset_denom: INIT_ECHELON,
        dest_asset_chain_id: 'noble-1',
        dest_asset_denom: 'uusdc',
      }),
      400,
      3,
      /^no route found from l2\/23c8.* on echelon-1 to uusdc on noble-1$/,
    ));
  it('an amount past u64 on a Move chain of the route is a clear 400 (Move keeps coin amounts as u64)', async () => {
    const most = ((1n << 64n) - 1n).toString();
    expect((await route({ ...ok, amount_in: most })).amount_out).toBe(most);
    await expectApiError(
      route({ ...ok, amount_in: (1n << 64n).toString() }),
      400,
      3,
      /a Move chain on the way keeps amounts as u64 \(at most 18446744073709551615\)/,
    );
    await expectApiError(route({ ...ok, amount_in: '9'.repeat(70) }), 400, 3, /u64/);
  });
  it('unsupported chains are 404 / code 5', async () => {
    await expectApiError(
      route({ ...ok, source_asset_chain_id: 'cosmoshub-4' }),
      404,
      5,
      /source_asset_chain_id cosmoshub-4 is not supported/,
    );
    await expectApiError(
      route({ ...ok, dest_asset_chain_id: 'nope-1' }),
      404,
      5,
      /dest_asset_chain_id nope-1 is not supported/,
    );
  });
  it('unknown denoms on a known chain are 400', async () => {
    await expectApiError(
      route({ ...ok, source_asset_denom: 'ufake' }),
      400,
      3,
      /unknown source_asset_denom ufake on interwoven-1/,
    );
    await expectApiError(route({ ...ok, dest_asset_denom: 'ibc/0000' }), 400, 3, /unknown dest_asset_denom/);
  });
  for (const amount of ['-1', '1.5', '1e6', '', '0', ' 1', (1n << 256n).toString(), '9'.repeat(79)])
    it(`amount_in ${JSON.stringify(amount.slice(0, 20))} is refused`, () =>
      expectApiError(route({ ...ok, amount_in: amount }), 400, 3, /invalid amount_in/));
  it('2^256 - 1 is the largest amount parsed; the chains on the way bound it further', async () => {
    const max = ((1n << 256n) - 1n).toString();
    expect(parseAmount(max, 'amount_in')).toBe((1n << 256n) - 1n);
    expect(() => parseAmount((1n << 256n).toString(), 'amount_in')).toThrow(/exceeds 2\^256 - 1/);
    await expectApiError(route({ ...ok, amount_in: max }), 400, 3, /u64/); // the L1 is a Move chain
  });
  it('same asset on both sides is refused', () =>
    expectApiError(
      route({ ...ok, dest_asset_chain_id: 'interwoven-1', dest_asset_denom: 'uinit' }),
      400,
      3,
      /same asset/,
    ));
  it('bridges[] restricts the search', () =>
    expectApiError(route({ ...ok, bridges: ['IBC'] }), 400, 3, /no route found/));
});

describe('selection rule', () => {
  const p = (amountOut: bigint, txs: number, duration: number, hops = 1): RoutePlan => ({
    hops: new Array(hops).fill({ kind: 'ibc', from: 'a', to: 'b', denomOut: 'x' }),
    txIndex: [],
    txsRequired: txs,
    durationSeconds: duration,
    amountOut,
  });
  it('highest amount_out, then fewest txs, then shortest duration, then fewest hops', () => {
    const sorted = [p(9n, 1, 10), p(10n, 2, 10), p(10n, 1, 50), p(10n, 1, 20, 2), p(10n, 1, 20)].sort(compareRoutes);
    expect(sorted.map((x) => [x.amountOut, x.txsRequired, x.durationSeconds, x.hops.length])).toEqual([
      [10n, 1, 20, 1],
      [10n, 1, 20, 2],
      [10n, 1, 50, 1],
      [10n, 2, 10, 1],
      [9n, 1, 10, 1],
    ]);
  });
});

describe('testnet registry', () => {
  const testnet = loadRouterRegistry({ ROUTER_NETWORK: 'testnet' });
  const troute = async (r: Partial<RouteRequest>) =>
    (await routeHandler({ registry: testnet }, { amount_in: '123456789', ...r } as RouteRequest)) as Record<
      string,
      any
    >;
  it('initiation-2 uinit → move-1 over OPinit bridge 1458', async () => {
    const r = await troute({
      source_asset_chain_id: 'initiation-2',
      source_asset_denom: 'uinit',
      dest_asset_chain_id: 'move-1',
      dest_asset_denom: l2Denom(1458n, 'uinit'),
    });
    expect(r.operations[0].op_init_transfer).toMatchObject({ op_init_bridge_id: '1458', to_chain_id: 'move-1' });
  });
  it('TEST LZ (8 dp) → BSC testnet (18 dp) over endpoint 40102, dust below 6 shared decimals', async () => {
    const r = await troute({
      source_asset_chain_id: 'initiation-2',
      source_asset_denom: 'move/7dfcccb8d69af29d585165531eae5c558061d3e3bded2a121be3ef5e189e6b01',
      dest_asset_chain_id: '97',
      dest_asset_denom: 'bsc-testnet-test-lz',
    });
    expect(r.operations[0].layer_zero_transfer.destination_endpoint_id).toBe(40102);
    expect(r.amount_out).toBe('1234567000000000000');
    expect(r.extra_infos).toContain('LayerZero drops 89 base units below 6 shared decimals');
  });
});
