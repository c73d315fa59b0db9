// Pre-serialised wire answers for a sealed block. Each string is built once per block and cached
// on the block, so serving a block is a string concatenation (the ingest benchmark needs ≥5k tx/s).
import { hash } from 'node:crypto';
import type { SealedBlock, SealedTx, TxResult, EvmTxObject, CallFrame } from './types.js';
import { EMPTY_SHA256 } from './chain.js';
import { sha256Hex } from './txcodec.js';

const b64OfHex = (h: string): string => Buffer.from(h, 'hex').toString('base64');
const partsHash = (h: string): string => sha256Hex(`parts:${h}`);
const ZERO_BLOOM = `0x${'0'.repeat(512)}`;
const ZERO_HASH = `0x${'0'.repeat(64)}`;

function cached(block: SealedBlock, key: string, make: () => string): string {
  let s = block.cache.get(key);
  if (s === undefined) {
    s = make();
    block.cache.set(key, s);
  }
  return s;
}

/** The header hashes that depend on the chain id alone (one validator set, one set of consensus params). */
const chainHashes = new Map<string, { validators: string; consensus: string }>();
function chainHashesOf(chainId: string): { validators: string; consensus: string } {
  let h = chainHashes.get(chainId);
  if (h === undefined) {
    h = { validators: sha256Hex(`validators:${chainId}`), consensus: sha256Hex(`consensus:${chainId}`) };
    chainHashes.set(chainId, h);
  }
  return h;
}

// ---------- CometBFT RPC ----------

// A block's CometBFT header, built once: the RPC's `block` and `blockchain` and the REST's block all carry it.
const headers = new WeakMap<SealedBlock, Record<string, unknown>>();

function cometHeader(b: SealedBlock): Record<string, unknown> {
  let header = headers.get(b);
  if (header !== undefined) return header;
  const chain = chainHashesOf(b.chainId);
  header = {
    version: { block: '11', app: '0' },
    chain_id: b.chainId,
    height: String(b.height),
    time: b.time,
    last_block_id: b.lastBlockHash
      ? { hash: b.lastBlockHash, parts: { total: 1, hash: partsHash(b.lastBlockHash) } }
      : { hash: '', parts: { total: 0, hash: '' } },
    last_commit_hash: b.height > 1 ? sha256Hex(`commit:${b.lastBlockHash}`) : EMPTY_SHA256,
    data_hash: b.dataHash,
    validators_hash: chain.validators,
    next_validators_hash: chain.validators,
    consensus_hash: chain.consensus,
    app_hash: b.appHash,
    last_results_hash: EMPTY_SHA256,
    evidence_hash: EMPTY_SHA256,
    proposer_address: b.proposer,
  };
  headers.set(b, header);
  return header;
}

function cometBlockId(b: SealedBlock): Record<string, unknown> {
  return { hash: b.hash, parts: { total: 1, hash: partsHash(b.hash) } };
}

function cometLastCommit(b: SealedBlock): Record<string, unknown> {
  if (!b.lastBlockHash)
    return { height: '0', round: 0, block_id: { hash: '', parts: { total: 0, hash: '' } }, signatures: [] };
  return {
    height: String(b.height - 1),
    round: 0,
    block_id: { hash: b.lastBlockHash, parts: { total: 1, hash: partsHash(b.lastBlockHash) } },
    signatures: [
      {
        block_id_flag: 2,
        validator_address: b.proposer,
        timestamp: b.time,
        signature: hash('sha512', `sig:${b.lastBlockHash}`, 'base64'),
      },
    ],
  };
}

/** `result` of CometBFT `block`. */
export function cometBlockJson(b: SealedBlock): string {
  return cached(b, 'comet.block', () =>
    JSON.stringify({
      block_id: cometBlockId(b),
      block: {
        header: cometHeader(b),
        data: { txs: b.txs.map((t) => t.rawBase64) },
        evidence: { evidence: [] },
        last_commit: cometLastCommit(b),
      },
    }),
  );
}

export function cometBlockMetaJson(b: SealedBlock): string {
  return cached(b, 'comet.meta', () =>
    JSON.stringify({
      block_id: cometBlockId(b),
      block_size: String(b.txs.reduce((n, t) => n + Math.ceil((t.rawBase64.length * 3) / 4), 500)),
      header: cometHeader(b),
      num_txs: String(b.txs.length),
    }),
  );
}

// Results are immutable once appended and shared by replicas (replicated chain), so their JSON is
// memoised per result object.
const cometResultMemo = new WeakMap<TxResult, string>();
const lcdEventsMemo = new WeakMap<TxResult, string>();

