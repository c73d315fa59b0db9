// OpenAPI 3 fragment for the tracking endpoints (merged into the router's document by api/router/app.ts).
import { sseEventSchema } from '../../http/sse.js';
const chainTx = {
  type: 'object',
  nullable: true,
  properties: {
    chain_id: { type: 'string' },
    tx_hash: { type: 'string' },
    explorer_link: { type: 'string' },
    on_chain_at: { type: 'string', format: 'date-time' },
  },
};
const errorBody = { $ref: '#/components/schemas/TrackingError' };
/** The account of the history endpoints: bech32 of any chain or 0x. */
const accountParam = {
  name: 'address',
  in: 'query',
  required: true,
  schema: { type: 'string', minLength: 1, maxLength: 128 },
};
const limitParam = (description: string) => ({
  name: 'limit',
  in: 'query',
  required: false,
  description,
  schema: { type: 'string', pattern: '^[0-9]{1,4}$' },
});

export const trackingSchemas: Record<string, unknown> = {
  TrackTxRequest: {
    type: 'object',
    required: ['tx_hash', 'chain_id'],
    additionalProperties: true,
    properties: {
      tx_hash: {
        type: 'string',
        minLength: 1,
        maxLength: 130,
        description: 'Cosmos hash (64 hex) or EVM hash (0x + 64 hex)',
      },
      chain_id: { type: 'string', minLength: 1, maxLength: 64, description: 'chain the tx was submitted to' },
      webhook_url: {
        type: 'string',
        minLength: 1,
        maxLength: 2048,
        description:
          'ours (Skip clients never send it): an http(s) URL every state change is POSTed to, signed; it must match ' +
          "the deployment's WEBHOOK_HOSTS and, unless WEBHOOK_PRIVATE_ADDRESSES, resolve to public addresses only. " +
          'One per transfer. See docs/tracking.md "Webhooks".',
      },
    },
  },
  TrackTxResponse: {
    type: 'object',
    required: ['tx_hash', 'explorer_link'],
    properties: { tx_hash: { type: 'string' }, explorer_link: { type: 'string' } },
  },
  TrackingChainTransaction: chainTx,
  TxStatusResponse: {
    type: 'object',
    required: ['state', 'status', 'transfer_sequence'],
    properties: {
      state: {
        type: 'string',
        enum: [
          'STATE_SUBMITTED',
          'STATE_PENDING',
          'STATE_PENDING_ERROR',
          'STATE_COMPLETED_SUCCESS',
          'STATE_COMPLETED_ERROR',
          'STATE_ABANDONED',
        ],
      },
      status: { type: 'string', enum: ['STATE_SUBMITTED', 'STATE_PENDING', 'STATE_COMPLETED', 'STATE_FAILED'] },
      transfer_sequence: {
        type: 'array',
        description: 'one element per hop; exactly one of ibc_transfer, op_init_transfer, layer_zero_transfer',
        items: { type: 'object', additionalProperties: true },
      },
      transfers: { type: 'array', items: { type: 'object', additionalProperties: true } },
      next_action: {
        type: 'object',
        description:
          'ours, absent when none: a claimable OPinit withdrawal; GET /v2/tx/claim_msgs builds its claim when ready',
        properties: {
          type: { type: 'string', enum: ['CLAIM_WITHDRAWAL'] },
          transfer_sequence_index: { type: 'integer' },
          chain_id: { type: 'string', description: 'the L1, where the claim is broadcast' },
          claimable_at: { type: 'string', format: 'date-time' },
          ready: { type: 'boolean' },
          reason: { type: 'string', enum: ['EXECUTOR_UNKNOWN', 'EXECUTOR_UNREACHABLE', 'PROOF_PENDING'] },
        },
      },
      next_blocking_transfer: {
        type: 'object',
        nullable: true,
        properties: { transfer_sequence_index: { type: 'integer' } },
      },
      transfer_asset_release: {
        type: 'object',
        nullable: true,
        properties: {
          chain_id: { type: 'string' },
          denom: { type: 'string' },
          amount: { type: 'string', nullable: true },
          released: { type: 'boolean' },
        },
      },
      error: {
        type: 'object',
        nullable: true,
        properties: {
          message: { type: 'string' },
          type: {
            type: 'string',
            enum: [
              'STATUS_ERROR_UNKNOWN',
              'STATUS_ERROR_TRANSACTION_EXECUTION',
              'STATUS_ERROR_INDEXING',
              'STATUS_ERROR_TRANSFER',
            ],
          },
          details: { type: 'object', nullable: true },
        },
      },
    },
  },
  TxHistoryResponse: {
    type: 'object',
    required: ['transfers', 'next_cursor'],
    properties: {
      transfers: {
        type: 'array',
        items: {
          type: 'object',
          required: ['chain_id', 'tx_hash', 'registered_at', 'roles', 'state', 'status'],
          properties: {
            chain_id: { type: 'string' },
            tx_hash: { type: 'string' },
            registered_at: { type: 'string', format: 'date-time' },
            roles: { type: 'array', items: { type: 'string', enum: ['sender', 'receiver'] } },
            state: { type: 'string' },
            status: { type: 'string' },
          },
        },
      },
      next_cursor: { type: 'string', nullable: true },
    },
  },
  ClaimMsgsResponse: {
    type: 'object',
    required: ['txs', 'msgs'],
    description: 'the unsigned MsgFinalizeTokenWithdrawal, in the shape of POST /v2/fungible/msgs',
    properties: {
      txs: { type: 'array', items: { type: 'object', additionalProperties: true } },
      msgs: { type: 'array', items: { type: 'object', additionalProperties: true } },
    },
  },
  TrackingError: {
    type: 'object',
    required: ['code', 'message'],
    properties: {
      code: { type: 'integer' },
      message: { type: 'string' },
      details: { type: 'array', items: { type: 'object' } },
      reason: {
        type: 'string',
        description:
          'claim_msgs only: NOTHING_TO_CLAIM, EXECUTOR_UNKNOWN, EXECUTOR_UNREACHABLE, EXECUTOR_BAD_ANSWER, PROOF_PENDING',
      },
    },
  },
};

