// Every call of the unmodified @skip-go/client 1.6.1 that our router serves, made through the client's own
// functions (its key conversion, its methods: assetsBetweenChains is a GET there), against the real router app on
// loopback with the mainnet registry: each parses, and the refused broadcast surfaces as the client's error.
import type { Server } from 'node:http';
import {
  assetsBetweenChains,
  assetsFromSource,
  balances,
  bridges,
  ibcOriginAssets,
  messages,
  messagesDirect,
  recommendAssets,
  route,
  setApiOptions,
  submitTransaction,
  venues,
} from '@skip-go/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeServer, listen } from '../../../api/http/app.js';
import { createRouterApp } from '../../../api/router/app.js';
import { loadRouterRegistry } from '../../../routing/registry.js';

const USER = 'init1dw49mn7s2r5mskjdmus5hth80zz8wwaywycq06';
const INIT_ECHELON = 'l2/23c8396041db74441f4268d0c7e0533177dc3e028a47a8e584318f2d0c46fbe9';
const DEPOSIT = {
  amountIn: '1000000',
  sourceAssetChainId: 'interwoven-1',
  sourceAssetDenom: 'uinit',
  destAssetChainId: 'echelon-1',
  destAssetDenom: INIT_ECHELON,
};

let server: Server;
beforeAll(async () => {
  server = await listen(createRouterApp({ registry: loadRouterRegistry({ ROUTER_NETWORK: 'mainnet' }) }), 0);
  setApiOptions({ apiUrl: `http://127.0.0.1:${(server.address() as { port: number }).port}` });
});
afterAll(async () => {
  if (server) await closeServer(server);
});

describe('@skip-go/client calls against our router', () => {
  it('messages() with timeoutSeconds as the string the client types it as', async () => {
    const r = await route(DEPOSIT);
    const m = await messages({
      ...DEPOSIT,
      amountOut: r!.estimatedAmountOut,
      addressList: [USER, USER],
      operations: r!.operations,
      slippageTolerancePercent: '1',
      timeoutSeconds: '120',
    });
    expect(m!.txs).toHaveLength(1);
    expect(m!.txs![0]).toHaveProperty('cosmosTx');
  });

  it('route() and messagesDirect() with amountOut alone (the client types both amounts as optional)', async () => {
    const { amountIn: _in, ...byOut } = { ...DEPOSIT, amountOut: '1200000' };
    const r = await route(byOut);
    expect([r!.amountIn, r!.amountOut]).toEqual(['1200000', '1200000']);
    const m = await messagesDirect({
      ...byOut,
      chainIdsToAddresses: { 'interwoven-1': USER, 'echelon-1': USER },
      slippageTolerancePercent: '1',
    });
    expect(m!.route!.amountIn).toBe('1200000');
    expect(m!.txs).toHaveLength(1);
  });

  it('msgs_direct takes an address for every chain that might be on the path, as Skip asks (every registry chain)', async () => {
    const chains = [...loadRouterRegistry({ ROUTER_NETWORK: 'mainnet' }).chains.keys()];
    expect(chains.length).toBeGreaterThan(8); // the bound was 8: a 400 for the map Skip tells callers to send
    const m = await messagesDirect({
      ...DEPOSIT,
      chainIdsToAddresses: Object.fromEntries(chains.map((c) => [c, USER])),
      slippageTolerancePercent: '1',
    });
    expect(m!.txs).toHaveLength(1);
  });

  it('a route request with cumulative_affiliate_fee_bps null (Skip marks it nullable) is routed, not refused', async () => {
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    const r = await fetch(`${base}/v2/fungible/route`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        amount_in: '1000000',
        source_asset_chain_id: 'interwoven-1',
        source_asset_denom: 'uinit',
        dest_asset_chain_id: 'echelon-1',
        dest_asset_denom: INIT_ECHELON,
        cumulative_affiliate_fee_bps: null,
      }),
    });
    expect(r.status).toBe(200);
  });

  it('messagesDirect(): the route and its txs in one call', async () => {
    const m = await messagesDirect({
      ...DEPOSIT,
      chainIdsToAddresses: { 'interwoven-1': USER, 'echelon-1': USER },
      slippageTolerancePercent: '1',
      timeoutSeconds: '300',
    });
    expect(m!.route!.destAssetDenom).toBe(INIT_ECHELON);
    expect(m!.route!.requiredChainAddresses).toEqual(['interwoven-1', 'echelon-1']);
    expect(m!.txs).toHaveLength(1);
    expect(m!.minAmountOut).toBe('990000');
  });

  it('bridges(), venues(), assetsFromSource(), assetsBetweenChains() (GET), recommendAssets(), ibcOriginAssets()', async () => {
    expect((await bridges())!.map((b) => b.id)).toEqual(['IBC', 'OPINIT', 'LAYER_ZERO']);
    expect(await venues()).toEqual([]);
    const from = await assetsFromSource({ sourceAssetChainId: 'interwoven-1', sourceAssetDenom: 'uinit' });
    expect(from!['echelon-1']!.map((a) => a.denom)).toContain(INIT_ECHELON);
    const between = await assetsBetweenChains({ sourceChainId: 'interwoven-1', destChainId: 'echelon-1' });
    const init = between!.assetsBetweenChains!.find((p) => p.assetOnSource?.denom === 'uinit');
    expect(init).toMatchObject({ txsRequired: 1 });
    expect(init!.bridges!.length).toBeGreaterThan(0);
    const rec = await recommendAssets({
      requests: [{ sourceAssetChainId: 'interwoven-1', sourceAssetDenom: 'uinit', destChainId: 'echelon-1' }],
    });
    expect(rec![0]!.recommendations!.map((x) => x.asset?.denom)).toContain(INIT_ECHELON);
    const origin = await ibcOriginAssets({ assets: [{ chainId: 'echelon-1', denom: INIT_ECHELON }] });
    expect(origin![0]).toMatchObject({ assetFound: true, asset: { chainId: 'interwoven-1', denom: 'uinit' } });
  });

  it('balances(): a chain without a configured endpoint answers each denom with its error, never a failure', async () => {
    const b = await balances({ chains: { 'interwoven-1': { address: USER, denoms: ['uinit'] } } });
    expect(b!.chains!['interwoven-1']!.denoms!.uinit).toMatchObject({
      amount: '0',
      decimals: 6,
      formattedAmount: '0.000000',
      error: { message: expect.stringMatching(/no REST endpoint/) },
    });
  });

  it('submitTransaction(): refused with the message that names the supported path', async () => {
    await expect(submitTransaction({ chainId: 'interwoven-1', tx: 'CgA=' })).rejects.toThrow(
      /never broadcasts.*POST \/v2\/tx\/track/,
    );
  });
});
