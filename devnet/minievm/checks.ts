// Pure comparisons between our indexer API answers and what the node itself
// reports. The devnet e2e test gathers both sides over HTTP and feeds them
// here, so each rule is unit-testable on recorded data without a node.
import { fromHex, toBech32 } from '@cosmjs/encoding';
import { evmToBech32 } from './accounts.js';
import type { AbciEvent } from '../../chain/events.js';

export interface Mismatch {
  subject: string;
  field: string;
  ours: unknown;
  node: unknown;
}

/** `/indexer/tx/v1/txs/{hash}` → `.tx` (docs/indexer.md) */
export interface IndexerTx {
  txhash: string;
  height: string;
  codespace: string;
  code: number;
  gas_wanted: string;
  gas_used: string;
  tx: { body: { messages: unknown[] } };
  events: AbciEvent[];
}

/** Cosmos REST `/cosmos/tx/v1beta1/txs/{hash}` */
export interface RestGetTxResponse {
  tx: { body: { messages: unknown[] } };
  tx_response: {
    txhash: string;
    height: string;
    codespace: string;
    code: number;
    gas_wanted: string;
    gas_used: string;
    events: AbciEvent[];
  };
}

/** `/indexer/block/v1/blocks/{height}` → `.block` (§5.1) */
export interface IndexerBlock {
  height: string;
  hash: string;
  timestamp: string;
  tx_count: string;
  proposer: { moniker: string; identity: string; operator_address: string };
}

/** CometBFT `/block?height=N` → `.result` */
export interface CometBlockResult {
  block_id: { hash: string };
  block: {
    header: { height: string; time: string; proposer_address: string };
    data: { txs: string[] | null };
  };
}

export interface RichListHolder {
  account: string;
  amount: string;
}

export interface IndexerToken {
  collection_addr: string;
  owner: string;
  nft: { token_id: string; uri?: string };
}

export interface IndexerCollection {
  object_addr: string;
  collection: { name: string; nfts: { length: number } };
}

/** JSON with object keys sorted, so key order (JSONB reorders) never matters. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return Object.fromEntries(entries.map(([k, v]) => [k, sortKeys(v)]));
  }
  return value;
}

function same(subject: string, field: string, ours: unknown, node: unknown, out: Mismatch[]): void {
  if (canonicalJson(ours) !== canonicalJson(node)) out.push({ subject, field, ours, node });
}

/** The tx rule: hash, height, code, codespace, gas, events and messages equal. */
export function compareTx(ours: IndexerTx, node: RestGetTxResponse): Mismatch[] {
  const r = node.tx_response;
  const subject = `tx ${r.txhash}`;
  const out: Mismatch[] = [];
  same(subject, 'txhash', ours.txhash, r.txhash, out);
  same(subject, 'height', ours.height, r.height, out);
  same(subject, 'code', ours.code, r.code, out);
  same(subject, 'codespace', ours.codespace, r.codespace, out);
  same(subject, 'gas_wanted', ours.gas_wanted, r.gas_wanted, out);
  same(subject, 'gas_used', ours.gas_used, r.gas_used, out);
  same(subject, 'events', ours.events, r.events, out);
  same(subject, 'messages', ours.tx?.body?.messages, node.tx.body.messages, out);
  return out;
}

/** Go's time.Format(time.RFC3339) of a CometBFT RFC3339Nano time: fraction truncated. */
export function toRfc3339Seconds(rfc3339Nano: string): string {
  const m = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.\d+)?Z$/.exec(rfc3339Nano);
  if (!m) throw new Error(`not a UTC RFC 3339 time: ${rfc3339Nano}`);
  return `${m[1]}Z`;
}

/** Stored proposer form (§5.1): header proposer_address bytes as a valoper bech32. */
export function proposerValoper(proposerAddressHex: string, prefix = 'initvaloper'): string {
  return toBech32(prefix, fromHex(proposerAddressHex));
}

/**
 * The block rule: hash, time, tx count and proposer equal. Two renderings
 * identify the block's proposer_address and are accepted: the stored form
 * (valoper bech32 of the consensus address bytes, reference §5.1, which is what
 * the API shows when the REST lookup by it finds nothing) and the operator
 * address of the opchild validator whose consensus key hashes to it (what the
 * API shows when the lookup resolves). The caller passes the latter if known.
 */
