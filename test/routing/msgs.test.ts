// /msgs and /op-hook builders: every message round-trips through the real protobuf types, EVM calldata
// decodes against the OFT ABI, and the op-hook reproduces a real recorded hook byte for byte.
import { toBech32 } from '@cosmjs/encoding';
import { Tx } from '@initia/initia.proto/cosmos/tx/v1beta1/tx.js';
import { MsgCall } from '@initia/initia.proto/minievm/evm/v1/tx.js';
import { MsgInitiateTokenWithdrawal } from '@initia/opinit.proto/opinit/opchild/v1/tx.js';
import { MsgInitiateTokenDeposit } from '@initia/opinit.proto/opinit/ophost/v1/tx.js';
import { MsgTransfer } from 'cosmjs-types/ibc/applications/transfer/v1/tx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiError, toApiError } from '../../api/http/errors.js';
import { oftInterface } from '../../routing/layerzero.js';
import { createQuoteProvider } from '../../routing/lz-quote.js';
import { msgsHandler, TYPE, type MsgsRequest } from '../../routing/msgs.js';
import { MSG_CALL, opHookHandler } from '../../routing/ophook.js';
import { loadRouterRegistry } from '../../routing/registry.js';
import { routeHandler, type RouteDeps, type RouteRequest } from '../../routing/route.js';
import { ETH_L1, fakeEvmRpc, recordedHook, registryWithLz, TEST_OFT, TEST_TOKEN, type FakeRpc } from './helpers.js';

type J = Record<string, any>; // wire JSON, inspected field by field
const registry = loadRouterRegistry({ ROUTER_NETWORK: 'mainnet' });
const deps: RouteDeps = { registry };
const USER = 'init1dw49mn7s2r5mskjdmus5hth80zz8wwaywycq06';
const USER_BYTES = Buffer.from('6baa5dcfd050e9b85a4ddf214baee77884773ba4', 'hex');
const NOBLE_USER = toBech32('noble', USER_BYTES);
const INIT_ECHELON = 'l2/23c8396041db74441f4268d0c7e0533177dc3e028a47a8e584318f2d0c46fbe9';
const INIT_YOMINET_L2 = 'l2/8f73cfaf153520f511b4fc0bd71d60d64b4e19eff04a350e642718a3c1ab3b06';
const WINIT_YOMINET = 'evm/856aB2c9F35B9187aB3eB0Fcd11DCc6160427e96';
const USDC_ECHELON = 'ibc/AA4E7DF065DC4D4B29B8662A919295F525B19251FB2618C41C0DED3BD1128FEE';

async function routeThenMsgs(
  r: Partial<RouteRequest>,
  extra: Partial<MsgsRequest> & { address_list: string[] },
  d: RouteDeps = deps,
) {
  const route = (await routeHandler(d, { amount_in: '1000000', ...r } as RouteRequest)) as J;
  return {
    route,
    msgs: (await msgsHandler(d, { ...route, slippage_tolerance_percent: '1', ...extra } as MsgsRequest)) as J,
  };
}
async function apiError(p: Promise<unknown>): Promise<ApiError> {
  const e = toApiError(
    await p.then(
      () => null,
      (x: unknown) => x,
    ),
  );
  expect(e).not.toBeNull();
  return e as ApiError;
}
const onlyMsg = (m: J) => {
  expect(m.txs[0].cosmos_tx.msgs).toHaveLength(1);
  return {
    type: m.txs[0].cosmos_tx.msgs[0].msg_type_url as string,
    value: JSON.parse(m.txs[0].cosmos_tx.msgs[0].msg) as J,
  };
};

