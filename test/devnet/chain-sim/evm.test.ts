// The EVM JSON-RPC endpoint of the minievm sample chain, read with ethers' JsonRpcProvider over loopback.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JsonRpcProvider, Network, Interface, FetchRequest } from 'ethers';
import { startSampleChain, type StartedSampleChain } from '../../../devnet/sample-chains/serve.js';
import { RICH_LIST_TOKEN, NFT_COLLECTION_A, type EvmSampleManifest } from '../../../devnet/sample-chains/evm.js';
import { TRANSFER_TOPIC, addrTopic, bech32OfEvm } from '../../../devnet/sample-chains/evm-activity.js';

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

let s: StartedSampleChain;
let provider: JsonRpcProvider;
let manifest: EvmSampleManifest;

beforeAll(async () => {
  s = await startSampleChain('evm');
  manifest = s.manifest as EvmSampleManifest;
  provider = new JsonRpcProvider(s.evmUrl, Network.from(428962654539583n), { staticNetwork: true, batchMaxCount: 10 });
});

afterAll(async () => {
  provider.destroy();
  await s.stop();
});

describe('EVM JSON-RPC', () => {
  it('chain id and block number', async () => {
    expect(await provider.send('eth_chainId', [])).toBe(`0x${428962654539583n.toString(16)}`);
    expect(await provider.getBlockNumber()).toBe(manifest.latestHeight);
  });

  it('eth_getBlockReceipts serves the recorded receipt re-hexed and placed in its block', async () => {
    const erc20 = manifest.txs.find((t) => t.file === 'ethereum/erc20/erc20-transfer.json')!;
    const receipts = await provider.send('eth_getBlockReceipts', [`0x${erc20.height.toString(16)}`]);
    const recorded = fixture('initia-tx-decoder/ethereum/erc20/erc20-transfer.json').mockErc20TransferPayload.txReceipt;
    const r = receipts.find((x: any) => x.transactionHash === recorded.transactionHash); // any: wire JSON
    expect(r.gasUsed).toBe(`0x${BigInt(recorded.gasUsed).toString(16)}`);
    expect(r.status).toBe('0x1');
    expect(r.blockNumber).toBe(`0x${erc20.height.toString(16)}`);
    expect(r.blockHash).toBe(`0x${s.chain.block(erc20.height)!.hash.toLowerCase()}`);
    expect(r.logs[0].topics).toEqual(recorded.logs[0].topics);
    expect(r.logs[0].data).toBe(recorded.logs[0].data);
    // Same keys as geth's recorded answer (execution-apis), minus pre-Byzantium `root`.
    const geth = fixture('evm-jsonrpc/execution-apis/eth_getBlockReceipts__get-block-receipts-n.json').exchanges[0]
      .response.result[0];
    for (const k of Object.keys(geth).filter((k) => k !== 'root')) expect(r).toHaveProperty(k);
    // ethers parses the receipt too.
    const parsed = await provider.getTransactionReceipt(recorded.transactionHash);
    expect(parsed?.blockNumber).toBe(erc20.height);
    expect(await provider.send('eth_getBlockReceipts', [`0x${(manifest.latestHeight + 5).toString(16)}`])).toBeNull();
  });

  it('getLogs with address and topic filters (wildcards and OR)', async () => {
    const all = await provider.getLogs({
      fromBlock: 1,
      toBlock: manifest.latestHeight,
      address: RICH_LIST_TOKEN,
      topics: [TRANSFER_TOPIC],
    });
    const holders = Object.keys(manifest.expected.erc20Balances[RICH_LIST_TOKEN]!);
    expect(all.length).toBeGreaterThanOrEqual(holders.length);
    const treasury = '0x4a8b41ac258ae5aae054c10c8b475eb0ce2465ec';
    const fromTreasury = await provider.getLogs({
      fromBlock: 1,
      toBlock: 'latest',
      address: RICH_LIST_TOKEN,
      topics: [TRANSFER_TOPIC, addrTopic(treasury)],
    });
    expect(fromTreasury.length).toBe(25);
    const [h0, h1] = holders.filter((h) => h !== treasury);
    const orTo = await provider.getLogs({
      fromBlock: 1,
      toBlock: 'latest',
      topics: [TRANSFER_TOPIC, null, [addrTopic(h0!), addrTopic(h1!)]],
    });
    expect(orTo.length).toBeGreaterThanOrEqual(2);
    expect(orTo.every((l) => [addrTopic(h0!), addrTopic(h1!)].includes(l.topics[2]!))).toBe(true);
    const nft = await provider.getLogs({
      fromBlock: 1,
      toBlock: 'latest',
      address: [NFT_COLLECTION_A],
      topics: [TRANSFER_TOPIC, null, null, null],
    });
    expect(nft.length).toBe(
      manifest.expected.nftMints[NFT_COLLECTION_A]! +
        manifest.expected.nftTransfers[NFT_COLLECTION_A]! +
        manifest.expected.nftBurned[NFT_COLLECTION_A]!.length,
    );
    const reversed = fixture('evm-jsonrpc/execution-apis/eth_getLogs__filter-error-reversed-block-range.json')
      .exchanges[0];
    const raw = await (
      await fetch(s.evmUrl!, {
        method: 'POST',
        body: JSON.stringify({ ...reversed.request, params: [{ fromBlock: '0x5', toBlock: '0x2' }] }),
      })
    ).json();
    expect(raw).toEqual(reversed.response);
  });

  it('batches concurrent calls into one JSON-RPC batch', async () => {
    const before = s.server.stats.evm;
    const [a, b, c] = await Promise.all([provider.getBlockNumber(), provider.getBlock(2), provider.getBlock(3, true)]);
    expect(s.server.stats.evm - before).toBe(1);
    expect(a).toBe(manifest.latestHeight);
    expect(b?.hash).toBe(`0x${s.chain.block(2)!.hash.toLowerCase()}`);
    expect(c?.parentHash).toBe(`0x${s.chain.block(2)!.hash.toLowerCase()}`);
    expect(c?.prefetchedTransactions.length).toBe(s.chain.block(3)!.txs.flatMap((t) => t.evm?.txs ?? []).length);
  });

  it('callTracer traces per tx, eth_call hooks, and the Cosmos hash of an EVM tx', async () => {
    const mint = manifest.txs.find((t) => t.file === 'ethereum/kami721/kami721-public-mint.json')!;
    const traces = await provider.send('debug_traceBlockByNumber', [
      `0x${mint.height.toString(16)}`,
      { tracer: 'callTracer' },
    ]);
    expect(traces.map((t: any) => t.txHash)).toContain(mint.evmTxHashes[0]); // any: wire JSON
    const frame = traces.find((t: any) => t.txHash === mint.evmTxHashes[0]).result; // any: wire JSON
    expect(frame).toMatchObject({
      type: 'CALL',
      from: '0x563466dec7f74bcbe97cd3bed1cbad3336c989ee',
      to: '0x014c4861f5f19b4c86f26657dd40c1a18539d11a',
      input: '0x26092b83',
    });
    await expect(provider.send('debug_traceBlockByNumber', ['0x1', { tracer: 'prestateTracer' }])).rejects.toThrow();
    // as minievm: blocks below 2 are replayed on no parent state, so the node refuses them (-32000)
    await expect(provider.send('debug_traceBlockByNumber', ['0x1', { tracer: 'callTracer' }])).rejects.toThrow(
      /genesis is not traceable/,
    );
    const erc20 = new Interface(['function balanceOf(address) view returns (uint256)']);
    const [holder, balance] = Object.entries(manifest.expected.erc20Balances[RICH_LIST_TOKEN]!)[3]!;
    const out = await provider.call({ to: RICH_LIST_TOKEN, data: erc20.encodeFunctionData('balanceOf', [holder]) });
    expect(BigInt(out)).toBe(BigInt(balance));
    s.server.registerEthCall((call) => (call.data?.startsWith('0xdeadbeef') ? `0x${'11'.repeat(32)}` : undefined));
    expect(await provider.call({ to: RICH_LIST_TOKEN, data: '0xdeadbeef' })).toBe(`0x${'11'.repeat(32)}`);
    // minievm's REST call (rollytics reads ERC721 names and token URIs through it): same answers, hex or bech32
    // contract, a revert is a 200 with `error`
    const rest = async (contract: string, input: string) => {
      const res = await fetch(`${s.restUrl}/minievm/evm/v1/call`, {
        method: 'POST',
        headers: { 'x-cosmos-block-height': '5' },
        body: JSON.stringify({
          sender: 'init1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqpqr5e3d',
          contract_addr: contract,
          input,
          value: '0',
        }),
      });
      expect(res.status).toBe(200);
      return (await res.json()) as { response: string; error: string; used_gas: string; logs: unknown[] };
    };
    const viaRest = await rest(RICH_LIST_TOKEN, erc20.encodeFunctionData('balanceOf', [holder]));
    expect(BigInt(viaRest.response)).toBe(BigInt(balance));
    expect(viaRest.error).toBe('');
    expect((await rest(bech32OfEvm(RICH_LIST_TOKEN), '0xdeadbeef')).response).toBe(`0x${'11'.repeat(32)}`);
    expect(await rest(RICH_LIST_TOKEN, '0x12345678')).toMatchObject({ response: '', error: 'Reverted', logs: [] });
    const cosmosHash = await provider.send('cosmos_cosmosTxHashByTxHash', [mint.evmTxHashes[0]]);
    expect(cosmosHash).toBe(mint.hash.toLowerCase());
  });

  it('rejects oversized batches and bodies with JSON-RPC errors', async () => {
    const req = new FetchRequest(s.evmUrl!);
    req.body = JSON.stringify(
      Array.from({ length: 1001 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'eth_blockNumber' })),
    );
    req.setHeader('content-type', 'application/json');
    const res = await req.send();
    expect(res.bodyJson.error.code).toBe(-32600);
    const big = await fetch(s.evmUrl!, { method: 'POST', body: 'x'.repeat(2 << 20) });
    expect(big.status).toBe(413);
    expect(((await big.json()) as { error: { code: number } }).error.code).toBe(-32600);
    const put = await fetch(s.evmUrl!, { method: 'PUT', body: '{}' });
    expect(put.status).toBe(405);
    expect(((await put.json()) as { code: number }).code).toBe(12);
  });
});
