// One block (CometBFT `block` + `block_results` + Cosmos REST txs) → its facts, and block time: parsed with
// nanosecond precision, and each block's `block_time` computed as upstream does.
import { fromBase64, toBase64 } from '@cosmjs/encoding';
import { TxRaw } from 'cosmjs-types/cosmos/tx/v1beta1/tx';
import { valoperFromHex } from '../../chain/address.js';
import { decodeTx, type Coin, type RestTx, type TxFacts, type TxResult } from './tx.js';
import type { Vm } from './nft.js';

export interface RawBlock {
  block_id: { hash: string };
  block: {
    header: { chain_id: string; height: string; time: string; proposer_address: string };
    data: { txs?: string[] | null };
  };
}
export interface RawBlockResults {
  height: string;
  txs_results?: TxResult[] | null;
}

export interface DecodeError {
  tx_index: number;
  kind: string;
  message: string;
}

export interface BlockFacts {
  height: number;
  hash: string;
  chainId: string;
  time: ChainTime;
  proposer: string;
  txs: TxFacts[];
  txCount: number;
  gasUsed: bigint;
  gasWanted: bigint;
  totalFee: Coin[];
  errors: DecodeError[];
}

function signatureKey(raw: string): string | null {
  try {
    return TxRaw.decode(fromBase64(raw))
      .signatures.map((s: Uint8Array) => toBase64(s))
      .join(',');
  } catch {
    return null;
  }
}

/** REST returns a block's txs in block order; match each raw tx to its REST tx by signatures (as upstream does). */
export function matchRestTxs(rawTxs: readonly string[], restTxs: readonly RestTx[]): (RestTx | undefined)[] {
  // One tx and one answer: the match and the fallback below are both that answer, so the raw tx is not decoded.
  if (rawTxs.length === 1 && restTxs.length === 1) return [restTxs[0]];
  const bySig = new Map<string, RestTx>();
  for (const t of restTxs) bySig.set((t.signatures ?? []).join(','), t);
  return rawTxs.map((raw, i) => {
    const key = signatureKey(raw);
    return (key !== null ? bySig.get(key) : undefined) ?? restTxs[i];
  });
}

function addCoins(into: Map<string, bigint>, coins: readonly Coin[]) {
  for (const c of coins) {
    if (!/^\d+$/.test(c.amount)) continue;
    into.set(c.denom, (into.get(c.denom) ?? 0n) + BigInt(c.amount));
  }
}

export function decodeBlock(
  vm: Vm,
  block: RawBlock,
  results: RawBlockResults,
  restTxs: readonly RestTx[],
  prefix = 'init',
): BlockFacts {
  const header = block.block.header;
  const height = Number(header.height);
  if (!Number.isSafeInteger(height) || height < 1) throw new Error(`invalid block height ${header.height}`);
  if (String(results.height) !== String(header.height))
    throw new Error(`block_results height ${results.height} != block height ${height}`);
  const time = parseChainTime(header.time);
  const rawTxs = block.block.data.txs ?? [];
  const txResults = results.txs_results ?? [];
  if (txResults.length !== rawTxs.length)
    throw new Error(`block ${height}: ${rawTxs.length} txs but ${txResults.length} results`);
  if (restTxs.length !== rawTxs.length)
    throw new Error(`block ${height}: ${rawTxs.length} txs but REST returned ${restTxs.length}`);
  const matched = matchRestTxs(rawTxs, restTxs);
  const facts: TxFacts[] = [];
  const errors: DecodeError[] = [];
  const fees = new Map<string, bigint>();
  let gasUsed = 0n;
  let gasWanted = 0n;
  rawTxs.forEach((raw, index) => {
    const result = txResults[index]!;
    gasUsed += BigInt(result.gas_used ?? '0');
    gasWanted += BigInt(result.gas_wanted ?? '0');
    try {
      const restTx = matched[index];
      if (!restTx) throw new Error('no REST tx matches this raw tx');
      // The block's total fee counts every tx, even one whose events cannot be decoded.
      addCoins(fees, restTx.auth_info?.fee?.amount ?? []);
      facts.push(decodeTx(vm, { height, index, time, rawBase64: raw, restTx, result }, prefix));
    } catch (e) {
      errors.push({ tx_index: index, kind: 'tx_decode', message: (e as Error).message.slice(0, 500) });
    }
  });
  return {
    height,
    hash: block.block_id.hash.toUpperCase(),
    chainId: header.chain_id,
    time,
    proposer: proposerOf(header.proposer_address, prefix),
    txs: facts,
    txCount: rawTxs.length,
    gasUsed,
    gasWanted,
    totalFee: [...fees].map(([denom, amount]) => ({ denom, amount: amount.toString() })),
    errors,
  };
}