describe('OPinit deposit', () => {
  it('MsgInitiateTokenDeposit round-trips through @initia/opinit.proto', async () => {
    const { msgs } = await routeThenMsgs(
      {
        source_asset_chain_id: 'interwoven-1',
        source_asset_denom: 'uinit',
        dest_asset_chain_id: 'echelon-1',
        dest_asset_denom: INIT_ECHELON,
      },
      { address_list: [USER, USER] },
    );
    const { type, value } = onlyMsg(msgs);
    expect(type).toBe(TYPE.deposit);
    expect(value).toEqual({ sender: USER, bridge_id: '16', to: USER, amount: { denom: 'uinit', amount: '1000000' } });
    const decoded = MsgInitiateTokenDeposit.decode(
      MsgInitiateTokenDeposit.encode(
        MsgInitiateTokenDeposit.fromPartial({
          sender: value.sender,
          bridgeId: BigInt(value.bridge_id),
          to: value.to,
          amount: value.amount,
        }),
      ).finish(),
    );
    expect(decoded).toMatchObject({
      sender: USER,
      bridgeId: 16n,
      to: USER,
      amount: { denom: 'uinit', amount: '1000000' },
    });
    expect(msgs.txs[0]).toMatchObject({
      cosmos_tx: { chain_id: 'interwoven-1', path: ['interwoven-1', 'echelon-1'], signer_address: USER },
      operations_indices: [0],
    });
    expect(msgs.msgs[0].multi_chain_msg).toMatchObject({ chain_id: 'interwoven-1', msg_type_url: TYPE.deposit });
    expect(msgs.min_amount_out).toBe('990000');
  });

  const hookRoute = {
    source_asset_chain_id: 'interwoven-1',
    source_asset_denom: 'uinit',
    dest_asset_chain_id: 'yominet-1',
    dest_asset_denom: WINIT_YOMINET,
  };
  it('carries the signed op-hook bytes in data (object and bare-string forms), byte-exact through the proto', async () => {
    const hook = recordedHook('mockMsgFinalizeTokenDepositError');
    for (const signed of [{ signer: USER, hook: hook.data }, hook.data]) {
      const { msgs } = await routeThenMsgs(hookRoute, { address_list: [USER, USER], signed_op_hook: signed });
      const { value } = onlyMsg(msgs);
      expect(value.data).toBe(hook.data);
      const enc = MsgInitiateTokenDeposit.encode(
        MsgInitiateTokenDeposit.fromPartial({
          sender: value.sender,
          bridgeId: BigInt(value.bridge_id),
          to: value.to,
          amount: value.amount,
          data: Buffer.from(value.data, 'base64'),
        }),
      ).finish();
      expect(Buffer.from(MsgInitiateTokenDeposit.decode(enc).data).equals(Buffer.from(hook.data, 'base64'))).toBe(true);
    }
  });
  it('refuses a missing, unneeded or malformed hook', async () => {
    expect((await apiError(routeThenMsgs(hookRoute, { address_list: [USER, USER] }))).message).toMatch(
      /signed_op_hook is required/,
    );
    expect(
      (
        await apiError(
          routeThenMsgs(
            { ...hookRoute, dest_asset_denom: INIT_YOMINET_L2 },
            { address_list: [USER, USER], signed_op_hook: recordedHook('mockMsgFinalizeTokenDepositError').data },
          ),
        )
      ).message,
    ).toMatch(/needs no op-hook/);
    expect(
      (await apiError(routeThenMsgs(hookRoute, { address_list: [USER, USER], signed_op_hook: 'not base64!' }))).message,
    ).toMatch(/must be base64/);
    expect(
      (
        await apiError(
          routeThenMsgs(hookRoute, {
            address_list: [USER, USER],
            signed_op_hook: Buffer.from('hello').toString('base64'),
          }),
        )
      ).message,
    ).toMatch(/not a signed cosmos Tx/);
  });
});

