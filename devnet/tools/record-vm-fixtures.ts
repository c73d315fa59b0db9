// Records real minimove / miniwasm devnet answers as test fixtures (test/fixtures/{minimove,miniwasm}-devnet/):
// for one tx of each kind the devnet traffic sends, the CometBFT `block` and `block_results` of its height and the
// REST `txs/{hash}` answer; and the chain-state answers the indexer's enricher reads (Move: the collection's and
// an NFT's `resources/by_struct_tag`; Wasm: `contract/{addr}` and the CW721 `contract_info` smart query).
// Starts its own devnet, runs the traffic once, records, stops:
//   npx tsx devnet/tools/record-vm-fixtures.ts minimove|miniwasm
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startDevnet } from '../minievm/devnet-process.js';
import { cometRpc, getJson, latestHeight, txSearchAll, type NodeEndpoints } from '../minievm/node-client.js';
import { deriveDevAccounts, type DevAccount } from '../minievm/accounts.js';
import { CosmosSender } from '../minievm/cosmos-sender.js';
import { msgSendAny, runMoveTraffic } from '../minimove/traffic.js';
import { runWasmTraffic } from '../miniwasm/traffic.js';
import { REPO_ROOT } from '../run-script.js';

interface RestTx {
  tx: { body: { messages: { '@type': string; function_name?: string; msg?: unknown }[] } };
  tx_response: { code: number; height: string; txhash: string };
}

type Kind = { name: string; test: (t: RestTx) => boolean };
const ok = (t: RestTx) => t.tx_response.code === 0;
const first = (t: RestTx) => t.tx.body.messages[0];
const KINDS: Record<'minimove' | 'miniwasm', Kind[]> = {
  minimove: [
    { name: 'bank-send', test: (t) => ok(t) && first(t)?.['@type'] === '/cosmos.bank.v1beta1.MsgSend' },
    { name: 'create-collection', test: (t) => ok(t) && first(t)?.function_name === 'create_collection' },
    { name: 'mint', test: (t) => ok(t) && first(t)?.function_name === 'mint' },
    { name: 'failed', test: (t) => t.tx_response.code !== 0 },
  ],
  miniwasm: [
    { name: 'bank-send', test: (t) => ok(t) && first(t)?.['@type'] === '/cosmos.bank.v1beta1.MsgSend' },
    {
      name: 'instantiate',
      test: (t) => ok(t) && first(t)?.['@type'] === '/cosmwasm.wasm.v1.MsgInstantiateContract',
    },
    {
      name: 'cw721-mint',
      test: (t) =>
        ok(t) &&
        first(t)?.['@type'] === '/cosmwasm.wasm.v1.MsgExecuteContract' &&
        JSON.stringify(first(t)?.msg ?? {}).includes('"mint"'),
    },
    { name: 'failed', test: (t) => t.tx_response.code !== 0 },
  ],
};

async function recordTxs(ep: NodeEndpoints, flavor: 'minimove' | 'miniwasm', outDir: string, node: string) {
  const head = await latestHeight(ep);
  const left = [...KINDS[flavor]];
  // newest first: the Wasm traffic's first block carries both stored codes (~1 MB), which no fixture needs
  for (const t of (await txSearchAll(ep, head)).reverse()) {
    if (left.length === 0) break;
    const rest = await getJson<RestTx>(`${ep.rest}/cosmos/tx/v1beta1/txs/${t.hash.toUpperCase()}`);
    const k = left.findIndex((x) => x.test(rest));
    if (k < 0) continue;
    const [kind] = left.splice(k, 1);
    const height = Number(t.height);
    const fixture = {
      source: {
        node,
        devnet: `devnet/minievm/start.sh (FLAVOR=${flavor}, single node) + devnet/${flavor}/traffic.ts`,
        recorded_with: 'devnet/tools/record-vm-fixtures.ts',
        recorded_at: new Date().toISOString(),
        requests: {
          block: `CometBFT RPC block?height=${height}`,
          block_results: `CometBFT RPC block_results?height=${height}`,
          rest_tx: `GET /cosmos/tx/v1beta1/txs/${t.hash.toUpperCase()}`,
        },
      },
      tx_hash: t.hash.toUpperCase(),
      tx_index: t.index,
      block: await cometRpc<unknown>(ep.cometRpc, 'block', { height: String(height) }),
      block_results: await cometRpc<unknown>(ep.cometRpc, 'block_results', { height: String(height) }),
      rest_tx: rest,
    };
    writeFileSync(path.join(outDir, `${kind?.name}.json`), `${JSON.stringify(fixture, null, 2)}\n`);
  }
  if (left.length) throw new Error(`no tx of kind ${left.map((k) => k.name).join(', ')} up to height ${head}`);
}

