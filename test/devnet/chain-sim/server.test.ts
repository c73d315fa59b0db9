// chain-sim over real loopback HTTP, read by the real clients: @cosmjs/tendermint-rpc (Comet38Client and
// Tendermint37Client) for CometBFT RPC, fetch for the REST and URI forms. The chain holds recorded Initia txs.
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { toBech32 } from '@cosmjs/encoding';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Comet38Client, Tendermint37Client } from '@cosmjs/tendermint-rpc';
import { SimChain } from '../../../devnet/chain-sim/chain.js';
import { startChainServer, type ChainServer } from '../../../devnet/chain-sim/server.js';
import { fromRecorded } from '../../../devnet/sample-chains/builder.js';
import type { SealedBlock } from '../../../devnet/chain-sim/types.js';

const fixture = (p: string): any =>
  JSON.parse(
    readFileSync(
      new URL(
        `${p.startsWith('initia-tx-decoder/') ? '../../../devnet/recorded' : '../../fixtures'}/${p}`,
        import.meta.url,
      ),
      'utf8',
    ),
  ); // any: recorded JSON

const deposit = fromRecorded('protocols/op-init/initiate-token-deposit.json', 'mockMsgInitiateTokenDeposit');
const send = fromRecorded('cosmos/move/bank.json', 'mockMsgSendWithMultipleMessages');
const failed = fromRecorded('common/failed.json', 'mockMsgFailed');
const ibc = fromRecorded('protocols/ibc/move/send-ft-move.json', 'mockFtSendMoveTransaction');

let chain: SimChain;
let server: ChainServer;
let txBlock: SealedBlock;
let manyBlock: SealedBlock;

beforeAll(async () => {
  chain = new SimChain({ chainId: 'interwoven-1', genesisTime: '2025-06-17T09:30:31.123456789Z' });
  chain.appendBlock({ txs: [] });
  txBlock = chain.appendBlock({ txs: [deposit, send, failed].map((t) => ({ tx: t.tx, result: t.result })) });
  // 7 copies of one tx with distinct memos: a block big enough to page through.
  manyBlock = chain.appendBlock({
    txs: Array.from({ length: 7 }, (_, i) => ({
      tx: { ...ibc.tx, body: { ...ibc.tx.body, memo: `copy ${i}` } },
      result: ibc.result,
    })),
  });
  server = await startChainServer(chain);
});

afterAll(async () => {
  await server.close();
});