describe('op-hook', () => {
  it('reproduces the real yominet-1 hook messages (approve + toLocal) byte for byte', () => {
    for (const which of ['mockMsgFinalizeTokenDepositError', 'mockMsgFinalizeTokenDepositSuccess'] as const) {
      const rec = recordedHook(which);
      expect(rec.denom).toBe(INIT_YOMINET_L2);
      const out = opHookHandler(registry, {
        source_address: rec.to,
        source_asset_chain_id: 'interwoven-1',
        source_asset_denom: 'uinit',
        dest_address: rec.to,
        dest_asset_chain_id: 'yominet-1',
        dest_asset_denom: WINIT_YOMINET,
      });
      expect(out.chain_id).toBe('yominet-1');
      const recorded = Tx.decode(Buffer.from(rec.data, 'base64')).body!.messages;
      expect(out.hook.map((h) => h.msg_type_url)).toEqual(recorded.map((m) => m.typeUrl));
      out.hook.forEach((h, i) => {
        expect(h.msg_type_url).toBe(MSG_CALL);
        const v = JSON.parse(h.msg) as J;
        const ours = MsgCall.encode(
          MsgCall.fromPartial({
            sender: v.sender,
            contractAddr: v.contract_addr,
            input: v.input,
            value: v.value,
            accessList: v.access_list,
            authList: v.auth_list,
          }),
        ).finish();
        expect(Buffer.from(ours).toString('hex')).toBe(Buffer.from(recorded[i]!.value).toString('hex'));
      });
    }
  });
  it('refuses 32-byte (module) accounts as hook signers', () => {
    const module32 = toBech32('init', new Uint8Array(32).fill(7));
    expect(() =>
      opHookHandler(registry, {
        source_address: USER,
        source_asset_chain_id: 'interwoven-1',
        source_asset_denom: 'uinit',
        dest_address: module32,
        dest_asset_chain_id: 'yominet-1',
        dest_asset_denom: WINIT_YOMINET,
      }),
    ).toThrow(/20-byte/);
  });
  it('is a 400 for routes that need no hook', () => {
    expect(() =>
      opHookHandler(registry, {
        source_address: USER,
        source_asset_chain_id: 'interwoven-1',
        source_asset_denom: 'uinit',
        dest_address: USER,
        dest_asset_chain_id: 'echelon-1',
        dest_asset_denom: INIT_ECHELON,
      }),
    ).toThrow(/needs no op-hook/);
  });
});

describe('OPinit withdrawal and multi-tx routes', () => {
  it('MsgInitiateTokenWithdrawal round-trips', async () => {
    const { msgs } = await routeThenMsgs(
      {
        source_asset_chain_id: 'echelon-1',
        source_asset_denom: INIT_ECHELON,
        dest_asset_chain_id: 'interwoven-1',
        dest_asset_denom: 'uinit',
        is_op_withdraw: true,
      },
      { address_list: [USER, USER] },
    );
    const { type, value } = onlyMsg(msgs);
    expect(type).toBe(TYPE.withdraw);
    const decoded = MsgInitiateTokenWithdrawal.decode(
      MsgInitiateTokenWithdrawal.encode(
        MsgInitiateTokenWithdrawal.fromPartial({ sender: value.sender, to: value.to, amount: value.amount }),
      ).finish(),
    );
    expect(decoded).toMatchObject({ sender: USER, to: USER, amount: { denom: INIT_ECHELON, amount: '1000000' } });
  });
  it('withdraw then deposit: two txs, each naming its operations', async () => {
    const { msgs } = await routeThenMsgs(
      {
        source_asset_chain_id: 'echelon-1',
        source_asset_denom: INIT_ECHELON,
        dest_asset_chain_id: 'yominet-1',
        dest_asset_denom: INIT_YOMINET_L2,
        allow_multi_tx: true,
      },
      { address_list: [USER, USER, USER] },
    );
    expect(
      msgs.txs.map((t: J) => [t.cosmos_tx.chain_id, t.cosmos_tx.msgs[0].msg_type_url, t.operations_indices]),
    ).toEqual([
      ['echelon-1', TYPE.withdraw, [0]],
      ['interwoven-1', TYPE.deposit, [1]],
    ]);
  });
  it('an IBC transfer after a withdrawal times out from when it can be sent, not from now', async () => {
    // echelon-1 INIT → L1 (withdrawal, 7 days and a claim) → strat-1 over IBC: the second tx can be signed only
    // after the claim; a timeout of now + 300 s had passed long before, and ibc-go refuses such a packet.
    const before = Date.now();
    const { msgs } = await routeThenMsgs(
      {
        source_asset_chain_id: 'echelon-1',
        source_asset_denom: INIT_ECHELON,
        dest_asset_chain_id: 'strat-1',
        dest_asset_denom: 'ibc/37A3FB4FED4CA04ED6D9E5DA36C6D27248645F0E22F585576A1488B8A89C5A50',
        allow_multi_tx: true,
      },
      { address_list: [USER, USER, USER], timeout_seconds: '300' },
    );
    expect(msgs.txs.map((t: J) => t.cosmos_tx.msgs[0].msg_type_url)).toEqual([TYPE.withdraw, TYPE.transfer]);
    const timeoutMs = Number(BigInt(JSON.parse(msgs.txs[1].cosmos_tx.msgs[0].msg).timeout_timestamp) / 1_000_000n);
    const week = 7 * 24 * 3600_000;
    expect(timeoutMs).toBeGreaterThanOrEqual(before + 300_000 + 2 * week);
    expect(timeoutMs).toBeLessThanOrEqual(Date.now() + 300_000 + 2 * week);
  });
});

