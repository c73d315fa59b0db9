// Issue 11's state checks against a real node, at one height: the rich list of the native denom (umin) and
// of every ERC20 equals the node's balances at the indexed height (genesis allocations included), each
// collection's height is its contract's deployment, and txs/by_account of every funded account holds every tx
// the node's tx_search finds for it (as sender or recipient). Each returns mismatches; callers assert [].
import { getAddress } from 'ethers';
import {
  checkNftState,
  checkRichList,
  checkTokenTxs,
  type Mismatch,
  type NftCollectionState,
  type RichListHolder,
  type ServedNftCollection,
  type ServedNftToken,
} from './checks.js';
import { bech32ToEvm } from './accounts.js';
import { getJson, HttpError, sleep, txSearch, type NodeEndpoints } from './node-client.js';

const PAGE = 1000;
const CONCURRENCY = 8;
export const NATIVE_DENOM = 'umin';

async function pool<T>(items: readonly T[], fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(CONCURRENCY, items.length) }, async () => {
      while (next < items.length) await fn(items[next++] as T);
    }),
  );
}

/** REST GET at a height (`x-cosmos-block-height`), JSON. */
export async function restAt<T>(ep: NodeEndpoints, path: string, height: number): Promise<T> {
  const res = await fetch(ep.rest + path, {
    headers: { 'x-cosmos-block-height': String(height) },
    signal: AbortSignal.timeout(15_000),
  });
  const body = await res.text();
  if (!res.ok) throw new Error(`GET ${path} @${height}: HTTP ${res.status} ${body.slice(0, 200)}`);
  return JSON.parse(body) as T;
}

async function allKeyPages<T>(
  fetchPage: (key: string | null) => Promise<{ items: T[]; next: string | null }>,
): Promise<T[]> {
  const out: T[] = [];
  let key: string | null = null;
  for (let i = 0; i < 100_000; i++) {
    const p = await fetchPage(key);
    out.push(...p.items);
    if (!p.next || p.items.length === 0) return out;
    key = p.next;
  }
  throw new Error('too many pages');
}

/** Every account's balance of `denom` at `height`, by lowercase 0x address (zero balances left out). */
export async function bankHolders(ep: NodeEndpoints, denom: string, height: number): Promise<Map<string, bigint>> {
  const accounts = await allKeyPages<Record<string, unknown>>(async (key) => {
    const r = await restAt<{ accounts: Record<string, unknown>[]; pagination?: { next_key?: string | null } }>(
      ep,
      `/cosmos/auth/v1beta1/accounts?pagination.limit=${PAGE}${key ? `&pagination.key=${encodeURIComponent(key)}` : ''}`,
      height,
    );
    return { items: r.accounts, next: r.pagination?.next_key ?? null };
  });
  const address = (a: Record<string, unknown>): string | undefined =>
    typeof a.address === 'string'
      ? a.address
      : (Object.values(a)
          .filter((v): v is Record<string, unknown> => !!v && typeof v === 'object')
          .map(address)
          .find(Boolean) ?? undefined);
  const out = new Map<string, bigint>();
  await pool(
    accounts.map(address).filter((a): a is string => !!a),
    async (a) => {
      const r = await restAt<{ balance?: { amount: string } }>(
        ep,
        `/cosmos/bank/v1beta1/balances/${a}/by_denom?denom=${encodeURIComponent(denom)}`,
        height,
      );
      const amount = BigInt(r.balance?.amount ?? '0');
      if (amount > 0n) out.set(bech32ToEvm(a).toLowerCase(), amount);
    },
  );
  return out;
}

async function ourHolders(indexer: string, denomOrToken: string): Promise<RichListHolder[]> {
  const out: RichListHolder[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const r = await getJson<{ holders: RichListHolder[] }>(
      `${indexer}/indexer/richlist/v1/${encodeURIComponent(denomOrToken)}?pagination.limit=${PAGE}&pagination.offset=${offset}`,
    );
    out.push(...r.holders);
    if (r.holders.length < PAGE) return out;
  }
}

