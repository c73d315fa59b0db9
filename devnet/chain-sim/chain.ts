// The in-memory chain model: tests (or a timer) append blocks; the server reads sealed blocks.
import { toBech32 } from '@cosmjs/encoding';
import { createHash } from 'node:crypto';
import type { BlockInput, SimChainSource, EvmSide, SealedBlock, SealedTx, TxLocation, Validator } from './types.js';
import type { AbciEvent } from '../../chain/events.js';
import { canonicalJson, encodeTxRaw, sha256Hex, txHashOfRaw } from './txcodec.js';

export const EMPTY_SHA256 = sha256Hex(new Uint8Array());

/** Go's RFC3339Nano: fraction kept to nanoseconds, trailing zeros trimmed, always UTC. */
export function toRfc3339Nano(input: string | Date): string {
  const s = typeof input === 'string' ? input : input.toISOString();
  const m = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/.exec(s);
  if (!m) throw new Error(`invalid RFC3339 time: ${s}`);
  let base = m[1] ?? '';
  let frac = m[2] ?? '';
  if (m[3] !== 'Z') {
    // Normalise offsets to UTC via Date (loses nothing above milliseconds except the extra digits we re-append).
    const d = new Date(`${base}${m[3]}`);
    base = d.toISOString().slice(0, 19);
  }
  frac = frac.replace(/0+$/, '');
  return frac ? `${base}.${frac}Z` : `${base}Z`;
}

/** Milliseconds since epoch of an RFC3339Nano time (sub-ms digits dropped). */
export function timeMs(t: string): number {
  return Date.parse(t.replace(/\.(\d{3})\d*Z$/, '.$1Z'));
}

/** A deterministic validator: pubkey from the moniker, address by the CometBFT rule sha256(pubkey)[:20]. */
export function makeValidator(moniker: string): Validator {
  const pub = createHash('sha256').update(`chain-sim validator ${moniker}`).digest();
  const consensusAddress = createHash('sha256').update(pub).digest().subarray(0, 20).toString('hex').toUpperCase();
  // The operator address is the valoper of the consensus address, as OPinit's launch tools set it: rollytics
  // looks a block's proposer up as `/opinit/opchild/v1/validator/<valoper of proposer_address>`.
  return {
    moniker,
    operatorAddress: toBech32('initvaloper', Buffer.from(consensusAddress, 'hex')),
    consensusPubkey: pub.toString('base64'),
    consensusAddress,
  };
}

const hex = (n: number | bigint): string => `0x${n.toString(16)}`;

/**
 * Writes block position fields into EVM receipts / txs / logs (the chain, not the caller, owns them), as
 * minievm v1.2.18's indexer does (indexer/abci.go): transactionIndex counts the block's EVM txs from 1, and
 * logIndex restarts at 0 in every receipt (test/fixtures/minievm-devnet).
 */
function sealEvm(
  evm: EvmSide,
  height: number,
  blockHashHex: string,
  counters: { tx: number; log: number; gas: bigint },
): EvmSide {
  const blockHash = `0x${blockHashHex.toLowerCase()}`;
  const blockNumber = hex(height);
  const receipts = evm.receipts.map((r) => {
    const transactionIndex = hex(++counters.tx);
    counters.gas += BigInt(r.gasUsed);
    return {
      ...r,
      blockHash,
      blockNumber,
      transactionIndex,
      cumulativeGasUsed: hex(counters.gas),
      logs: r.logs.map((l, logIndex) => ({
        ...l,
        blockNumber,
        blockHash,
        transactionHash: r.transactionHash,
        transactionIndex,
        logIndex: hex(logIndex),
        removed: false,
      })),
    };
  });
  const txs = evm.txs.map((t) => {
    const receipt = receipts.find((r) => r.transactionHash === t.hash);
    return { ...t, blockHash, blockNumber, transactionIndex: receipt?.transactionIndex ?? null };
  });
  return { txs, receipts, ...(evm.traces ? { traces: evm.traces } : {}) };
}

export interface SealInput {
  chainId: string;
  height: number;
  time: string;
  proposer: string;
  lastBlockHash: string;
  lastAppHash: string;
  input: BlockInput;
  /** Fixed block / app hash (the lazy replicated chain derives them from the height, so blocks can be made in any order). */
  hash?: string;
  appHash?: string;
}

/** Seals one block: tx hashes from raw bytes, block hash from a canonical encoding, EVM positions. */
export function sealBlock(s: SealInput): SealedBlock {
  const prepared = s.input.txs.map((t) => {
    const rawBase64 = t.raw ?? Buffer.from(encodeTxRaw(t.tx)).toString('base64');
    return { t, rawBase64, hash: txHashOfRaw(rawBase64) };
  });
  // data_hash: sha256 over the concatenated tx hashes (real CometBFT uses a merkle root; an empty block gives
  // the same E3B0… value as a real node).
  const dataHash =
    prepared.length === 0 ? EMPTY_SHA256 : sha256Hex(Buffer.from(prepared.map((p) => p.hash).join(''), 'hex'));
  const appHash = s.appHash ?? sha256Hex(`${s.lastAppHash}${dataHash}`);
  const hash =
    s.hash ?? sha256Hex(canonicalJson([s.chainId, s.height, s.time, s.proposer, s.lastBlockHash, dataHash, appHash]));
  const counters = { tx: 0, log: 0, gas: 0n };
  const txs: SealedTx[] = prepared.map((p, index) => ({
    height: s.height,
    index,
    hash: p.hash,
    rawBase64: p.rawBase64,
    tx: p.t.tx,
    result: p.t.result,
    ...(p.t.evm ? { evm: sealEvm(p.t.evm, s.height, hash, counters) } : {}),
  }));
  return {
    chainId: s.chainId,
    height: s.height,
    time: s.time,
    proposer: s.proposer,
    hash,
    lastBlockHash: s.lastBlockHash,
    appHash,
    dataHash,
    txs,
    finalizeBlockEvents: s.input.finalizeBlockEvents ?? [],
    cache: new Map(),
  };
}

