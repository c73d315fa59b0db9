// Builds and signs Cosmos txs for minievm accounts (ethsecp256k1 keys).
//
// cosmjs' SigningStargateClient only knows /cosmos.crypto.secp256k1.PubKey,
// whose address is ripemd160(sha256(pubkey)): that does not match a minievm
// account (keccak address), so the node would reject the signer. We therefore
// assemble TxBody/AuthInfo ourselves with the pubkey typed as
// /initia.crypto.v1beta1.ethsecp256k1.PubKey and sign SIGN_MODE_DIRECT bytes
// the way initia's ethsecp256k1.PubKey.VerifySignature checks them: ECDSA over
// keccak256(signBytes), 64-byte r||s, low-S.
import { sha256 } from '@cosmjs/crypto';
import { fromHex, toHex } from '@cosmjs/encoding';
import { makeAuthInfoBytes, makeSignBytes, makeSignDoc } from '@cosmjs/proto-signing';
import { PubKey as EthSecpPubKey } from '@initia/initia.proto/initia/crypto/v1beta1/ethsecp256k1/keys.js';
import type { Coin } from 'cosmjs-types/cosmos/base/v1beta1/coin';
import { MsgSend } from 'cosmjs-types/cosmos/bank/v1beta1/tx';
import { SignMode } from 'cosmjs-types/cosmos/tx/signing/v1beta1/signing';
import { TxBody, TxRaw } from 'cosmjs-types/cosmos/tx/v1beta1/tx';
import type { Any } from 'cosmjs-types/google/protobuf/any';
import { SigningKey, Signature, keccak256, toUtf8Bytes, concat } from 'ethers';
import type { DevAccount } from './accounts.js';

export const ETHSECP_PUBKEY_TYPE_URL = '/initia.crypto.v1beta1.ethsecp256k1.PubKey';
export const MSG_SEND_TYPE_URL = '/cosmos.bank.v1beta1.MsgSend';
const EIP191_PREFIX = '\x19Ethereum Signed Message:\n';

export interface SignerContext {
  account: DevAccount;
  chainId: string;
  accountNumber: bigint;
  sequence: bigint;
}

export interface FeeSpec {
  amount: Coin[];
  gasLimit: number;
}

export interface SignedTx {
  txBytes: Uint8Array;
  /** uppercase hex SHA-256 of txBytes, as CometBFT and the REST API report it */
  txHash: string;
}

/**
 * Newer initia key code prefixes EIP-191 when the CLI signs; VerifySignature
 * does not. The node is the judge: the traffic generator signs plain first and
 * retries with the prefix if CheckTx answers "signature verification failed".
 */
export type DigestMode = 'keccak' | 'keccak-eip191';

export function ethSecpPubkeyAny(compressedPubkey: Uint8Array): Any {
  if (compressedPubkey.length !== 33)
    throw new Error(`ethsecp256k1 pubkey must be 33 bytes, got ${compressedPubkey.length}`);
  return { typeUrl: ETHSECP_PUBKEY_TYPE_URL, value: EthSecpPubKey.encode({ key: compressedPubkey }).finish() };
}

export function signDigest(signBytes: Uint8Array, mode: DigestMode): string {
  if (mode === 'keccak') return keccak256(signBytes);
  return keccak256(concat([toUtf8Bytes(`${EIP191_PREFIX}${signBytes.length}`), signBytes]));
}

/** 64-byte r||s; ethers always produces low-S, which initia requires. */
export function signSecp(privateKey: string, digest: string): Uint8Array {
  const sig = new SigningKey(privateKey).sign(digest);
  return fromHex(`${sig.r.slice(2)}${sig.s.slice(2)}`);
}

/** Recovers the signer's EVM address from a 64-byte signature (tries both recovery ids). */
export function recoverSigners(digest: string, sig64: Uint8Array): string[] {
  const r = `0x${toHex(sig64.slice(0, 32))}`;
  const s = `0x${toHex(sig64.slice(32, 64))}`;
  return [27, 28]
    .map((v) => SigningKey.recoverPublicKey(digest, Signature.from({ r, s, v })))
    .map((pk) =>
      // computeAddress via ethers' SigningKey public key
      keccakAddress(pk),
    );
}

function keccakAddress(uncompressedPubkey: string): string {
  const bytes = fromHex(uncompressedPubkey.slice(4)); // drop 0x04
  return `0x${keccak256(bytes).slice(-40)}`;
}

export function buildSignedTx(
  ctx: SignerContext,
  messages: Any[],
  fee: FeeSpec,
  memo = '',
  mode: DigestMode = 'keccak',
): SignedTx {
  if (messages.length === 0) throw new Error('a tx needs at least one message');
  const bodyBytes = TxBody.encode(TxBody.fromPartial({ messages, memo })).finish();
  const pubkey = ethSecpPubkeyAny(fromHex(ctx.account.publicKey.slice(2)));
  const authInfoBytes = makeAuthInfoBytes(
    [{ pubkey, sequence: ctx.sequence }],
    fee.amount,
    fee.gasLimit,
    undefined,
    undefined,
    SignMode.SIGN_MODE_DIRECT,
  );
  // makeSignDoc takes a JS number; account numbers on a devnet are tiny.
  const signDoc = makeSignDoc(bodyBytes, authInfoBytes, ctx.chainId, Number(ctx.accountNumber));
  const signature = signSecp(ctx.account.privateKey, signDigest(makeSignBytes(signDoc), mode));
  const txBytes = TxRaw.encode(TxRaw.fromPartial({ bodyBytes, authInfoBytes, signatures: [signature] })).finish();
  return { txBytes, txHash: toHex(sha256(txBytes)).toUpperCase() };
}

export function msgSendAny(fromAddress: string, toAddress: string, amount: Coin[]): Any {
  return {
    typeUrl: MSG_SEND_TYPE_URL,
    value: MsgSend.encode(MsgSend.fromPartial({ fromAddress, toAddress, amount })).finish(),
  };
}
