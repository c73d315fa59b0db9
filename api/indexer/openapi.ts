// The indexer's OpenAPI 3 document: the single contract for request validation (express-openapi-validator),
// response validation in tests, the fuzzer (schemathesis) and Swagger UI. Served at /swagger/doc.json.
// Facts that shape it (docs/indexer.md): dotted `pagination.*` names are literal keys; `msgs`
// is form/explode:false + allowReserved so both `a,b` and repeated values work with type URLs; int64 values
// are strings in responses; unknown query parameters are ignored (cache-busters such as `_=…`), as upstream.
import { sseEventSchema } from '../http/sse.js';
import { GO_BOOLS } from './params.js';

import { statsPaths, statsSchemas } from './analytics-openapi.js';

const str = (extra: object = {}) => ({ type: 'string', ...extra });
const decimal = { type: 'string', pattern: '^-?[0-9]+$' };
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const q = (name: string, schema: object, description: string, extra: object = {}) => ({
  name,
  in: 'query',
  required: false,
  description,
  schema,
  ...extra,
});
const p = (name: string, schema: object, description: string) => ({
  name,
  in: 'path',
  required: true,
  description,
  schema,
});

/** Booleans as upstream parses them (Go's strconv.ParseBool): true/false, 1/0, t/f, TRUE/FALSE, True/False. */
const goBool = (dflt: boolean) => ({ type: 'string', enum: [...GO_BOOLS], default: String(dflt) });
const boolNote = " Accepts true/false, 1/0 (and the other forms of Go's ParseBool: t/f, TRUE/FALSE, True/False).";

const pagination = [
  q(
    'pagination.key',
    str({ maxLength: 1024 }),
    "Cursor: the `next_key` (or `previous_key`) of another page (base64). A decimal offset in base64 is also accepted (it replaces pagination.offset). A JSON cursor of another list's shape is ignored and the list pages by pagination.offset, as upstream.",
  ),
  q(
    'pagination.offset',
    { type: 'integer', minimum: 0, maximum: 1000000 },
    'Records to skip (ignored when a cursor key is given).',
  ),
  q(
    'pagination.limit',
    { type: 'integer', minimum: 1, maximum: 1000, default: 100 },
    'Maximum records returned (1..1000).',
  ),
  q('pagination.count_total', goBool(true), `Return the total count; false gives total "0".${boolNote}`),
  q('pagination.reverse', goBool(true), `true = descending (default), false = ascending.${boolNote}`),
];
const msgs = q(
  'msgs',
  { type: 'array', maxItems: 32, items: { type: 'string', maxLength: 256 } },
  'Message type names, comma-separated and/or repeated, with or without the leading `/`; several are ORed. Unknown names match nothing. An empty value (`msgs=`) means no filter.',
  { style: 'form', explode: false, allowReserved: true },
);
const account = p(
  'account',
  str({ minLength: 1, maxLength: 128 }),
  'Account address: bech32 (init1…) or hex with or without 0x.',
);
const collectionAddr = p(
  'collection_addr',
  str({ minLength: 1, maxLength: 128 }),
  'Collection address: 0x-hex or bech32.',
);
const orderBy = q(
  'order_by',
  {
    type: 'string',
    maxLength: 32,
    default: 'token_id',
    anyOf: [
      { enum: ['token_id', 'height'] },
      // upstream trims and lowercases the value first
      { pattern: '^[ \\t]*(?:[Tt][Oo][Kk][Ee][Nn]_[Ii][Dd]|[Hh][Ee][Ii][Gg][Hh][Tt])[ \\t]*$' },
    ],
  },
  'Sort key: `token_id` (default) or `height`; surrounding blanks and letter case are ignored, as upstream.',
);
const tokenIdFilter = q(
  'token_id',
  str({ maxLength: 256 }),
  'Only this token id (exact match). Absent or empty (`token_id=`): every token.',
);

