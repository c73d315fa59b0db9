// OpenAPI paths and schemas of the analytics API (api/indexer/analytics.ts), merged into the indexer's document.
// Shapes are strict (additionalProperties: false) so response validation in tests catches any drift.

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const str = (extra: object = {}) => ({ type: 'string', ...extra });
const int = { type: 'integer', minimum: 0 };
const decimal = { type: 'string', pattern: '^[0-9]+$' };
const q = (name: string, schema: object, description: string, example?: unknown, extra: object = {}) => ({
  name,
  in: 'query',
  required: false,
  description,
  schema,
  ...(example === undefined ? {} : { example }),
  ...extra,
});
const obj = (properties: Record<string, object>, example?: object) => ({
  type: 'object',
  required: Object.keys(properties),
  additionalProperties: false,
  properties,
  ...(example ? { example } : {}),
});
const errors = {
  '400': {
    description: 'Bad parameter',
    content: {
      'application/json': {
        schema: ref('Error'),
        example: { code: 400, message: 'from/to: the window is at most 2000 buckets (7200000s at 1h)' },
      },
    },
  },
  '404': { description: 'Not found', content: { 'application/json': { schema: ref('Error') } } },
  default: { description: 'Error', content: { 'application/json': { schema: ref('Error') } } },
};
const get = (operationId: string, summary: string, description: string, parameters: object[], schema: object) => ({
  get: {
    operationId,
    tags: ['stats'],
    summary,
    description,
    parameters,
    responses: { '200': { description: 'OK', content: { 'application/json': { schema } } }, ...errors },
  },
});

const time = (what: string, example: string) =>
  q(
    what,
    str({ maxLength: 40 }),
    `Window ${what === 'from' ? 'start (inclusive)' : 'end (exclusive)'}: unix seconds or RFC 3339 (UTC when no offset). Aligned outward to the bucket size.`,
    example,
    { allowReserved: true },
  );
const from = time('from', '2025-04-25T00:00:00Z');
const to = time('to', '2025-04-26T00:00:00Z');
const interval = (dflt: string) =>
  q(
    'interval',
    { type: 'string', enum: ['1m', '1h', '1d'], default: dflt },
    'Bucket size. At most 2000 buckets per window.',
    dflt,
  );
const limit = q('limit', { type: 'integer', minimum: 1, maximum: 100, default: 10 }, 'Rows returned (1..100).', 10);
const msgs = q(
  'msgs',
  { type: 'array', maxItems: 32, items: { type: 'string', maxLength: 256 } },
  'Only txs carrying one of these message types (same syntax as the tx lists). A tx with several listed types counts once per type; block figures (blocks, gas, fees) and new accounts stay chain-wide.',
  undefined,
  { style: 'form', explode: false, allowReserved: true },
);
const rankNote =
  'Window defaults to the 30 days before the last indexed block; at most 400 days; aligned to whole hours (message mix: minutes).';

