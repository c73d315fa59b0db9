// Shared sample-chain builder: recorded txs (and derived ones) → blocks of a SimChain + a manifest
// that says where every tx landed, so tests can assert concrete values against what is served.
import { fromBech32, fromHex, toBase64, toBech32, toHex } from '@cosmjs/encoding';
import { ripemd160, sha256 } from '@cosmjs/crypto';
import { makeSignBytes, makeSignDoc } from '@cosmjs/proto-signing';
import type { Coin } from 'cosmjs-types/cosmos/base/v1beta1/coin';
import { TxRaw } from 'cosmjs-types/cosmos/tx/v1beta1/tx';
import { SigningKey, computeAddress } from 'ethers';
import { SimChain, makeValidator, toRfc3339Nano, timeMs } from '../chain-sim/chain.js';
import { encodeTxRaw, txHashOfRaw } from '../chain-sim/txcodec.js';
import type { EvmSide, TxInput, TxJson, TxResult } from '../chain-sim/types.js';
import { loadExport, type RecordedTxResponse } from './fixtures.js';

export interface SampleTxOrigin {
  file: string;
  export: string;
  /** Hash of the recorded tx (Cosmos hash, or EVM hash for EVM-only payloads); '' for derived txs. */
  originalHash: string;
  originalHeight?: string;
  originalTime?: string;
  /** True for txs the builder made by replicating real logs with new recipients / amounts / ids. */
  derived: boolean;
  note?: string;
}

export interface SampleTx {
  tx: TxJson;
  result: TxResult;
  origin: SampleTxOrigin;
  /** EVM side; may depend on the tx's own Cosmos hash (minievm mirror txs carry it as input). */
  evm?: EvmSide | ((cosmosHash: string) => EvmSide | undefined);
}

export interface ManifestTx {
  height: number;
  index: number;
  hash: string;
  code: number;
  signer: string;
  msgTypes: string[];
  evmTxHashes: string[];
  originalHash: string;
  file: string;
  export: string;
  derived: boolean;
  note?: string;
}

export interface SampleManifest {
  chainId: string;
  vm: 'evm' | 'move' | 'wasm';
  evmChainId?: string;
  latestHeight: number;
  txs: ManifestTx[];
  /** Original fixture hash → sample-chain hash (uppercase hex). */
  hashByOriginal: Record<string, string>;
  notes: string[];
}

/** SampleTx from a recorded LCD tx_response. */
export function fromRecorded(file: string, exportName: string, note?: string): SampleTx {
  const r = loadExport<RecordedTxResponse>(file, exportName);
  return fromTxResponse(r, {
    file,
    export: exportName,
    originalHash: r.txhash,
    originalHeight: r.height,
    originalTime: r.timestamp,
    derived: false,
    ...(note ? { note } : {}),
  });
}

/**
 * Some recorded fixtures were trimmed upstream (Move's mixed feegrant/authz tx): `signer_infos: []`, no
 * signatures and no ante-handler events, which no real tx has, and the signer's key is lost for good (an
 * explorer's schema rejects a missing key). Such a tx is re-signed: its signer is replaced, in the tx and its
 * events, by the account of a sample secp256k1 key (deterministic per recorded hash), which signs the tx's own
 * SIGN_MODE_DIRECT bytes (account number 0, sequence 0), and the ante handler's `tx` events (fee / fee_payer,
 * acc_seq, signature) are added as a node emits them. Complete txs are returned unchanged; the origin's note says
 * what was replaced.
 */
