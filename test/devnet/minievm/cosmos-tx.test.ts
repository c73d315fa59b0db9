import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sha256 } from '@cosmjs/crypto';
import { fromBase64, toHex } from '@cosmjs/encoding';
import { decodeTxRaw, makeSignBytes, makeSignDoc } from '@cosmjs/proto-signing';
import { PubKey as EthSecpPubKey } from '@initia/initia.proto/initia/crypto/v1beta1/ethsecp256k1/keys.js';
import { MsgSend } from 'cosmjs-types/cosmos/bank/v1beta1/tx';
import { SignMode } from 'cosmjs-types/cosmos/tx/signing/v1beta1/signing';
import { TxRaw } from 'cosmjs-types/cosmos/tx/v1beta1/tx';
import { deriveDevAccount, pubkeyToEvmAddress } from '../../../devnet/minievm/accounts.js';
import {
  ETHSECP_PUBKEY_TYPE_URL,
  MSG_SEND_TYPE_URL,
  buildSignedTx,
  ethSecpPubkeyAny,
  msgSendAny,
  recoverSigners,
  signDigest,
} from '../../../devnet/minievm/cosmos-tx.js';

const recorded = JSON.parse(
  readFileSync(new URL('../../../devnet/recorded/initia-tx-decoder/cosmos/evm/bank-evm.json', import.meta.url), 'utf8'),
) as { bankSendWithEvmLogTxResponse: { tx: { auth_info: { signer_infos: { public_key: { key: string } }[] } } } };

const alice = deriveDevAccount(0);
const bob = deriveDevAccount(1);

function build(mode: 'keccak' | 'keccak-eip191' = 'keccak') {
  return buildSignedTx(
    { account: alice, chainId: 'minievm-devnet-1', accountNumber: 7n, sequence: 3n },
    [msgSendAny(alice.bech32, bob.bech32, [{ denom: 'umin', amount: '12345' }])],
    { amount: [{ denom: 'umin', amount: '0' }], gasLimit: 200_000 },
    'devnet',
    mode,
  );
}

describe('ethsecp256k1 Cosmos tx building', () => {
  it('encodes the recorded chain pubkey losslessly and keeps its keccak address', () => {
    const key = fromBase64(recorded.bankSendWithEvmLogTxResponse.tx.auth_info.signer_infos[0]?.public_key.key ?? '');
    const any = ethSecpPubkeyAny(key);
    expect(any.typeUrl).toBe(ETHSECP_PUBKEY_TYPE_URL);
    expect(toHex(EthSecpPubKey.decode(any.value).key)).toBe(toHex(key));
    expect(pubkeyToEvmAddress(key).toLowerCase()).toBe('0xb395c9f2e84f75b1686fcdc62f8cb62a572b7820');
    expect(() => ethSecpPubkeyAny(key.slice(1))).toThrow(/33 bytes/);
  });

  it('produces a TxRaw whose body, auth info and hash decode back', () => {
    const { txBytes, txHash } = build();
    expect(txHash).toBe(toHex(sha256(txBytes)).toUpperCase());
    const decoded = decodeTxRaw(txBytes);
    expect(decoded.body.memo).toBe('devnet');
    expect(decoded.body.messages[0]?.typeUrl).toBe(MSG_SEND_TYPE_URL);
    const msg = MsgSend.decode(decoded.body.messages[0]?.value ?? new Uint8Array());
    expect(msg).toMatchObject({
      fromAddress: alice.bech32,
      toAddress: bob.bech32,
      amount: [{ denom: 'umin', amount: '12345' }],
    });
    const signer = decoded.authInfo.signerInfos[0];
    expect(signer?.publicKey?.typeUrl).toBe(ETHSECP_PUBKEY_TYPE_URL);
    expect(signer?.sequence).toBe(3n);
    expect(signer?.modeInfo?.single?.mode).toBe(SignMode.SIGN_MODE_DIRECT);
    expect(decoded.authInfo.fee?.gasLimit).toBe(200_000n);
    expect(decoded.signatures[0]?.length).toBe(64);
  });

  it.each(['keccak', 'keccak-eip191'] as const)(
    'signs the SIGN_MODE_DIRECT bytes so that %s recovery yields the account',
    (mode) => {
      const { txBytes } = build(mode);
      const raw = decodeTxRaw(txBytes);
      // Rebuild the sign doc the way the node does from the tx's own bytes.
      const parsed = TxRaw.decode(txBytes);
      const signBytes = makeSignBytes(makeSignDoc(parsed.bodyBytes, parsed.authInfoBytes, 'minievm-devnet-1', 7));
      const sig = raw.signatures[0] ?? new Uint8Array();
      const recovered = recoverSigners(signDigest(signBytes, mode), sig).map((a) => a.toLowerCase());
      expect(recovered).toContain(alice.evmAddress.toLowerCase());
      // low-S, which initia's verifier insists on
      const s = BigInt(`0x${toHex(sig.slice(32))}`);
      const halfN = BigInt('0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0');
      expect(s <= halfN).toBe(true);
      // a different chain id must not verify as the same signer
      const other = makeSignBytes(makeSignDoc(parsed.bodyBytes, parsed.authInfoBytes, 'other-chain', 7));
      expect(recoverSigners(signDigest(other, mode), sig).map((a) => a.toLowerCase())).not.toContain(
        alice.evmAddress.toLowerCase(),
      );
    },
  );

  it('refuses an empty message list', () => {
    expect(() =>
      buildSignedTx({ account: alice, chainId: 'c', accountNumber: 0n, sequence: 0n }, [], { amount: [], gasLimit: 1 }),
    ).toThrow(/at least one message/);
  });
});