// A rollup has one proposer (its sequencer) for long stretches: its bech32 form is computed once per change, not
// per block (a backfill of empty blocks spent 3 % of its main thread there).
let lastProposer = { hex: '', prefix: '', valoper: '' };
function proposerOf(hex: string, prefix: string): string {
  if (hex !== lastProposer.hex || prefix !== lastProposer.prefix)
    lastProposer = { hex, prefix, valoper: valoperFromHex(hex, prefix) };
  return lastProposer.valoper;
}

// Block time, with nanosecond precision (JS Date keeps only milliseconds).
export interface ChainTime {
  /** RFC 3339 with the fraction as Go's RFC3339Nano prints it (trailing zeros dropped), UTC: tx timestamps. */
  rfc3339Nano: string;
  /** RFC 3339 without fraction: block timestamps. */
  rfc3339Seconds: string;
  /** ClickHouse DateTime64(9) literal. */
  clickhouse: string;
  /** Nanoseconds since the epoch. */
  nanos: bigint;
}

const RFC3339_RE = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/;

export function parseChainTime(value: string): ChainTime {
  const m = RFC3339_RE.exec(value);
  if (!m) throw new Error(`invalid block time ${JSON.stringify(value).slice(0, 64)}`);
  const [, date, clock, frac = '', zone] = m;
  let seconds = Math.floor(Date.parse(`${date}T${clock}${zone}`) / 1000);
  if (!Number.isFinite(seconds)) throw new Error(`invalid block time ${value.slice(0, 64)}`);
  const nanosFrac = frac.padEnd(9, '0');
  const utc = new Date(seconds * 1000).toISOString().slice(0, 19);
  seconds = Math.floor(seconds);
  const trimmed = nanosFrac.replace(/0+$/, '');
  return {
    rfc3339Nano: `${utc}${trimmed ? `.${trimmed}` : ''}Z`,
    rfc3339Seconds: `${utc}Z`,
    clickhouse: `${utc.replace('T', ' ')}.${nanosFrac}`,
    nanos: BigInt(seconds) * 1_000_000_000n + BigInt(nanosFrac),
  };
}

// A block's `block_time`: the milliseconds since the previous block, computed as the upstream indexer (rollytics)
// does, to the last unit. It subtracts the previous block's time as read back from Postgres (a timestamptz:
// microseconds, the nanoseconds truncated) from this block's full-precision time, then truncates to whole
// milliseconds (Go's Duration.Milliseconds). Subtracting the two full-precision times instead differs by one
// whenever the previous block's sub-microsecond nanoseconds carry the difference across a millisecond (seen on a
// live devnet: 150 against upstream's 151).
/** Milliseconds from the previous block's time to this one's (0 for the first block or a clock going back). */
export function blockTimeMs(timeNs: bigint, previousNs: bigint | null): number {
  if (previousNs === null) return 0;
  const previousUs = previousNs - (((previousNs % 1000n) + 1000n) % 1000n);
  const ms = Number((timeNs - previousUs) / 1_000_000n);
  return Math.max(ms, 0);
}