function cometTxResultJson(r: TxResult): string {
  let s = cometResultMemo.get(r);
  if (s === undefined) {
    s = JSON.stringify({
      code: r.code,
      data: r.data ? b64OfHex(r.data) : null,
      log: r.log ?? '',
      info: r.info ?? '',
      gas_wanted: r.gas_wanted,
      gas_used: r.gas_used,
      events: r.events.map((e) => ({
        type: e.type,
        attributes: e.attributes.map((a) => ({ key: a.key, value: a.value, index: a.index ?? true })),
      })),
      codespace: r.codespace ?? '',
    });
    cometResultMemo.set(r, s);
  }
  return s;
}

function lcdEventsJson(r: TxResult): string {
  let s = lcdEventsMemo.get(r);
  if (s === undefined) {
    // Attributes keep the recorded shape (some recorded txs carry no `index` flag).
    s = JSON.stringify(
      r.events.map((e) => ({
        type: e.type,
        attributes: e.attributes.map((a) =>
          a.index === undefined ? { key: a.key, value: a.value } : { key: a.key, value: a.value, index: a.index },
        ),
      })),
    );
    lcdEventsMemo.set(r, s);
  }
  return s;
}

/** Consensus params as an Initia (SDK 0.50, CometBFT 0.38) node reports them in block_results. */
const CONSENSUS_PARAM_UPDATES = {
  block: { max_bytes: '22020096', max_gas: '-1' },
  evidence: { max_age_num_blocks: '100000', max_age_duration: '172800000000000', max_bytes: '1048576' },
  validator: { pub_key_types: ['ed25519'] },
  version: {},
  abci: {},
};

/** `result` of CometBFT 0.38 `block_results`. */
export function cometBlockResultsJson(b: SealedBlock): string {
  return cached(b, 'comet.block_results', () =>
    JSON.stringify({
      height: String(b.height),
      txs_results: b.txs.length ? '\u0000TXS\u0000' : null,
      finalize_block_events: b.finalizeBlockEvents.map((e) => ({
        type: e.type,
        attributes: e.attributes.map((a) => ({ key: a.key, value: a.value, index: a.index ?? true })),
      })),
      validator_updates: [],
      consensus_param_updates: CONSENSUS_PARAM_UPDATES,
      app_hash: b64OfHex(b.appHash),
      // A function replacement: event values may contain `$` patterns that a string replacement would expand.
    }).replace('"\\u0000TXS\\u0000"', () => `[${b.txs.map((t) => cometTxResultJson(t.result)).join(',')}]`),
  );
}

/** One entry of CometBFT `tx` / `tx_search`. */
export function cometTxJson(b: SealedBlock, t: SealedTx): string {
  return cached(
    b,
    `comet.tx.${t.index}`,
    () =>
      `{"hash":"${t.hash}","height":"${t.height}","index":${t.index},"tx_result":${cometTxResultJson(t.result)},"tx":"${t.rawBase64}"}`,
  );
}

// ---------- Cosmos REST (LCD) ----------

function lcdHeader(b: SealedBlock): Record<string, unknown> {
  const h = cometHeader(b);
  const conv = (k: string): string => b64OfHex(String(h[k] ?? ''));
  return {
    version: { block: '11', app: '0' },
    chain_id: b.chainId,
    height: String(b.height),
    time: b.time,
    last_block_id: {
      hash: b64OfHex(b.lastBlockHash),
      part_set_header: {
        total: b.lastBlockHash ? 1 : 0,
        hash: b.lastBlockHash ? b64OfHex(partsHash(b.lastBlockHash)) : '',
      },
    },
    last_commit_hash: conv('last_commit_hash'),
    data_hash: conv('data_hash'),
    validators_hash: conv('validators_hash'),
    next_validators_hash: conv('next_validators_hash'),
    consensus_hash: conv('consensus_hash'),
    app_hash: conv('app_hash'),
    last_results_hash: conv('last_results_hash'),
    evidence_hash: conv('evidence_hash'),
    proposer_address: b64OfHex(b.proposer),
  };
}

/** `{block_id, block}` as gRPC-gateway serialises them (bytes in base64). */
export function lcdBlockJson(b: SealedBlock): string {
  return cached(b, 'lcd.block', () => {
    const body = {
      block_id: { hash: b64OfHex(b.hash), part_set_header: { total: 1, hash: b64OfHex(partsHash(b.hash)) } },
      block: {
        header: lcdHeader(b),
        data: { txs: b.txs.map((t) => t.rawBase64) },
        evidence: { evidence: [] },
        last_commit: {
          height: String(Math.max(0, b.height - 1)),
          round: 0,
          block_id: { hash: b64OfHex(b.lastBlockHash), part_set_header: { total: 0, hash: '' } },
          signatures: [],
        },
      },
    };
    return JSON.stringify(body).slice(1, -1); // object body without braces, spliced into envelopes
  });
}