export function compareBlock(ours: IndexerBlock, node: CometBlockResult, resolvedOperator?: string): Mismatch[] {
  const subject = `block ${node.block.header.height}`;
  const out: Mismatch[] = [];
  same(subject, 'height', ours.height, node.block.header.height, out);
  same(subject, 'hash', ours.hash, node.block_id.hash.toUpperCase(), out);
  same(subject, 'timestamp', ours.timestamp, toRfc3339Seconds(node.block.header.time), out);
  same(subject, 'tx_count', ours.tx_count, String(node.block.data.txs?.length ?? 0), out);
  const accepted = [
    proposerValoper(node.block.header.proposer_address),
    ...(resolvedOperator ? [resolvedOperator] : []),
  ];
  if (!accepted.includes(ours.proposer.operator_address)) {
    out.push({ subject, field: 'proposer.operator_address', ours: ours.proposer.operator_address, node: accepted });
  }
  return out;
}

/**
 * Rich list vs balanceOf: every holder's amount equals the chain's, every
 * non-zero balance is listed exactly once, zero balances are omitted, and the
 * order is amount DESC with a consistent account tie-break (the API promises
 * "amount, then account" without fixing the tie direction).
 */
export function checkRichList(holders: RichListHolder[], balances: ReadonlyMap<string, bigint>): Mismatch[] {
  const out: Mismatch[] = [];
  const seen = new Set<string>();
  for (const h of holders) {
    const key = h.account.toLowerCase();
    if (seen.has(key)) out.push({ subject: `holder ${key}`, field: 'duplicate', ours: h.amount, node: null });
    seen.add(key);
    const chain = balances.get(key);
    if (chain === undefined) {
      out.push({ subject: `holder ${key}`, field: 'unknown to the chain', ours: h.amount, node: null });
    } else if (!/^\d+$/.test(h.amount) || BigInt(h.amount) !== chain) {
      out.push({ subject: `holder ${key}`, field: 'amount', ours: h.amount, node: chain.toString() });
    }
  }
  for (const [account, amount] of balances) {
    if (amount > 0n && !seen.has(account)) {
      out.push({ subject: `holder ${account}`, field: 'missing', ours: null, node: amount.toString() });
    }
  }
  let tieDirection = 0;
  for (let i = 1; i < holders.length; i++) {
    const prev = holders[i - 1];
    const cur = holders[i];
    if (!prev || !cur || !/^\d+$/.test(prev.amount) || !/^\d+$/.test(cur.amount)) continue;
    const a = BigInt(prev.amount);
    const b = BigInt(cur.amount);
    if (a < b) out.push({ subject: `rank ${i}`, field: 'order (amount DESC)', ours: [prev, cur], node: null });
    if (a === b) {
      const dir = prev.account.toLowerCase() < cur.account.toLowerCase() ? 1 : -1;
      if (tieDirection !== 0 && dir !== tieDirection) {
        out.push({ subject: `rank ${i}`, field: 'order (account tie-break)', ours: [prev, cur], node: null });
      }
      tieDirection = dir;
    }
  }
  return out;
}

export interface CollectionOnChain {
  /** 0x-lowercase collection address */
  address: string;
  /** tokenId (decimal) → current owner (0x hex) from ownerOf */
  owners: ReadonlyMap<string, string>;
  /** token ids minted and then burned: ownerOf reverts for them */
  burned: ReadonlySet<string>;
  /** totalSupply() */
  totalSupply: bigint;
}

/** NFT rule: owners equal ownerOf, burned tokens gone, counts equal. */
export function checkNfts(
  tokens: IndexerToken[],
  collection: IndexerCollection | undefined,
  chain: CollectionOnChain,
): Mismatch[] {
  const subject = `collection ${chain.address}`;
  const out: Mismatch[] = [];
  const listed = new Map<string, IndexerToken>();
  for (const t of tokens) {
    const id = t.nft.token_id;
    if (listed.has(id)) out.push({ subject, field: `token ${id} duplicate`, ours: t, node: null });
    listed.set(id, t);
    if (t.collection_addr.toLowerCase() !== chain.address) {
      out.push({ subject, field: `token ${id} collection_addr`, ours: t.collection_addr, node: chain.address });
    }
    if (chain.burned.has(id)) out.push({ subject, field: `token ${id} burned but listed`, ours: t.owner, node: null });
    else if (!chain.owners.has(id))
      out.push({ subject, field: `token ${id} unknown to the chain`, ours: t.owner, node: null });
  }
  for (const [id, ownerHex] of chain.owners) {
    const t = listed.get(id);
    const expected = evmToBech32(ownerHex);
    if (!t) out.push({ subject, field: `token ${id} missing`, ours: null, node: expected });
    else if (t.owner !== expected) out.push({ subject, field: `token ${id} owner`, ours: t.owner, node: expected });
  }
  same(subject, 'token count', tokens.length, Number(chain.totalSupply), out);
  if (!collection) {
    out.push({ subject, field: 'collection', ours: null, node: chain.address });
  } else {
    same(subject, 'collection.nfts.length', collection.collection.nfts.length, Number(chain.totalSupply), out);
    same(subject, 'collection.object_addr', collection.object_addr.toLowerCase(), chain.address, out);
  }
  return out;
}