interface Status {
  height: number;
  rich_list_height?: number;
  internal_tx_height?: number;
}

/** Waits until /status reports the rich list at the indexed height (≥ `atLeast`), i.e. the list is settled. */
export async function settledRichListHeight(indexer: string, atLeast: number, timeoutMs = 30_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const s = await getJson<Status>(`${indexer}/status`).catch(() => null);
    if (s && s.height >= atLeast && s.rich_list_height === s.height) return s.height;
    if (Date.now() > deadline)
      throw new Error(`/status never reported rich_list_height = height ≥ ${atLeast}: ${JSON.stringify(s)}`);
    await sleep(200);
  }
}

/** The native denom's rich list vs the bank balance of every account at `height` (exact set, amounts, order). */
export async function verifyNativeRichList(
  ep: NodeEndpoints,
  indexer: string,
  height: number,
): Promise<{ holders: number; mismatches: Mismatch[] }> {
  const [holders, balances] = await Promise.all([
    ourHolders(indexer, NATIVE_DENOM),
    bankHolders(ep, NATIVE_DENOM, height),
  ]);
  return {
    holders: holders.length,
    mismatches: checkRichList(holders, balances).map((m) => ({ ...m, subject: `${NATIVE_DENOM} ${m.subject}` })),
  };
}

/** An ERC20's rich list vs `balanceOf` at `height` for every holder we list and every known account. */
export async function verifyErc20AtHeight(
  ep: NodeEndpoints,
  indexer: string,
  token: string,
  knownAccounts: readonly string[],
  height: number,
): Promise<{ holders: number; mismatches: Mismatch[] }> {
  const holders = await ourHolders(indexer, token.toLowerCase());
  const accounts = [...new Set([...knownAccounts, ...holders.map((h) => h.account)].map((a) => a.toLowerCase()))];
  const balances = new Map<string, bigint>();
  await pool(accounts, async (a) => {
    const data = `0x70a08231${a.replace(/^0x/, '').padStart(64, '0')}`;
    const res = await fetch(ep.evmRpc, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'eth_call',
        params: [{ to: token, data }, `0x${height.toString(16)}`],
      }),
    });
    const body = (await res.json()) as { result?: string; error?: { message: string } };
    if (!body.result) throw new Error(`balanceOf(${a}) @${height}: ${body.error?.message ?? 'no result'}`);
    const v = BigInt(body.result);
    if (v > 0n) balances.set(a, v);
  });
  return {
    holders: holders.length,
    mismatches: checkRichList(holders, balances).map((m) => ({ ...m, subject: `${token} ${m.subject}` })),
  };
}

/**
 * txs/by_account of each account vs the node's tx_search for it as sender (message.sender) or recipient
 * (transfer.recipient), up to `height`: every tx the node finds must be listed, once. Our list may hold more
 * (upstream links every account named in a tx's events); each of those must still name the account.
 */