export const statsPaths = {
  '/indexer/stats/v1/activity': get(
    'getStatsActivity',
    'Chain activity per time bucket',
    'Txs, failed txs, distinct active accounts (accounts a tx touched), new accounts (first touched), blocks, average block time, gas used and fees per denom, per UTC bucket. Every bucket of the window is present (zeros when idle). Without from/to: the 100 buckets up to the last indexed block.',
    [interval('1h'), from, to, msgs],
    ref('StatsActivity'),
  ),
  '/indexer/stats/v1/msg_types': get(
    'getStatsMsgTypes',
    'Message-type mix over a window',
    `Txs per message type (a tx counts once per distinct type it carries). ${rankNote}`,
    [from, to],
    ref('StatsMsgTypes'),
  ),
  '/indexer/stats/v1/top_accounts': get(
    'getStatsTopAccounts',
    'Top accounts by txs sent over a window',
    `Signers ranked by txs signed. ${rankNote}`,
    [from, to, limit],
    ref('StatsTopAccounts'),
  ),
  '/indexer/stats/v1/top_contracts': get(
    'getStatsTopContracts',
    'Top contracts / modules over a window',
    `EVM contracts called (MsgCall), Move modules executed (MsgExecute, MsgExecuteJSON; address::module) and Wasm contracts executed (MsgExecuteContract), ranked by messages. ${rankNote}`,
    [from, to, limit, q('kind', { type: 'string', enum: ['evm', 'move', 'wasm'] }, 'Only this kind.', 'evm')],
    ref('StatsTopContracts'),
  ),
  '/indexer/stats/v1/tokens': get(
    'getStatsTokens',
    'Rich-list tokens by holders (EVM rollups)',
    'Tokens of the latest rich-list snapshot, most holders first.',
    [limit],
    ref('StatsTokens'),
  ),
  '/indexer/stats/v1/tokens/{denom}/distribution': get(
    'getStatsTokenDistribution',
    'Holder distribution of a rich-list token (EVM rollups)',
    'At the latest rich-list snapshot: holders, supply, share of the top 1/10/100 holders, Gini coefficient, a log-scale balance histogram (classes [10^k, 10^(k+1)) of base units) and holders/supply at every earlier snapshot.',
    [
      {
        name: 'denom',
        in: 'path',
        required: true,
        description: 'Denom (as the rich list) or ERC20 address.',
        schema: str({ minLength: 1, maxLength: 256 }),
        example: 'GAS',
      },
    ],
    ref('StatsDistribution'),
  ),
  '/indexer/stats/v1/nft/{collection_addr}': get(
    'getStatsNftCollection',
    'NFT collection statistics',
    'Live supply and distinct holders (ownership ledger), and mints / transfers / burns per bucket.',
    [
      {
        name: 'collection_addr',
        in: 'path',
        required: true,
        description: 'Collection address: 0x-hex or bech32.',
        schema: str({ minLength: 1, maxLength: 128 }),
        example: '0x5d4376b62fa8ac16dfabe6a9861e11c33a48c677',
      },
      interval('1d'),
      from,
      to,
    ],
    ref('StatsNft'),
  ),
  '/indexer/stats/v1/progress': get(
    'getStatsProgress',
    'Ingest progress',
    "Indexed height, the chain's head (null when the node cannot be reached), blocks per second over the last minute of ingest, and the ETA to the head.",
    [],
    ref('StatsProgress'),
  ),
} as const;

const coin = obj({ denom: str(), amount: decimal });
const nullableNumber = { type: 'number', nullable: true };