describe('IBC MsgTransfer', () => {
  it('a chain outside Initia takes only its own prefix (another would make it refuse the tx or bounce the packet)', async () => {
    const toNoble = {
      source_asset_chain_id: 'echelon-1',
      source_asset_denom: USDC_ECHELON,
      dest_asset_chain_id: 'noble-1',
      dest_asset_denom: 'uusdc',
    };
    for (const [chain, prefix] of <[string, string][]>[
      ['noble-1', 'noble'],
      ['osmosis-1', 'osmo'],
      ['celestia', 'celestia'],
      ['neutron-1', 'neutron'],
      ['milkyway', 'milk'],
    ])
      expect(registry.chains.get(chain)?.bech32Prefix, chain).toBe(prefix);
    expect((await apiError(routeThenMsgs(toNoble, { address_list: [USER, USER, USER] }))).message).toMatch(
      /noble-1 addresses start with noble/,
    );
  });

  it('multi-hop: one MsgTransfer with a packet-forward memo, round-trips through cosmjs-types', async () => {
    const { msgs } = await routeThenMsgs(
      {
        source_asset_chain_id: 'echelon-1',
        source_asset_denom: USDC_ECHELON,
        dest_asset_chain_id: 'noble-1',
        dest_asset_denom: 'uusdc',
      },
      { address_list: [USER, USER, NOBLE_USER], timeout_seconds: 600 },
    );
    expect(msgs.txs).toHaveLength(1);
    expect(msgs.txs[0].operations_indices).toEqual([0, 1]);
    const { type, value } = onlyMsg(msgs);
    expect(type).toBe(TYPE.transfer);
    expect(value).toMatchObject({
      source_port: 'transfer',
      source_channel: 'channel-0',
      token: { denom: USDC_ECHELON, amount: '1000000' },
      sender: USER,
      receiver: USER,
      timeout_height: {},
    });
    expect(JSON.parse(value.memo)).toEqual({
      forward: { receiver: NOBLE_USER, port: 'transfer', channel: 'channel-3', timeout: '10m', retries: 2 },
    });
    const ns = BigInt(value.timeout_timestamp);
    expect(Number(ns / 1_000_000n) - Date.now()).toBeGreaterThan(590_000);
    const decoded = MsgTransfer.decode(
      MsgTransfer.encode(
        MsgTransfer.fromPartial({
          sourcePort: value.source_port,
          sourceChannel: value.source_channel,
          token: value.token,
          sender: value.sender,
          receiver: value.receiver,
          timeoutHeight: { revisionNumber: 0n, revisionHeight: 0n },
          timeoutTimestamp: ns,
          memo: value.memo,
        }),
      ).finish(),
    );
    expect(decoded).toMatchObject({
      sourceChannel: 'channel-0',
      receiver: USER,
      timeoutTimestamp: ns,
      memo: value.memo,
      token: { denom: USDC_ECHELON, amount: '1000000' },
    });
  });
});