/** The LCD `tx` object (Tx JSON without the Any `@type`). */
export function lcdTxJson(b: SealedBlock, t: SealedTx): string {
  return cached(b, `lcd.tx.${t.index}`, () => {
    const { '@type': _type, ...tx } = t.tx;
    return JSON.stringify(tx);
  });
}

/** The LCD `tx_response`, hash and height being the simulated chain's. */
export function lcdTxResponseJson(b: SealedBlock, t: SealedTx): string {
  return cached(b, `lcd.tx_response.${t.index}`, () => {
    const head = JSON.stringify({
      height: String(t.height),
      txhash: t.hash,
      codespace: t.result.codespace ?? '',
      code: t.result.code,
      data: t.result.data ?? '',
      raw_log: t.result.code !== 0 ? (t.result.log ?? '') : '',
      logs: [],
      info: t.result.info ?? '',
      gas_wanted: t.result.gas_wanted,
      gas_used: t.result.gas_used,
    });
    // The tx JSON is already serialised for `txs`; splice it in with its Any type instead of stringifying again.
    const tx = lcdTxJson(b, t);
    const typedTx =
      tx === '{}' ? '{"@type":"/cosmos.tx.v1beta1.Tx"}' : `{"@type":"/cosmos.tx.v1beta1.Tx",${tx.slice(1)}`;
    return `${head.slice(0, -1)},"tx":${typedTx},"timestamp":"${b.time.slice(0, 19)}Z","events":${lcdEventsJson(t.result)}}`;
  });
}

// ---------- EVM JSON-RPC ----------

const hex = (n: number | bigint): string => `0x${n.toString(16)}`;

export function evmTxs(b: SealedBlock): EvmTxObject[] {
  return b.txs.flatMap((t) => t.evm?.txs ?? []);
}

export function evmBlockJson(b: SealedBlock, fullTxs: boolean): string {
  return cached(b, fullTxs ? 'evm.block.full' : 'evm.block', () => {
    const txs = evmTxs(b);
    const gasUsed = b.txs.flatMap((t) => t.evm?.receipts ?? []).reduce((n, r) => n + BigInt(r.gasUsed), 0n);
    return JSON.stringify({
      baseFeePerGas: '0x0',
      difficulty: '0x0',
      extraData: '0x',
      gasLimit: hex(100_000_000),
      gasUsed: hex(gasUsed),
      hash: `0x${b.hash.toLowerCase()}`,
      logsBloom: ZERO_BLOOM,
      miner: `0x${b.proposer.toLowerCase()}`,
      mixHash: ZERO_HASH,
      nonce: '0x0000000000000000',
      number: hex(b.height),
      parentHash: b.lastBlockHash ? `0x${b.lastBlockHash.toLowerCase()}` : ZERO_HASH,
      receiptsRoot: ZERO_HASH,
      sha3Uncles: '0x1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347',
      size: hex(1000 + b.txs.length * 200),
      stateRoot: `0x${b.appHash.toLowerCase()}`,
      timestamp: hex(Math.floor(Date.parse(`${b.time.slice(0, 19)}Z`) / 1000)),
      totalDifficulty: '0x0',
      transactions: fullTxs ? txs : txs.map((t) => t.hash),
      transactionsRoot: ZERO_HASH,
      uncles: [],
    });
  });
}

export function evmReceiptsJson(b: SealedBlock): string {
  return cached(b, 'evm.receipts', () => JSON.stringify(b.txs.flatMap((t) => t.evm?.receipts ?? [])));
}

/** `debug_traceBlockByNumber(…, {tracer: 'callTracer'})`: `[{txHash, result}]`. */
export function evmTracesJson(b: SealedBlock): string {
  return cached(b, 'evm.traces', () => {
    const out: Array<{ txHash: string; result: CallFrame }> = [];
    for (const t of b.txs) {
      const ev = t.evm;
      if (!ev) continue;
      ev.receipts.forEach((r, i) => {
        const tx = ev.txs.find((x) => x.hash === r.transactionHash);
        const result = ev.traces?.[i] ?? {
          // Minimal frame when no trace was recorded: geth's callTracer shape for a plain call.
          type: r.to === null ? 'CREATE' : 'CALL',
          from: r.from,
          to: r.to ?? r.contractAddress,
          value: (tx?.value as string | undefined) ?? '0x0',
          gas: (tx?.gas as string | undefined) ?? r.gasUsed,
          gasUsed: r.gasUsed,
          input: (tx?.input as string | undefined) ?? '0x',
          output: '0x',
          ...(r.status === '0x1' ? {} : { error: 'execution reverted' }),
        };
        out.push({ txHash: r.transactionHash, result });
      });
    }
    return JSON.stringify(out);
  });
}
