// Records real minievm devnet answers as test fixtures (test/fixtures/minievm-devnet/): for one tx of each
// kind the traffic generator sends (Cosmos bank send, Ethereum-signed MsgCall, Ethereum-signed MsgCreate, a
// failed tx) the CometBFT `block` and `block_results` of its height, the REST `txs/{hash}` answer and the
// block's `eth_getBlockReceipts` and `eth_getBlockByNumber(full)`. Run against a devnet that has had traffic:
//   eval "$(bash devnet/minievm/start.sh /tmp/h)"; npx tsx devnet/minievm/traffic.ts
//   npx tsx devnet/minievm/record-fixtures.ts test/fixtures/minievm-devnet
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { cometRpc, endpointsFromEnv, getJson, latestHeight, txSearchAll, type NodeEndpoints } from './node-client.js';

interface RestTx {
  tx: { body: { messages: { '@type': string }[] } };
  tx_response: { code: number; height: string; txhash: string };
}

const KINDS: { name: string; test: (t: RestTx) => boolean }[] = [
  {
    name: 'bank-send',
    test: (t) => t.tx_response.code === 0 && t.tx.body.messages[0]?.['@type'] === '/cosmos.bank.v1beta1.MsgSend',
  },
  {
    name: 'evm-call',
    test: (t) => t.tx_response.code === 0 && t.tx.body.messages[0]?.['@type'] === '/minievm.evm.v1.MsgCall',
  },
  {
    name: 'evm-create',
    test: (t) => t.tx_response.code === 0 && t.tx.body.messages[0]?.['@type'] === '/minievm.evm.v1.MsgCreate',
  },
  { name: 'failed', test: (t) => t.tx_response.code !== 0 },
];

async function evm<T>(ep: NodeEndpoints, method: string, params: unknown[]): Promise<T> {
  const res = await fetch(ep.evmRpc, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await res.json()) as { result?: T; error?: unknown };
  if (body.error) throw new Error(`${method}: ${JSON.stringify(body.error)}`);
  return body.result as T;
}

export async function recordFixtures(ep: NodeEndpoints, outDir: string): Promise<string[]> {
  mkdirSync(outDir, { recursive: true });
  const head = await latestHeight(ep);
  const version = await getJson<{ application_version: { version: string; name: string } }>(
    `${ep.rest}/cosmos/base/tendermint/v1beta1/node_info`,
  );
  const written: string[] = [];
  const left = [...KINDS];
  for (const t of await txSearchAll(ep, head)) {
    if (left.length === 0) break;
    const rest = await getJson<RestTx>(`${ep.rest}/cosmos/tx/v1beta1/txs/${t.hash.toUpperCase()}`);
    const k = left.findIndex((x) => x.test(rest));
    if (k < 0) continue;
    const [kind] = left.splice(k, 1);
    const height = Number(t.height);
    const fixture = {
      source: {
        node: `minitiad ${version.application_version.version} (${version.application_version.name}), built by devnet/minievm/build.sh`,
        devnet: 'devnet/minievm/start.sh (single node, chain id minievm-devnet-1) + devnet/minievm/traffic.ts',
        recorded_with: 'devnet/minievm/record-fixtures.ts',
        recorded_at: new Date().toISOString(),
        requests: {
          block: `CometBFT RPC block?height=${height}`,
          block_results: `CometBFT RPC block_results?height=${height}`,
          rest_tx: `GET /cosmos/tx/v1beta1/txs/${t.hash.toUpperCase()}`,
          receipts: `JSON-RPC eth_getBlockReceipts(0x${height.toString(16)})`,
          evm_block: `JSON-RPC eth_getBlockByNumber(0x${height.toString(16)}, true)`,
        },
      },
      tx_hash: t.hash.toUpperCase(),
      tx_index: t.index,
      block: await cometRpc<unknown>(ep.cometRpc, 'block', { height: String(height) }),
      block_results: await cometRpc<unknown>(ep.cometRpc, 'block_results', { height: String(height) }),
      rest_tx: rest,
      receipts: await evm<unknown[]>(ep, 'eth_getBlockReceipts', [`0x${height.toString(16)}`]),
      evm_block: await evm<unknown>(ep, 'eth_getBlockByNumber', [`0x${height.toString(16)}`, true]),
    };
    const file = path.join(outDir, `${kind!.name}.json`);
    writeFileSync(file, `${JSON.stringify(fixture, null, 2)}\n`);
    written.push(file);
  }
  if (left.length) throw new Error(`no tx of kind ${left.map((k) => k.name).join(', ')} up to height ${head}`);
  return written;
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const out = process.argv[2] ?? 'test/fixtures/minievm-devnet';
  for (const f of await recordFixtures(endpointsFromEnv(), out)) process.stdout.write(`${f}\n`);
}
