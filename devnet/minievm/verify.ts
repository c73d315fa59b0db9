// The issue's checks as I/O: fetch one side from the node (CometBFT, REST,
// JSON-RPC) and the other from our indexer API, then apply the pure rules of
// checks.ts. Every function returns the mismatches; callers assert emptiness.
import { sha256 } from '@cosmjs/crypto';
import { fromBase64, toHex } from '@cosmjs/encoding';
import {
  checkNfts,
  checkRichList,
  compareBlock,
  compareTx,
  type CometBlockResult,
  type IndexerBlock,
  type IndexerCollection,
  type IndexerToken,
  type IndexerTx,
  type Mismatch,
  type RestGetTxResponse,
  type RichListHolder,
} from './checks.js';
import { cometRpc, getJson, HttpError, latestHeight, sleep, txSearchAll, type NodeEndpoints } from './node-client.js';

const PAGE = 1000; // the API's max pagination.limit
const CONCURRENCY = 8;

async function pool<T, R>(items: readonly T[], fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, items.length) }, worker));
  return out;
}

export async function indexedHeight(indexer: string): Promise<number> {
  try {
    return (await getJson<{ height: number }>(`${indexer}/status`)).height;
  } catch (err) {
    if (err instanceof HttpError && err.status >= 500) return 0; // empty DB answers 500 by contract
    throw err;
  }
}

export async function waitForIndexedHeight(indexer: string, height: number, timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const h = await indexedHeight(indexer).catch(() => 0);
    if (h >= height) return h;
    if (Date.now() > deadline) throw new Error(`indexer at ${h}, wanted ${height} within ${timeoutMs} ms`);
    await sleep(100);
  }
}

/** Every tx from `tx_search` over [1, maxHeight]: ours vs REST by hash. */
export async function verifyTxs(
  ep: NodeEndpoints,
  indexer: string,
  maxHeight: number,
): Promise<{ checked: number; mismatches: Mismatch[] }> {
  const txs = await txSearchAll(ep, maxHeight);
  const results = await pool(txs, async (t) => {
    const hash = t.hash.toUpperCase();
    const node = await getJson<RestGetTxResponse>(`${ep.rest}/cosmos/tx/v1beta1/txs/${hash}`);
    try {
      const ours = await getJson<{ tx: IndexerTx }>(`${indexer}/indexer/tx/v1/txs/${hash}`);
      return compareTx(ours.tx, node);
    } catch (err) {
      return [{ subject: `tx ${hash}`, field: 'lookup', ours: String(err), node: t.height }];
    }
  });
  return { checked: txs.length, mismatches: results.flat() };
}

/** Operator address per consensus address (hex), from the opchild validator set. */
export async function operatorsByConsensusAddress(ep: NodeEndpoints): Promise<Map<string, string>> {
  const r = await getJson<{ validators: { operator_address: string; consensus_pubkey: { key: string } }[] }>(
    `${ep.rest}/opinit/opchild/v1/validators`,
  );
  // ed25519 consensus address = first 20 bytes of sha256(pubkey)
  return new Map(
    r.validators.map((v) => [
      toHex(sha256(fromBase64(v.consensus_pubkey.key)).slice(0, 20)).toUpperCase(),
      v.operator_address,
    ]),
  );
}

/** Blocks [from, to]: hash, time, tx count and proposer vs CometBFT `block`. */
export async function verifyBlocks(
  ep: NodeEndpoints,
  indexer: string,
  from: number,
  to: number,
): Promise<{ checked: number; mismatches: Mismatch[] }> {
  const operators = await operatorsByConsensusAddress(ep);
  const heights = Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);
  const results = await pool(heights, async (h) => {
    const node = await cometRpc<CometBlockResult>(ep.cometRpc, 'block', { height: String(h) });
    const resolved = operators.get(node.block.header.proposer_address.toUpperCase());
    try {
      const ours = await getJson<{ block: IndexerBlock }>(`${indexer}/indexer/block/v1/blocks/${h}`);
      return compareBlock(ours.block, node, resolved);
    } catch (err) {
      return [{ subject: `block ${h}`, field: 'lookup', ours: String(err), node: node.block_id.hash }];
    }
  });
  return { checked: heights.length, mismatches: results.flat() };
}

async function allPages<T>(url: string, key: string): Promise<T[]> {
  const out: T[] = [];
  for (let offset = 0; offset < 1_000_000; offset += PAGE) {
    const sep = url.includes('?') ? '&' : '?';
    const page = await getJson<Record<string, unknown>>(
      `${url}${sep}pagination.limit=${PAGE}&pagination.offset=${offset}`,
    );
    const items = (page[key] ?? []) as T[];
    out.push(...items);
    if (items.length < PAGE) return out;
  }
  throw new Error(`${url}: more than a million rows`);
}

export async function ethCall(ep: NodeEndpoints, to: string, data: string): Promise<string> {
  const res = await fetch(ep.evmRpc, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_call', params: [{ to, data }, 'latest'] }),
    signal: AbortSignal.timeout(10_000),
  });
  const body = (await res.json()) as { result?: string; error?: { message: string } };
  if (body.error || body.result === undefined)
    throw new Error(`eth_call ${data.slice(0, 10)} → ${body.error?.message ?? 'no result'}`);
  return body.result;
}

const word = (addr: string) => addr.toLowerCase().replace(/^0x/, '').padStart(64, '0');

/**
 * Rich list of an ERC20 vs `balanceOf` for every holder we list plus every
 * account the caller knows touched the token (so a missing holder is caught).
 */