describe('CometBFT RPC through @cosmjs/tendermint-rpc', () => {
  it('status reports the tip', async () => {
    const c = await Comet38Client.connect(server.rpcUrl);
    const s = await c.status();
    expect(s.syncInfo.latestBlockHeight).toBe(3);
    expect(s.nodeInfo.network).toBe('interwoven-1');
    expect(Buffer.from(s.syncInfo.latestBlockHash).toString('hex').toUpperCase()).toBe(manyBlock.hash);
    c.disconnect();
  });

  it('block serves raw txs whose sha256 is the tx hash, and links to the previous block', async () => {
    const c = await Comet38Client.connect(server.rpcUrl);
    const b = await c.block(2);
    expect(b.block.header.chainId).toBe('interwoven-1');
    expect(b.block.header.time.toISOString()).toBe(
      new Date(Date.parse(txBlock.time.replace(/(\.\d{3})\d*Z$/, '$1Z'))).toISOString(),
    );
    expect(Buffer.from(b.block.header.lastBlockId!.hash).toString('hex').toUpperCase()).toBe(chain.block(1)!.hash);
    const hashes = b.block.txs.map((raw) => createHash('sha256').update(raw).digest('hex').toUpperCase());
    expect(hashes).toEqual(txBlock.txs.map((t) => t.hash));
    expect(new Set(hashes).size).toBe(3);
    c.disconnect();
  });

  it('block_results carries the recorded events, codes and base64 data (0.38 envelope)', async () => {
    const c = await Comet38Client.connect(server.rpcUrl);
    const r = await c.blockResults(2);
    expect(r.height).toBe(2);
    expect(r.results.map((x) => x.code)).toEqual([0, 0, 1]);
    const ev = r.results[0]!.events.find((e) => e.type === 'initiate_token_deposit')!;
    expect(ev.attributes.find((a) => a.key === 'l1_sequence')?.value).toBe('2009');
    expect(r.results[2]!.codespace).toBe(failed.result.codespace);
    expect(
      Buffer.from(r.results[1]!.data ?? new Uint8Array())
        .toString('hex')
        .toUpperCase(),
    ).toBe(send.result.data?.toUpperCase());
    // Raw envelope: the same keys as a real CometBFT 0.38 node (recorded Injective answer).
    const raw = (await (await fetch(`${server.rpcUrl}/block_results?height=2`)).json()) as any; // any: wire JSON
    const injective = fixture('cometbft-rpc/cosmjs-comet1/injective_block_results_137512194.json');
    expect(Object.keys(raw.result).sort()).toEqual(Object.keys(injective).sort());
    expect(Object.keys(raw.result.txs_results[0]).sort()).toEqual(Object.keys(injective.txs_results[0]).sort());
    c.disconnect();
  });

  it('tx by hash and tx_search with an event query', async () => {
    const c = await Comet38Client.connect(server.rpcUrl);
    const hash = txBlock.txs[0]!.hash;
    const t = await c.tx({ hash: Buffer.from(hash, 'hex') });
    expect([t.height, t.index]).toEqual([2, 0]);
    const s = await c.txSearch({
      query: "initiate_token_deposit.l1_sequence=2009 AND initiate_token_deposit.bridge_id='30'",
    });
    expect(s.totalCount).toBe(1);
    expect(Buffer.from(s.txs[0]!.hash).toString('hex').toUpperCase()).toBe(hash);
    const byHeight = await c.txSearch({ query: 'tx.height=3', per_page: 3, page: 2, order_by: 'desc' });
    expect(byHeight.totalCount).toBe(7);
    expect(byHeight.txs.map((x) => x.index)).toEqual([3, 2, 1]);
    const all = await c.txSearchAll({
      query: "message.action='/ibc.applications.transfer.v1.MsgTransfer'",
      per_page: 2,
    });
    expect(all.txs.map((x) => x.index)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    const none = await c.txSearch({ query: "transfer.recipient='nobody'" });
    expect(none.totalCount).toBe(0);
    c.disconnect();
  });

  it('the Tendermint37Client reads the same chain', async () => {
    const c = await Tendermint37Client.connect(server.rpcUrl);
    const b = await c.block(3);
    expect(b.block.txs.length).toBe(7);
    const r = await c.blockResults(3);
    expect(r.results.length).toBe(7);
    expect((await c.status()).syncInfo.latestBlockHeight).toBe(3);
    const t = await c.tx({ hash: Buffer.from(manyBlock.txs[4]!.hash, 'hex') });
    expect([t.height, t.index]).toEqual([3, 4]);
    const found = await c.txSearch({ query: "send_packet.packet_sequence='2898'", per_page: 5 });
    expect(found.totalCount).toBe(7);
    expect(found.txs.length).toBe(5);
    c.disconnect();
  });

  it('heights above the tip fail with CometBFT wording and code -32603', async () => {
    const c = await Comet38Client.connect(server.rpcUrl);
    await expect(c.block(4)).rejects.toThrow('height 4 must be less than or equal to the current blockchain height 3');
    await expect(c.blockResults(99)).rejects.toThrow(
      'height 99 must be less than or equal to the current blockchain height 3',
    );
    c.disconnect();
    const res = await fetch(server.rpcUrl, {
      method: 'POST',
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'block', params: { height: '4' } }),
    });
    expect(await res.json()).toEqual({
      jsonrpc: '2.0',
      id: 7,
      error: {
        code: -32603,
        message: 'Internal error',
        data: 'height 4 must be less than or equal to the current blockchain height 3',
      },
    });
  });

  it('answers with the key sets of recorded CometBFT 0.38 and LCD answers', async () => {
    const keys = (o: object): string[] => Object.keys(o).sort();
    const status = ((await (await fetch(`${server.rpcUrl}/status`)).json()) as any).result; // any: wire JSON
    const kvStatus = fixture('cometbft-rpc/tendermint-rs-kvstore-v0_38/status.json').result;
    for (const k of ['node_info', 'sync_info', 'validator_info'] as const)
      expect(keys(status[k])).toEqual(keys(kvStatus[k]));
    const search = ((await (await fetch(`${server.rpcUrl}/tx_search?query="tx.height=2"`)).json()) as any).result; // any: wire JSON
    const kvSearch = fixture('cometbft-rpc/tendermint-rs-kvstore-v0_38/tx_search_no_prove.json').result;
    expect(keys(search)).toEqual(keys(kvSearch));
    expect(keys(search.txs[0])).toEqual(keys(kvSearch.txs[0]));
    expect(keys(search.txs[0].tx_result)).toEqual(keys(kvSearch.txs[0].tx_result));
    const lcd = (await (await fetch(`${server.restUrl}/cosmos/tx/v1beta1/txs/${txBlock.txs[0]!.hash}`)).json()) as any; // any: wire JSON
    const recorded = fixture('initia-tx-decoder/ethereum/contract-creation/single-contract-creation.json')
      .mockApiResponseForSingleContractCreation.GET;
    const envelope = Object.values(recorded)[0] as any; // any: recorded JSON
    expect(keys(lcd)).toEqual(keys(envelope));
    expect(keys(lcd.tx_response)).toEqual(keys(envelope.tx_response));
  });

  it('URI GET form, blockchain, abci_info, unknown tx, bad params and batches', async () => {
    const uri = (await (await fetch(`${server.rpcUrl}/block?height=2`)).json()) as any; // any: wire JSON
    expect(uri.id).toBe(-1);
    expect(uri.result.block_id.hash).toBe(txBlock.hash);
    const kv = fixture('cometbft-rpc/tendermint-rs-kvstore-v0_38/block_at_height_10.json').result;
    expect(Object.keys(uri.result.block.header).sort()).toEqual(Object.keys(kv.block.header).sort());
    const tx = (await (await fetch(`${server.rpcUrl}/tx?hash=0x${txBlock.txs[1]!.hash}`)).json()) as any; // any: wire JSON
    expect(tx.result.index).toBe(1);
    // As CometBFT: an RPC error on the URI form is HTTP 500 (the JSON-RPC POST form answers 200).
    const ahead = await fetch(`${server.rpcUrl}/block?height=9`);
    expect(ahead.status).toBe(500);
    expect(((await ahead.json()) as any).error.data).toBe(
      'height 9 must be less than or equal to the current blockchain height 3',
    ); // any: wire JSON
    expect((await fetch(`${server.rpcUrl}/block?height=x`)).status).toBe(500);
    const bc = (await (await fetch(`${server.rpcUrl}/blockchain?minHeight=1&maxHeight=3`)).json()) as any; // any: wire JSON
    expect(bc.result.block_metas.map((m: any) => m.header.height)).toEqual(['3', '2', '1']); // any: wire JSON
    const batch = (await (
      await fetch(server.rpcUrl, {
        method: 'POST',
        body: JSON.stringify([
          { jsonrpc: '2.0', id: 1, method: 'abci_info' },
          { jsonrpc: '2.0', id: 2, method: 'tx', params: { hash: Buffer.alloc(32).toString('base64') } },
          { jsonrpc: '2.0', id: 3, method: 'block', params: { height: 'x' } },
          { jsonrpc: '2.0', id: 4, method: 'nope' },
          { jsonrpc: '2.0', id: 5, method: 'tx_search', params: { query: 'garbage' } },
        ]),
      })
    ).json()) as any[]; // any: wire JSON
    expect(batch[0].result.response.last_block_height).toBe('3');
    expect(batch[1].error.data).toBe(`tx (${'0'.repeat(64)}) not found`);
    expect(batch[2].error.code).toBe(-32602);
    expect(batch[3].error.code).toBe(-32601);
    expect(batch[4].error.data).toMatch(/failed to parse query/);
  });

  it('blockchain metas have the real CometBFT 0.38 shape, and a meta holds the same header as block', async () => {
    const real = fixture('cometbft-rpc/tendermint-rs-kvstore-v0_38/blockchain_from_1_to_10.json').result;
    const realBlock = fixture('cometbft-rpc/tendermint-rs-kvstore-v0_38/block_at_height_10.json').result;
    // In the recorded node's answers: height 10's meta and its block carry one header and one block id.
    expect(real.block_metas[0].header).toEqual(realBlock.block.header);
    expect(real.block_metas[0].block_id).toEqual(realBlock.block_id);
    const bc = (await (
      await fetch(server.rpcUrl, {
        method: 'POST',
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 7,
          method: 'blockchain',
          params: { minHeight: '1', maxHeight: '3' },
        }),
      })
    ).json()) as any; // any: wire JSON
    expect(Object.keys(bc.result).sort()).toEqual(Object.keys(real).sort());
    const meta = bc.result.block_metas[1];
    expect(Object.keys(meta).sort()).toEqual(Object.keys(real.block_metas[0]).sort());
    expect(Object.keys(meta.header).sort()).toEqual(Object.keys(real.block_metas[0].header).sort());
    const block = (await (await fetch(`${server.rpcUrl}/block?height=2`)).json()) as any; // any: wire JSON
    expect(meta.header).toEqual(block.result.block.header);
    expect(meta.block_id).toEqual(block.result.block_id);
    expect(meta.num_txs).toBe(String(block.result.block.data.txs.length));
  });

  it('refuses a batch above the CometBFT default max_request_batch_size (10) as CometBFT does', async () => {
    const calls = (n: number) =>
      JSON.stringify(Array.from({ length: n }, (_, i) => ({ jsonrpc: '2.0', id: i + 1, method: 'health' })));
    const ok = (await (await fetch(server.rpcUrl, { method: 'POST', body: calls(10) })).json()) as any[]; // any: wire JSON
    expect(ok.map((a) => a.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const res = await fetch(server.rpcUrl, { method: 'POST', body: calls(11) });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(fixture('cometbft-rpc/minievm-v1.2.18/batch-refused.json'));
  });

  it('answers a batch of blockchain and block like a minievm v1.2.18 node', async () => {
    const real = fixture('cometbft-rpc/minievm-v1.2.18/batch-blockchain-block.json');
    // On the real node: a meta holds its block's header and block id, and an unknown height errs alone.
    expect(real[0].result.block_metas[1].header).toEqual(real[1].result.block.header);
    expect(real[0].result.block_metas[1].block_id).toEqual(real[1].result.block_id);
    const ours = (await (
      await fetch(server.rpcUrl, {
        method: 'POST',
        body: JSON.stringify([
          { jsonrpc: '2.0', id: 1, method: 'blockchain', params: { minHeight: '1', maxHeight: '3' } },
          { jsonrpc: '2.0', id: 2, method: 'block', params: { height: '2' } },
          { jsonrpc: '2.0', id: 3, method: 'block', params: { height: '999999' } },
        ]),
      })
    ).json()) as any[]; // any: wire JSON
    expect(ours.map((a) => Object.keys(a).sort())).toEqual(real.map((a: object) => Object.keys(a).sort()));
    const keys = (m: any) => [Object.keys(m).sort(), Object.keys(m.header).sort()]; // any: wire JSON
    expect(keys(ours[0].result.block_metas[0])).toEqual(keys(real[0].result.block_metas[0]));
    expect(ours[2].error.data).toBe('height 999999 must be less than or equal to the current blockchain height 3');
    expect(ours[2].error.code).toBe(real[2].error.code);
  });
});

