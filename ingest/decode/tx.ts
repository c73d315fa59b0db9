// One tx → its facts: the API tx object (docs/indexer.md, pre-rendered JSON), signer, message types,
// accounts touched, fee, EVM logs and NFT facts.
import { createHash } from 'node:crypto';
import { ripemd160, sha256 } from '@cosmjs/crypto';
import { fromBase64, toBech32, toHex } from '@cosmjs/encoding';
import { computeAddress } from 'ethers';
import { normalizeAccount } from '../../chain/address.js';
import { accountsTouched, evmLogsOf } from './events.js';
import type { AbciEvent, EvmLog } from '../../chain/events.js';
import { decodeNfts, type NftDecodeResult, type Vm } from './nft.js';
import type { ChainTime } from './block.js';

export interface Coin {
  denom: string;
  amount: string;
}

/** `txs_results[i]` of CometBFT 0.38 block_results, as the node sends it. */
export interface TxResult {
  code?: number;
  codespace?: string;
  data?: string | null;
  log?: string;
  info?: string;
  gas_wanted?: string;
  gas_used?: string;
  events?: AbciEvent[];
}

/** The decoded Tx JSON of Cosmos REST (`body`, `auth_info`, `signatures`). */
export interface RestTx {
  '@type'?: string;
  body?: { messages?: { '@type'?: string }[] };
  auth_info?: {
    signer_infos?: { public_key?: { '@type'?: string; key?: string } | null }[];
    fee?: { amount?: Coin[] };
  };
  signatures?: string[];
}

export interface TxInput {
  height: number;
  index: number;
  time: ChainTime;
  rawBase64: string;
  restTx: RestTx;
  result: TxResult;
}

export interface TxFacts {
  sequence: number;
  hash: string;
  code: number;
  signer: string;
  msgTypes: string[];
  accounts: string[];
  fee: Coin[];
  gasUsed: bigint;
  gasWanted: bigint;
  json: string;
  eventCount: number;
  logs: EvmLog[];
  nft: NftDecodeResult;
}

import { SEQUENCE_STRIDE, sequenceOf } from '../../chain/sequence.js';

export { SEQUENCE_STRIDE, sequenceOf };

export function txHash(rawBase64: string): string {
  return createHash('sha256').update(Buffer.from(rawBase64, 'base64')).digest('hex').toUpperCase();
}

// Deriving an address from a public key is costly (ethsecp256k1 needs a curve point decompression) and the
// same accounts sign many txs: remember recent ones.
const signerCache = new Map<string, string>();
function cachedSigner(type: string, key: string, prefix: string, derive: () => string): string {
  const k = `${prefix}|${type}|${key}`;
  let v = signerCache.get(k);
  if (v === undefined) {
    if (signerCache.size >= 50_000) signerCache.clear();
    v = derive();
    signerCache.set(k, v);
  }
  return v;
}

const SIGNER_FIELDS = [
  'sender',
  'from_address',
  'signer',
  'authority',
  'granter',
  'delegator_address',
  'admin',
] as const;

/**
 * Account of `auth_info.signer_infos[0]`'s public key (secp256k1: ripemd160∘sha256, ethsecp256k1: keccak), as
 * upstream derives it. A tx without a public key (e.g. a minievm EVM tx wrapped without signer info) falls back
 * to the signer field of its first message.
 */
export function signerOf(tx: RestTx, prefix = 'init'): string {
  const pk = tx.auth_info?.signer_infos?.[0]?.public_key;
  if (!pk?.key) {
    const msg = (tx.body?.messages?.[0] ?? {}) as Record<string, unknown>;
    for (const f of SIGNER_FIELDS)
      if (typeof msg[f] === 'string') return normalizeAccount(msg[f] as string, prefix) ?? '';
    return '';
  }
  const type = pk['@type'] ?? '';
  const b64 = pk.key;
  return cachedSigner(type, b64, prefix, () => {
    const key = fromBase64(b64);
    if (type.endsWith('ethsecp256k1.PubKey'))
      return toBech32(prefix, Buffer.from(computeAddress(`0x${toHex(key)}`).slice(2), 'hex'));
    if (type.endsWith('secp256k1.PubKey')) return toBech32(prefix, ripemd160(sha256(key)));
    return '';
  });
}

const b64ToUpperHex = (v: string | null | undefined) => (v ? toHex(fromBase64(v)).toUpperCase() : '');

export function decodeTx(vm: Vm, input: TxInput, prefix = 'init'): TxFacts {
  const { restTx, result } = input;
  const events = (result.events ?? []).map((e) => ({
    type: e.type,
    attributes: (e.attributes ?? []).map((a) => ({ key: a.key ?? '', value: a.value ?? '', index: a.index ?? true })),
  }));
  const hash = txHash(input.rawBase64);
  const signer = signerOf(restTx, prefix);
  const msgTypes = (restTx.body?.messages ?? []).map((m) => (m['@type'] ?? '').replace(/^\//, ''));
  const code = result.code ?? 0;
  const { '@type': _outerType, ...txBody } = restTx;
  // Key order follows the upstream tx object (docs/indexer.md).
  const apiTx = {
    txhash: hash,
    height: String(input.height),
    codespace: result.codespace ?? '',
    code,
    data: b64ToUpperHex(result.data),
    raw_log: result.log ?? '',
    logs: [],
    info: result.info ?? '',
    gas_wanted: String(result.gas_wanted ?? '0'),
    gas_used: String(result.gas_used ?? '0'),
    tx: txBody,
    timestamp: input.time.rfc3339Nano,
    events,
  };
  const logs: EvmLog[] = [];
  if (vm === 'evm') for (const ev of events) logs.push(...evmLogsOf(ev));
  return {
    sequence: sequenceOf(input.height, input.index),
    hash,
    code,
    signer,
    msgTypes,
    accounts: accountsTouched(events, signer, prefix),
    fee: restTx.auth_info?.fee?.amount ?? [],
    gasUsed: BigInt(result.gas_used ?? '0'),
    gasWanted: BigInt(result.gas_wanted ?? '0'),
    json: JSON.stringify(apiTx),
    eventCount: events.length,
    logs,
    // Failed txs change no NFT state.
    nft: code === 0 ? decodeNfts(vm, events, signer, prefix) : { events: [], collections: [], objectEvents: [] },
  };
}