const errors = (codes: Record<string, string>) =>
  Object.fromEntries(
    Object.entries(codes).map(([k, d]) => [
      k,
      { description: d, content: { 'application/json': { schema: errorBody } } },
    ]),
  );

/** The registered tx a read names: status, its stream, the claim. */
const txParams = [
  { name: 'tx_hash', in: 'query', required: true, schema: { type: 'string', minLength: 1, maxLength: 130 } },
  { name: 'chain_id', in: 'query', required: true, schema: { type: 'string', minLength: 1, maxLength: 64 } },
];

export const trackingPaths: Record<string, unknown> = {
  '/v2/tx/track': {
    post: {
      summary: 'Register a broadcast tx for transfer tracking (idempotent; accepted before the tx is in a block)',
      operationId: 'trackTx',
      tags: ['tracking'],
      requestBody: {
        required: true,
        content: { 'application/json': { schema: { $ref: '#/components/schemas/TrackTxRequest' } } },
      },
      responses: {
        '200': {
          description: 'registered',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/TrackTxResponse' } } },
        },
        ...errors({
          '400': 'malformed hash, the tx failed on chain, or a webhook_url this deployment refuses (code 3)',
          '404': 'chain ID not supported (code 5)',
          '409':
            'webhook_url on a transfer that already has another one, or that has finished (code 9; details.reason)',
          '413': 'request body too large',
          '415': 'not a JSON body',
          '429': 'too many registrations from this client (code 8); Retry-After says when to try again',
        }),
      },
    },
  },
  '/v2/tx/status': {
    get: {
      summary: 'Latest transfer status of a registered tx (served from the ClickHouse projection)',
      operationId: 'txStatus',
      tags: ['tracking'],
      parameters: [...txParams],
      responses: {
        '200': {
          description: 'status',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/TxStatusResponse' } } },
        },
        ...errors({
          '400': 'malformed hash (code 3)',
          '404': 'tx not found (code 5): register it with POST /v2/tx/track',
        }),
      },
    },
  },
  '/v2/tx/status_stream': {
    get: {
      summary:
        "A registered tx's transfer status as Server-Sent Events: each version's full status document (as GET /v2/tx/status answers it), ending after a terminal state (docs/streams.md)",
      operationId: 'txStatusStream',
      tags: ['tracking'],
      parameters: [
        ...txParams,
        {
          name: 'Last-Event-ID',
          in: 'header',
          required: false,
          description: 'the last version received (EventSource sends it on reconnect): only newer versions are sent',
          schema: { type: 'string', maxLength: 16 },
        },
      ],
      responses: {
        '204': { description: 'the transfer is finished and Last-Event-ID is its latest version: nothing will follow' },
        '200': {
          description:
            '`event: status` (id = version, data = the status document); `: heartbeat` comments; a last `event: end` with {"reason","resume"}: terminal, overflow, lifetime',
          content: {
            'text/event-stream': {
              schema: sseEventSchema(['status', 'end'], 'the status document as JSON; for `end`: {"reason","resume"}'),
            },
          },
        },
        ...errors({
          '400': 'malformed hash or Last-Event-ID (code 3)',
          '404': 'tx not found (code 5): register it with POST /v2/tx/track',
          '429': 'too many open streams from this client or on this server (code 8)',
        }),
      },
    },
  },
  '/v2/tx/history': {
    get: {
      summary:
        'Every registered transfer whose source sender or final receiver is the account (bech32 of any chain or 0x: one account), newest registration first, with its current state',
      operationId: 'txHistory',
      tags: ['tracking'],
      parameters: [
        accountParam,
        limitParam('transfers per page, 1 to 100 (default 20)'),
        {
          name: 'cursor',
          in: 'query',
          required: false,
          description: 'the next_cursor of the previous page',
          schema: { type: 'string', maxLength: 512 },
        },
      ],
      responses: {
        '200': {
          description: 'a page of the history',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/TxHistoryResponse' } } },
        },
        ...errors({ '400': 'missing or malformed address, limit or cursor (code 3)' }),
      },
    },
  },
  '/v2/tx/history_stream': {
    get: {
      summary:
        "An account's transfers as Server-Sent Events: first its `limit` newest transfers as they are now (oldest first), then every newer status version of any of its transfers, new ones included (docs/streams.md)",
      operationId: 'txHistoryStream',
      tags: ['tracking'],
      parameters: [accountParam, limitParam('transfers in the opening snapshot, 1 to 100 (default 20)')],
      responses: {
        '200': {
          description:
            '`event: transfer` with {"chain_id","tx_hash","roles","version","status"} (status = the status document of that version); `: heartbeat` comments; a last `event: end` with {"reason","resume":null}: overflow, lifetime. No ids: a reconnect opens with the snapshot again',
          content: {
            'text/event-stream': {
              schema: sseEventSchema(['transfer', 'end'], 'a transfer version as JSON; for `end`: {"reason","resume"}'),
            },
          },
        },
        ...errors({
          '400': 'malformed address or limit (code 3)',
          '429': 'too many open streams from this client or on this server (code 8)',
        }),
      },
    },
  },
  '/v2/tx/claim_msgs': {
    get: {
      summary:
        'The unsigned claim (MsgFinalizeTokenWithdrawal) of a tracked transfer whose OPinit withdrawal is claimable',
      operationId: 'claimMsgs',
      tags: ['tracking'],
      parameters: [
        ...txParams,
        {
          name: 'signer_address',
          in: 'query',
          required: false,
          description: 'who signs and pays the fee (anyone may claim); default: the withdrawal recipient',
          schema: { type: 'string', minLength: 1, maxLength: 128, pattern: '^[a-z0-9]{1,20}1[02-9ac-hj-np-z]{6,100}$' },
        },
      ],
      responses: {
        '200': {
          description: 'the claim to sign and broadcast on the L1',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/ClaimMsgsResponse' } } },
        },
        ...errors({
          '400': 'malformed parameters, or nothing to claim (reason NOTHING_TO_CLAIM)',
          '404': 'tx not found (code 5)',
          '429': 'too many claim_msgs calls from this client (code 8); Retry-After says when to try again',
          '503': 'the executor is unknown, down, or has no proof yet (reason says which); try again later',
        }),
      },
    },
  },
};
