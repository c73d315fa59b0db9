// A large chain for the ingest benchmark: the sample chain's real txs replicated with new heights and
// hashes, produced lazily per requested block (never all in memory), served by the same chain-sim server.
//
// Replica n of a template tx differs only in its memo (`replica n`), appended to the template's protobuf
// body as a later memo field (proto3 parsers keep the last value), so raw bytes, hash and the served Tx JSON
// stay consistent without re-encoding the whole tx. Block hashes are derived from (chain id, height) so any
// block can be made without its predecessors.
import { TxRaw } from 'cosmjs-types/cosmos/tx/v1beta1/tx';
import { sealBlock, toRfc3339Nano, timeMs, makeValidator } from '../chain-sim/chain.js';
import { sha256Hex } from '../chain-sim/txcodec.js';
import type {
  SimChainSource,
  EvmSide,
  SealedBlock,
  SealedTx,
  TxInput,
  TxLocation,
  Validator,
} from '../chain-sim/types.js';
import { buildSample, type SampleChainKind } from './serve.js';

export interface ReplicatedChainOptions {
  /** Txs of the chain (uniform layout); with `blocks` set, the layout decides instead. */
  txs: number;
  /** Txs of every block (0: empty blocks only, which needs `blocks`). */
  txsPerBlock: number;
  /**
   * `realistic`: a rollup's mix instead of a uniform layout, decided per height by a hash of it (so any block can be
   * made alone): 90 % of the blocks empty, 9 % with 1–10 txs, 1 % with 100–150. Needs `blocks`.
   */
  mix?: 'realistic';
  /** The chain's height, for empty and mixed layouts. */
  blocks?: number;
  kind?: SampleChainKind;
  blockIntervalMs?: number;
  /** Sealed blocks kept for repeated requests (block + block_results + REST for one height). */
  cacheBlocks?: number;
  /**
   * Template txs with raw bytes above this size are left out (default 8 KiB): the recorded contract
   * creations carry 20–40 KB of bytecode each and would make an average replicated tx ~10× a typical one.
   */
  maxTemplateBytes?: number;
  /**
   * As on a real chain, for indexers that read the signer from the tx bytes (rollytics): leave out template txs
   * without a signer public key, and the derived ones: replayed per replica, the treasury payouts (whose mint, a
   * contract creation, is over maxTemplateBytes) would drive the treasury's balance below zero, a state no node
   * has, and rollytics then re-reads balances by eth_call, which a replicated chain cannot answer consistently. Give every replica its own signature
   * bytes (the template's with its first 8 bytes XORed with the replica number; nobody verifies them here).
   * Off by default, so the ingest benchmark's chain stays the one its published figures were taken on.
   */
  realSigners?: boolean;
}

interface Template {
  tx: SealedTx;
  body: Uint8Array;
  authInfo: Uint8Array;
  signatures: Uint8Array[];
}

function varint(n: number): number[] {
  const out: number[] = [];
  while (n > 0x7f) {
    out.push((n & 0x7f) | 0x80);
    n >>>= 7;
  }
  out.push(n);
  return out;
}

function field(tag: number, bytes: Uint8Array): Buffer {
  return Buffer.concat([Buffer.from([tag, ...varint(bytes.length)]), bytes]);
}

function hasSignerKey(t: SealedTx): boolean {
  const infos = (t.tx.auth_info as { signer_infos?: { public_key?: unknown }[] } | undefined)?.signer_infos ?? [];
  return infos.length > 0 && infos.every((i) => i.public_key != null);
}

/** The template's signature with its first 8 bytes XORed with the replica number: distinct per replica. */
function replicaSignature(sig: Uint8Array, n: number): Uint8Array {
  const out = Buffer.from(sig);
  const tag = Buffer.alloc(8);
  tag.writeBigUInt64BE(BigInt(n));
  for (let i = 0; i < Math.min(8, out.length); i++) out[i] = (out[i] ?? 0) ^ (tag[i] ?? 0);
  return out;
}

