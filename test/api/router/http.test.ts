// The router app over real HTTP on loopback: wire shapes, JSON error bodies, validation from the OpenAPI
// document, body bound, tracking merge, and the real Skip Go client parsing our responses.
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import {
  assets as skipAssets,
  chains as skipChains,
  messages as skipMessages,
  route as skipRoute,
} from '@skip-go/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeServer, listen } from '../../../api/http/app.js';
import { createRouterApp } from '../../../api/router/app.js';
import { loadRouterRegistry } from '../../../routing/registry.js';
import type { TrackingRoutes } from '../../../api/router/tracking/index.js';

const INIT_ECHELON = 'l2/23c8396041db74441f4268d0c7e0533177dc3e028a47a8e584318f2d0c46fbe9';
const USDC_ECHELON = 'ibc/AA4E7DF065DC4D4B29B8662A919295F525B19251FB2618C41C0DED3BD1128FEE';
const USER = 'init1dw49mn7s2r5mskjdmus5hth80zz8wwaywycq06';
const routeBody = {
  amount_in: '1000000',
  source_asset_chain_id: 'interwoven-1',
  source_asset_denom: 'uinit',
  dest_asset_chain_id: 'echelon-1',
  dest_asset_denom: INIT_ECHELON,
};

// A stand-in for issue 5's tracking module: proves the seam (doc merge + mount after validation).
const tracking: TrackingRoutes = {
  openapiPaths: {
    '/v2/tx/track': {
      post: {
        operationId: 'track',
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { $ref: '#/components/schemas/TrackRequest' } } },
        },
        responses: { '200': { description: 'ok' } },
      },
    },
  },
  openapiSchemas: {
    TrackRequest: {
      type: 'object',
      required: ['tx_hash', 'chain_id'],
      properties: { tx_hash: { type: 'string', maxLength: 128 }, chain_id: { type: 'string', maxLength: 64 } },
    },
  },
  mount: (router) =>
    router.post('/v2/tx/track', (req, res) => res.json({ tx_hash: req.body.tx_hash, explorer_link: '' })),
};