const errorResponses = {
  '400': { description: 'Bad parameter', content: { 'application/json': { schema: ref('Error') } } },
  '404': { description: 'Not found', content: { 'application/json': { schema: ref('Error') } } },
  default: { description: 'Error', content: { 'application/json': { schema: ref('Error') } } },
};
const ok = (schema: object, description = 'OK') => ({
  '200': { description, content: { 'application/json': { schema } } },
  ...errorResponses,
});
const list = (key: string, item: string) => ({
  type: 'object',
  required: [key, 'pagination'],
  additionalProperties: false,
  properties: { [key]: { type: 'array', items: ref(item) }, pagination: ref('Pagination') },
});
const get = (operationId: string, tags: string, summary: string, parameters: object[], responses: object) => ({
  get: { operationId, tags: [tags], summary, parameters, responses },
});

// Event streams (docs/streams.md): text/event-stream, each event the REST item's JSON with its cursor as id.
const streamKey = q(
  'pagination.key',
  str({ maxLength: 1024 }),
  "Resume point: a cursor of this list (a REST page's next_key, or an event's id); the stream sends every item after it, ascending. Absent: new items only. `Last-Event-ID` takes precedence (a browser's EventSource sends it when it reconnects).",
);
const lastEventId = {
  name: 'Last-Event-ID',
  in: 'header',
  required: false,
  description: 'The id of the last event received (sent by EventSource on reconnect): the stream resumes after it.',
  schema: str({ maxLength: 1024 }),
};
const stream = (event: string, item: string) => ({
  '200': {
    description: `Server-Sent Events: \`event: ${event}\` with the REST list's ${item} as JSON in \`data\` and its cursor as \`id\`; \`: heartbeat\` comments; a last \`event: end\` with {"reason","resume"} when the server ends the stream (overflow of the client's send buffer, lifetime, rewind, error).`,
    content: {
      'text/event-stream': {
        schema: sseEventSchema([event, 'end'], `The ${item} as JSON; for \`end\`: {"reason","resume"}`),
      },
    },
  },
  '429': {
    description: 'Too many open streams (per client or per server)',
    content: { 'application/json': { schema: ref('Error') } },
  },
  ...errorResponses,
});

