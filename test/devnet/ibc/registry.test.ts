// The IBC devnets' registry (devnet/ibc/registry.ts) without the nodes: it loads through the router's custom
// registry path exactly like a real registry folder, routes devnet-a umin → devnet-b voucher over the channel the
// relayer created, builds the MsgTransfer, and gives tracking the channel map. The real chains check the rest
// (test/devnet/ibc/transfer.e2e.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { voucherOnB, writeDevnetRegistry, type IbcDevnetEnv } from '../../../devnet/ibc/registry.js';
import { ibcDenom } from '../../../routing/denom.js';
import { msgsHandler } from '../../../routing/msgs.js';
import { loadRouterRegistry } from '../../../routing/registry.js';
import { routeHandler, type RouteRequest } from '../../../routing/route.js';
import { directoryFromRegistry } from '../../../tracking/registry-adapter.js';

const dir = mkdtempSync(path.join(tmpdir(), 'devnet-registry-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const env: IbcDevnetEnv = {
  A_CHAIN_ID: 'devnet-a',
  A_RPC: 'http://127.0.0.1:20057',
  A_REST: 'http://127.0.0.1:20017',
  A_JSONRPC: 'http://127.0.0.1:20045',
  A_HOME: '/nonexistent/a',
  B_CHAIN_ID: 'devnet-b',
  B_RPC: 'http://127.0.0.1:20157',
  B_REST: 'http://127.0.0.1:20117',
  B_JSONRPC: 'http://127.0.0.1:20145',
  B_HOME: '/nonexistent/b',
  CHANNEL_A: 'channel-3',
  CHANNEL_B: 'channel-7',
  RLY_BIN: '/nonexistent/rly',
  RLY_HOME: '/nonexistent/rly-home',
  RLY_PATH: 'ab',
  RELAYER_ADDRESS: 'init1agucxqf6674fze0h5g4gjr54tg6nglej3guup2',
  MINITIAD: '/nonexistent/minitiad',
};
const registry = loadRouterRegistry({
  ROUTER_NETWORK: 'custom',
  ROUTER_REGISTRY_FILE: writeDevnetRegistry(env, path.join(dir, 'registry')),
});
const USER_A = 'init1u6ru4jkzpqcg870p073hm3226mj9qd5j48595q';
const USER_B = 'init125w3tkjjqcpwq6cd6wa6n709xfehdm8u28nvxc';

describe('devnet IBC registry', () => {
  it('loads as a custom registry: two minievm rollups linked by the relayer’s channel, voucher derived', () => {
    expect(registry.network).toBe('custom');
    const a = registry.chains.get('devnet-a')!;
    expect(a.vm).toBe('minievm');
    expect(a.channels.get('devnet-b')).toEqual({ channel: 'channel-3', counterpartyChannel: 'channel-7' });
    expect(voucherOnB(env)).toBe(ibcDenom('transfer/channel-7/umin'));
    expect(registry.assets.get('devnet-b')!.get(voucherOnB(env))!.derived).toBe(voucherOnB(env));
  });

  it('routes devnet-a umin → devnet-b voucher over the channel and builds the MsgTransfer', async () => {
    const req = {
      amount_in: '1000',
      source_asset_chain_id: 'devnet-a',
      source_asset_denom: 'umin',
      dest_asset_chain_id: 'devnet-b',
      dest_asset_denom: voucherOnB(env),
    } as RouteRequest;
    const route = (await routeHandler({ registry }, req)) as Record<string, any>; // route JSON, read field by field
    expect(route.required_chain_addresses).toEqual(['devnet-a', 'devnet-b']);
    expect(route.operations[0].transfer).toMatchObject({ channel: 'channel-3', denom_out: voucherOnB(env) });
    const msgs = (await msgsHandler(
      { registry } as never, // the IBC-only route never asks the LayerZero quote provider
      { ...req, address_list: [USER_A, USER_B], operations: route.operations },
    )) as Record<string, any>;
    const m = JSON.parse(msgs.txs[0].cosmos_tx.msgs[0].msg);
    expect(m).toMatchObject({
      source_port: 'transfer',
      source_channel: 'channel-3',
      token: { denom: 'umin', amount: '1000' },
      sender: USER_A,
      receiver: USER_B,
    });
  });

  it('gives tracking the channel map and the RPC URLs it is handed', () => {
    const dir = directoryFromRegistry(registry, { 'devnet-a': env.A_RPC });
    expect(dir.chain('devnet-a')).toMatchObject({
      rpcUrl: env.A_RPC,
      ibcChannels: { 'channel-3': { chainId: 'devnet-b', channelId: 'channel-7' } },
    });
    expect(dir.chain('devnet-b')!.ibcChannels).toEqual({
      'channel-7': { chainId: 'devnet-a', channelId: 'channel-3' },
    });
  });
});
