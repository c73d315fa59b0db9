// Every key the chain has, read from the node itself (not from either indexer),
// and the probes (endpoint × key × query variant) the differential test runs.
import { createHash } from 'node:crypto';
import { JsonRpcProvider } from 'ethers';
import { cometRpc, getJson, sleep, type NodeEndpoints } from '../minievm/node-client.js';
import { bech32ToEvm } from '../minievm/accounts.js';
import type { Vm } from '../../chain/vm.js';
import type { Probe } from './differential.js';

export interface ChainKeys {
  /** head height; the chain is still (no empty blocks) when the keys are read */
  height: number;
  heightsWithTxs: number[];
  /** uppercase hex Cosmos tx hashes, in block order */
  txHashes: string[];
  /** every init1… account that appears in a tx (bech32) */
  accounts: string[];
  msgTypes: string[];
  collections: { address: string; name: string }[];
  tokens: { collection: string; tokenId: string }[];
  /** rich-list denoms: the native denom and each ERC20 address */
  denoms: string[];
  /** 0x lowercase EVM tx hashes (eth_getBlockByNumber), in block order */
  evmTxHashes: string[];
  /** heights with at least one EVM tx */
  heightsWithEvmTxs: number[];
}

/**
 * Right after start-up the node's JSON-RPC may not give fee data yet (ethers: "failed to get consistent fee
 * data"), which fails the traffic generator's first deploy: wait until it does.
 */
export async function waitForFeeData(ep: NodeEndpoints, timeoutMs = 60_000): Promise<void> {
  const provider = new JsonRpcProvider(ep.evmRpc);
  const deadline = Date.now() + timeoutMs;
  try {
    for (;;) {
      try {
        const fee = await provider.getFeeData();
        if (fee.gasPrice !== null || fee.maxFeePerGas !== null) return;
      } catch (e) {
        if (Date.now() > deadline) throw e;
      }
      if (Date.now() > deadline) throw new Error(`no EVM fee data from ${ep.evmRpc} within ${timeoutMs} ms`);
      await sleep(500);
    }
  } finally {
    provider.destroy();
  }
}

interface BlockchainResult {
  last_height: string;
  block_metas: { header: { height: string }; num_txs: string }[];
}
interface BlockResult {
  block: { data: { txs: string[] | null } };
}
interface RestTx {
  tx: { body: { messages: { '@type': string }[] } };
  tx_response: unknown;
}

/** The EVM tx hashes of one block, read from the node's JSON-RPC (eth_getBlockByNumber, hashes only). */
async function evmBlockTxHashes(evmRpc: string, height: number): Promise<string[]> {
  const res = await fetch(evmRpc, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'eth_getBlockByNumber',
      params: [`0x${height.toString(16)}`, false],
    }),
    signal: AbortSignal.timeout(30_000),
  });
  const body = (await res.json()) as { result?: { transactions?: string[] } | null; error?: { message: string } };
  if (body.error) throw new Error(`eth_getBlockByNumber ${height}: ${body.error.message}`);
  return body.result?.transactions ?? [];
}