export async function verifyAccountTxs(
  ep: NodeEndpoints,
  indexer: string,
  accounts: readonly string[],
  height: number,
): Promise<{ checked: number; mismatches: Mismatch[] }> {
  const mismatches: Mismatch[] = [];
  let checked = 0;
  await pool(accounts, async (account) => {
    const node = new Map<string, number>();
    for (const q of [`message.sender='${account}'`, `transfer.recipient='${account}'`])
      for (const t of await txSearch(ep, `${q} AND tx.height<=${height}`))
        node.set(t.hash.toUpperCase(), Number(t.height));
    const ours: { txhash: string; height: string; events: unknown }[] = [];
    for (let offset = 0; ; offset += PAGE) {
      const r = await getJson<{ txs: { txhash: string; height: string; events: unknown }[] }>(
        `${indexer}/indexer/tx/v1/txs/by_account/${account}?pagination.limit=${PAGE}&pagination.offset=${offset}`,
      );
      ours.push(...r.txs);
      if (r.txs.length < PAGE) break;
    }
    const listed = new Map<string, number>();
    const evm = bech32ToEvm(account).toLowerCase().slice(2);
    for (const t of ours) {
      if (Number(t.height) > height) continue;
      const h = t.txhash.toUpperCase();
      if (listed.has(h)) mismatches.push({ subject: `${account} tx ${h}`, field: 'duplicate', ours: h, node: null });
      listed.set(h, Number(t.height));
      const text = JSON.stringify(t.events).toLowerCase();
      if (!node.has(h) && !text.includes(account) && !text.includes(evm))
        mismatches.push({
          subject: `${account} tx ${h}`,
          field: 'listed but does not name the account',
          ours: h,
          node: null,
        });
    }
    for (const [h, at] of node)
      if (!listed.has(h)) mismatches.push({ subject: `${account} tx ${h}`, field: 'missing', ours: null, node: at });
    checked += node.size;
  });
  return { checked, mismatches };
}

/** A collection's height is its contract's deployment: the node's tx_search for contract_created. */
export async function verifyCollectionHeight(
  ep: NodeEndpoints,
  indexer: string,
  collection: string,
): Promise<Mismatch[]> {
  const created = await txSearch(ep, `contract_created.contract='${getAddress(collection)}'`);
  const ours = await getJson<{ collection: { height: number } }>(
    `${indexer}/indexer/nft/v1/collections/${collection.toLowerCase()}`,
  );
  const height = String(ours.collection.height);
  const node = created[0] ? String(created[0].height) : 'no contract_created event';
  return height === node ? [] : [{ subject: `collection ${collection}`, field: 'height', ours: height, node }];
}

/** Our collection and its tokens vs the chain's NFT state (checkNftState), any VM. */
export async function verifyNftCollection(indexer: string, chain: NftCollectionState): Promise<Mismatch[]> {
  let collection: ServedNftCollection | undefined;
  try {
    collection = (
      await getJson<{ collection: ServedNftCollection }>(`${indexer}/indexer/nft/v1/collections/${chain.address}`)
    ).collection;
  } catch (err) {
    if (!(err instanceof HttpError && err.status === 404)) throw err;
  }
  const tokens: ServedNftToken[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const r = await getJson<{ tokens: ServedNftToken[] }>(
      `${indexer}/indexer/nft/v1/tokens/by_collection/${chain.address}?pagination.limit=${PAGE}&pagination.offset=${offset}`,
    );
    tokens.push(...r.tokens);
    if (r.tokens.length < PAGE) break;
  }
  return checkNftState(collection, tokens, chain);
}

/**
 * NFT txs of one token vs the node: `queries` are tx_search queries whose union is every tx that touched the
 * token (Move: the NFT object named in a move event; Wasm: the contract and token id in a wasm event). A burned
 * token lists nothing (the reference indexer drops its row, and with it the link).
 */
export async function verifyTokenTxs(
  ep: NodeEndpoints,
  indexer: string,
  collection: string,
  tokenId: string,
  queries: readonly string[],
  burned: boolean,
): Promise<Mismatch[]> {
  const node = new Set<string>();
  if (!burned) for (const q of queries) for (const t of await txSearch(ep, q)) node.add(t.hash.toUpperCase());
  const ours: string[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const r = await getJson<{ txs: { txhash: string }[] }>(
      `${indexer}/indexer/nft/v1/txs/${collection}/${encodeURIComponent(tokenId)}?pagination.limit=${PAGE}&pagination.offset=${offset}`,
    );
    ours.push(...r.txs.map((t) => t.txhash.toUpperCase()));
    if (r.txs.length < PAGE) break;
  }
  return checkTokenTxs(`token ${collection}/${tokenId}`, ours, node);
}
