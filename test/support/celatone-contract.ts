// What the Celatone explorer requires of the indexer's answers: its zod schemas (src/lib/types/, src/lib/services/
// */sequencer.ts), restated from what they require, and the axios-style query strings it sends. Shared by the
// contract tests on the sample chains (test/api/indexer/client-contract.test.ts) and on the real Move and Wasm
// devnets (test/devnet/vm-nodes/).
import { z } from 'zod';

/** zPagination: next_key string|null, total coerced to a number (previous_key is read by backward paging). */
export const zPagination = z.object({
  previous_key: z.string().nullable(),
  next_key: z.string().nullable(),
  total: z.coerce.number(),
});
export const zEvent = z.object({
  type: z.string(),
  attributes: z.array(z.object({ key: z.string(), value: z.string(), index: z.boolean().optional() })),
});
/** A single key, `{ "@type", key }` (zPubkeySingle, src/lib/types/account.ts); never null. */
const zPubkeySingle = z.object({ '@type': z.string(), key: z.string() });
/**
 * zSignerInfo (src/lib/services/types/tx.ts): a single signer (mode a SignMode name, or minievm's 9999) with its
 * key, or a multisig with its keys and threshold. A null public_key fails it (issue 26: the sample chains served
 * some, and the explorer rejected those answers).
 */
const zSignerInfo = z.union([
  z.object({
    sequence: z.string(),
    mode_info: z.object({
      single: z.object({ mode: z.union([z.string().startsWith('SIGN_MODE_'), z.literal(9999)]) }),
    }),
    public_key: zPubkeySingle,
  }),
  z.object({
    sequence: z.string(),
    mode_info: z.object({ multi: z.object({ mode_infos: z.array(z.unknown()) }).passthrough() }),
    public_key: z.object({ '@type': z.string(), public_keys: z.array(zPubkeySingle), threshold: z.number() }),
  }),
]);
/** zTx: body, auth_info (fee + signer_infos, whose first entry's public_key the list view reads), signatures. */
export const zTx = z.object({
  body: z.object({
    messages: z.array(z.object({ '@type': z.string() }).passthrough()),
    memo: z.string(),
    timeout_height: z.string(),
    extension_options: z.array(z.unknown()),
    non_critical_extension_options: z.array(z.unknown()),
  }),
  auth_info: z.object({
    fee: z.object({
      amount: z.array(z.object({ denom: z.string(), amount: z.string() })),
      gas_limit: z.string(),
      granter: z.string(),
      payer: z.string(),
    }),
    signer_infos: z.array(zSignerInfo),
  }),
  signatures: z.array(z.string()),
});
/** zTxResponse (sequencer): every top-level field typed; timestamp a UTC date. */
export const zTxResponse = z.object({
  code: z.number(),
  codespace: z.string(),
  data: z.string(),
  events: z.array(zEvent),
  gas_used: z.string(),
  gas_wanted: z.string(),
  height: z.string(),
  info: z.string(),
  logs: z.array(z.unknown()),
  raw_log: z.string(),
  timestamp: z.string().refine((v) => !Number.isNaN(Date.parse(v)) && v.endsWith('Z')),
  tx: zTx,
  txhash: z.string(),
});
export const zTxs = z.object({ txs: z.array(zTxResponse), pagination: zPagination });
export const zBlock = z.object({
  hash: z.string(),
  height: z.coerce.number(),
  timestamp: z.string().refine((v) => !Number.isNaN(Date.parse(v))),
  tx_count: z.coerce.number(),
  gas_used: z.coerce.number(),
  gas_wanted: z.coerce.number(),
  proposer: z.object({ moniker: z.string(), identity: z.string(), operator_address: z.string() }),
});
export const zCollection = z.object({
  object_addr: z.string(),
  collection: z.object({
    creator: z.string(),
    name: z.string().min(1), // the explorer shows the name; an empty one renders as a blank row
    origin_name: z.string(),
    nfts: z.object({ length: z.number() }),
  }),
  height: z.number(),
  timestamp: z.string(),
});
export const zToken = z.object({
  collection_addr: z.string(),
  collection_name: z.string(),
  object_addr: z.string(),
  owner: z.string(),
  nft: z.object({ token_id: z.string(), uri: z.string() }),
  height: z.number(),
  timestamp: z.string(),
});
export const zInternalTx = z.object({
  from: z.string(),
  gas: z.string().regex(/^0x[0-9a-f]*$/i),
  gasUsed: z.string().regex(/^0x[0-9a-f]*$/i),
  hash: z.string(),
  height: z.number(),
  index: z.number(),
  input: z.string(),
  output: z.string(),
  parent_index: z.number(),
  to: z.string(),
  type: z.string(),
  value: z.string(),
});

export function parse<T>(schema: z.ZodType<T>, body: unknown, what: string): T {
  const r = schema.safeParse(body);
  if (!r.success) throw new Error(`${what}: ${JSON.stringify(r.error.issues.slice(0, 3))}`);
  return r.data;
}

/** axios-style query string: undefined values dropped, everything else stringified ("" kept as `k=`). */
export function qs(params: Record<string, string | number | boolean | undefined | null>): string {
  const u = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null) u.append(k, String(v));
  const s = u.toString();
  return s ? `?${s}` : '';
}