export function resignTrimmedTx(t: SampleTx, chainId: string): SampleTx {
  const authInfo = (t.tx.auth_info ?? {}) as { signer_infos?: unknown[]; fee?: { amount?: Coin[] } };
  const signatures = (t.tx as { signatures?: unknown[] }).signatures;
  if ((authInfo.signer_infos?.length ?? 0) > 0 && (signatures?.length ?? 0) > 0) return t;
  const old = signerOf(t.tx, t.result);
  const { prefix, data } = fromBech32(old);
  const key = new SigningKey(sha256(new TextEncoder().encode(`chain-sim re-signed ${t.origin.originalHash}`)));
  const pub = fromHex(key.compressedPublicKey.slice(2));
  const signer = toBech32(prefix, ripemd160(sha256(pub)));
  const oldHex = `0x${toHex(data)}`;
  const newHex = `0x${toHex(ripemd160(sha256(pub)))}`;
  const swap = <T>(v: T): T => JSON.parse(JSON.stringify(v).split(old).join(signer).split(oldHex).join(newHex)) as T;
  const tx = swap(t.tx);
  const signerInfo = {
    public_key: { '@type': '/cosmos.crypto.secp256k1.PubKey', key: toBase64(pub) },
    mode_info: { single: { mode: 'SIGN_MODE_DIRECT' } },
    sequence: '0',
  };
  const unsigned = { ...tx, auth_info: { ...(tx.auth_info as object), signer_infos: [signerInfo] }, signatures: [] };
  const raw = TxRaw.decode(encodeTxRaw(unsigned as TxJson));
  const digest = sha256(makeSignBytes(makeSignDoc(raw.bodyBytes, raw.authInfoBytes, chainId, 0)));
  const sig = key.sign(digest);
  const signature = toBase64(fromHex(`${sig.r.slice(2)}${sig.s.slice(2)}`));
  const fee = (authInfo.fee?.amount ?? []).map((c) => `${c.amount}${c.denom}`).join(',');
  const events = swap(t.result.events);
  const ante = [
    {
      type: 'tx',
      attributes: [
        { key: 'fee', value: fee },
        { key: 'fee_payer', value: signer },
      ],
    },
    { type: 'tx', attributes: [{ key: 'acc_seq', value: `${signer}/0` }] },
    { type: 'tx', attributes: [{ key: 'signature', value: signature }] },
  ];
  const note = `re-signed: the recorded fixture was trimmed of its signature; signer ${old} replaced by the sample key account ${signer}`;
  return {
    ...t,
    tx: { ...unsigned, signatures: [signature] } as TxJson,
    result: { ...t.result, events: events.some((e) => e.type === 'tx') ? events : [...ante, ...events] },
    origin: { ...t.origin, note: t.origin.note ? `${t.origin.note}; ${note}` : note },
  };
}

export function fromTxResponse(r: RecordedTxResponse, origin: SampleTxOrigin): SampleTx {
  return {
    tx: r.tx,
    result: {
      code: r.code,
      codespace: r.codespace ?? '',
      data: r.data ?? '',
      log: r.raw_log ?? '',
      info: r.info ?? '',
      gas_wanted: r.gas_wanted,
      gas_used: r.gas_used,
      events: r.events,
    },
    origin,
  };
}

const SIGNER_FIELDS = [
  'sender',
  'from_address',
  'signer',
  'delegator_address',
  'authority',
  'granter',
  'creator',
  'admin',
];
/** The `cosmos.msg.v1.signer` field where the generic order would pick the wrong one. */
const SIGNER_FIELD_BY_TYPE: Record<string, string> = { '/cosmos.authz.v1beta1.MsgExec': 'grantee' };

/** Account of a signer public key, by the chain's rule: secp256k1 ripemd160(sha256(key)), ethsecp256k1 keccak (EVM address). */
function accountOfPubKey(pk: unknown): string | undefined {
  if (!pk || typeof pk !== 'object') return undefined;
  const { '@type': type, key } = pk as { '@type'?: string; key?: string };
  if (typeof type !== 'string' || typeof key !== 'string' || !key) return undefined;
  const bytes = Buffer.from(key, 'base64');
  if (type.endsWith('ethsecp256k1.PubKey'))
    return toBech32('init', Buffer.from(computeAddress(`0x${bytes.toString('hex')}`).slice(2), 'hex'));
  if (type.endsWith('secp256k1.PubKey')) return toBech32('init', ripemd160(sha256(bytes)));
  return undefined;
}

/**
 * The first signer: the account of `signer_infos[0]`'s public key; without one, the address of the ante
 * handler's `acc_seq` (`<address>/<sequence>`), else the fee payer, else the first signer-like field of the
 * first message. (`fee_payer` alone is wrong when a fee granter pays.)
 */
export function signerOf(tx: TxJson, result: TxResult): string {
  const signerInfos = (tx.auth_info as { signer_infos?: Array<{ public_key?: unknown }> }).signer_infos;
  const fromKey = accountOfPubKey(signerInfos?.[0]?.public_key);
  if (fromKey) return fromKey;
  const txAttr = (key: string): string | undefined =>
    result.events
      .filter((e) => e.type === 'tx')
      .flatMap((e) => e.attributes)
      .find((a) => a.key === key)?.value;
  const accSeq = txAttr('acc_seq');
  if (accSeq?.includes('/')) return accSeq.slice(0, accSeq.lastIndexOf('/'));
  const payer = txAttr('fee_payer');
  if (payer) return payer;
  const first = tx.body.messages[0] ?? {};
  const byType = SIGNER_FIELD_BY_TYPE[String(first['@type'] ?? '')];
  for (const f of byType ? [byType] : SIGNER_FIELDS) if (typeof first[f] === 'string') return first[f] as string;
  return '';
}