export class ReplicatedChain implements SimChainSource {
  readonly chainId: string;
  readonly vm: SampleChainKind;
  readonly evmChainId?: bigint;
  readonly validators: Validator[];
  readonly totalTxs: number;
  readonly txsPerBlock: number;
  private tip: number;
  private readonly templates: Template[];
  private readonly genesisMs: number;
  private readonly intervalMs: number;
  private readonly cache = new Map<number, SealedBlock>();
  private readonly firstTx: Float64Array;
  private readonly cacheBlocks: number;
  private readonly realSigners: boolean;
  private readonly recentTxs = new Map<string, TxLocation>();
  private readonly recentEvm = new Map<string, TxLocation>();

  constructor(o: ReplicatedChainOptions) {
    if (!Number.isSafeInteger(o.txsPerBlock) || o.txsPerBlock < 0 || o.txsPerBlock > 10_000)
      throw new Error('txsPerBlock must be 0..10000');
    const layoutByBlocks = o.mix !== undefined || o.txsPerBlock === 0;
    if (layoutByBlocks && !(Number.isSafeInteger(o.blocks) && (o.blocks ?? 0) >= 1))
      throw new Error('an empty or mixed layout needs blocks ≥ 1');
    if (!layoutByBlocks && (!Number.isSafeInteger(o.txs) || o.txs < 1))
      throw new Error('txs must be a positive integer');
    const sample = buildSample(o.kind ?? 'evm');
    this.chainId = `${sample.chain.chainId}-replicated`;
    this.vm = sample.chain.vm;
    if (sample.chain.evmChainId !== undefined) this.evmChainId = sample.chain.evmChainId;
    this.validators = [makeValidator(`${this.chainId}-validator`)];
    this.txsPerBlock = o.txsPerBlock;
    const blocks = layoutByBlocks ? o.blocks! : Math.ceil(o.txs / o.txsPerBlock);
    // firstTx[h]: the replica number of height h's first tx (firstTx[blocks + 1]: the chain's tx count).
    this.firstTx = new Float64Array(blocks + 2);
    for (let h = 1; h <= blocks; h++) {
      const n = o.mix ? mixedTxs(h) : layoutByBlocks ? 0 : Math.min(o.txsPerBlock, o.txs - (h - 1) * o.txsPerBlock);
      this.firstTx[h + 1] = this.firstTx[h]! + n;
    }
    this.totalTxs = this.firstTx[blocks + 1]!;
    this.tip = blocks;
    this.intervalMs = o.blockIntervalMs ?? 500;
    this.cacheBlocks = o.cacheBlocks ?? 64;
    this.realSigners = o.realSigners === true;
    this.genesisMs = timeMs(sample.chain.block(1)?.time ?? '2025-01-01T00:00:00Z');
    this.templates = [];
    const maxBytes = o.maxTemplateBytes ?? 8192;
    const derived = new Set(sample.manifest.txs.filter((t) => t.derived).map((t) => t.hash));
    for (let h = 1; h <= sample.chain.latestHeight(); h++) {
      for (const t of sample.chain.block(h)?.txs ?? []) {
        if ((t.rawBase64.length * 3) / 4 > maxBytes) continue;
        if (o.realSigners && (!hasSignerKey(t) || derived.has(t.hash))) continue;
        const raw = TxRaw.decode(Buffer.from(t.rawBase64, 'base64'));
        this.templates.push({ tx: t, body: raw.bodyBytes, authInfo: raw.authInfoBytes, signatures: raw.signatures });
      }
    }
    if (this.templates.length === 0) throw new Error('no template tx is small enough; raise maxTemplateBytes');
  }

  latestHeight(): number {
    return this.tip;
  }

  txCount(height: number): number {
    if (!Number.isSafeInteger(height) || height < 1 || height > this.tip) return 0;
    return this.firstTx[height + 1]! - this.firstTx[height]!;
  }

  /** Blocks currently held in memory (bounded by cacheBlocks). */
  cachedBlocks(): number {
    return this.cache.size;
  }

  /** Lowers the visible tip (to benchmark a chain that grows while being ingested); never above the total. */
  setTip(height: number): void {
    this.tip = Math.max(0, Math.min(height, this.firstTx.length - 2));
  }

  private blockHash(h: number): string {
    return h < 1 ? '' : sha256Hex(`replicated:${this.chainId}:${h}`);
  }