export const indexerOpenApi = {
  openapi: '3.0.3',
  info: {
    title: 'Indexer API',
    version: '1.0.0',
    description:
      'Read-only rollup indexer (rollytics-compatible wire format). Every response is application/json; errors are {"code": <HTTP status>, "message": "…"}. Query parameters not declared by an operation are ignored (e.g. cache-busters such as `_=1700000000`), as upstream. CORS: any origin by default (configurable). Analytics under /indexer/stats/v1; a live [dashboard](/dashboard/) of this chain.',
  },
  servers: [{ url: '/' }],
  tags: [
    { name: 'status' },
    { name: 'block' },
    { name: 'tx' },
    { name: 'evm' },
    { name: 'nft' },
    { name: 'richlist' },
    { name: 'stats' },
    { name: 'stream' },
  ],
  paths: {
    ...statsPaths,
    '/indexer/stream/v1/txs': get(
      'streamTxs',
      'stream',
      'New txs as they are indexed (the /indexer/tx/v1/txs list, ascending, live)',
      [streamKey, lastEventId, msgs],
      stream('tx', 'Tx'),
    ),
    '/indexer/stream/v1/txs/by_account/{account}': get(
      'streamTxsByAccount',
      'stream',
      'New txs touching an account (the by_account list, ascending, live)',
      [
        account,
        streamKey,
        lastEventId,
        msgs,
        q('is_signer', goBool(false), `Only txs signed by the account.${boolNote}`),
      ],
      stream('tx', 'Tx'),
    ),
    '/indexer/stream/v1/nft/txs/{collection_addr}/{token_id}': get(
      'streamNftTxs',
      'stream',
      "New txs of one NFT (the NFT's tx list, ascending, live)",
      [collectionAddr, p('token_id', str({ minLength: 1, maxLength: 256 }), 'Token id'), streamKey, lastEventId],
      stream('tx', 'Tx'),
    ),
    '/indexer/stream/v1/blocks': get(
      'streamBlocks',
      'stream',
      'New blocks as they are indexed (the /indexer/block/v1/blocks list, ascending, live)',
      [streamKey, lastEventId],
      stream('block', 'Block'),
    ),
    '/status': get('getStatus', 'status', 'Indexer status', [], ok(ref('Status'))),
    '/indexer/block/v1/avg_blocktime': get(
      'getAvgBlockTime',
      'block',
      'Average block time in seconds over the latest 100 blocks',
      [],
      ok({
        type: 'object',
        required: ['avg_block_time'],
        additionalProperties: false,
        properties: { avg_block_time: { type: 'number' } },
      }),
    ),
    '/indexer/block/v1/blocks': get(
      'getBlocks',
      'block',
      'Blocks by height (height cursor); total is the latest height',
      pagination,
      ok(list('blocks', 'Block')),
    ),
    '/indexer/block/v1/blocks/{height}': get(
      'getBlock',
      'block',
      'One block',
      [p('height', str({ minLength: 1, maxLength: 32 }), 'Block height (decimal)')],
      ok({ type: 'object', required: ['block'], additionalProperties: false, properties: { block: ref('Block') } }),
    ),
    '/indexer/tx/v1/txs': get(
      'getTxs',
      'tx',
      'All txs (sequence cursor)',
      [...pagination, msgs],
      ok(list('txs', 'Tx')),
    ),
    '/indexer/tx/v1/txs/by_account/{account}': get(
      'getTxsByAccount',
      'tx',
      'Txs touching an account',
      [account, ...pagination, msgs, q('is_signer', goBool(false), `Only txs signed by the account.${boolNote}`)],
      ok(list('txs', 'Tx')),
    ),
    '/indexer/tx/v1/txs/by_height/{height}': get(
      'getTxsByHeight',
      'tx',
      'Txs of one block',
      [p('height', str({ minLength: 1, maxLength: 32 }), 'Block height (decimal integer)'), ...pagination, msgs],
      ok(list('txs', 'Tx')),
    ),
    '/indexer/tx/v1/txs/{tx_hash}': get(
      'getTx',
      'tx',
      'One tx by its hash',
      [
        p(
          'tx_hash',
          str({ minLength: 1, maxLength: 130 }),
          'Tx hash: hex, either case, optional 0x. Non-hex is a 400; hex that is not 32 bytes long is a 404 (no such tx), as upstream.',
        ),
      ],
      ok({ type: 'object', required: ['tx'], additionalProperties: false, properties: { tx: ref('Tx') } }),
    ),
    '/indexer/tx/v1/evm-txs': get(
      'getEvmTxs',
      'evm',
      'EVM txs: eth_getBlockReceipts receipts (sequence cursor; sequence = height * 1e6 + transactionIndex). EVM rollups only (404 elsewhere).',
      pagination,
      ok(list('txs', 'EvmTx')),
    ),
    '/indexer/tx/v1/evm-txs/by_account/{account}': get(
      'getEvmTxsByAccount',
      'evm',
      'EVM txs touching an account: from, to, contractAddress, log addresses and address topics. EVM rollups only.',
      [account, ...pagination, q('is_signer', goBool(false), `Only txs sent by the account (from).${boolNote}`)],
      ok(list('txs', 'EvmTx')),
    ),
    '/indexer/tx/v1/evm-txs/by_height/{height}': get(
      'getEvmTxsByHeight',
      'evm',
      'EVM txs of one block. EVM rollups only.',
      [p('height', str({ minLength: 1, maxLength: 32 }), 'Block height (decimal integer)'), ...pagination],
      ok(list('txs', 'EvmTx')),
    ),
    '/indexer/tx/v1/evm-txs/{tx_hash}': get(
      'getEvmTx',
      'evm',
      'One EVM tx (receipt) by its EVM hash. EVM rollups only.',
      [
        p(
          'tx_hash',
          str({ minLength: 1, maxLength: 130 }),
          'EVM tx hash: hex, either case, optional 0x. Non-hex is a 400; hex that is not 32 bytes long is a 404 `tx not found`, as upstream.',
        ),
      ],
      ok({ type: 'object', required: ['tx'], additionalProperties: false, properties: { tx: ref('EvmTx') } }),
    ),
    '/indexer/tx/v1/evm-internal-txs': get(
      'getEvmInternalTxs',
      'evm',
      'Internal txs (callTracer call-tree nodes; sequence = height * 1e6 + position in the block). EVM rollups with EVM_INTERNAL_TXS only (404 otherwise).',
      pagination,
      ok(list('internal_txs', 'EvmInternalTx')),
    ),
    '/indexer/tx/v1/evm-internal-txs/by_account/{account}': get(
      'getEvmInternalTxsByAccount',
      'evm',
      'Internal txs from or to an account. EVM rollups with EVM_INTERNAL_TXS only.',
      [account, ...pagination],
      ok(list('internal_txs', 'EvmInternalTx')),
    ),
    '/indexer/tx/v1/evm-internal-txs/by_height/{height}': get(
      'getEvmInternalTxsByHeight',
      'evm',
      'Internal txs of one block. EVM rollups with EVM_INTERNAL_TXS only.',
      [p('height', str({ minLength: 1, maxLength: 32 }), 'Block height (decimal integer)'), ...pagination],
      ok(list('internal_txs', 'EvmInternalTx')),
    ),
    '/indexer/tx/v1/evm-internal-txs/{tx_hash}': get(
      'getEvmInternalTxsByHash',
      'evm',
      'Internal txs of one EVM tx. Unknown hash (or hex that is not 32 bytes): 404 `transaction not found`. EVM rollups with EVM_INTERNAL_TXS only.',
      [
        p('tx_hash', str({ minLength: 1, maxLength: 130 }), 'EVM tx hash: hex, either case, optional 0x'),
        ...pagination,
      ],
      ok(list('internal_txs', 'EvmInternalTx')),
    ),
    '/indexer/nft/v1/collections': get(
      'getCollections',
      'nft',
      'NFT collections by creation height',
      pagination,
      ok(list('collections', 'Collection')),
    ),
    '/indexer/nft/v1/collections/by_account/{account}': get(
      'getCollectionsByAccount',
      'nft',
      'Collections in which the account owns at least one NFT',
      [account, ...pagination],
      ok(list('collections', 'Collection')),
    ),
    '/indexer/nft/v1/collections/by_name/{name}': get(
      'getCollectionsByName',
      'nft',
      'Collections whose name or origin name contains the given text (case-insensitive, letters and digits only)',
      [p('name', str({ minLength: 1, maxLength: 256 }), 'Collection name (substring)'), ...pagination],
      ok(list('collections', 'Collection')),
    ),
    '/indexer/nft/v1/collections/{collection_addr}': get(
      'getCollection',
      'nft',
      'One collection',
      [collectionAddr],
      ok({
        type: 'object',
        required: ['collection'],
        additionalProperties: false,
        properties: { collection: ref('Collection') },
      }),
    ),
    '/indexer/nft/v1/tokens/by_account/{account}': get(
      'getTokensByAccount',
      'nft',
      'NFTs owned by an account',
      [
        account,
        ...pagination,
        q(
          'collection_addr',
          str({ maxLength: 128 }),
          'Only this collection (0x-hex or bech32). Absent or empty (`collection_addr=`): every collection.',
        ),
        tokenIdFilter,
        orderBy,
      ],
      ok(list('tokens', 'Token')),
    ),
    '/indexer/nft/v1/tokens/by_collection/{collection_addr}': get(
      'getTokensByCollection',
      'nft',
      'NFTs of a collection',
      [collectionAddr, ...pagination, tokenIdFilter, orderBy],
      ok(list('tokens', 'Token')),
    ),
    '/indexer/nft/v1/txs/{collection_addr}/{token_id}': get(
      'getNftTxs',
      'nft',
      'Txs that touched one NFT (sequence cursor)',
      [collectionAddr, p('token_id', str({ minLength: 1, maxLength: 256 }), 'Token id'), ...pagination],
      ok(list('txs', 'Tx')),
    ),
    '/indexer/richlist/v1/{denom}': get(
      'getRichList',
      'richlist',
      'Holders of a token ordered by amount (descending by default, ties by account); EVM rollups only',
      [
        p('denom', str({ minLength: 1, maxLength: 256 }), 'Denom (e.g. uinit, ibc/…, evm/…) or ERC20 address 0x…'),
        ...pagination,
      ],
      ok(list('holders', 'Holder')),
    ),
  },
  components: {
    schemas: {
      ...statsSchemas,
      Error: {
        type: 'object',
        required: ['code', 'message'],
        properties: {
          code: { type: 'integer', description: 'HTTP status' },
          message: { type: 'string' },
          errors: { type: 'array', items: { type: 'object' } },
        },
      },
      Pagination: {
        type: 'object',
        required: ['previous_key', 'next_key', 'total'],
        additionalProperties: false,
        properties: {
          previous_key: { type: 'string', nullable: true },
          next_key: {
            type: 'string',
            nullable: true,
            description: 'Pass as pagination.key to get the next page; null when nothing follows',
          },
          total: {
            ...decimal,
            description: '"0" when count_total=false (except /blocks, where it is the latest height); "-1" = unknown',
          },
        },
      },
      Status: {
        type: 'object',
        required: ['version', 'commit_hash', 'chain_id', 'height'],
        additionalProperties: false,
        properties: {
          version: str(),
          commit_hash: str(),
          chain_id: str(),
          height: { type: 'integer', description: 'Last completely indexed height' },
          internal_tx_height: {
            type: 'integer',
            description:
              'Height up to which EVM internal txs are indexed (EVM with EVM_INTERNAL_TXS only; absent otherwise)',
          },
          rich_list_height: {
            type: 'integer',
            description: 'Height of the latest rich-list snapshot (EVM); omitted when 0',
          },
        },
      },
      Coin: {
        type: 'object',
        required: ['denom', 'amount'],
        additionalProperties: false,
        properties: { denom: str(), amount: decimal },
      },
      Block: {
        type: 'object',
        required: [
          'chain_id',
          'height',
          'hash',
          'block_time',
          'timestamp',
          'gas_used',
          'gas_wanted',
          'tx_count',
          'total_fee',
          'proposer',
        ],
        additionalProperties: false,
        properties: {
          chain_id: str(),
          height: decimal,
          hash: str({ pattern: '^[0-9A-F]*$' }),
          block_time: { ...decimal, description: 'Milliseconds since the previous block' },
          timestamp: str({ description: 'RFC 3339, seconds', pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}Z$' }),
          gas_used: decimal,
          gas_wanted: decimal,
          tx_count: decimal,
          total_fee: { type: 'array', items: ref('Coin') },
          proposer: {
            type: 'object',
            required: ['moniker', 'identity', 'operator_address'],
            additionalProperties: false,
            properties: { moniker: str(), identity: str(), operator_address: str() },
          },
        },
      },
      Event: {
        type: 'object',
        required: ['type', 'attributes'],
        properties: {
          type: str(),
          attributes: {
            type: 'array',
            items: {
              type: 'object',
              required: ['key', 'value'],
              properties: { key: str(), value: str(), index: { type: 'boolean' } },
            },
          },
        },
      },
      Tx: {
        type: 'object',
        required: [
          'txhash',
          'height',
          'codespace',
          'code',
          'data',
          'raw_log',
          'logs',
          'info',
          'gas_wanted',
          'gas_used',
          'tx',
          'timestamp',
          'events',
        ],
        additionalProperties: false,
        properties: {
          txhash: str({ pattern: '^[0-9A-F]+$' }),
          height: decimal,
          codespace: str(),
          code: { type: 'integer' },
          data: str(),
          raw_log: str(),
          logs: { type: 'array', items: { type: 'object' } },
          info: str(),
          gas_wanted: decimal,
          gas_used: decimal,
          tx: {
            type: 'object',
            description: 'body, auth_info and signatures as the chain REST returns them (no outer "@type")',
            required: ['body', 'auth_info', 'signatures'],
            properties: {
              body: { type: 'object' },
              auth_info: { type: 'object' },
              signatures: { type: 'array', items: str() },
            },
          },
          timestamp: str({ description: 'RFC 3339, UTC, at most microseconds (as upstream stores it)' }),
          events: { type: 'array', items: ref('Event') },
        },
      },
      EvmLog: {
        type: 'object',
        required: [
          'address',
          'topics',
          'data',
          'blockNumber',
          'transactionHash',
          'transactionIndex',
          'blockHash',
          'logIndex',
          'removed',
        ],
        additionalProperties: false,
        properties: {
          address: str(),
          topics: { type: 'array', items: str() },
          data: str(),
          blockNumber: str(),
          transactionHash: str(),
          transactionIndex: str(),
          blockHash: str(),
          logIndex: str(),
          removed: { type: 'boolean' },
        },
      },
      EvmTx: {
        type: 'object',
        description: 'The eth_getBlockReceipts receipt as hex JSON-RPC values (upstream EvmTx)',
        required: [
          'blockHash',
          'blockNumber',
          'contractAddress',
          'cumulativeGasUsed',
          'effectiveGasPrice',
          'from',
          'gasUsed',
          'logs',
          'logsBloom',
          'status',
          'to',
          'transactionHash',
          'transactionIndex',
          'type',
        ],
        additionalProperties: false,
        properties: {
          blockHash: str(),
          blockNumber: str(),
          contractAddress: str({ nullable: true }),
          cumulativeGasUsed: str(),
          effectiveGasPrice: str(),
          from: str(),
          gasUsed: str(),
          logs: { type: 'array', items: ref('EvmLog') },
          logsBloom: str(),
          status: str(),
          to: str({ description: '"" for a contract creation (upstream prints a null `to` so)' }),
          transactionHash: str(),
          transactionIndex: str(),
          type: str(),
        },
      },
      EvmInternalTx: {
        type: 'object',
        required: [
          'height',
          'hash',
          'parent_index',
          'index',
          'type',
          'from',
          'to',
          'input',
          'output',
          'value',
          'gas',
          'gasUsed',
        ],
        additionalProperties: false,
        properties: {
          height: { type: 'integer' },
          hash: str({ description: 'EVM tx hash, 0x + lowercase hex' }),
          parent_index: { type: 'integer', description: '-1 for the top-level call' },
          index: { type: 'integer', description: 'Depth-first position in the call tree, 0 = top-level call' },
          type: str(),
          from: str(),
          to: str(),
          input: str(),
          output: str(),
          value: str(),
          gas: str(),
          gasUsed: str(),
        },
      },
      Collection: {
        type: 'object',
        required: ['object_addr', 'collection', 'height', 'timestamp'],
        additionalProperties: false,
        properties: {
          object_addr: str(),
          collection: {
            type: 'object',
            required: ['creator', 'name', 'origin_name', 'nfts'],
            additionalProperties: false,
            properties: {
              creator: str(),
              name: str(),
              origin_name: str(),
              nfts: {
                type: 'object',
                required: ['handle', 'length'],
                additionalProperties: false,
                properties: { handle: str(), length: { type: 'integer' } },
              },
            },
          },
          height: { type: 'integer' },
          timestamp: str({ description: 'RFC 3339, UTC, at most microseconds (as upstream stores it)' }),
        },
      },
      Token: {
        type: 'object',
        required: [
          'collection_addr',
          'collection_name',
          'collection_origin_name',
          'object_addr',
          'owner',
          'nft',
          'height',
          'timestamp',
        ],
        additionalProperties: false,
        properties: {
          collection_addr: str(),
          collection_name: str(),
          collection_origin_name: str(),
          object_addr: str(),
          owner: str(),
          nft: {
            type: 'object',
            required: ['token_id', 'uri'],
            additionalProperties: false,
            properties: { token_id: str(), uri: str() },
          },
          height: { type: 'integer' },
          timestamp: str({ description: 'RFC 3339, UTC, at most microseconds (as upstream stores it)' }),
        },
      },
      Holder: {
        type: 'object',
        required: ['account', 'amount'],
        additionalProperties: false,
        properties: { account: str(), amount: { type: 'string', pattern: '^[0-9]+$' } },
      },
    },
  },
} as const;
