// The router's OpenAPI 3 document: served at /swagger/doc.json and used, unchanged, by
// express-openapi-validator to validate every request. Tracking paths are merged in by the app.
const chainId = { type: 'string', minLength: 1, maxLength: 64, pattern: '^[a-zA-Z0-9._-]+$' };
const denom = { type: 'string', minLength: 1, maxLength: 256 };
const amount = {
  type: 'string',
  minLength: 1,
  maxLength: 78,
  pattern: '^[0-9]+$',
  description: 'base units, decimal digits, at most 2^256-1',
};
const bool = { type: 'boolean' };
const timeoutSeconds = {
  description: 'seconds, 1 to 86400: a decimal string as Skip sends it, or a JSON number',
  oneOf: [
    { type: 'integer', minimum: 1, maximum: 86400 },
    { type: 'string', pattern: '^[0-9]{1,6}$' },
  ],
};
const signedOpHook = {
  oneOf: [
    { type: 'string', maxLength: 48000 },
    {
      type: 'object',
      required: ['signer', 'hook'],
      properties: {
        signer: { type: 'string', maxLength: 128 },
        hook: { type: 'string', maxLength: 48000 },
      },
    },
  ],
};

const routeFields = {
  amount_in: amount,
  amount_out: {
    ...amount,
    description: 'without amount_in: the amount to deliver (no swaps: the same amount in the source decimals)',
  },
  source_asset_chain_id: chainId,
  source_asset_denom: denom,
  dest_asset_chain_id: chainId,
  dest_asset_denom: denom,
  is_op_withdraw: { ...bool, description: 'Initia: true asks for the OPinit withdrawal ("Lossless") route' },
  bridges: {
    type: 'array',
    maxItems: 16,
    items: {
      type: 'string',
      enum: ['IBC', 'AXELAR', 'CCTP', 'HYPERLANE', 'OPINIT', 'GO_FAST', 'STARGATE', 'LAYER_ZERO', 'EUREKA', 'CCTP_V2'],
    },
  },
  // Skip's schema marks it nullable; the stock client sends "0" or leaves it out.
  cumulative_affiliate_fee_bps: { type: 'string', maxLength: 8, nullable: true },
  swap_venues: { type: 'array', maxItems: 16, items: { type: 'object' } },
  allow_unsafe: bool,
  experimental_features: { type: 'array', maxItems: 16, items: { type: 'string', maxLength: 64 } },
  allow_multi_tx: bool,
  smart_relay: bool,
  smart_swap_options: { type: 'object', properties: { split_routes: bool, evm_swaps: bool } },
  allow_swaps: bool,
  go_fast: bool,
  fast_transfer: bool,
};

const assetJson = {
  type: 'object',
  required: ['denom', 'chain_id', 'origin_denom', 'origin_chain_id', 'trace', 'is_cw20', 'is_evm', 'is_svm'],
  properties: {
    denom: { type: 'string' },
    chain_id: { type: 'string' },
    origin_denom: { type: 'string' },
    origin_chain_id: { type: 'string' },
    trace: { type: 'string' },
    is_cw20: bool,
    is_evm: bool,
    is_svm: bool,
    symbol: { type: 'string' },
    name: { type: 'string' },
    logo_uri: { type: 'string' },
    decimals: { type: 'integer' },
    token_contract: { type: 'string' },
    description: { type: 'string' },
    coingecko_id: { type: 'string' },
    recommended_symbol: { type: 'string' },
  },
};

const fee = {
  type: 'object',
  properties: {
    fee_type: { type: 'string' },
    bridge_id: { type: 'string' },
    amount: { type: 'string' },
    usd_amount: { type: 'string' },
    origin_asset: { $ref: '#/components/schemas/AssetJson' },
    chain_id: { type: 'string' },
    tx_index: { type: 'integer' },
    operation_index: { type: 'integer', nullable: true },
    fee_behavior: { type: 'string', enum: ['FEE_BEHAVIOR_DEDUCTED', 'FEE_BEHAVIOR_ADDITIONAL'] },
  },
};

