// Protobuf encoding of the OPinit token-bridge messages the router returns as JSON (its snake_case, the proto
// field names), so the tests sign them as a wallet would. Field numbers are OPinit v1.2's
// (proto/opinit/ophost/v1/tx.proto, proto/opinit/opchild/v1/tx.proto); no generated types exist on npm.
import { BinaryWriter } from 'cosmjs-types/binary';
import { Coin } from 'cosmjs-types/cosmos/base/v1beta1/coin';
import type { Any } from 'cosmjs-types/google/protobuf/any';
import { MsgCall } from '@initia/initia.proto/minievm/evm/v1/tx.js';
import { MSG_CALL } from '../../routing/ophook.js';

export const OPINIT_TYPE_URL = {
  deposit: '/opinit.ophost.v1.MsgInitiateTokenDeposit',
  withdraw: '/opinit.opchild.v1.MsgInitiateTokenWithdrawal',
  finalizeWithdrawal: '/opinit.ophost.v1.MsgFinalizeTokenWithdrawal',
} as const;

type JsonCoin = { denom: string; amount: string };
const b64 = (s: string) => Uint8Array.from(Buffer.from(s, 'base64'));
const coin = (w: BinaryWriter, field: number, c: JsonCoin) =>
  Coin.encode(c, w.uint32((field << 3) | 2).fork()).ldelim();
const str = (w: BinaryWriter, field: number, s: string | undefined) => {
  if (s) w.uint32((field << 3) | 2).string(s);
};
const u64 = (w: BinaryWriter, field: number, v: string | number | undefined) => {
  if (v !== undefined && BigInt(v) !== 0n) w.uint32(field << 3).uint64(BigInt(v));
};
const bytes = (w: BinaryWriter, field: number, s: string | undefined) => {
  if (s) w.uint32((field << 3) | 2).bytes(b64(s));
};

/** MsgInitiateTokenDeposit {sender=1, bridge_id=2, to=3, amount=4, data=5 (bytes; base64 in the JSON: the signed hook)}. */
function deposit(m: { sender: string; bridge_id: string; to: string; amount: JsonCoin; data?: string }): Uint8Array {
  const w = BinaryWriter.create();
  str(w, 1, m.sender);
  u64(w, 2, m.bridge_id);
  str(w, 3, m.to);
  coin(w, 4, m.amount);
  bytes(w, 5, m.data);
  return w.finish();
}

/** MsgInitiateTokenWithdrawal {sender=1, to=2, amount=4}. */
function withdraw(m: { sender: string; to: string; amount: JsonCoin }): Uint8Array {
  const w = BinaryWriter.create();
  str(w, 1, m.sender);
  str(w, 2, m.to);
  coin(w, 4, m.amount);
  return w.finish();
}

/**
 * MsgFinalizeTokenWithdrawal {sender=1, bridge_id=2, output_index=3, withdrawal_proofs=4 (repeated bytes), from=5,
 * to=6, sequence=7, amount=8, version=9, storage_root=10, last_block_hash=11}; bytes are base64 in the JSON.
 */
function finalizeWithdrawal(m: {
  sender: string;
  bridge_id: string;
  output_index: string;
  withdrawal_proofs?: string[];
  from: string;
  to: string;
  sequence: string;
  amount: JsonCoin;
  version?: string;
  storage_root?: string;
  last_block_hash?: string;
}): Uint8Array {
  const w = BinaryWriter.create();
  str(w, 1, m.sender);
  u64(w, 2, m.bridge_id);
  u64(w, 3, m.output_index);
  for (const p of m.withdrawal_proofs ?? []) w.uint32((4 << 3) | 2).bytes(b64(p));
  str(w, 5, m.from);
  str(w, 6, m.to);
  u64(w, 7, m.sequence);
  coin(w, 8, m.amount);
  bytes(w, 9, m.version);
  bytes(w, 10, m.storage_root);
  bytes(w, 11, m.last_block_hash);
  return w.finish();
}

/** minievm's MsgCall from the JSON /op-hook returns (its snake_case proto field names). */
function evmCall(m: {
  sender: string;
  contract_addr: string;
  input: string;
  value?: string;
  access_list?: unknown[];
  auth_list?: unknown[];
}): Uint8Array {
  if ((m.access_list?.length ?? 0) > 0 || (m.auth_list?.length ?? 0) > 0)
    throw new Error('MsgCall with an access or auth list: not produced by /op-hook, not encoded here');
  return MsgCall.encode(
    MsgCall.fromPartial({ sender: m.sender, contractAddr: m.contract_addr, input: m.input, value: m.value ?? '0' }),
  ).finish();
}

/** The router's `{msg, msg_type_url}` (JSON) → protobuf Any: the three OPinit messages and an op-hook's MsgCall. */
export function opinitMsgAny(m: { msg: string; msg_type_url: string }): Any {
  const json = JSON.parse(m.msg);
  switch (m.msg_type_url) {
    case OPINIT_TYPE_URL.deposit:
      return { typeUrl: m.msg_type_url, value: deposit(json) };
    case OPINIT_TYPE_URL.withdraw:
      return { typeUrl: m.msg_type_url, value: withdraw(json) };
    case OPINIT_TYPE_URL.finalizeWithdrawal:
      return { typeUrl: m.msg_type_url, value: finalizeWithdrawal(json) };
    case MSG_CALL:
      return { typeUrl: m.msg_type_url, value: evmCall(json) };
    default:
      throw new Error(`not an OPinit token message or an op-hook call: ${m.msg_type_url}`);
  }
}