export async function verifyRichList(
  ep: NodeEndpoints,
  indexer: string,
  token: string,
  knownAccounts: readonly string[],
): Promise<{ holders: number; mismatches: Mismatch[] }> {
  const holders = await allPages<RichListHolder>(`${indexer}/indexer/richlist/v1/${token.toLowerCase()}`, 'holders');
  const accounts = [...new Set([...knownAccounts, ...holders.map((h) => h.account)].map((a) => a.toLowerCase()))];
  const balances = new Map<string, bigint>();
  await pool(accounts, async (a) => {
    balances.set(a, BigInt(await ethCall(ep, token, `0x70a08231${word(a)}`)));
  });
  return { holders: holders.length, mismatches: checkRichList(holders, balances) };
}

/** NFTs of one collection vs `ownerOf` for every token id ever minted, and `totalSupply` when the contract has it. */
export async function verifyNfts(
  ep: NodeEndpoints,
  indexer: string,
  collection: string,
  tokenIdsEverMinted: readonly string[],
): Promise<{ tokens: number; mismatches: Mismatch[] }> {
  const address = collection.toLowerCase();
  const owners = new Map<string, string>();
  const burned = new Set<string>();
  await pool(tokenIdsEverMinted, async (id) => {
    try {
      const out = await ethCall(ep, address, `0x6352211e${BigInt(id).toString(16).padStart(64, '0')}`);
      const owner = `0x${out.slice(-40)}`;
      if (/^0x0{40}$/.test(owner)) burned.add(id);
      else owners.set(id, owner);
    } catch {
      burned.add(id); // ownerOf reverts for a burned (nonexistent) token
    }
  });
  let totalSupply = BigInt(owners.size);
  try {
    totalSupply = BigInt(await ethCall(ep, address, '0x18160ddd'));
  } catch {
    // optional in ERC721; the owner set is then the reference count
  }
  const tokens = await allPages<IndexerToken>(`${indexer}/indexer/nft/v1/tokens/by_collection/${address}`, 'tokens');
  let info: IndexerCollection | undefined;
  try {
    info = (await getJson<{ collection: IndexerCollection }>(`${indexer}/indexer/nft/v1/collections/${address}`))
      .collection;
  } catch (err) {
    if (!(err instanceof HttpError && err.status === 404)) throw err;
  }
  return { tokens: tokens.length, mismatches: checkNfts(tokens, info, { address, owners, burned, totalSupply }) };
}

/**
 * For each of the next `blocks` new node heights: ms from first seeing it on
 * the node until our /status reports it (both polled every `pollMs`).
 */
export async function measureStatusLag(
  ep: NodeEndpoints,
  indexer: string,
  blocks: number,
  opts: {
    pollMs?: number;
    timeoutMs?: number;
    alive?: () => boolean;
    /** how to read the indexer's height (default: `indexedHeight(indexer)`) */
    heightOf?: () => Promise<number>;
  } = {},
): Promise<number[]> {
  const pollMs = opts.pollMs ?? 50;
  const deadline = Date.now() + (opts.timeoutMs ?? 120_000);
  const lags: number[] = [];
  let seen = await latestHeight(ep);
  while (lags.length < blocks) {
    if (Date.now() > deadline) throw new Error(`only ${lags.length}/${blocks} lag samples before the deadline`);
    const h = await latestHeight(ep);
    if (h <= seen) {
      await sleep(pollMs);
      continue;
    }
    seen = h;
    const t0 = Date.now();
    const heightOf = opts.heightOf ?? (() => indexedHeight(indexer));
    while ((await heightOf().catch(() => 0)) < h) {
      if (Date.now() > deadline) throw new Error(`indexer never reached ${h}`);
      if (opts.alive && !opts.alive()) throw new Error('indexer process exited');
      await sleep(pollMs);
    }
    lags.push(Date.now() - t0);
  }
  return lags;
}

export interface IssueCheckTargets {
  erc20: { token: string; accounts: readonly string[] }[];
  nfts: { collection: string; tokenIds: readonly string[] }[];
  /** how long the rich list may trail the head (it processes a block once it is ≥5 behind) */
  richListSettleMs?: number;
}

export interface IssueCheckReport {
  head: number;
  txs: number;
  blocks: number;
  holders: number;
  tokens: number;
  mismatches: Mismatch[];
}

/** All of the issue's per-tx, per-block, rich-list and NFT checks up to the node's current head. */
export async function verifyAll(
  ep: NodeEndpoints,
  indexer: string,
  targets: IssueCheckTargets,
  waitIndexed: (height: number) => Promise<unknown>,
): Promise<IssueCheckReport> {
  const head = await latestHeight(ep);
  await waitIndexed(head);
  const txs = await verifyTxs(ep, indexer, head);
  const blocks = await verifyBlocks(ep, indexer, 1, head);
  const mismatches = [...txs.mismatches, ...blocks.mismatches];
  let holders = 0;
  for (const t of targets.erc20) {
    const deadline = Date.now() + (targets.richListSettleMs ?? 20_000);
    for (;;) {
      const r = await verifyRichList(ep, indexer, t.token, t.accounts);
      if (r.mismatches.length === 0 || Date.now() > deadline) {
        mismatches.push(...r.mismatches);
        holders += r.holders;
        break;
      }
      await sleep(500);
    }
  }
  let tokens = 0;
  for (const n of targets.nfts) {
    const r = await verifyNfts(ep, indexer, n.collection, n.tokenIds);
    mismatches.push(...r.mismatches);
    tokens += r.tokens;
  }
  return { head, txs: txs.checked, blocks: blocks.checked, holders, tokens, mismatches };
}
