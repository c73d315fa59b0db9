// zod shapes of the Initia registry files we read (initia-labs/initia-registry chain.json / assetlist.json).
// Only the fields the router uses are checked; everything else passes through untouched.
import { z } from 'zod';

const chainIdRe = /^[a-zA-Z0-9._-]{1,64}$/;
const endpoint = z.object({ address: z.string() }).passthrough();

export const ibcChannelSchema = z
  .object({
    chain_id: z.string().regex(chainIdRe),
    port_id: z.string().min(1),
    channel_id: z.string().regex(/^channel-\d+$/, 'must look like channel-N'),
    version: z.string(),
  })
  .passthrough();

export const chainFileSchema = z
  .object({
    chain_id: z.string().regex(chainIdRe, 'must be 1-64 chars of [a-zA-Z0-9._-]'),
    chain_name: z.string().min(1),
    pretty_name: z.string().optional(),
    network_type: z.string().optional(),
    bech32_prefix: z.string().regex(/^[a-z]{1,16}$/),
    evm_chain_id: z.number().int().nonnegative().optional(),
    apis: z.record(z.array(endpoint)).optional(),
    explorers: z.array(z.object({ tx_page: z.string().optional() }).passthrough()).optional(),
    logo_URIs: z.object({ png: z.string().optional(), svg: z.string().optional() }).passthrough().optional(),
    fees: z
      .object({ fee_tokens: z.array(z.object({ denom: z.string() }).passthrough()) })
      .passthrough()
      .optional(),
    metadata: z
      .object({
        is_l1: z.boolean().optional(),
        op_bridge_id: z
          .string()
          .regex(/^\d{1,19}$/, 'must be a decimal uint64')
          .optional(),
        op_denoms: z.array(z.string().min(1)).optional(),
        executor_uri: z
          .string()
          .url()
          .refine((u) => /^https?:\/\//.test(u), 'must be an http(s) URL')
          .optional(),
        ibc_channels: z.array(ibcChannelSchema).optional(),
        minitia: z.object({ type: z.string() }).passthrough().optional(),
        deprecated: z.boolean().optional(),
        /** Not in the upstream registry: an optional override, seconds. */
        op_finalization_period_seconds: z.number().int().positive().optional(),
      })
      .passthrough()
      .optional(),
  })
  .passthrough();

const traceSchema = z.discriminatedUnion('type', [
  z
    .object({
      type: z.literal('ibc'),
      counterparty: z
        .object({ chain_id: z.string(), base_denom: z.string(), channel_id: z.string().optional() })
        .passthrough(),
      chain: z.object({ channel_id: z.string(), path: z.string() }).passthrough(),
    })
    .passthrough(),
  z
    .object({
      type: z.literal('op'),
      counterparty: z.object({ chain_id: z.string(), base_denom: z.string() }).passthrough(),
      chain: z.object({ bridge_id: z.string().regex(/^\d{1,19}$/) }).passthrough(),
    })
    .passthrough(),
  z
    .object({
      type: z.literal('wrapped'),
      counterparty: z.object({ chain_id: z.string(), base_denom: z.string() }).passthrough(),
      chain: z.object({ contract: z.string().regex(/^0x[0-9a-fA-F]{40}$/) }).passthrough(),
      provider: z.string().optional(),
    })
    .passthrough(),
  z.object({ type: z.literal('ibc-cw20') }).passthrough(),
]);
export type RegistryTrace = z.infer<typeof traceSchema>;

export const assetSchema = z
  .object({
    base: z.string().min(1).max(256),
    symbol: z.string().min(1),
    name: z.string().optional(),
    display: z.string().optional(),
    description: z.string().optional(),
    coingecko_id: z.string().optional(),
    denom_units: z
      .array(z.object({ denom: z.string(), exponent: z.number().int().min(0).max(36) }).passthrough())
      .min(1),
    traces: z.array(traceSchema).optional(),
    logo_URIs: z.object({ png: z.string().optional(), svg: z.string().optional() }).passthrough().optional(),
  })
  .passthrough();

export const assetListSchema = z.object({ chain_name: z.string(), assets: z.array(assetSchema) }).passthrough();

export type ChainFile = z.infer<typeof chainFileSchema>;
export type AssetFile = z.infer<typeof assetSchema>;

/** A custom registry bundle (ROUTER_REGISTRY_FILE): the same two files per chain, in one JSON document. */
export const bundleSchema = z.object({
  network: z.string().min(1).max(32).default('custom'),
  chains: z.array(z.object({ chain: z.unknown(), assetlist: z.unknown() })).min(1),
  layerzero: z.unknown().optional(),
});

/** config/registry/erc20-<network>.json: ERC20 contract of a cosmos denom on a minievm chain (op-hooks). */
export const erc20Schema = z.array(
  z.object({
    chain_id: z.string(),
    denom: z.string().min(1),
    address: z.string().regex(/^0x[0-9a-fA-F]{40}$/),
    source: z.string().optional(),
  }),
);

/** config/registry/external-bech32-prefixes.json: chain id → bech32 prefix of a Cosmos chain outside Initia. */
export const externalPrefixesSchema = z.record(z.string(), z.string().regex(/^[a-z][a-z0-9]{0,30}$/));