export interface BuildOptions {
  chainId: string;
  vm: 'evm' | 'move' | 'wasm';
  evmChainId?: bigint;
  moniker: string;
  /** Block spacing; the first block takes the earliest recorded time of the txs. */
  blockIntervalMs: number;
  /** Txs per block, cycled (0 = an empty block). */
  layout: number[];
  txs: SampleTx[];
  notes?: string[];
}

/** Appends the txs in order into blocks following the layout; returns the chain and its manifest. */
export function buildSampleChain(o: BuildOptions): { chain: SimChain; manifest: SampleManifest } {
  const validator = makeValidator(o.moniker);
  const firstTime =
    o.txs
      .map((t) => t.origin.originalTime)
      .filter((t): t is string => !!t)
      .sort()[0] ?? '2025-06-01T00:00:00Z';
  const chain = new SimChain({
    chainId: o.chainId,
    vm: o.vm,
    ...(o.evmChainId !== undefined ? { evmChainId: o.evmChainId } : {}),
    validators: [validator],
    genesisTime: toRfc3339Nano(firstTime),
    blockIntervalMs: o.blockIntervalMs,
  });
  const manifest: SampleManifest = {
    chainId: o.chainId,
    vm: o.vm,
    ...(o.evmChainId !== undefined ? { evmChainId: o.evmChainId.toString() } : {}),
    latestHeight: 0,
    txs: [],
    hashByOriginal: {},
    notes: o.notes ?? [],
  };
  let next = 0;
  let slot = 0;
  const start = timeMs(toRfc3339Nano(firstTime));
  while (next < o.txs.length) {
    const count = o.layout.length ? (o.layout[slot++ % o.layout.length] ?? 1) : 1;
    const batch = o.txs.slice(next, next + count);
    next += batch.length;
    for (let i = 0; i < batch.length; i++) batch[i] = resignTrimmedTx(batch[i]!, o.chainId);
    const inputs: TxInput[] = batch.map((t) => {
      const raw = Buffer.from(encodeTxRaw(t.tx)).toString('base64');
      const evm = typeof t.evm === 'function' ? t.evm(txHashOfRaw(raw).toLowerCase()) : t.evm;
      return { tx: t.tx, raw, result: t.result, ...(evm ? { evm } : {}) };
    });
    // Block times advance by the interval, with a small deterministic jitter (real blocks are not metronomic).
    const height = chain.latestHeight() + 1;
    const jitter = (height * 37) % 113;
    const sealed = chain.appendBlock({
      time: new Date(start + (height - 1) * o.blockIntervalMs + jitter).toISOString(),
      txs: inputs,
    });
    sealed.txs.forEach((st, i) => {
      const t = batch[i] as SampleTx;
      manifest.txs.push({
        height: st.height,
        index: st.index,
        hash: st.hash,
        code: st.result.code,
        signer: signerOf(st.tx, st.result),
        msgTypes: st.tx.body.messages.map((m) => String(m['@type'] ?? '')),
        evmTxHashes: st.evm?.receipts.map((r) => r.transactionHash) ?? [],
        originalHash: t.origin.originalHash,
        file: t.origin.file,
        export: t.origin.export,
        derived: t.origin.derived,
        ...(t.origin.note ? { note: t.origin.note } : {}),
      });
      if (t.origin.originalHash && !t.origin.derived) manifest.hashByOriginal[t.origin.originalHash] = st.hash;
    });
  }
  manifest.latestHeight = chain.latestHeight();
  return { chain, manifest };
}

/** Drops recorded txs that are the same tx exported twice (same original hash), keeping the first. */
export function dedupeByOriginalHash(txs: SampleTx[]): SampleTx[] {
  const seen = new Set<string>();
  return txs.filter((t) => {
    if (!t.origin.originalHash || t.origin.derived) return true;
    if (seen.has(t.origin.originalHash)) return false;
    seen.add(t.origin.originalHash);
    return true;
  });
}

/** Orders recorded txs by their original time (stable), the order they happened on their chain. */
export function byOriginalTime(txs: SampleTx[]): SampleTx[] {
  return txs
    .map((t, i) => ({ t, i }))
    .sort((a, b) => (a.t.origin.originalTime ?? '').localeCompare(b.t.origin.originalTime ?? '') || a.i - b.i)
    .map((x) => x.t);
}