/** Nearest-rank percentile of a non-empty sample. */
export function percentile(sample: readonly number[], p: number): number {
  if (sample.length === 0) throw new Error('percentile of an empty sample');
  if (!(p > 0 && p <= 100)) throw new Error('p must be in (0, 100]');
  const sorted = [...sample].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(rank, sorted.length) - 1] as number;
}

/** One NFT collection as the chain's own state says (Move object resources, CW721 queries), any VM. */
export interface NftCollectionState {
  /** the collection address as our API names it (Move object 0x…, CW721 contract bech32) */
  address: string;
  name: string;
  /** bech32 */
  creator: string;
  /** tokens in existence now (Move current_supply, CW721 num_tokens) */
  supply: number;
  /** live tokens: id → owner (bech32), URI and, on Move, the NFT object's address */
  tokens: ReadonlyMap<string, { owner: string; uri: string; object?: string }>;
  /** ids minted and then burned */
  burned: ReadonlySet<string>;
}

export interface ServedNftToken extends IndexerToken {
  object_addr?: string;
}

export interface ServedNftCollection {
  object_addr: string;
  collection: { name: string; creator: string; nfts: { length: number } };
}

/**
 * The NFT rule on Move and Wasm: the collection's name, creator and supply, and every live token's owner,
 * URI and object address equal the chain's state; no burned or unknown token is listed, none is missing.
 */
export function checkNftState(
  collection: ServedNftCollection | undefined,
  tokens: readonly ServedNftToken[],
  chain: NftCollectionState,
): Mismatch[] {
  const subject = `collection ${chain.address}`;
  const out: Mismatch[] = [];
  if (!collection) out.push({ subject, field: 'collection', ours: null, node: chain.address });
  else {
    same(subject, 'object_addr', collection.object_addr, chain.address, out);
    same(subject, 'name', collection.collection.name, chain.name, out);
    same(subject, 'creator', collection.collection.creator, chain.creator, out);
    same(subject, 'nfts.length', Number(collection.collection.nfts.length), chain.supply, out);
  }
  same(subject, 'token count', tokens.length, chain.supply, out);
  const listed = new Map<string, ServedNftToken>();
  for (const t of tokens) {
    const id = t.nft.token_id;
    if (listed.has(id)) out.push({ subject, field: `token ${id} duplicate`, ours: t, node: null });
    listed.set(id, t);
    if (chain.burned.has(id)) out.push({ subject, field: `token ${id} burned but listed`, ours: t.owner, node: null });
    else if (!chain.tokens.has(id))
      out.push({ subject, field: `token ${id} unknown to the chain`, ours: t.owner, node: null });
  }
  for (const [id, want] of chain.tokens) {
    const t = listed.get(id);
    if (!t) {
      out.push({ subject, field: `token ${id} missing`, ours: null, node: want.owner });
      continue;
    }
    same(subject, `token ${id} owner`, t.owner, want.owner, out);
    same(subject, `token ${id} uri`, t.nft.uri ?? '', want.uri, out);
    same(subject, `token ${id} collection_addr`, t.collection_addr, chain.address, out);
    if (want.object !== undefined) same(subject, `token ${id} object_addr`, t.object_addr, want.object, out);
  }
  return out;
}

/** NFT txs of one token: ours must list exactly the node's txs that touched it (none once it is burned). */
export function checkTokenTxs(subject: string, ours: readonly string[], node: ReadonlySet<string>): Mismatch[] {
  const out: Mismatch[] = [];
  const seen = new Set<string>();
  for (const h of ours) {
    if (seen.has(h)) out.push({ subject, field: 'duplicate tx', ours: h, node: null });
    seen.add(h);
    if (!node.has(h)) out.push({ subject, field: 'tx the node does not link to the token', ours: h, node: null });
  }
  for (const h of node) if (!seen.has(h)) out.push({ subject, field: 'missing tx', ours: null, node: h });
  return out;
}