const operation = {
  type: 'object',
  required: ['tx_index', 'amount_in', 'amount_out'],
  description: 'exactly one wrapper key: transfer, op_init_transfer or layer_zero_transfer',
  properties: {
    tx_index: { type: 'integer', minimum: 0, maximum: 16 },
    amount_in: amount,
    amount_out: { ...amount, pattern: '^[0-9]+$' },
  },
  additionalProperties: { type: 'object' },
  minProperties: 4,
  maxProperties: 4,
};

const routeResponse = {
  type: 'object',
  required: [
    'amount_in',
    'amount_out',
    'source_asset_chain_id',
    'source_asset_denom',
    'dest_asset_chain_id',
    'dest_asset_denom',
    'operations',
    'chain_ids',
    'required_chain_addresses',
    'estimated_amount_out',
    'txs_required',
    'estimated_route_duration_seconds',
  ],
  properties: {
    amount_in: { type: 'string' },
    amount_out: { type: 'string' },
    estimated_amount_out: { type: 'string' },
    source_asset_chain_id: { type: 'string' },
    source_asset_denom: { type: 'string' },
    dest_asset_chain_id: { type: 'string' },
    dest_asset_denom: { type: 'string' },
    operations: { type: 'array', items: { $ref: '#/components/schemas/Operation' } },
    chain_ids: { type: 'array', items: { type: 'string' } },
    required_chain_addresses: { type: 'array', items: { type: 'string' } },
    does_swap: bool,
    swap_venues: { type: 'array', items: { type: 'object' } },
    txs_required: { type: 'integer' },
    usd_amount_in: { type: 'string' },
    usd_amount_out: { type: 'string' },
    warning: {
      type: 'object',
      nullable: true,
      properties: {
        type: { type: 'string', enum: ['LOW_INFO_WARNING', 'BAD_PRICE_WARNING'] },
        message: { type: 'string' },
      },
    },
    estimated_fees: { type: 'array', items: { $ref: '#/components/schemas/Fee' } },
    estimated_route_duration_seconds: { type: 'integer' },
    required_op_hook: bool,
    extra_infos: { type: 'array', items: { type: 'string' } },
    extra_warnings: { type: 'array', items: { type: 'string' } },
  },
};

const cosmosMsg = {
  type: 'object',
  required: ['msg', 'msg_type_url'],
  properties: { msg: { type: 'string' }, msg_type_url: { type: 'string' } },
};
const evmTx = {
  type: 'object',
  required: ['chain_id'],
  properties: {
    chain_id: { type: 'string' },
    to: { type: 'string' },
    value: { type: 'string' },
    data: { type: 'string', pattern: '^[0-9a-f]*$' },
    signer_address: { type: 'string' },
    required_erc20_approvals: {
      type: 'array',
      items: {
        type: 'object',
        properties: { amount: { type: 'string' }, spender: { type: 'string' }, token_contract: { type: 'string' } },
      },
    },
  },
};
const msgsResponse = {
  type: 'object',
  required: ['txs'],
  properties: {
    txs: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        properties: {
          cosmos_tx: {
            type: 'object',
            required: ['chain_id'],
            properties: {
              chain_id: { type: 'string' },
              path: { type: 'array', items: { type: 'string' } },
              signer_address: { type: 'string' },
              msgs: { type: 'array', items: cosmosMsg },
            },
          },
          evm_tx: evmTx,
          operations_indices: { type: 'array', items: { type: 'integer' } },
        },
      },
    },
    msgs: { type: 'array', items: { type: 'object' } },
    min_amount_out: { type: 'string' },
    estimated_fees: { type: 'array', items: { $ref: '#/components/schemas/Fee' } },
  },
};

const errorBody = {
  type: 'object',
  required: ['code', 'message', 'details'],
  properties: {
    code: { type: 'integer' },
    message: { type: 'string' },
    details: { type: 'array', items: { type: 'object' } },
  },
};

