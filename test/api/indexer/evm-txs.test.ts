// The EVM tx endpoints (issue 12) on the recorded EVM sample chain, ingested with callTracer traces: every
// receipt we serve matches what the node answers to eth_getTransactionReceipt, lists page by sequence as
// upstream, internal txs follow the node's call trees, and /status's internal_tx_height is the indexed height.
// Every response is validated against the OpenAPI document by the app (validateResponses).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAccount } from '../../../api/indexer/params.js';
import type { EvmSampleManifest } from '../../../devnet/sample-chains/evm.js';
import { ingestSampleChain, type IngestedSample } from '../../support/sample.js';
import { startIndexer, walk, type Running } from './helpers.js';

let s: IngestedSample;
let api: Running;
let m: EvmSampleManifest;

// any: JSON-RPC wire values
async function rpc(method: string, params: unknown[]): Promise<any> {
  const res = await fetch(s.sample.evmUrl!, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await res.json()) as { result?: unknown; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

const evmHashes = () => m.txs.flatMap((t) => t.evmTxHashes.map((h) => ({ hash: h.toLowerCase(), height: t.height })));

beforeAll(async () => {
  s = await ingestSampleChain('evm', { evmTraces: true });
  m = s.sample.manifest as EvmSampleManifest;
  api = await startIndexer({
    store: s.store,
    config: {
      CHAIN_ID: m.chainId,
      VM: 'evm',
      BECH32_PREFIX: 'init',
      VERSION: 'v1',
      COMMIT_HASH: 'abc',
      EVM_INTERNAL_TXS: true,
    },
    chain: { restUrl: s.sample.restUrl },
    responseCache: false,
  });
}, 180_000);
afterAll(async () => {
  await api?.close();
  await s?.cleanup();
});

describe('/indexer/tx/v1/evm-txs', () => {
  it('serves every EVM tx of the chain; each equals the node eth_getTransactionReceipt (upstream fields)', async () => {
    const expected = evmHashes();
    expect(expected.length).toBeGreaterThan(0);
    const { items } = await walk<{ transactionHash: string }>(api, '/indexer/tx/v1/evm-txs?pagination.limit=3', 'txs');
    expect(items.map((t) => t.transactionHash.toLowerCase()).sort()).toEqual(expected.map((e) => e.hash).sort());
    for (const { hash } of expected) {
      const node = await rpc('eth_getTransactionReceipt', [hash]);
      const { status, body } = await api.get(`/indexer/tx/v1/evm-txs/${hash}`);
      expect(status).toBe(200);
      const tx = body.tx;
      expect(tx.transactionHash).toBe(node.transactionHash);
      for (const k of [
        'blockHash',
        'blockNumber',
        'cumulativeGasUsed',
        'effectiveGasPrice',
        'from',
        'gasUsed',
        'logsBloom',
        'status',
        'transactionIndex',
        'type',
      ])
        expect(tx[k], k).toBe(node[k]);
      expect(tx.contractAddress).toBe(node.contractAddress ?? null);
      expect(tx.to).toBe(node.to ?? ''); // upstream prints a null `to` as ""
      expect(tx.logs).toEqual(
        // any: JSON-RPC wire values
        node.logs.map((l: any) => ({ ...l, removed: l.removed === true })),
      );
      // the uppercase form and the hash without 0x find the same tx
      expect((await api.get(`/indexer/tx/v1/evm-txs/${hash.slice(2).toUpperCase()}`)).body.tx.transactionHash).toBe(
        node.transactionHash,
      );
    }
  });

  it('pages by sequence: next_key {"sequence": height*1e6+index}, ascending is the reverse, offsets work', async () => {
    const first = await api.get('/indexer/tx/v1/evm-txs?pagination.limit=2');
    expect(first.status).toBe(200);
    const [a, b] = first.body.txs;
    const seq = (t: { blockNumber: string; transactionIndex: string }) =>
      Number(BigInt(t.blockNumber)) * 1e6 + Number(BigInt(t.transactionIndex));
    expect(seq(a)).toBeGreaterThan(seq(b));
    expect(JSON.parse(Buffer.from(first.body.pagination.next_key, 'base64').toString())).toEqual({ sequence: seq(b) });
    expect(first.body.pagination.total).toBe(String(evmHashes().length));
    const desc = (await walk<{ transactionHash: string }>(api, '/indexer/tx/v1/evm-txs?pagination.limit=4', 'txs'))
      .items;
    const asc = (
      await walk<{ transactionHash: string }>(
        api,
        '/indexer/tx/v1/evm-txs?pagination.limit=4&pagination.reverse=false',
        'txs',
      )
    ).items;
    expect(asc.map((t) => t.transactionHash)).toEqual(desc.map((t) => t.transactionHash).reverse());
    const off = await api.get(`/indexer/tx/v1/evm-txs?pagination.limit=2&pagination.offset=2`);
    expect(off.body.txs.map((t: { transactionHash: string }) => t.transactionHash)).toEqual(
      desc.slice(2, 4).map((t) => t.transactionHash),
    );
    const noCount = await api.get('/indexer/tx/v1/evm-txs?pagination.count_total=0&pagination.limit=1');
    expect(noCount.body.pagination.total).toBe('0');
  });

  it('by_height and by_account (hex or bech32, is_signer) select the node receipts', async () => {
    const { hash, height } = evmHashes()[0]!;
    const node = await rpc('eth_getTransactionReceipt', [hash]);
    const byHeight = await api.get(`/indexer/tx/v1/evm-txs/by_height/${height}`);
    const inBlock = await rpc('eth_getBlockReceipts', [`0x${height.toString(16)}`]);
    expect(byHeight.body.txs.map((t: { transactionHash: string }) => t.transactionHash).sort()).toEqual(
      // any: JSON-RPC wire values
      inBlock.map((r: any) => r.transactionHash).sort(),
    );
    expect(byHeight.body.pagination.total).toBe(String(inBlock.length));
    const from: string = node.from;
    const hex = await api.get(`/indexer/tx/v1/evm-txs/by_account/${from}?is_signer=1`);
    expect(hex.status).toBe(200);
    expect(hex.body.txs.length).toBeGreaterThan(0);
    for (const t of hex.body.txs) expect(t.from.toLowerCase()).toBe(from.toLowerCase());
    expect(hex.body.txs.map((t: { transactionHash: string }) => t.transactionHash)).toContain(node.transactionHash);
    const bech = await api.get(`/indexer/tx/v1/evm-txs/by_account/${parseAccount(from, 'init')}?is_signer=true`);
    expect(bech.body).toEqual(hex.body);
    const any = await api.get(`/indexer/tx/v1/evm-txs/by_account/${from}`);
    expect(Number(any.body.pagination.total)).toBeGreaterThanOrEqual(Number(hex.body.pagination.total));
  });

  it("by_account links upstream's edges: from, to, contractAddress, log addresses, address topics", async () => {
    // every receipt of the chain, from the node
    const all: any[] = []; // any: JSON-RPC wire values
    for (const h of [...new Set(evmHashes().map((e) => e.height))])
      all.push(...(await rpc('eth_getBlockReceipts', [`0x${h.toString(16)}`])));
    const linked = (
      r: any, // any: JSON-RPC wire values
      a: string,
    ) =>
      [r.from, r.to, r.contractAddress].some((x) => (x ?? '').toLowerCase() === a) ||
      r.logs.some(
        (l: { address: string; topics: string[] }) =>
          l.address.toLowerCase() === a || l.topics.some((t) => t.toLowerCase() === `0x${'0'.repeat(24)}${a.slice(2)}`),
      );
    // a log-emitting contract, a topic-only address (an ERC20 recipient) and a sender
    const withLogs = all.find((r) => r.logs.some((l: { topics: string[] }) => l.topics.length >= 3))!;
    const log = withLogs.logs.find((l: { topics: string[] }) => l.topics.length >= 3);
    const candidates = [
      log.address.toLowerCase(),
      `0x${log.topics[2].slice(26)}`.toLowerCase(),
      withLogs.from.toLowerCase(),
    ];
    for (const a of candidates) {
      const expected = all
        .filter((r) => linked(r, a))
        .map((r) => r.transactionHash)
        .sort();
      const { items } = await walk<{ transactionHash: string }>(
        api,
        `/indexer/tx/v1/evm-txs/by_account/${a}?pagination.limit=5`,
        'txs',
      );
      expect(items.map((t) => t.transactionHash).sort(), a).toEqual(expected);
      expect(expected.length).toBeGreaterThan(0);
    }
    const above = await api.get(`/indexer/tx/v1/evm-txs/by_height/${m.latestHeight + 10}`);
    expect(above.body).toEqual({ txs: [], pagination: { previous_key: null, next_key: null, total: '0' } });
  });

  it('unknown, short and long hashes are 404 "tx not found"; non-hex is 400', async () => {
    for (const h of [`0x${'ab'.repeat(32)}`, '0xabcd', 'ab'.repeat(40)]) {
      const r = await api.get(`/indexer/tx/v1/evm-txs/${h}`);
      expect(r.status).toBe(404);
      expect(r.body).toMatchObject({ code: 404, message: 'tx not found' });
    }
    expect((await api.get('/indexer/tx/v1/evm-txs/0xzz')).status).toBe(400);
  });
});

describe('/indexer/tx/v1/evm-internal-txs', () => {
  // any: JSON-RPC wire values
  const flatten = (hash: string, height: number, root: any) => {
    const out: object[] = [];
    // any: JSON-RPC wire values
    const walkFrame = (f: any, parent: number) => {
      const index = out.length;
      out.push({
        height,
        hash,
        parent_index: parent,
        index,
        type: f.type,
        from: f.from.toLowerCase(),
        to: (f.to ?? '').toLowerCase(),
        input: f.input ?? '0x',
        output: f.output ?? '0x',
        value: f.value ?? '0x0',
        gas: f.gas ?? '0x0',
        gasUsed: f.gasUsed ?? '0x0',
      });
      for (const c of f.calls ?? []) if (!c.error) walkFrame(c, index);
    };
    if (!root.error) walkFrame(root, -1);
    return out;
  };

  it('by tx hash and by height follow the node call trees; the full list pages to the same rows', async () => {
    let all = 0;
    let checked = 0;
    for (const height of [...new Set(evmHashes().map((e) => e.height))]) {
      // minievm (and the sample chain, like it) cannot trace the first block by design: no internal txs there.
      const traces = await rpc('debug_traceBlockByNumber', [
        `0x${height.toString(16)}`,
        { tracer: 'callTracer' },
      ]).catch((e: Error) => {
        if (/genesis is not traceable/.test(e.message)) return [];
        throw e;
      });
      const receipts = await rpc('eth_getBlockReceipts', [`0x${height.toString(16)}`]);
      // any: JSON-RPC wire values
      const order = new Map<string, number>(
        receipts.map((r: any) => [r.transactionHash.toLowerCase(), Number(r.transactionIndex)]),
      );
      // any: JSON-RPC wire values
      const sorted = [...traces].sort(
        (a: any, b: any) => (order.get(a.txHash.toLowerCase()) ?? 0) - (order.get(b.txHash.toLowerCase()) ?? 0),
      );
      const blockRows: object[] = [];
      for (const t of sorted) {
        const rows = t.result ? flatten(t.txHash.toLowerCase(), height, t.result) : [];
        blockRows.push(...rows);
        const r = await api.get(`/indexer/tx/v1/evm-internal-txs/${t.txHash}?pagination.reverse=false`);
        if (rows.length === 0) continue;
        expect(r.status).toBe(200);
        expect(r.body.internal_txs).toEqual(rows);
        expect(r.body.pagination.total).toBe(String(rows.length));
        checked++;
      }
      all += blockRows.length;
      const byHeight = await walk<object>(
        api,
        `/indexer/tx/v1/evm-internal-txs/by_height/${height}?pagination.reverse=false&pagination.limit=1`,
        'internal_txs',
      );
      expect(byHeight.items).toEqual(blockRows);
    }
    expect(checked).toBeGreaterThan(0);
    const list = await walk<object>(api, '/indexer/tx/v1/evm-internal-txs?pagination.limit=2', 'internal_txs');
    expect(list.items.length).toBe(all);
    const asc = await walk<object>(
      api,
      '/indexer/tx/v1/evm-internal-txs?pagination.limit=3&pagination.reverse=false',
      'internal_txs',
    );
    expect(asc.items).toEqual([...list.items].reverse());
  });

  it('by_account finds calls from or to the account; unknown hash 404', async () => {
    const first = (await api.get('/indexer/tx/v1/evm-internal-txs?pagination.limit=1')).body.internal_txs[0];
    expect(first).toBeDefined();
    const r = await api.get(`/indexer/tx/v1/evm-internal-txs/by_account/${first.from}`);
    expect(r.status).toBe(200);
    for (const t of r.body.internal_txs) expect([t.from, t.to]).toContain(first.from);
    expect(r.body.internal_txs).toContainEqual(first);
    const missing = await api.get(`/indexer/tx/v1/evm-internal-txs/0x${'cd'.repeat(32)}`);
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('transaction not found');
  });

  it('/status internal_tx_height is the indexed height', async () => {
    const { body } = await api.get('/status');
    expect(body.internal_tx_height).toBe(m.latestHeight);
    expect(body.height).toBe(m.latestHeight);
  });
});