export interface SimChainOptions {
  chainId: string;
  vm?: 'evm' | 'move' | 'wasm';
  evmChainId?: bigint;
  validators?: Validator[];
  /** First block time when the first appended block has none. */
  genesisTime?: string;
  /** Default spacing between blocks without an explicit time. */
  blockIntervalMs?: number;
}

/** In-memory chain with full indexes (tx hash, EVM hash, events) for tx / tx_search / eth lookups. */
export class SimChain implements SimChainSource {
  readonly chainId: string;
  readonly vm: 'evm' | 'move' | 'wasm';
  readonly evmChainId?: bigint;
  readonly validators: Validator[];
  private readonly blocks: SealedBlock[] = [];
  private readonly byHash = new Map<string, TxLocation>();
  private readonly byEvmHash = new Map<string, TxLocation>();
  private readonly byEvent = new Map<string, TxLocation[]>();
  private readonly listeners = new Set<(b: SealedBlock) => void>();
  private readonly intervalMs: number;
  private readonly genesisTime: string;
  private timer: NodeJS.Timeout | undefined;

  constructor(opts: SimChainOptions) {
    this.chainId = opts.chainId;
    this.vm = opts.vm ?? 'move';
    if (opts.evmChainId !== undefined) this.evmChainId = opts.evmChainId;
    this.validators = opts.validators ?? [makeValidator(`${opts.chainId}-validator`)];
    if (this.validators.length === 0) throw new Error('a chain needs at least one validator');
    this.intervalMs = opts.blockIntervalMs ?? 500;
    this.genesisTime = toRfc3339Nano(opts.genesisTime ?? '2025-01-01T00:00:00Z');
  }

  latestHeight(): number {
    return this.blocks.length;
  }

  block(height: number): SealedBlock | undefined {
    return this.blocks[height - 1];
  }

  txByHash(hash: string): TxLocation | undefined {
    return this.byHash.get(hash.toUpperCase());
  }

  evmTxByHash(hash: string): TxLocation | undefined {
    return this.byEvmHash.get(hash.toLowerCase());
  }

  txsWithEvent(typeKey: string, value: string): TxLocation[] {
    return this.byEvent.get(`${typeKey}=${value}`) ?? [];
  }

  /** Appends and seals a block; heights start at 1. Returns the sealed block. */
  appendBlock(input: BlockInput): SealedBlock {
    const prev = this.blocks[this.blocks.length - 1];
    const height = this.blocks.length + 1;
    const time = input.time
      ? toRfc3339Nano(input.time)
      : prev
        ? toRfc3339Nano(new Date(timeMs(prev.time) + this.intervalMs))
        : this.genesisTime;
    if (prev && timeMs(time) < timeMs(prev.time))
      throw new Error(`block time ${time} is before the previous block time ${prev.time}`);
    const firstValidator = this.validators[(height - 1) % this.validators.length] ?? this.validators[0];
    const proposer = (input.proposer ?? firstValidator?.consensusAddress ?? '').toUpperCase();
    const block = sealBlock({
      chainId: this.chainId,
      height,
      time,
      proposer,
      lastBlockHash: prev?.hash ?? '',
      lastAppHash: prev?.appHash ?? '',
      input,
    });
    for (const tx of block.txs) {
      if (this.byHash.has(tx.hash)) throw new Error(`duplicate tx ${tx.hash} at height ${height}`);
      const loc = { height, index: tx.index };
      this.byHash.set(tx.hash, loc);
      for (const r of tx.evm?.receipts ?? []) this.byEvmHash.set(r.transactionHash.toLowerCase(), loc);
      this.indexEvents(tx.result.events, loc);
    }
    this.blocks.push(block);
    for (const l of this.listeners) l(block);
    return block;
  }

  private indexEvents(events: AbciEvent[], loc: TxLocation): void {
    for (const ev of events) {
      for (const a of ev.attributes) {
        if (a.index === false) continue;
        const key = `${ev.type}.${a.key}=${a.value}`;
        const list = this.byEvent.get(key);
        // A tx matching the same attribute twice is listed once.
        if (!list) this.byEvent.set(key, [loc]);
        else if (list[list.length - 1] !== loc) list.push(loc);
      }
    }
  }

  onBlock(listener: (b: SealedBlock) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Timer block production; `next` supplies each block's content (empty blocks by default). */
  startProducing(intervalMs: number, next: (height: number) => BlockInput = () => ({ txs: [] })): void {
    this.stopProducing();
    this.timer = setInterval(() => this.appendBlock(next(this.latestHeight() + 1)), intervalMs);
    this.timer.unref();
  }

  stopProducing(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}
