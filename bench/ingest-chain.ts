// Serves a large replicated chain (real recorded txs with new heights/hashes, built lazily per block) on
// loopback for the ingest benchmark, in its own process so the benchmark measures only the ingest.
// Prints one JSON line with the URLs, then serves until killed.
import { startChainServer } from '../devnet/chain-sim/server.js';
import { generateReplicatedChain } from '../devnet/sample-chains/replicated.js';
import { buildSample } from '../devnet/sample-chains/serve.js';
import { erc721Contracts, erc721TokenUris } from '../devnet/sample-chains/nft-names.js';

// `<txs> <per block>`, or `<blocks> 0` (empty blocks) and `<blocks> mixed` (the realistic mix, see replicated.ts).
const count = Number(process.argv[2] ?? 1_000_000);
const layout = process.argv[3] ?? '100';
const byBlocks = layout === 'mixed' || layout === '0';
const txs = byBlocks ? 0 : count;
const txsPerBlock = layout === 'mixed' ? 1 : Number(layout);
const kind = (process.argv[4] ?? 'evm') as 'evm' | 'move' | 'wasm';
// `real-signers`: every tx with a signer key and its own signature, and ERC721 tokenURI answers (what rollytics
// needs to index the chain; bench/rollytics-ingest.ts passes it).
const realSigners = process.argv[5] === 'real-signers';
const chain = generateReplicatedChain({
  txs,
  txsPerBlock,
  kind,
  cacheBlocks: 2048,
  realSigners,
  ...(byBlocks ? { blocks: count } : {}),
  ...(layout === 'mixed' ? { mix: 'realistic' as const } : {}),
});
const server = await startChainServer(chain);
// In `real-signers` mode also the sample's extra REST routes (e.g. minievm's contracts/by_denom), its eth_call
// answers (ERC721 names, balances) and ERC721 tokenURI answers: the replicas keep its contract addresses. Off by
// default, so bench/ingest.ts measures the chain its published figures were taken on.
if (realSigners) {
  const sample = buildSample(kind);
  for (const r of sample.routes) server.registerGet(r.pattern, r.handler);
  for (const h of sample.ethCalls ?? []) server.registerEthCall(h);
  if (kind === 'evm') server.registerEthCall(erc721TokenUris(erc721Contracts(sample.chain)));
}
process.stdout.write(
  `${JSON.stringify({
    rpcUrl: server.rpcUrl,
    restUrl: server.restUrl,
    evmUrl: server.evmUrl,
    chainId: chain.chainId,
    vm: kind,
    blocks: chain.latestHeight(),
  })}\n`,
);
// Keep-alive connections would hold server.close() open: a benchmark source just exits.
process.on('SIGTERM', () => process.exit(0));
process.on('disconnect', () => process.exit(0));