describe('request checks', () => {
  const q = {
    source_asset_chain_id: 'interwoven-1',
    source_asset_denom: 'uinit',
    dest_asset_chain_id: 'echelon-1',
    dest_asset_denom: INIT_ECHELON,
  };
  it('operations that do not match a route are refused', async () => {
    const route = (await routeHandler(deps, { amount_in: '1000000', ...q } as RouteRequest)) as J;
    const tampered = structuredClone(route.operations);
    tampered[0].op_init_transfer.op_init_bridge_id = '17';
    for (const ops of [
      tampered,
      [{ ...route.operations[0], amount_out: '2000000' }],
      [{ swap: {}, tx_index: 0, amount_in: '1', amount_out: '1' }],
    ])
      expect(
        (await apiError(msgsHandler(deps, { ...route, operations: ops, address_list: [USER, USER] } as MsgsRequest)))
          .message,
      ).toMatch(/operations do not match a route/);
  });
  it("address_list must match required_chain_addresses and each chain's format", async () => {
    expect((await apiError(routeThenMsgs(q, { address_list: [USER] }))).message).toMatch(
      /address_list must have 2 addresses/,
    );
    expect((await apiError(routeThenMsgs(q, { address_list: [USER, 'init1notanaddress'] }))).message).toMatch(
      /address_list\[1\]: not a bech32 address/,
    );
    expect((await apiError(routeThenMsgs(q, { address_list: [USER, NOBLE_USER] }))).message).toMatch(
      /echelon-1 addresses start with init/,
    );
    expect(
      (await apiError(routeThenMsgs(q, { address_list: ['0x6baa5dcfd050e9b85a4ddf214baee77884773ba4', USER] })))
        .message,
    ).toMatch(/needs a bech32 address/);
  });
  it('min_amount_out follows the slippage tolerance; bad tolerances are 400', async () => {
    expect(
      (await routeThenMsgs(q, { address_list: [USER, USER], slippage_tolerance_percent: '0.5' })).msgs.min_amount_out,
    ).toBe('995000');
    expect(
      (await routeThenMsgs(q, { address_list: [USER, USER], slippage_tolerance_percent: '100' })).msgs.min_amount_out,
    ).toBe('0');
    for (const s of ['0', '101', 'abc', '-1', '1.1234567'])
      expect(
        (await apiError(routeThenMsgs(q, { address_list: [USER, USER], slippage_tolerance_percent: s }))).message,
      ).toMatch(/slippage_tolerance_percent/);
  });
});