const errors = {
  '400': {
    description: 'bad input or no route (gRPC code 3)',
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  },
  '404': {
    description: 'unsupported chain (gRPC code 5)',
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  },
  '413': {
    description: 'request body too large',
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  },
  '415': {
    description: 'not a JSON body',
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  },
};

/** The route request's fields every route-taking request requires (route, msgs, msgs_direct). */
const ROUTE_REQUIRED = ['source_asset_chain_id', 'source_asset_denom', 'dest_asset_chain_id', 'dest_asset_denom'];

/** A LayerZero fee quote that msgs and msgs_direct need could not be had (routing/lz-quote.ts). */
const quoteUnavailable = {
  '503': {
    description: 'an on-chain quote was unavailable',
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  },
};

/** A client over its per-client limit (api/http/client-limit.ts). */
const tooMany = {
  '429': {
    description: 'too many calls from this client (gRPC code 8); Retry-After says when to try again',
    headers: { 'Retry-After': { schema: { type: 'integer' }, description: 'seconds' } },
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  },
};

const jsonBody = (ref: string, example: unknown) => ({
  required: true,
  content: { 'application/json': { schema: { $ref: `#/components/schemas/${ref}` }, example } },
});

// Real mainnet examples (docs/router.md): INIT from L1 to echelon-1 over OPinit bridge 16.
const USER = 'init1dw49mn7s2r5mskjdmus5hth80zz8wwaywycq06';
const INIT_ECHELON = 'l2/23c8396041db74441f4268d0c7e0533177dc3e028a47a8e584318f2d0c46fbe9';
const routeExample = {
  amount_in: '1000000',
  source_asset_chain_id: 'interwoven-1',
  source_asset_denom: 'uinit',
  dest_asset_chain_id: 'echelon-1',
  dest_asset_denom: INIT_ECHELON,
};
const msgsExample = {
  ...routeExample,
  amount_out: '1000000',
  address_list: [USER, USER],
  slippage_tolerance_percent: '1',
  operations: [
    {
      op_init_transfer: {
        from_chain_id: 'interwoven-1',
        to_chain_id: 'echelon-1',
        chain_id: 'interwoven-1',
        denom_in: 'uinit',
        denom_out: INIT_ECHELON,
        op_init_bridge_id: '16',
        bridge_id: 'OPINIT',
        smart_relay: false,
      },
      tx_index: 0,
      amount_in: '1000000',
      amount_out: '1000000',
    },
  ],
};
const msgsDirectExample = {
  ...routeExample,
  chain_ids_to_addresses: { 'interwoven-1': USER, 'echelon-1': USER },
  slippage_tolerance_percent: '1',
};
const balancesExample = { chains: { 'interwoven-1': { address: USER, denoms: ['uinit'] } } };
const opHookExample = {
  source_address: USER,
  source_asset_chain_id: 'interwoven-1',
  source_asset_denom: 'uinit',
  dest_address: USER,
  dest_asset_chain_id: 'yominet-1',
  dest_asset_denom: 'evm/856aB2c9F35B9187aB3eB0Fcd11DCc6160427e96',
};
const ok = (ref: string, description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: `#/components/schemas/${ref}` } } },
});

const listParams = (flags: string[]) => [
  {
    name: 'chain_ids',
    in: 'query',
    required: false,
    style: 'form',
    explode: true,
    allowReserved: true,
    schema: { type: 'array', maxItems: 32, items: { type: 'string', maxLength: 64 } },
  },
  ...flags.map((name) => ({ name, in: 'query', required: false, schema: { type: 'boolean' } })),
];