/** Reads heights, tx hashes, message types and accounts from CometBFT RPC + Cosmos REST. */
export async function readChainKeys(
  ep: NodeEndpoints,
  extra: Pick<ChainKeys, 'collections' | 'tokens' | 'denoms'>,
): Promise<ChainKeys> {
  const status = await cometRpc<{ sync_info: { latest_block_height: string } }>(ep.cometRpc, 'status', {});
  const height = Number(status.sync_info.latest_block_height);
  const heightsWithTxs: number[] = [];
  for (let max = height; max >= 1; max -= 20) {
    const r = await cometRpc<BlockchainResult>(ep.cometRpc, 'blockchain', {
      minHeight: String(Math.max(1, max - 19)),
      maxHeight: String(max),
    });
    for (const m of r.block_metas) if (Number(m.num_txs) > 0) heightsWithTxs.push(Number(m.header.height));
  }
  heightsWithTxs.sort((a, b) => a - b);
  const txHashes: string[] = [];
  const accounts = new Set<string>();
  const msgTypes = new Set<string>();
  for (const h of heightsWithTxs) {
    const b = await cometRpc<BlockResult>(ep.cometRpc, 'block', { height: String(h) });
    for (const raw of b.block.data.txs ?? []) {
      const hash = createHash('sha256').update(Buffer.from(raw, 'base64')).digest('hex').toUpperCase();
      txHashes.push(hash);
      const text = JSON.stringify(await getJson<RestTx>(`${ep.rest}/cosmos/tx/v1beta1/txs/${hash}`));
      for (const m of text.match(/\binit1[02-9ac-hj-np-z]{38}\b/g) ?? []) accounts.add(m);
      const tx = JSON.parse(text) as RestTx;
      // upstream names message types without the leading '/' (and ignores a filter it does not know)
      for (const m of tx.tx.body.messages) msgTypes.add(m['@type'].replace(/^\//, ''));
    }
  }
  const evmTxHashes: string[] = [];
  const heightsWithEvmTxs: number[] = [];
  // Move and Wasm nodes have no EVM JSON-RPC (and no EVM txs)
  for (const h of ep.evmRpc ? heightsWithTxs : []) {
    const hashes = await evmBlockTxHashes(ep.evmRpc, h);
    if (hashes.length > 0) heightsWithEvmTxs.push(h);
    evmTxHashes.push(...hashes.map((x) => x.toLowerCase()));
  }
  return {
    height,
    heightsWithTxs,
    txHashes,
    evmTxHashes,
    heightsWithEvmTxs,
    accounts: [...accounts].sort(),
    msgTypes: [...msgTypes].sort(),
    ...extra,
  };
}

/** Paging variants of a list: walked with a small limit in both orders, with and without totals. */
function listVariants(limit: number): Record<string, string>[] {
  const out: Record<string, string>[] = [];
  for (const reverse of ['true', 'false'])
    for (const count of ['true', 'false'])
      out.push({ 'pagination.limit': String(limit), 'pagination.reverse': reverse, 'pagination.count_total': count });
  return out;
}

function list(
  endpoint: string,
  key: string,
  path: string,
  items: string,
  limit: number,
  more: Record<string, string> = {},
): Probe[] {
  return [
    { endpoint, key, path, items, query: { ...more } }, // defaults: pages of 100
    ...listVariants(limit).map((q) => ({ endpoint, key, path, items, query: { ...more, ...q } })),
  ];
}

/**
 * The probes for the 16 endpoints both indexers serve. Upstream quirks that are not compared (documented in
 * docs/indexer.md): `msgs` with unknown types (upstream ignores the filter), `by_account?msgs=` (upstream 500),
 * `by_name` with `%20` (upstream does not unescape), unknown rich-list denoms (upstream takes ~46 s).
 */
export function buildProbes(k: ChainKeys, opts: { internalTxs?: boolean; vm?: Vm } = {}): Probe[] {
  const p: Probe[] = [];
  const enc = encodeURIComponent;
  p.push({ endpoint: '/status', key: '-', path: '/status' });
  p.push({ endpoint: '/indexer/block/v1/avg_blocktime', key: '-', path: '/indexer/block/v1/avg_blocktime' });
  // blocks
  p.push(...list('/indexer/block/v1/blocks', '-', '/indexer/block/v1/blocks', 'blocks', 10));
  for (let h = 1; h <= k.height; h++)
    p.push({
      endpoint: '/indexer/block/v1/blocks/{height}',
      key: `height ${h}`,
      path: `/indexer/block/v1/blocks/${h}`,
    });
  for (const bad of [String(k.height + 1000), 'abc'])
    p.push({
      endpoint: '/indexer/block/v1/blocks/{height}',
      key: `height ${bad}`,
      path: `/indexer/block/v1/blocks/${bad}`,
    });
  // txs
  p.push(...list('/indexer/tx/v1/txs', '-', '/indexer/tx/v1/txs', 'txs', 8));
  for (const m of k.msgTypes)
    p.push(...list('/indexer/tx/v1/txs', `msgs ${m}`, '/indexer/tx/v1/txs', 'txs', 8, { msgs: m }));
  if (k.msgTypes.length > 1)
    p.push({
      endpoint: '/indexer/tx/v1/txs',
      key: 'msgs all',
      path: '/indexer/tx/v1/txs',
      items: 'txs',
      query: { msgs: k.msgTypes.join(',') },
    });
  for (const h of k.txHashes) {
    p.push({ endpoint: '/indexer/tx/v1/txs/{tx_hash}', key: h, path: `/indexer/tx/v1/txs/${h}` });
  }
  p.push({
    endpoint: '/indexer/tx/v1/txs/{tx_hash}',
    key: 'unknown hash',
    path: `/indexer/tx/v1/txs/${'0'.repeat(64)}`,
  });
  for (let h = 1; h <= k.height; h++) {
    const path = `/indexer/tx/v1/txs/by_height/${h}`;
    if (k.heightsWithTxs.includes(h)) {
      p.push(...list('/indexer/tx/v1/txs/by_height/{height}', `height ${h}`, path, 'txs', 2));
      for (const m of k.msgTypes)
        p.push({
          endpoint: '/indexer/tx/v1/txs/by_height/{height}',
          key: `height ${h} msgs ${m}`,
          path,
          items: 'txs',
          query: { msgs: m },
        });
    } else {
      p.push({ endpoint: '/indexer/tx/v1/txs/by_height/{height}', key: `height ${h}`, path, items: 'txs' });
    }
  }
  p.push({
    endpoint: '/indexer/tx/v1/txs/by_height/{height}',
    key: 'height abc',
    path: '/indexer/tx/v1/txs/by_height/abc',
  });
  for (const a of k.accounts) {
    const forms = [a, bech32ToEvm(a).toLowerCase()];
    for (const f of forms) {
      const path = `/indexer/tx/v1/txs/by_account/${f}`;
      p.push(...list('/indexer/tx/v1/txs/by_account/{account}', f, path, 'txs', 5));
      for (const s of ['true', 'false'])
        p.push({
          endpoint: '/indexer/tx/v1/txs/by_account/{account}',
          key: `${f} is_signer=${s}`,
          path,
          items: 'txs',
          query: { is_signer: s },
        });
    }
  }
  // NFTs
  p.push(...list('/indexer/nft/v1/collections', '-', '/indexer/nft/v1/collections', 'collections', 1));
  for (const c of k.collections) {
    p.push({
      endpoint: '/indexer/nft/v1/collections/{collection_addr}',
      key: c.address,
      path: `/indexer/nft/v1/collections/${c.address}`,
    });
    for (const order of ['token_id', 'height'])
      p.push(
        ...list(
          '/indexer/nft/v1/tokens/by_collection/{collection_addr}',
          `${c.address} order_by=${order}`,
          `/indexer/nft/v1/tokens/by_collection/${c.address}`,
          'tokens',
          4,
          { order_by: order },
        ),
      );
    // words upstream matches as typed: it does not unescape the path, so `%20`, `%23` … never match there
    for (const word of c.name.split(/\s+/).filter((w) => /^[A-Za-z0-9_.-]+$/.test(w)))
      p.push(
        ...list(
          '/indexer/nft/v1/collections/by_name/{name}',
          word,
          `/indexer/nft/v1/collections/by_name/${enc(word)}`,
          'collections',
          1,
        ),
      );
  }
  p.push({
    endpoint: '/indexer/nft/v1/collections/by_name/{name}',
    key: 'no match',
    path: '/indexer/nft/v1/collections/by_name/zzzznomatch',
    items: 'collections',
  });
  for (const t of k.tokens) {
    p.push(
      ...list(
        '/indexer/nft/v1/txs/{collection_addr}/{token_id}',
        `${t.collection}/${t.tokenId}`,
        `/indexer/nft/v1/txs/${t.collection}/${enc(t.tokenId)}`,
        'txs',
        1,
      ),
    );
    p.push({
      endpoint: '/indexer/nft/v1/tokens/by_collection/{collection_addr}',
      key: `${t.collection} token_id=${t.tokenId}`,
      path: `/indexer/nft/v1/tokens/by_collection/${t.collection}`,
      items: 'tokens',
      query: { token_id: t.tokenId },
    });
  }
  for (const a of k.accounts) {
    for (const f of [a, bech32ToEvm(a).toLowerCase()]) {
      p.push(
        ...list(
          '/indexer/nft/v1/collections/by_account/{account}',
          f,
          `/indexer/nft/v1/collections/by_account/${f}`,
          'collections',
          1,
        ),
      );
      for (const order of ['token_id', 'height'])
        p.push(
          ...list(
            '/indexer/nft/v1/tokens/by_account/{account}',
            `${f} order_by=${order}`,
            `/indexer/nft/v1/tokens/by_account/${f}`,
            'tokens',
            2,
            { order_by: order },
          ),
        );
      for (const c of k.collections)
        p.push({
          endpoint: '/indexer/nft/v1/tokens/by_account/{account}',
          key: `${f} collection_addr=${c.address}`,
          path: `/indexer/nft/v1/tokens/by_account/${f}`,
          items: 'tokens',
          query: { collection_addr: c.address },
        });
    }
  }
  // The EVM endpoints and the rich list exist on EVM rollups only (SPEC: rich list indexing is EVM-only).
  if ((opts.vm ?? 'evm') !== 'evm') return p;
  // EVM txs (receipts); internal txs only on request (they differ from upstream: bench/reports/2026-11-24-rollytics.md)
  p.push(...evmProbes(k, opts.internalTxs ? ['evm-txs', 'evm-internal-txs'] : ['evm-txs']));
  // rich list
  for (const d of k.denoms)
    p.push(...list('/indexer/richlist/v1/{denom}', d, `/indexer/richlist/v1/${enc(d)}`, 'holders', 5));
  return p;
}

/**
 * The EVM tx endpoints (4 each): receipts (`evm-txs`) and internal txs (`evm-internal-txs`), by hash, height
 * and account (both forms), and the full lists.
 */
export function evmProbes(k: ChainKeys, kinds: ('evm-txs' | 'evm-internal-txs')[]): Probe[] {
  const p: Probe[] = [];
  for (const kind of kinds) {
    const items = kind === 'evm-txs' ? 'txs' : 'internal_txs';
    const base = `/indexer/tx/v1/${kind}`;
    p.push(...list(base, '-', base, items, 8));
    for (const h of k.evmTxHashes) {
      const hash = `${base}/{tx_hash}`;
      if (kind === 'evm-txs') p.push({ endpoint: hash, key: h, path: `${base}/${h}` });
      else p.push(...list(hash, h, `${base}/${h}`, items, 1));
    }
    p.push({ endpoint: `${base}/{tx_hash}`, key: 'unknown hash', path: `${base}/0x${'0'.repeat(64)}` });
    for (let h = 1; h <= k.height; h++) {
      const path = `${base}/by_height/${h}`;
      const endpoint = `${base}/by_height/{height}`;
      if (k.heightsWithEvmTxs.includes(h)) p.push(...list(endpoint, `height ${h}`, path, items, 1));
      else p.push({ endpoint, key: `height ${h}`, path, items });
    }
    p.push({ endpoint: `${base}/by_height/{height}`, key: 'height abc', path: `${base}/by_height/abc` });
    for (const a of k.accounts) {
      for (const f of [a, bech32ToEvm(a).toLowerCase()]) {
        const endpoint = `${base}/by_account/{account}`;
        const path = `${base}/by_account/${f}`;
        p.push(...list(endpoint, f, path, items, 3));
        if (kind === 'evm-txs')
          for (const s of ['true', 'false'])
            p.push({ endpoint, key: `${f} is_signer=${s}`, path, items, query: { is_signer: s } });
      }
    }
  }
  return p;
}