describe('LayerZero', () => {
  let rpc: FakeRpc;
  beforeAll(async () => {
    rpc = await fakeEvmRpc(123_456_789n);
  });
  afterAll(() => rpc.close());
  const fromEth = {
    amount_in: '1234567891234567891',
    source_asset_chain_id: '1',
    source_asset_denom: 'ethereum-native',
    dest_asset_chain_id: 'interwoven-1',
    dest_asset_denom: ETH_L1,
  };
  const ETH_USER = '0x6baa5dcfd050e9b85a4ddf214baee77884773ba4';

  it('quotes the messaging fee with quoteSend over JSON-RPC (cached) and builds the OFT send', async () => {
    const d: RouteDeps = { registry: registryWithLz(rpc.url), quote: createQuoteProvider({ ttlMs: 60_000 }) };
    const { route, msgs } = await routeThenMsgs(fromEth, { address_list: [ETH_USER, USER] }, d);
    expect(route.operations[0].layer_zero_transfer).toMatchObject({
      source_oft_contract_address: TEST_OFT,
      destination_endpoint_id: 30326,
      messaging_fee_amount: '123456789',
    });
    expect(route.estimated_fees).toEqual([
      expect.objectContaining({
        fee_type: 'BRIDGE',
        bridge_id: 'LAYER_ZERO',
        amount: '123456789',
        chain_id: '1',
        fee_behavior: 'FEE_BEHAVIOR_ADDITIONAL',
      }),
    ]);
    // The quote request itself is a well-formed quoteSend to the OFT.
    const call = rpc.calls.find((c) => c.method === 'eth_call')!;
    const tx = call.params[0] as { to: string; data: string };
    expect(tx.to.toLowerCase()).toBe(TEST_OFT);
    expect(oftInterface.parseTransaction({ data: tx.data })!.name).toBe('quoteSend');
    // route + msgs = two quotes, one RPC call (TTL cache)
    expect(rpc.calls.filter((c) => c.method === 'eth_call')).toHaveLength(1);

    const evm = msgs.txs[0].evm_tx as J;
    expect(evm).toMatchObject({ chain_id: '1', to: TEST_OFT, signer_address: ETH_USER, required_erc20_approvals: [] });
    expect(evm.data).toMatch(/^[0-9a-f]+$/); // hex without 0x
    const sent = 1234567000000000000n;
    expect(evm.value).toBe((123_456_789n + sent).toString()); // native adapter: the value carries the amount
    const parsed = oftInterface.parseTransaction({ data: `0x${evm.data}`, value: BigInt(evm.value) })!;
    expect(parsed.name).toBe('send');
    const [p, fee, refund] = parsed.args as unknown as [J, J, string];
    expect(Number(p.dstEid)).toBe(30326);
    expect(p.to).toBe(`0x${'00'.repeat(12)}${USER_BYTES.toString('hex')}`);
    expect(p.amountLD).toBe(sent);
    expect(p.minAmountLD).toBe(1222221000000000000n); // 1 % slippage, then dust removed
    expect(fee.nativeFee).toBe(123_456_789n);
    expect(refund.toLowerCase()).toBe(ETH_USER);
    expect(msgs.min_amount_out).toBe('1222221');
  });
  it('an OFT adapter asks for an ERC20 approval and sends only the fee as value', async () => {
    const d: RouteDeps = { registry: registryWithLz(rpc.url, 'adapter'), quote: createQuoteProvider() };
    const { msgs } = await routeThenMsgs(fromEth, { address_list: [ETH_USER, USER] }, d);
    expect(msgs.txs[0].evm_tx).toMatchObject({
      value: '123456789',
      required_erc20_approvals: [{ token_contract: TEST_TOKEN, spender: TEST_OFT, amount: '1234567000000000000' }],
    });
  });
  it('refuses to build a send it cannot make correctly', async () => {
    // Shipped mainnet file: no published OFT address → not configured.
    expect((await apiError(routeThenMsgs(fromEth, { address_list: [ETH_USER, USER] }))).message).toMatch(
      /OFT contract for ETH on 1 is not configured/,
    );
    // Move-side sends need the OFT Move module, which no registry publishes.
    const back = {
      amount_in: '1000000',
      source_asset_chain_id: 'interwoven-1',
      source_asset_denom: ETH_L1,
      dest_asset_chain_id: '1',
      dest_asset_denom: 'ethereum-native',
    };
    expect((await apiError(routeThenMsgs(back, { address_list: [USER, ETH_USER] }))).message).toMatch(
      /only EVM sources/,
    );
  });
  it('an unreachable JSON-RPC leaves the fee unquoted on /route and makes /msgs a 503', async () => {
    const d: RouteDeps = {
      registry: registryWithLz('http://127.0.0.1:9'),
      quote: createQuoteProvider({ timeoutMs: 500 }),
    };
    const route = (await routeHandler(d, fromEth as RouteRequest)) as J;
    expect(route.extra_warnings).toContain('LayerZero messaging fee on 1 not quoted');
    const e = await apiError(msgsHandler(d, { ...route, address_list: [ETH_USER, USER] } as MsgsRequest));
    expect(e.status).toBe(503);
  });
});