export const statsSchemas = {
  StatsActivity: obj(
    {
      interval: str({ enum: ['1m', '1h', '1d'] }),
      from: str(),
      to: str(),
      msgs: { type: 'array', items: str() },
      buckets: {
        type: 'array',
        items: obj({
          time: str({ description: 'Bucket start, RFC 3339 UTC' }),
          txs: int,
          failed_txs: int,
          active_accounts: int,
          new_accounts: int,
          blocks: int,
          avg_block_time_ms: nullableNumber,
          gas_used: decimal,
          fees: { type: 'array', items: coin },
        }),
      },
    },
    {
      interval: '1h',
      from: '2025-04-25T11:00:00Z',
      to: '2025-04-25T12:00:00Z',
      msgs: [],
      buckets: [
        {
          time: '2025-04-25T11:00:00Z',
          txs: 61,
          failed_txs: 0,
          active_accounts: 93,
          new_accounts: 93,
          blocks: 43,
          avg_block_time_ms: 487.7,
          gas_used: '12094067',
          fees: [{ denom: 'GAS', amount: '429859000000000' }],
        },
      ],
    },
  ),
  StatsMsgTypes: obj(
    {
      from: str(),
      to: str(),
      msg_types: {
        type: 'array',
        items: obj({ msg_type: str(), txs: int, failed_txs: int, share: { type: 'number' } }),
      },
    },
    {
      from: '2025-03-26T11:54:00Z',
      to: '2025-04-25T11:55:00Z',
      msg_types: [{ msg_type: 'minievm.evm.v1.MsgCall', txs: 53, failed_txs: 0, share: 0.84 }],
    },
  ),
  StatsTopAccounts: obj(
    {
      from: str(),
      to: str(),
      total_txs: int,
      accounts: { type: 'array', items: obj({ account: str(), txs: int }) },
    },
    {
      from: '2025-03-26T12:00:00Z',
      to: '2025-04-25T12:00:00Z',
      total_txs: 61,
      accounts: [{ account: 'init1cn3qyuw80svnjxgprtp4ezp78ngxwntu5t8y8a', txs: 26 }],
    },
  ),
  StatsTopContracts: obj(
    {
      from: str(),
      to: str(),
      contracts: {
        type: 'array',
        items: obj({ kind: str({ enum: ['evm', 'move', 'wasm'] }), target: str(), calls: int, failed_calls: int }),
      },
    },
    {
      from: '2025-03-26T12:00:00Z',
      to: '2025-04-25T12:00:00Z',
      contracts: [{ kind: 'evm', target: '0x4a8b41ac258ae5aae054c10c8b475eb0ce2465ec', calls: 25, failed_calls: 0 }],
    },
  ),
  StatsTokens: obj(
    {
      snapshot_height: int,
      tokens: { type: 'array', items: obj({ token: str(), holders: int, supply: decimal }) },
    },
    {
      snapshot_height: 43,
      tokens: [
        { token: '0x4badfb501ab304ff11217c44702bb9e9732e7cf4', holders: 26, supply: '1000000000000000000000000' },
      ],
    },
  ),
  StatsDistribution: obj(
    {
      denom: str(),
      token: str(),
      snapshot_height: int,
      holders: int,
      supply: decimal,
      top1_share: { type: 'number' },
      top10_share: { type: 'number' },
      top100_share: { type: 'number' },
      gini: { type: 'number' },
      histogram: { type: 'array', items: obj({ min: decimal, max: decimal, holders: int, amount: decimal }) },
      history: {
        type: 'array',
        items: obj({ snapshot_height: int, time: str({ nullable: true }), holders: int, supply: decimal }),
      },
    },
    {
      denom: 'GAS',
      token: '0x4f7566f67941283a30cf65de7b9c6fdf2c04fca1',
      snapshot_height: 43,
      holders: 1,
      supply: '429859000000000',
      top1_share: 1,
      top10_share: 1,
      top100_share: 1,
      gini: 0,
      histogram: [{ min: '100000000000000', max: '1000000000000000', holders: 1, amount: '429859000000000' }],
      history: [{ snapshot_height: 43, time: '2025-04-25T11:54:18.009000000Z', holders: 1, supply: '429859000000000' }],
    },
  ),
  StatsNft: obj(
    {
      collection_addr: str(),
      interval: str({ enum: ['1m', '1h', '1d'] }),
      from: str(),
      to: str(),
      supply: int,
      holders: int,
      buckets: { type: 'array', items: obj({ time: str(), mints: int, transfers: int, burns: int }) },
    },
    {
      collection_addr: '0x5d4376b62fa8ac16dfabe6a9861e11c33a48c677',
      interval: '1d',
      from: '2025-04-25T00:00:00Z',
      to: '2025-04-26T00:00:00Z',
      supply: 5,
      holders: 3,
      buckets: [{ time: '2025-04-25T00:00:00Z', mints: 6, transfers: 2, burns: 1 }],
    },
  ),
  StatsProgress: obj(
    {
      indexed_height: int,
      chain_height: { type: 'integer', nullable: true },
      blocks_per_second: nullableNumber,
      eta_seconds: nullableNumber,
      first_block_time: str({ nullable: true }),
      last_block_time: str({ nullable: true }),
    },
    {
      indexed_height: 43,
      chain_height: 43,
      blocks_per_second: 21.5,
      eta_seconds: 0,
      first_block_time: '2025-04-25T11:53:57.037000000Z',
      last_block_time: '2025-04-25T11:54:18.009000000Z',
    },
  ),
} as const;