describe('Cosmos REST', () => {
  it('pages txs of a block with pagination.limit and next_key', async () => {
    const seen: string[] = [];
    let key: string | null = null;
    let pages = 0;
    do {
      const qs = new URLSearchParams({ 'pagination.limit': '3', ...(key ? { 'pagination.key': key } : {}) });
      const r = (await (await fetch(`${server.restUrl}/cosmos/tx/v1beta1/txs/block/3?${qs}`)).json()) as any; // any: wire JSON
      expect(r.pagination.total).toBe('7');
      // As a real node (minievm v1.2.18): the txs and the block, no tx responses.
      expect(Object.keys(r)).toEqual(Object.keys(fixture('minievm-devnet-rest/txs-by-block.json').answer));
      seen.push(...r.txs.map((t: any) => t.body.memo)); // any: wire JSON
      expect(r.block.header.height).toBe('3');
      key = r.pagination.next_key;
      pages++;
    } while (key);
    expect(pages).toBe(3);
    expect(seen).toEqual(Array.from({ length: 7 }, (_, i) => `copy ${i}`));
  });

  it('searches txs by height range (GetTxsEvent) as the SDK v0.50 does: pages, order, total, errors', async () => {
    const search = async (q: Record<string, string>) => {
      const res = await fetch(`${server.restUrl}/cosmos/tx/v1beta1/txs?${new URLSearchParams(q)}`);
      return { status: res.status, body: (await res.json()) as any }; // any: wire JSON
    };
    const all = await search({ query: 'tx.height>=1 AND tx.height<=3', order_by: 'ORDER_BY_ASC' });
    expect(all.status).toBe(200);
    // The key sets of a real minievm node's answer (test/fixtures/SOURCES.md).
    const real = fixture('minievm-devnet-rest/tx-search-range.json').answer;
    expect(Object.keys(all.body)).toEqual(Object.keys(real));
    expect(Object.keys(all.body.tx_responses[0])).toEqual(Object.keys(real.tx_responses[0]));
    expect(all.body.total).toBe('10');
    expect(all.body.pagination).toBeNull();
    const hashes = [...txBlock.txs, ...manyBlock.txs].map((t) => t!.hash);
    expect(all.body.tx_responses.map((t: any) => t.txhash)).toEqual(hashes); // any: wire JSON
    expect(all.body.tx_responses.map((t: any) => t.height)).toEqual([...Array(3).fill('2'), ...Array(7).fill('3')]); // any: wire JSON
    // The same txs as the block's own REST answer, field by field.
    const byBlock = (await (await fetch(`${server.restUrl}/cosmos/tx/v1beta1/txs/block/2`)).json()) as any; // any: wire JSON
    expect(all.body.txs.slice(0, 3)).toEqual(byBlock.txs);
    const byHash = (await (await fetch(`${server.restUrl}/cosmos/tx/v1beta1/txs/${hashes[1]}`)).json()) as any; // any: wire JSON
    expect(all.body.tx_responses[1]).toEqual(byHash.tx_response);

    const page2 = await search({ query: 'tx.height>=1 AND tx.height<=3', page: '2', limit: '4' });
    expect(page2.body.tx_responses.map((t: any) => t.txhash)).toEqual(hashes.slice(4, 8)); // any: wire JSON
    expect(page2.body.total).toBe('10');
    const desc = await search({ query: 'tx.height>=2 AND tx.height<=2', order_by: 'ORDER_BY_DESC' });
    expect(desc.body.tx_responses.map((t: any) => t.txhash)).toEqual(hashes.slice(0, 3).reverse()); // any: wire JSON
    // CometBFT clamps a page to 100 txs; an empty range is an empty first page.
    expect((await search({ query: 'tx.height>=1 AND tx.height<=3', limit: '500' })).body.txs.length).toBe(10);
    expect((await search({ query: 'tx.height>=1 AND tx.height<=1' })).body).toMatchObject({ txs: [], total: '0' });
    // Every search failure is gRPC Internal (the SDK wraps QueryTxsByEvents' error); a bad number is a 400.
    const empty = await search({});
    expect([empty.status, empty.body.code, empty.body.message]).toEqual([500, 13, 'query cannot be empty']);
    const far = await search({ query: 'tx.height>=1 AND tx.height<=3', page: '5' });
    expect([far.status, far.body.message]).toEqual([
      500,
      'failed to search for txs: page should be within [1, 1] range, given 5',
    ]);
    expect((await search({ query: 'nonsense' })).status).toBe(500);
    expect((await search({ query: 'tx.height>=1', page: 'x' })).status).toBe(400);
    // A node with tx indexing off (Faults.txIndexOff) fails every search; each is counted.
    const searches = server.stats.txSearches;
    server.faults.txIndexOff = true;
    const off = await search({ query: 'tx.height>=1 AND tx.height<=3' });
    server.faults.clear();
    expect([off.status, off.body.code, off.body.message]).toEqual([
      500,
      13,
      'failed to search for txs: transaction indexing is disabled',
    ]);
    expect(server.stats.txSearches).toBe(searches + 1);
  });

  it('serves a tx by hash with the chain hash and the recorded events, and 4xx for bad input', async () => {
    const h = txBlock.txs[2]!.hash;
    const r = (await (await fetch(`${server.restUrl}/cosmos/tx/v1beta1/txs/${h}`)).json()) as any; // any: wire JSON
    expect(r.tx_response.txhash).toBe(h);
    expect(r.tx_response.code).toBe(1);
    expect(r.tx_response.raw_log).toBe(failed.result.log);
    expect(r.tx['@type']).toBe('/cosmos.tx.v1beta1.Tx');
    expect(r.tx.body.messages).toEqual(failed.tx.body.messages);
    expect((await fetch(`${server.restUrl}/cosmos/tx/v1beta1/txs/nothex`)).status).toBe(400);
    expect((await fetch(`${server.restUrl}/cosmos/tx/v1beta1/txs/${'A'.repeat(64)}`)).status).toBe(404);
    expect((await fetch(`${server.restUrl}/cosmos/tx/v1beta1/txs/block/9`)).status).toBe(400);
    expect((await fetch(`${server.restUrl}/cosmos/tx/v1beta1/txs/block/2?pagination.limit=abc`)).status).toBe(400);
    const latest = (await (
      await fetch(`${server.restUrl}/cosmos/base/tendermint/v1beta1/blocks/latest`)
    ).json()) as any; // any: wire JSON
    expect(latest.block.header.height).toBe('3');
    expect(Buffer.from(latest.block_id.hash, 'base64').toString('hex').toUpperCase()).toBe(manyBlock.hash);
  });

  it('serves the opchild validator and caller-registered routes', async () => {
    const v = chain.validators[0]!;
    const r = (await (await fetch(`${server.restUrl}/opinit/opchild/v1/validator/${v.operatorAddress}`)).json()) as any; // any: wire JSON
    expect(r.validator.moniker).toBe(v.moniker);
    // as OPinit's launch tools set it: the operator address is the valoper of the consensus address
    expect(v.operatorAddress).toBe(toBech32('initvaloper', Buffer.from(v.consensusAddress, 'hex')));
    const pub = Buffer.from(r.validator.consensus_pubkey.key, 'base64');
    // The served proposer address is derivable from the served pubkey (CometBFT rule).
    expect(createHash('sha256').update(pub).digest().subarray(0, 20).toString('hex').toUpperCase()).toBe(
      chain.block(2)!.proposer,
    );
    server.registerGet('/opinit/opchild/v1/next_l1_sequence', () => ({ next_l1_sequence: '2010' }));
    expect(await (await fetch(`${server.restUrl}/opinit/opchild/v1/next_l1_sequence`)).json()).toEqual({
      next_l1_sequence: '2010',
    });
    expect((await fetch(`${server.restUrl}/no/such/route`)).status).toBe(404);
    server.registerGet(/^\/boom$/, () => {
      throw new Error('handler bug');
    });
    const boom = await fetch(`${server.restUrl}/boom`);
    expect(boom.status).toBe(500);
    expect(((await boom.json()) as { message: string }).message).toBe('handler bug');
  });
});

