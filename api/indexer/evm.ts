// EVM tx endpoints (docs/indexer.md; shapes as rollytics' api/handler/tx/evmtx.go and internaltx.go):
// /indexer/tx/v1/evm-txs[/by_account/{account}|/by_height/{height}|/{tx_hash}] serve the receipts of
// eth_getBlockReceipts, /indexer/tx/v1/evm-internal-txs[/by_account|/by_height|/{tx_hash}] the callTracer rows.
// EVM deployments only: elsewhere every evm-* path is a JSON 404, as upstream; internal txs need
// EVM_INTERNAL_TXS (traces), as upstream's internal-tx switch.
import { fromBech32, toHex } from '@cosmjs/encoding';
import type { Request, Response, Router } from 'express';
import { notFound } from '../http/errors.js';
import type { EvmTxScope, InternalTxRow, InternalTxScope } from '../../clickhouse/queries/evm.js';
import type { Served } from '../http/edge.js';
import { handle, str, type IndexerContext } from './context.js';
import { parsePage, type PaginationObject, type RawPageQuery } from './read/page.js';
import { MAX_HEIGHT, parseAccount, parseBool, parseTxHash, parseTxHeight } from './params.js';

export const EVM_ONLY = 'evm routes are not available on this chain';
export const NO_TRACES =
  'evm routes are not available on this chain: internal txs are not indexed (EVM_INTERNAL_TXS=false)';

type Json = Record<string, unknown>;
const s = (v: unknown, dflt = ''): string => (typeof v === 'string' ? v : dflt);

/** A receipt in upstream's EvmTx shape (its Go struct's fields, in order; a null `to` prints as ""). */
export function renderReceipt(stored: string): Json {
  const r = JSON.parse(stored) as Json;
  const logs = Array.isArray(r.logs) ? (r.logs as Json[]) : [];
  return {
    blockHash: s(r.blockHash),
    blockNumber: s(r.blockNumber),
    contractAddress: typeof r.contractAddress === 'string' ? r.contractAddress : null,
    cumulativeGasUsed: s(r.cumulativeGasUsed),
    effectiveGasPrice: s(r.effectiveGasPrice),
    from: s(r.from),
    gasUsed: s(r.gasUsed),
    logs: logs.map((l) => ({
      address: s(l.address),
      topics: Array.isArray(l.topics) ? l.topics.map((t) => s(t)) : [],
      data: s(l.data),
      blockNumber: s(l.blockNumber),
      transactionHash: s(l.transactionHash),
      transactionIndex: s(l.transactionIndex),
      blockHash: s(l.blockHash),
      logIndex: s(l.logIndex),
      removed: l.removed === true,
    })),
    logsBloom: s(r.logsBloom, `0x${'0'.repeat(512)}`),
    status: s(r.status),
    to: s(r.to),
    transactionHash: s(r.transactionHash),
    transactionIndex: s(r.transactionIndex),
    type: s(r.type),
  };
}

/** An internal tx row in upstream's EvmInternalTxResponse shape. */
export function renderInternal(r: InternalTxRow): Json {
  return {
    height: Number(r.height),
    hash: r.hash,
    parent_index: Number(r.parent_index),
    index: Number(r.idx),
    type: r.type,
    from: r.from_addr,
    to: r.to_addr,
    input: r.input,
    output: r.output,
    value: r.value,
    gas: r.gas,
    gasUsed: r.gas_used,
  };
}

/** An account (bech32 or hex) → 0x + 40 lowercase hex; a 32-byte account has no EVM txs (null). */
function evmAccount(v: string, prefix: string): string | null {
  const bytes = fromBech32(parseAccount(v, prefix)).data;
  return bytes.length === 20 ? `0x${toHex(bytes)}` : null;
}

/** An EVM tx hash → 0x + 64 lowercase hex, or null when it cannot name a tx (wrong length: 404). */
function evmHash(v: string): string | null {
  const h = parseTxHash(v);
  return h === null ? null : `0x${h.toLowerCase()}`;
}