export function routerOpenapi(
  extraPaths: Record<string, unknown> = {},
  extraSchemas: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    openapi: '3.0.3',
    info: {
      title: 'Router API',
      version: '1.0.0',
      description:
        'Skip Go v2 / Initia compatible router: routes over IBC, OPinit and LayerZero. The router never signs or broadcasts.',
    },
    paths: {
      '/v2/fungible/route': {
        post: {
          operationId: 'route',
          summary: 'Best route between two assets',
          requestBody: jsonBody('RouteRequest', routeExample),
          responses: { '200': ok('RouteResponse', 'the optimal route'), ...errors },
        },
      },
      '/v2/fungible/msgs': {
        post: {
          operationId: 'msgs',
          summary: 'Transactions to sign for a route',
          requestBody: jsonBody('MsgsRequest', msgsExample),
          responses: {
            '200': ok('MsgsResponse', 'transactions to sign'),
            ...errors,
            ...quoteUnavailable,
          },
        },
      },
      '/v2/info/chains': {
        get: {
          operationId: 'chains',
          summary: 'Chains the router knows (Skip ChainJson + rpc, rest, hidden, evm_fee_asset)',
          parameters: listParams(['include_evm', 'include_svm', 'only_testnets', 'include_testnets']),
          responses: { '200': ok('ChainsResponse', 'chain list'), ...errors },
        },
      },
      '/v2/fungible/assets': {
        get: {
          operationId: 'assets',
          summary: 'Assets per chain (Skip AssetJson + hidden)',
          parameters: listParams([
            'native_only',
            'include_no_metadata_assets',
            'include_cw20_assets',
            'include_evm_assets',
            'include_svm_assets',
            'only_testnets',
          ]),
          responses: { '200': ok('AssetsResponse', 'assets per chain'), ...errors },
        },
      },
      '/op-hook': {
        post: {
          operationId: 'opHook',
          summary: 'L2 messages to sign for an OPinit deposit hook',
          requestBody: jsonBody('OpHookRequest', opHookExample),
          responses: { '200': ok('OpHookResponse', 'the hook chain and messages'), ...errors },
        },
      },
      '/v2/fungible/msgs_direct': {
        post: {
          operationId: 'msgsDirect',
          summary: 'Route and transactions to sign in one call (Skip msgs_direct)',
          requestBody: jsonBody('MsgsDirectRequest', msgsDirectExample),
          responses: {
            '200': ok('MsgsDirectResponse', 'the route and its transactions'),
            ...errors,
            ...quoteUnavailable,
          },
        },
      },
      '/v2/info/bridges': {
        get: {
          operationId: 'bridges',
          summary: 'Bridges this router routes over',
          responses: { '200': ok('BridgesResponse', 'bridge list') },
        },
      },
      '/v2/fungible/venues': {
        get: {
          operationId: 'venues',
          summary: 'Swap venues: none (this router does not swap)',
          parameters: [{ name: 'only_testnets', in: 'query', required: false, schema: { type: 'boolean' } }],
          responses: { '200': ok('VenuesResponse', 'an empty venue list'), ...errors },
        },
      },
      '/v2/info/balances': {
        post: {
          operationId: 'balances',
          summary: 'Balances of addresses on chains, read from the chains (never from a URL in the request)',
          requestBody: jsonBody('BalancesRequest', balancesExample),
          responses: { '200': ok('BalancesResponse', 'balances per chain and denom'), ...errors, ...tooMany },
        },
      },
      '/v2/fungible/assets_from_source': {
        post: {
          operationId: 'assetsFromSource',
          summary: 'Assets a transfer of the source asset can reach',
          requestBody: jsonBody('AssetsFromSourceRequest', {
            source_asset_chain_id: 'interwoven-1',
            source_asset_denom: 'uinit',
          }),
          responses: { '200': ok('AssetsFromSourceResponse', 'reachable assets per chain'), ...errors },
        },
      },
      '/v2/fungible/assets_between_chains': {
        get: {
          operationId: 'assetsBetweenChainsGet',
          summary: 'Assets that can move from one chain to another (GET, as @skip-go/client sends it)',
          parameters: [
            { name: 'source_chain_id', in: 'query', required: true, schema: chainId },
            { name: 'dest_chain_id', in: 'query', required: true, schema: chainId },
            ...['include_no_metadata_assets', 'include_cw20_assets', 'include_evm_assets', 'allow_multi_tx'].map(
              (name) => ({ name, in: 'query', required: false, schema: { type: 'boolean' } }),
            ),
          ],
          responses: { '200': ok('AssetsBetweenChainsResponse', 'asset pairs'), ...errors },
        },
        post: {
          operationId: 'assetsBetweenChains',
          summary: 'Assets that can move from one chain to another (POST, as Skip documents it)',
          requestBody: jsonBody('AssetsBetweenChainsRequest', {
            source_chain_id: 'interwoven-1',
            dest_chain_id: 'echelon-1',
          }),
          responses: { '200': ok('AssetsBetweenChainsResponse', 'asset pairs'), ...errors },
        },
      },
      '/v2/fungible/recommend_assets': {
        post: {
          operationId: 'recommendAssets',
          summary: 'Destination assets for a source asset on a destination chain',
          requestBody: jsonBody('RecommendAssetsRequest', {
            requests: [
              { source_asset_chain_id: 'interwoven-1', source_asset_denom: 'uinit', dest_chain_id: 'echelon-1' },
            ],
          }),
          responses: { '200': ok('RecommendAssetsResponse', 'one entry per request'), ...errors },
        },
      },
      '/v2/fungible/ibc_origin_assets': {
        post: {
          operationId: 'ibcOriginAssets',
          summary: 'The origin asset of each given asset',
          requestBody: jsonBody('IbcOriginAssetsRequest', { assets: [{ chain_id: 'echelon-1', denom: INIT_ECHELON }] }),
          responses: { '200': ok('IbcOriginAssetsResponse', 'one entry per asset'), ...errors },
        },
      },
      '/v2/tx/submit': {
        post: {
          operationId: 'submitTx',
          summary: 'Refused: this router never broadcasts. Broadcast to the chain RPC, then POST /v2/tx/track',
          requestBody: jsonBody('SubmitTxRequest', { chain_id: 'interwoven-1', tx: 'CgA=' }),
          responses: {
            '400': {
              description:
                'always (gRPC code 12, reason BROADCAST_NOT_SUPPORTED): broadcast the signed tx to the chain’s own RPC ' +
                '(`rpc` in GET /v2/info/chains), then register it with POST /v2/tx/track',
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
            },
            '413': errors['413'],
            '415': errors['415'],
          },
        },
      },
      ...extraPaths,
    },
    components: {
      schemas: {
        // Skip lets a route request give amount_in or amount_out (routing/route.ts withAmountIn); msgs takes both
        // from the route answer.
        RouteRequest: {
          type: 'object',
          required: ROUTE_REQUIRED,
          anyOf: [{ required: ['amount_in'] }, { required: ['amount_out'] }],
          properties: routeFields,
        },
        MsgsRequest: {
          type: 'object',
          required: [...ROUTE_REQUIRED, 'amount_in', 'address_list', 'operations'],
          properties: {
            ...routeFields,
            address_list: {
              type: 'array',
              minItems: 1,
              maxItems: 8,
              items: { type: 'string', minLength: 1, maxLength: 128 },
            },
            operations: { type: 'array', minItems: 1, maxItems: 8, items: { type: 'object' } },
            slippage_tolerance_percent: { type: 'string', maxLength: 16 },
            signed_op_hook: signedOpHook,
            timeout_seconds: timeoutSeconds,
            estimated_amount_out: { type: 'string', maxLength: 78 },
            enable_gas_warnings: bool,
          },
        },
        OpHookRequest: {
          type: 'object',
          required: [
            'source_address',
            'source_asset_chain_id',
            'source_asset_denom',
            'dest_address',
            'dest_asset_chain_id',
            'dest_asset_denom',
          ],
          properties: {
            source_address: { type: 'string', minLength: 1, maxLength: 128 },
            source_asset_chain_id: chainId,
            source_asset_denom: denom,
            dest_address: { type: 'string', minLength: 1, maxLength: 128 },
            dest_asset_chain_id: chainId,
            dest_asset_denom: denom,
          },
        },
        OpHookResponse: {
          type: 'object',
          required: ['chain_id', 'hook'],
          properties: { chain_id: { type: 'string' }, hook: { type: 'array', items: cosmosMsg } },
        },
        RouteResponse: routeResponse,
        ChainsResponse: {
          type: 'object',
          required: ['chains'],
          properties: {
            chains: {
              type: 'array',
              items: {
                type: 'object',
                required: ['chain_id', 'chain_name', 'chain_type', 'bech32_prefix', 'pretty_name'],
                properties: {
                  chain_id: { type: 'string' },
                  chain_name: { type: 'string' },
                  chain_type: { type: 'string', enum: ['cosmos', 'evm', 'svm'] },
                  bech32_prefix: { type: 'string' },
                  pretty_name: { type: 'string' },
                  rpc: { type: 'string' },
                  rest: { type: 'string' },
                  hidden: bool,
                },
              },
            },
          },
        },
        AssetsResponse: {
          type: 'object',
          required: ['chain_to_assets_map'],
          properties: {
            chain_to_assets_map: {
              type: 'object',
              additionalProperties: {
                type: 'object',
                properties: { assets: { type: 'array', items: { $ref: '#/components/schemas/AssetJson' } } },
              },
            },
          },
        },
        MsgsResponse: msgsResponse,
        Operation: operation,
        AssetJson: assetJson,
        Fee: fee,
        Error: errorBody,
        MsgsDirectRequest: {
          type: 'object',
          required: [...ROUTE_REQUIRED, 'chain_ids_to_addresses'],
          anyOf: [{ required: ['amount_in'] }, { required: ['amount_out'] }],
          properties: {
            ...routeFields,
            chain_ids_to_addresses: {
              type: 'object',
              // Skip asks callers to give an address for every chain that might be on the path (the registry
              // has 16 Initia chains today): a bound with room, not the path's length.
              maxProperties: 64,
              additionalProperties: { type: 'string', minLength: 1, maxLength: 128 },
            },
            slippage_tolerance_percent: { type: 'string', maxLength: 16 },
            timeout_seconds: timeoutSeconds,
            signed_op_hook: signedOpHook,
            enable_gas_warnings: bool,
          },
        },
        MsgsDirectResponse: {
          type: 'object',
          required: ['txs', 'msgs', 'min_amount_out', 'route'],
          properties: { ...msgsResponse.properties, route: { $ref: '#/components/schemas/RouteResponse' } },
        },
        BridgesResponse: {
          type: 'object',
          required: ['bridges'],
          properties: {
            bridges: {
              type: 'array',
              items: {
                type: 'object',
                required: ['id', 'name'],
                properties: { id: { type: 'string' }, name: { type: 'string' }, logo_uri: { type: 'string' } },
              },
            },
          },
        },
        VenuesResponse: {
          type: 'object',
          required: ['venues'],
          properties: { venues: { type: 'array', maxItems: 0, items: { type: 'object' } } },
        },
        BalancesRequest: {
          type: 'object',
          required: ['chains'],
          properties: {
            chains: {
              type: 'object',
              minProperties: 1,
              // InterwovenKit asks every chain it lists in one request (16 today).
              maxProperties: 64,
              additionalProperties: {
                type: 'object',
                required: ['address'],
                properties: {
                  address: { type: 'string', minLength: 1, maxLength: 128 },
                  denoms: { type: 'array', maxItems: 64, items: denom },
                },
              },
            },
          },
        },
        BalancesResponse: {
          type: 'object',
          required: ['chains'],
          properties: {
            chains: {
              type: 'object',
              additionalProperties: {
                type: 'object',
                required: ['denoms'],
                properties: {
                  address: { type: 'string' },
                  denoms: {
                    type: 'object',
                    additionalProperties: {
                      type: 'object',
                      required: ['amount', 'formatted_amount'],
                      properties: {
                        amount: { type: 'string' },
                        decimals: { type: 'integer' },
                        formatted_amount: { type: 'string' },
                        error: { type: 'object', properties: { message: { type: 'string' } } },
                      },
                    },
                  },
                  error: { type: 'object', properties: { message: { type: 'string' } } },
                },
              },
            },
          },
        },
        AssetsFromSourceRequest: {
          type: 'object',
          required: ['source_asset_chain_id', 'source_asset_denom'],
          properties: {
            source_asset_chain_id: chainId,
            source_asset_denom: denom,
            allow_multi_tx: bool,
            include_swaps: bool,
            native_only: bool,
            include_cw20_assets: bool,
            recommendation_reason: { type: 'string', maxLength: 32, nullable: true },
            group_by: { type: 'string', maxLength: 64, nullable: true },
            swap_venues: { type: 'array', maxItems: 16, items: { type: 'object' }, nullable: true },
          },
        },
        AssetsFromSourceResponse: {
          type: 'object',
          required: ['dest_assets'],
          properties: { dest_assets: { $ref: '#/components/schemas/AssetsByChain' } },
        },
        AssetsByChain: {
          type: 'object',
          additionalProperties: {
            type: 'object',
            required: ['assets'],
            properties: { assets: { type: 'array', items: { $ref: '#/components/schemas/AssetJson' } } },
          },
        },
        AssetsBetweenChainsRequest: {
          type: 'object',
          required: ['source_chain_id', 'dest_chain_id'],
          properties: {
            source_chain_id: chainId,
            dest_chain_id: chainId,
            include_no_metadata_assets: bool,
            include_cw20_assets: bool,
            include_evm_assets: bool,
            allow_multi_tx: bool,
          },
        },
        AssetsBetweenChainsResponse: {
          type: 'object',
          required: ['assets_between_chains'],
          properties: {
            assets_between_chains: {
              type: 'array',
              items: {
                type: 'object',
                required: ['asset_on_source', 'asset_on_dest', 'txs_required', 'bridges'],
                properties: {
                  asset_on_source: { $ref: '#/components/schemas/AssetJson' },
                  asset_on_dest: { $ref: '#/components/schemas/AssetJson' },
                  txs_required: { type: 'integer' },
                  bridges: { type: 'array', items: { type: 'string' } },
                },
              },
            },
          },
        },
        RecommendAssetsRequest: {
          type: 'object',
          required: ['requests'],
          properties: {
            requests: {
              type: 'array',
              minItems: 1,
              maxItems: 16,
              items: {
                type: 'object',
                required: ['source_asset_chain_id', 'source_asset_denom', 'dest_chain_id'],
                properties: {
                  source_asset_chain_id: chainId,
                  source_asset_denom: denom,
                  dest_chain_id: chainId,
                  reason: { type: 'string', maxLength: 32, nullable: true },
                },
              },
            },
          },
        },
        RecommendAssetsResponse: {
          type: 'object',
          required: ['recommendation_entries'],
          properties: {
            recommendation_entries: {
              type: 'array',
              items: {
                type: 'object',
                required: ['recommendations'],
                properties: {
                  recommendations: {
                    type: 'array',
                    items: {
                      type: 'object',
                      required: ['asset', 'reason'],
                      properties: { asset: { $ref: '#/components/schemas/AssetJson' }, reason: { type: 'string' } },
                    },
                  },
                  error: { type: 'object', properties: { message: { type: 'string' } } },
                },
              },
            },
          },
        },
        IbcOriginAssetsRequest: {
          type: 'object',
          required: ['assets'],
          properties: {
            assets: {
              type: 'array',
              minItems: 1,
              maxItems: 64,
              items: {
                type: 'object',
                required: ['denom', 'chain_id'],
                properties: { denom, chain_id: chainId },
              },
            },
          },
        },
        IbcOriginAssetsResponse: {
          type: 'object',
          required: ['origin_assets'],
          properties: {
            origin_assets: {
              type: 'array',
              items: {
                type: 'object',
                required: ['asset_found'],
                properties: { asset: { $ref: '#/components/schemas/AssetJson' }, asset_found: bool },
              },
            },
          },
        },
        SubmitTxRequest: {
          type: 'object',
          description: 'refused whatever it holds; the 64 kB body bound is its only size limit (413 past it)',
          properties: { chain_id: { type: 'string' }, tx: { type: 'string' } },
        },
        ...extraSchemas,
      },
    },
  };
}
