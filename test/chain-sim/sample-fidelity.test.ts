// Sample chains stay faithful to what a real node serves (issue 11): every tx has a signer info and a
// signature (trimmed recorded fixtures are completed), and the Ethereum txs of the EVM sample chain carry
// the ethsecp256k1 key recovered from their signature, as minievm reports it (never a schema-breaking null
// where the signature is real).
import { describe, expect, it } from 'vitest';
import { completeTrimmedTx } from '../../devnet/sample-chains/builder.js';
import { buildSample } from '../../devnet/sample-chains/serve.js';
import type { TxJson } from '../../devnet/chain-sim/types.js';

interface SignerInfo {
  public_key: { '@type': string; key: string } | null;
  mode_info: { single: { mode: string | number } };
  sequence: string;
}
const infos = (tx: TxJson) => (tx.auth_info as { signer_infos?: SignerInfo[] }).signer_infos ?? [];
const sigs = (tx: TxJson) => (tx as { signatures?: string[] }).signatures ?? [];

describe('sample chains vs real nodes', () => {
  for (const kind of ['evm', 'move', 'wasm'] as const) {
    it(`${kind}: every tx has a signer info and a signature`, () => {
      const { chain } = buildSample(kind);
      let n = 0;
      for (let h = 1; h <= chain.latestHeight(); h++)
        for (const t of chain.block(h)?.txs ?? []) {
          n++;
          expect(infos(t.tx).length, t.hash).toBeGreaterThan(0);
          expect(sigs(t.tx).length, t.hash).toBeGreaterThan(0);
        }
      expect(n).toBeGreaterThan(0);
    });
  }

  it('the trimmed Move feegrant/authz fixtures are completed like a known-key account tx', () => {
    const trimmed = { body: { messages: [] }, auth_info: { fee: {}, signer_infos: [] } } as unknown as TxJson;
    const done = completeTrimmedTx(trimmed, 'AB'.repeat(32));
    expect(infos(done)).toEqual([
      { public_key: null, mode_info: { single: { mode: 'SIGN_MODE_DIRECT' } }, sequence: '0' },
    ]);
    expect(Buffer.from(sigs(done)[0]!, 'base64')).toHaveLength(64);
    expect(completeTrimmedTx(done, 'CD'.repeat(32))).toBe(done); // complete txs are served unchanged
  });

  it('evm: Ethereum txs with a real signature carry the recovered ethsecp256k1 key', () => {
    const { chain } = buildSample('evm');
    const eth = [];
    for (let h = 1; h <= chain.latestHeight(); h++)
      for (const t of chain.block(h)?.txs ?? [])
        if (infos(t.tx)[0]?.mode_info.single.mode === 9999) eth.push(infos(t.tx)[0]!);
    const keyed = eth.filter((i) => i.public_key);
    expect(keyed.length).toBeGreaterThan(0);
    for (const i of keyed) {
      expect(i.public_key?.['@type']).toBe('/initia.crypto.v1beta1.ethsecp256k1.PubKey');
      expect(Buffer.from(i.public_key!.key, 'base64')).toHaveLength(33);
    }
  });
});
