// Encodes a decoded Cosmos Tx JSON (the LCD `tx` object) into protobuf TxRaw bytes, so that the
// simulated chain can serve raw bytes whose sha256 is the tx hash, as a real node does.
//
// Real Initia raw bytes are not public. Messages with a cosmjs-types codec (bank MsgSend, ICS-20
// MsgTransfer) are proto-encoded; every other message is an `Any{type_url, value = UTF-8 JSON of the
// message}`. Such bytes are self-consistent (same JSON ⇒ same bytes ⇒ same hash) but not what a real
// Initia node would produce for those message types. Consumers should read decoded txs from the REST
// API (as the real Initia indexer does) rather than proto-decode these Any values.
import { hash } from 'node:crypto';
import { TxRaw, TxBody, AuthInfo, SignerInfo, Fee } from 'cosmjs-types/cosmos/tx/v1beta1/tx';
import { signModeFromJSON } from 'cosmjs-types/cosmos/tx/signing/v1beta1/signing';
import { MsgSend } from 'cosmjs-types/cosmos/bank/v1beta1/tx';
import { MsgTransfer } from 'cosmjs-types/ibc/applications/transfer/v1/tx';
import { Any } from 'cosmjs-types/google/protobuf/any';
import type { TxJson } from './types.js';

type Json = Record<string, unknown>;

/** snake_case → lowerCamelCase keys, recursively (ts-proto fromJSON expects proto3 JSON names). */
function camelKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(camelKeys);
  if (value === null || typeof value !== 'object') return value;
  const out: Json = {};
  for (const [k, v] of Object.entries(value as Json)) {
    out[k.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase())] = camelKeys(v);
  }
  return out;
}

const PROTO_CODECS: Record<string, (msg: Json) => Uint8Array> = {
  '/cosmos.bank.v1beta1.MsgSend': (m) => MsgSend.encode(MsgSend.fromJSON(camelKeys(m))).finish(),
  '/ibc.applications.transfer.v1.MsgTransfer': (m) => MsgTransfer.encode(MsgTransfer.fromJSON(camelKeys(m))).finish(),
};

/** Stable JSON: sorted keys, so equal objects always give equal bytes. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value === null || typeof value !== 'object') return JSON.stringify(value ?? null);
  const keys = Object.keys(value as Json).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Json)[k])}`).join(',')}}`;
}

export function encodeAny(message: Json): Any {
  const { '@type': typeUrl, ...rest } = message;
  const url = typeof typeUrl === 'string' ? typeUrl : '/unknown';
  const codec = PROTO_CODECS[url];
  let value: Uint8Array;
  try {
    value = codec ? codec(rest) : Buffer.from(canonicalJson(rest), 'utf8');
  } catch {
    // A fixture message the codec rejects still gets deterministic bytes.
    value = Buffer.from(canonicalJson(rest), 'utf8');
  }
  return Any.fromPartial({ typeUrl: url, value });
}

function encodePubKey(pk: unknown): Any | undefined {
  if (!pk || typeof pk !== 'object') return undefined;
  const { '@type': typeUrl, key } = pk as Json;
  if (typeof typeUrl !== 'string' || typeof key !== 'string') return undefined;
  // All secp256k1 / ethsecp256k1 / ed25519 PubKey messages are `bytes key = 1`.
  const keyBytes = Buffer.from(key, 'base64');
  const value = Buffer.concat([Buffer.from([0x0a, keyBytes.length]), keyBytes]);
  return Any.fromPartial({ typeUrl, value });
}

function signMode(mode: unknown): number {
  if (typeof mode === 'number') return mode;
  const m = signModeFromJSON(mode);
  return Math.max(m, 0);
}

function encodeAuthInfo(authInfo: Json): Uint8Array {
  const fee = (authInfo.fee ?? {}) as Json;
  const signerInfos = Array.isArray(authInfo.signer_infos) ? (authInfo.signer_infos as Json[]) : [];
  return AuthInfo.encode(
    AuthInfo.fromPartial({
      signerInfos: signerInfos.map((si) =>
        SignerInfo.fromPartial({
          publicKey: encodePubKey(si.public_key),
          modeInfo: {
            single: { mode: signMode(((si.mode_info as Json | undefined)?.single as Json | undefined)?.mode) },
          },
          sequence: BigInt(String(si.sequence ?? '0')),
        }),
      ),
      fee: Fee.fromPartial({
        amount: Array.isArray(fee.amount) ? (fee.amount as Array<{ denom: string; amount: string }>) : [],
        gasLimit: BigInt(String(fee.gas_limit ?? '0')),
        payer: String(fee.payer ?? ''),
        granter: String(fee.granter ?? ''),
      }),
    }),
  ).finish();
}

/** Protobuf TxRaw bytes for a decoded Tx JSON. */
export function encodeTxRaw(tx: TxJson): Uint8Array {
  const body = tx.body;
  const bodyBytes = TxBody.encode(
    TxBody.fromPartial({
      messages: body.messages.map((m) => encodeAny(m)),
      memo: body.memo ?? '',
      timeoutHeight: BigInt(String(body.timeout_height ?? '0')),
    }),
  ).finish();
  return TxRaw.encode(
    TxRaw.fromPartial({
      bodyBytes,
      authInfoBytes: encodeAuthInfo(tx.auth_info as Json),
      signatures: (tx.signatures ?? []).map((s) => Buffer.from(s, 'base64')),
    }),
  ).finish();
}

export function sha256Hex(bytes: Uint8Array | string): string {
  // The one-shot digest: a Hash object per call was a tenth of chain-sim's CPU while serving a backfill.
  return hash('sha256', bytes, 'hex').toUpperCase();
}

/** The CometBFT tx hash rule: uppercase hex sha256 of the raw tx bytes. */
export function txHashOfRaw(rawBase64: string): string {
  return sha256Hex(Buffer.from(rawBase64, 'base64'));
}