let server: Server;
let base: string;
beforeAll(async () => {
  server = await listen(createRouterApp({ registry: loadRouterRegistry({ ROUTER_NETWORK: 'mainnet' }), tracking }), 0);
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => closeServer(server));

async function post(
  path: string,
  body: unknown,
  headers: Record<string, string> = { 'content-type': 'application/json' },
) {
  const r = await fetch(base + path, {
    method: 'POST',
    headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: r.status, type: r.headers.get('content-type') ?? '', body: (await r.json()) as Record<string, any> };
}

describe('wire', () => {
  it('route → msgs over HTTP', async () => {
    const r = await post('/v2/fungible/route', routeBody);
    expect(r.status).toBe(200);
    expect(r.type).toMatch(/application\/json/);
    expect(r.body.operations[0].op_init_transfer.op_init_bridge_id).toBe('16');
    const m = await post('/v2/fungible/msgs', {
      ...r.body,
      address_list: [USER, USER],
      slippage_tolerance_percent: '1',
    });
    expect(m.status).toBe(200);
    expect(m.body.txs[0].cosmos_tx.msgs[0].msg_type_url).toBe('/opinit.ophost.v1.MsgInitiateTokenDeposit');
  });
  it('serves its OpenAPI document with the tracking paths merged', async () => {
    const doc = (await (await fetch(`${base}/swagger/doc.json`)).json()) as {
      paths: Record<string, unknown>;
      components: { schemas: Record<string, unknown> };
    };
    expect(Object.keys(doc.paths).sort()).toEqual([
      '/op-hook',
      '/v2/fungible/assets',
      '/v2/fungible/assets_between_chains',
      '/v2/fungible/assets_from_source',
      '/v2/fungible/ibc_origin_assets',
      '/v2/fungible/msgs',
      '/v2/fungible/msgs_direct',
      '/v2/fungible/recommend_assets',
      '/v2/fungible/route',
      '/v2/fungible/venues',
      '/v2/info/balances',
      '/v2/info/bridges',
      '/v2/info/chains',
      '/v2/tx/submit',
      '/v2/tx/track',
    ]);
    expect(doc.components.schemas.TrackRequest).toBeDefined();
    expect((await post('/v2/tx/track', { tx_hash: 'AB', chain_id: 'interwoven-1' })).body).toEqual({
      tx_hash: 'AB',
      explorer_link: '',
    });
    expect((await post('/v2/tx/track', { chain_id: 'interwoven-1' })).status).toBe(400); // validated from the merged doc
  });
});

describe('chains and assets (InterwovenKit reads them)', () => {
  it('lists registry chains with rpc/rest and hides removed ones; EVM chains on request', async () => {
    const get = async (q: string) => (await (await fetch(base + q)).json()) as { chains: Record<string, any>[] };
    const all = await get('/v2/info/chains');
    const echelon = all.chains.find((c) => c.chain_id === 'echelon-1')!;
    expect(echelon).toMatchObject({
      chain_type: 'cosmos',
      bech32_prefix: 'init',
      pfm_enabled: false,
      hidden: false,
      rest: 'https://rest-echelon-1.anvil.asia-southeast.initia.xyz',
    });
    expect(all.chains.find((c) => c.chain_id === 'moo-1')?.hidden).toBe(true);
    expect(all.chains.find((c) => c.chain_id === 'interwoven-1')?.pfm_enabled).toBe(true);
    expect(all.chains.some((c) => c.chain_id === '1')).toBe(false);
    expect((await get('/v2/info/chains?include_evm=true')).chains.find((c) => c.chain_id === '1')?.chain_type).toBe(
      'evm',
    );
    expect((await get('/v2/info/chains?chain_ids=echelon-1,yominet-1')).chains.map((c) => c.chain_id).sort()).toEqual([
      'echelon-1',
      'yominet-1',
    ]);
    expect((await get('/v2/info/chains?chain_ids=yominet-1')).chains[0]!.evm_fee_asset).toEqual({
      name: 'Ethereum Native Token',
      symbol: 'ETH',
      decimals: 18,
    });
  });
  it('lists assets per chain as AssetJson', async () => {
    const r = (await (await fetch(`${base}/v2/fungible/assets?chain_ids=echelon-1`)).json()) as {
      chain_to_assets_map: Record<string, { assets: Record<string, unknown>[] }>;
    };
    expect(Object.keys(r.chain_to_assets_map)).toEqual(['echelon-1']);
    expect(r.chain_to_assets_map['echelon-1']!.assets[0]).toMatchObject({
      denom: INIT_ECHELON,
      chain_id: 'echelon-1',
      origin_denom: 'uinit',
      origin_chain_id: 'interwoven-1',
      symbol: 'INIT',
      decimals: 6,
      is_evm: false,
      hidden: false,
    });
  });
  it('refuses unknown query parameters and bad booleans', async () => {
    expect((await fetch(`${base}/v2/info/chains?include_evm=yes`)).status).toBe(400);
    expect((await fetch(`${base}/v2/fungible/assets?x=1`)).status).toBe(400);
  });
});

describe('errors are JSON {code, message, details}', () => {
  const cases: [string, string, unknown, number, number, RegExp][] = [
    ['negative amount', '/v2/fungible/route', { ...routeBody, amount_in: '-5' }, 400, 3, /amount_in/],
    ['amount as a number', '/v2/fungible/route', { ...routeBody, amount_in: 5 }, 400, 3, /amount_in: must be string/],
    [
      'boolean as a string',
      '/v2/fungible/route',
      { ...routeBody, is_op_withdraw: 'yes' },
      400,
      3,
      /is_op_withdraw: must be boolean/,
    ],
    ['missing field', '/v2/fungible/route', { amount_in: '1' }, 400, 3, /required property/],
    [
      'over 2^256',
      '/v2/fungible/route',
      { ...routeBody, amount_in: (1n << 256n).toString() },
      400,
      3,
      /exceeds 2\^256/,
    ],
    [
      'unknown denom',
      '/v2/fungible/route',
      { ...routeBody, dest_asset_denom: 'ufake' },
      400,
      3,
      /unknown dest_asset_denom/,
    ],
    [
      'no route',
      '/v2/fungible/route',
      {
        ...routeBody,
        source_asset_chain_id: 'echelon-1',
        source_asset_denom: INIT_ECHELON,
        dest_asset_chain_id: 'noble-1',
        dest_asset_denom: 'uusdc',
      },
      400,
      3,
      /no route found/,
    ],
    [
      'unsupported chain',
      '/v2/fungible/route',
      { ...routeBody, dest_asset_chain_id: 'osmosis-2' },
      404,
      5,
      /not supported/,
    ],
    ['not JSON', '/v2/fungible/route', '{"amount_in":', 400, 3, /not valid JSON/],
    ['msgs without operations', '/v2/fungible/msgs', { ...routeBody, address_list: [USER] }, 400, 3, /operations/],
    [
      'op-hook for a plain deposit',
      '/op-hook',
      {
        source_address: USER,
        source_asset_chain_id: 'interwoven-1',
        source_asset_denom: 'uinit',
        dest_address: USER,
        dest_asset_chain_id: 'echelon-1',
        dest_asset_denom: INIT_ECHELON,
      },
      400,
      3,
      /needs no op-hook/,
    ],
    [
      // A mixed-case 0x address whose EIP-55 checksum fails (it was a 500 from the message builder's checksum check)
      'op-hook to a 0x address with a bad checksum',
      '/op-hook',
      {
        source_address: USER,
        source_asset_chain_id: 'interwoven-1',
        source_asset_denom: 'uinit',
        dest_address: `0x${'0'.repeat(38)}Aa`,
        dest_asset_chain_id: 'yominet-1',
        dest_asset_denom: 'evm/856aB2c9F35B9187aB3eB0Fcd11DCc6160427e96',
      },
      400,
      3,
      /invalid dest_address: bad EIP-55 checksum/,
    ],
    ['unknown path', '/v2/fungible/nothing', {}, 404, 5, /Cannot POST/],
  ];
  for (const [name, path, body, status, code, msg] of cases)
    it(name, async () => {
      const r = await post(path, body);
      expect(r.status).toBe(status);
      expect(r.body.code).toBe(code);
      expect(r.body.message).toMatch(msg);
      expect(r.body.details).toEqual([]);
    });
  it('refuses bodies over 64 kB', async () => {
    const r = await post('/v2/fungible/route', { ...routeBody, pad: 'x'.repeat(70_000) });
    expect(r.status).toBe(413);
    expect(r.body).toMatchObject({ code: 3, message: 'request body too large', details: [] });
  });
});

describe('the real Skip Go client (@skip-go/client 1.6)', () => {
  it('parses our route and msgs responses', async () => {
    const r = await skipRoute({
      amountIn: '1000000',
      sourceAssetChainId: 'echelon-1',
      sourceAssetDenom: USDC_ECHELON,
      destAssetChainId: 'interwoven-1',
      destAssetDenom: 'ibc/6490A7EAB61059BFC1CDDEB05917DD70BDF3A611654162A1A47DB930D40D8AF4',
      apiUrl: base,
    });
    expect(r).toBeDefined();
    expect(r!.amountOut).toBe('1000000');
    const op0 = r!.operations[0] as { transfer?: { channel?: string } };
    expect(op0.transfer?.channel).toBe('channel-0');
    expect(r!.requiredChainAddresses).toEqual(['echelon-1', 'interwoven-1']);
    const m = await skipMessages({
      sourceAssetChainId: r!.sourceAssetChainId,
      sourceAssetDenom: r!.sourceAssetDenom,
      destAssetChainId: r!.destAssetChainId,
      destAssetDenom: r!.destAssetDenom,
      amountIn: r!.amountIn,
      amountOut: r!.amountOut,
      addressList: [USER, USER],
      operations: r!.operations,
      slippageTolerancePercent: '1',
      apiUrl: base,
    });
    expect(m!.txs).toHaveLength(1);
    const tx = m!.txs![0]!;
    expect('cosmosTx' in tx && tx.cosmosTx.msgs?.[0]?.msgTypeUrl).toBe('/ibc.applications.transfer.v1.MsgTransfer');
    expect(m!.minAmountOut).toBe('990000');
  });
  it('parses an OPinit route with an op-hook requirement', async () => {
    const r = await skipRoute({
      amountIn: '1000000',
      sourceAssetChainId: 'interwoven-1',
      sourceAssetDenom: 'uinit',
      destAssetChainId: 'yominet-1',
      destAssetDenom: 'evm/856aB2c9F35B9187aB3eB0Fcd11DCc6160427e96',
      apiUrl: base,
    });
    expect((r!.operations[0] as { opInitTransfer?: { opInitBridgeId?: string } }).opInitTransfer?.opInitBridgeId).toBe(
      '11',
    );
  });
  it('parses our chains and assets lists', async () => {
    const chains = await skipChains({ includeEvm: true, apiUrl: base });
    expect(chains!.find((c) => c.chainId === 'interwoven-1')?.pfmEnabled).toBe(true);
    const assets = await skipAssets({ chainIds: ['interwoven-1'], apiUrl: base });
    expect(assets!['interwoven-1']?.find((a) => a.denom === 'uinit')?.symbol).toBe('INIT');
  });
  it('surfaces our error body', async () => {
    const err = await skipRoute({
      amountIn: '1',
      sourceAssetChainId: 'nope-1',
      sourceAssetDenom: 'uinit',
      destAssetChainId: 'echelon-1',
      destAssetDenom: INIT_ECHELON,
      apiUrl: base,
    }).then(
      () => null,
      (e: unknown) => e as { message: string; code: number },
    );
    expect(err).toMatchObject({ message: 'source_asset_chain_id nope-1 is not supported', code: 5 });
  });
});