  private replica(n: number): TxInput {
    const t = this.templates[n % this.templates.length] as Template;
    const memo = `replica ${n}`;
    const body = Buffer.concat([t.body, field(0x12, Buffer.from(memo))]);
    const sigs = this.realSigners ? t.signatures.map((s) => replicaSignature(s, n)) : t.signatures;
    const raw = Buffer.concat([
      field(0x0a, body),
      field(0x12, t.authInfo),
      ...sigs.map((s) => field(0x1a, s)),
    ]).toString('base64');
    const evm = t.tx.evm ? this.replicaEvm(t.tx.evm, n) : undefined;
    const tx = { ...t.tx.tx, body: { ...t.tx.tx.body, memo } };
    if (this.realSigners) tx.signatures = sigs.map((s) => Buffer.from(s).toString('base64'));
    return { tx, raw, result: t.tx.result, ...(evm ? { evm } : {}) };
  }

  /** EVM hashes of replicas are sha256 of the replica number (hashing the raw tx twice would double the cost). */
  private replicaEvm(evm: EvmSide, n: number): EvmSide {
    const hashes = evm.receipts.map((_r, i) => `0x${sha256Hex(`replica-evm:${n}:${i}`).toLowerCase()}`);
    const byOld = new Map(evm.receipts.map((r, i) => [r.transactionHash, hashes[i] as string]));
    return {
      txs: evm.txs.map((x) => ({ ...x, hash: byOld.get(x.hash) ?? x.hash })),
      receipts: evm.receipts.map((r, i) => ({ ...r, transactionHash: hashes[i] as string })),
      ...(evm.traces ? { traces: evm.traces } : {}),
    };
  }

  block(height: number): SealedBlock | undefined {
    if (!Number.isSafeInteger(height) || height < 1 || height > this.tip) return undefined;
    const hit = this.cache.get(height);
    if (hit) return hit;
    const first = this.firstTx[height]!;
    const count = this.firstTx[height + 1]! - first;
    const txs: TxInput[] = [];
    for (let i = 0; i < count; i++) txs.push(this.replica(first + i));
    const block = sealBlock({
      chainId: this.chainId,
      height,
      time: toRfc3339Nano(new Date(this.genesisMs + (height - 1) * this.intervalMs)),
      proposer: this.validators[0]?.consensusAddress ?? '',
      lastBlockHash: this.blockHash(height - 1),
      lastAppHash: '',
      input: { txs },
      hash: this.blockHash(height),
      appHash: sha256Hex(`replicated-app:${this.chainId}:${height}`),
    });
    this.cache.set(height, block);
    for (const t of block.txs) {
      this.recentTxs.set(t.hash, { height, index: t.index });
      for (const r of t.evm?.receipts ?? []) this.recentEvm.set(r.transactionHash, { height, index: t.index });
    }
    if (this.cache.size > this.cacheBlocks) {
      const oldest = this.cache.keys().next().value as number;
      for (const t of this.cache.get(oldest)?.txs ?? []) {
        this.recentTxs.delete(t.hash);
        for (const r of t.evm?.receipts ?? []) this.recentEvm.delete(r.transactionHash);
      }
      this.cache.delete(oldest);
    }
    return block;
  }

  /** Only txs of recently produced blocks can be found by hash (the chain is never materialised). */
  txByHash(hash: string): TxLocation | undefined {
    return this.recentTxs.get(hash.toUpperCase());
  }

  evmTxByHash(hash: string): TxLocation | undefined {
    return this.recentEvm.get(hash.toLowerCase());
  }
}

/** Txs of height h in the realistic mix: 90 % empty, 9 % 1–10 txs, 1 % 100–150 (a hash of h decides). */
export function mixedTxs(h: number): number {
  // A 32-bit integer hash (lowbias32): deterministic, and even enough over consecutive heights.
  let x = h >>> 0;
  x ^= x >>> 16;
  x = Math.imul(x, 0x7feb352d);
  x ^= x >>> 15;
  x = Math.imul(x, 0x846ca68b);
  x ^= x >>> 16;
  const r = (x >>> 0) % 10_000;
  if (r < 9000) return 0;
  if (r < 9900) return 1 + (r % 10);
  return 100 + (r % 51);
}

export function generateReplicatedChain(o: ReplicatedChainOptions): ReplicatedChain {
  return new ReplicatedChain(o);
}