const flavor = process.argv[2];
if (flavor !== 'minimove' && flavor !== 'miniwasm') {
  console.error('usage: record-vm-fixtures.ts minimove|miniwasm');
  process.exit(2);
}
const outDir = path.join(REPO_ROOT, 'test', 'fixtures', `${flavor}-devnet`);
mkdirSync(outDir, { recursive: true });
const home = mkdtempSync(path.join(os.tmpdir(), `record-${flavor}-`));
const devnet = await startDevnet(path.join(home, 'node'), { FLAVOR: flavor, DEVNET_ACCOUNTS: '8' });
try {
  const ep = devnet.ep;
  const info = await getJson<{ application_version: { version: string; name: string } }>(
    `${ep.rest}/cosmos/base/tendermint/v1beta1/node_info`,
  );
  const node = `minitiad ${info.application_version.version} (${info.application_version.name}), built by devnet/${flavor}/build.sh`;
  const state: Record<string, { request: string; answer: unknown }> = {};
  const get = async (name: string, p: string) => {
    state[name] = { request: `GET ${p}`, answer: await getJson<unknown>(`${ep.rest}${p}`) };
  };
  if (flavor === 'minimove') {
    const r = await runMoveTraffic(ep, 'fx');
    const tag = (t: string) => `/resources/by_struct_tag?struct_tag=${encodeURIComponent(t)}`;
    const collection = r.collections[0] ?? '';
    const nft = r.minted.find((m) => m.tokenId === 'fx-c')?.object ?? '';
    await get('collection', `/initia/move/v1/accounts/${collection}${tag('0x1::collection::Collection')}`);
    await get('nft', `/initia/move/v1/accounts/${nft}${tag('0x1::nft::Nft')}`);
    await get('nft_object_core', `/initia/move/v1/accounts/${nft}${tag('0x1::object::ObjectCore')}`);
  } else {
    const r = await runWasmTraffic(ep, 'fx');
    // a bank send in a block of its own (the traffic's only one shares its block with the stored codes)
    const [from, to] = deriveDevAccounts(5).slice(3) as [DevAccount, DevAccount];
    await new CosmosSender(ep).send(from, [msgSendAny(from.bech32, to.bech32, 1_000n)]);
    const cw721 = r.collections[0] ?? '';
    const q = Buffer.from(JSON.stringify({ contract_info: {} })).toString('base64');
    await get('contract', `/cosmwasm/wasm/v1/contract/${cw721}`);
    await get('cw721_contract_info', `/cosmwasm/wasm/v1/contract/${cw721}/smart/${encodeURIComponent(q)}`);
  }
  await recordTxs(ep, flavor, outDir, node);
  writeFileSync(
    path.join(outDir, 'state.json'),
    `${JSON.stringify({ source: { node, recorded_with: 'devnet/tools/record-vm-fixtures.ts', recorded_at: new Date().toISOString() }, ...state }, null, 2)}\n`,
  );
  process.stdout.write(`recorded into ${path.relative(REPO_ROOT, outDir)}\n`);
} finally {
  devnet.stop();
  rmSync(home, { recursive: true, force: true });
}