describe('fault injection', () => {
  it('a height fails N times with HTTP 500, then answers', async () => {
    server.faults.failHeight(2, { kind: 'http500', times: 2 });
    const call = (): Promise<Response> =>
      fetch(server.rpcUrl, {
        method: 'POST',
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'block_results', params: { height: '2' } }),
      });
    expect((await call()).status).toBe(500);
    expect((await fetch(`${server.restUrl}/cosmos/tx/v1beta1/txs/block/2`)).status).toBe(500);
    const ok = await call();
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as any).result.height).toBe('2'); // any: wire JSON
  });

  it('malformed block_results and timeouts', async () => {
    server.faults.failHeight(3, { kind: 'malformed', times: 1 });
    const c = await Comet38Client.connect(server.rpcUrl);
    await expect(c.blockResults(3)).rejects.toThrow();
    expect((await c.blockResults(3)).results.length).toBe(7);
    server.faults.failHeight(1, { kind: 'timeout', times: 1, delayMs: 50 });
    await expect(fetch(`${server.rpcUrl}/block?height=1`)).rejects.toThrow();
    expect((await fetch(`${server.rpcUrl}/block?height=1`)).status).toBe(200);
    server.faults.latencyMs = 120;
    const t0 = Date.now();
    await c.status();
    expect(Date.now() - t0).toBeGreaterThanOrEqual(100);
    server.faults.clear();
    c.disconnect();
  });
});

describe('block production', () => {
  it('a timer appends blocks with increasing heights and times', async () => {
    const c2 = new SimChain({ chainId: 'timer-1' });
    const seen: number[] = [];
    c2.onBlock((b) => seen.push(b.height));
    c2.startProducing(20);
    await new Promise((r) => setTimeout(r, 150));
    c2.stopProducing();
    expect(seen.length).toBeGreaterThanOrEqual(3);
    expect(seen).toEqual(Array.from({ length: seen.length }, (_, i) => i + 1));
    expect(Date.parse(c2.block(2)!.time)).toBeGreaterThan(Date.parse(c2.block(1)!.time));
  });
});
