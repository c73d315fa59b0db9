// Data model of the simulated chain. Everything a node would answer is derived from these
// sealed records, so CometBFT RPC, Cosmos REST and EVM JSON-RPC can never disagree.

import type { AbciEvent, EvmLog } from '../../chain/events.js';

/** The execution result of a tx, as in `txs_results[i]` / LCD `tx_response` (data is hex as the LCD serves it). */
export interface TxResult {
  code: number;
  codespace?: string;
  /** Hex-encoded result data (the LCD form); CometBFT serves it base64. */
  data?: string;
  log?: string;
  info?: string;
  gas_wanted: string;
  gas_used: string;
  events: AbciEvent[];
}

/** Decoded Cosmos Tx JSON (the LCD `tx` object with body / auth_info / signatures). */
export interface TxJson {
  '@type'?: string;
  body: { messages: Array<Record<string, unknown>>; memo?: string; timeout_height?: string; [k: string]: unknown };
  auth_info: { [k: string]: unknown };
  signatures: string[];
}

/** JSON-RPC shaped (raw hex) EVM receipt; block fields are (re)written by the chain when sealing. */
export interface EvmReceipt {
  transactionHash: string;
  from: string;
  to: string | null;
  contractAddress: string | null;
  gasUsed: string;
  cumulativeGasUsed: string;
  effectiveGasPrice: string;
  status: string;
  type: string;
  logs: EvmLog[];
  logsBloom: string;
  blockHash?: string;
  blockNumber?: string;
  transactionIndex?: string;
}

/** JSON-RPC shaped EVM transaction object (as returned by eth_getTransactionByHash). */
export type EvmTxObject = Record<string, unknown> & { hash: string };

/** callTracer frame (geth shape). */
export type CallFrame = Record<string, unknown>;

/** EVM side of a Cosmos tx on minievm: one entry per EVM tx the Cosmos tx produced. */
export interface EvmSide {
  txs: EvmTxObject[];
  receipts: EvmReceipt[];
  /** callTracer results; when absent a minimal CALL frame is derived from tx + receipt. */
  traces?: CallFrame[];
}

export interface TxInput {
  tx: TxJson;
  /** Base64 raw tx bytes; when absent the chain encodes `tx` (see txcodec.ts). */
  raw?: string;
  result: TxResult;
  evm?: EvmSide;
}

export interface BlockInput {
  /** RFC3339 time; nanoseconds are kept if given. Defaults to previous block time + block interval. */
  time?: string;
  /** Proposer consensus address, uppercase hex (20 bytes). Defaults to the chain's first validator. */
  proposer?: string;
  txs: TxInput[];
  finalizeBlockEvents?: AbciEvent[];
}

export interface SealedTx {
  height: number;
  index: number;
  /** Uppercase hex sha256 of the raw bytes: the real CometBFT rule. */
  hash: string;
  rawBase64: string;
  tx: TxJson;
  result: TxResult;
  evm?: EvmSide;
}

export interface SealedBlock {
  chainId: string;
  height: number;
  /** RFC3339 with nanoseconds, UTC. */
  time: string;
  proposer: string;
  hash: string;
  lastBlockHash: string;
  appHash: string;
  dataHash: string;
  txs: SealedTx[];
  finalizeBlockEvents: AbciEvent[];
  /** Pre-serialised answers, filled on first request (see render.ts). */
  cache: Map<string, string>;
}

export interface Validator {
  moniker: string;
  operatorAddress: string;
  /** Base64 ed25519 public key. */
  consensusPubkey: string;
  /** Uppercase hex of sha256(pubkey)[0:20]: the CometBFT address rule. */
  consensusAddress: string;
}

/** Location of a tx on the chain. */
export interface TxLocation {
  height: number;
  index: number;
}

/** What the server needs from a chain; implemented by the in-memory SimChain and the lazy replicated chain. */
export interface SimChainSource {
  readonly chainId: string;
  readonly vm: 'evm' | 'move' | 'wasm';
  /** EVM chain id (only for vm === 'evm'). */
  readonly evmChainId?: bigint;
  readonly validators: Validator[];
  latestHeight(): number;
  block(height: number): SealedBlock | undefined;
  /** Look up by uppercase hex Cosmos tx hash. */
  txByHash(hash: string): TxLocation | undefined;
  /** Look up by lowercase 0x EVM tx hash. */
  evmTxByHash(hash: string): TxLocation | undefined;
  /** Candidate txs for an indexed `type.key=value` condition; undefined when the chain keeps no event index. */
  txsWithEvent?(typeKey: string, value: string): TxLocation[] | undefined;
  /**
   * The number of txs at a height, when the chain knows it without sealing the block (a lazily made chain): a search
   * on tx.height alone then finds its txs without making every block of its range.
   */
  txCount?(height: number): number;
}