const emptyPage = (): PaginationObject => ({ previous_key: null, next_key: null, total: '0' });

export function registerEvm(r: Router, ctx: IndexerContext): void {
  const base = '/indexer/tx/v1';
  if (ctx.vm !== 'evm') {
    r.all([`${base}/evm-txs`, `${base}/evm-txs/*`, `${base}/evm-internal-txs`, `${base}/evm-internal-txs/*`], () => {
      throw notFound(EVM_ONLY);
    });
    return;
  }

  const txPage = async (req: Request, res: Response, served: Served, scope: EvmTxScope | null) => {
    const page = parsePage(req.query as RawPageQuery, ['sequence']);
    if (scope === null) return void res.json({ txs: [], pagination: emptyPage() });
    const got = await ctx.read.evm.receipts(scope, page, served);
    res.json({ txs: got.rows.map((t) => renderReceipt(t.receipt)), pagination: got.pagination });
  };

  r.get(
    `${base}/evm-txs`,
    handle((req, res, served) => txPage(req, res, served, { kind: 'all' })),
  );
  r.get(
    `${base}/evm-txs/by_account/:account`,
    handle(async (req, res, served) => {
      const account = evmAccount(str(req.params.account), ctx.bech32Prefix);
      const signer = parseBool(req.query.is_signer, 'is_signer');
      await txPage(req, res, served, account === null ? null : { kind: 'account', account, signer });
    }),
  );
  r.get(
    `${base}/evm-txs/by_height/:height`,
    handle(async (req, res, served) => {
      const height = parseTxHeight(req.params.height);
      await txPage(req, res, served, height > MAX_HEIGHT ? null : { kind: 'height', height });
    }),
  );
  r.get(
    `${base}/evm-txs/:tx_hash`,
    handle(async (req, res, served) => {
      const hash = evmHash(str(req.params.tx_hash));
      const row = hash === null ? undefined : await ctx.read.evm.receipt(hash, served);
      if (row === undefined) throw notFound('tx not found');
      res.json({ tx: renderReceipt(row.receipt) });
    }),
  );

  if (!ctx.evmInternalTxs) {
    r.all([`${base}/evm-internal-txs`, `${base}/evm-internal-txs/*`], () => {
      throw notFound(NO_TRACES);
    });
    return;
  }

  const internalPage = async (req: Request, res: Response, served: Served, scope: InternalTxScope | null) => {
    const page = parsePage(req.query as RawPageQuery, ['sequence']);
    if (scope === null) return void res.json({ internal_txs: [], pagination: emptyPage() });
    const got = await ctx.read.evm.internal(scope, page, served);
    res.json({ internal_txs: got.rows.map(renderInternal), pagination: got.pagination });
  };

  r.get(
    `${base}/evm-internal-txs`,
    handle((req, res, served) => internalPage(req, res, served, { kind: 'all' })),
  );
  r.get(
    `${base}/evm-internal-txs/by_account/:account`,
    handle(async (req, res, served) => {
      const account = evmAccount(str(req.params.account), ctx.bech32Prefix);
      await internalPage(req, res, served, account === null ? null : { kind: 'account', account });
    }),
  );
  r.get(
    `${base}/evm-internal-txs/by_height/:height`,
    handle(async (req, res, served) => {
      const height = parseTxHeight(req.params.height);
      await internalPage(req, res, served, height > MAX_HEIGHT ? null : { kind: 'height', height });
    }),
  );
  r.get(
    `${base}/evm-internal-txs/:tx_hash`,
    handle(async (req, res, served) => {
      const hash = evmHash(str(req.params.tx_hash));
      parsePage(req.query as RawPageQuery, ['sequence']);
      if (hash === null || !(await ctx.read.evm.exists(hash, served))) throw notFound('transaction not found');
      await internalPage(req, res, served, { kind: 'hash', hash });
    }),
  );
}
