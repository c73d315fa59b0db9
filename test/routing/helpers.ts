// Shared test helpers for the router: a simulated EVM JSON-RPC (quoteSend), a registry with a test
// LayerZero deployment on it, and the recorded op-hook fixture.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { AbiCoder } from 'ethers';
import { buildRegistry, CONFIG_DIR, readRegistryDirs, type Registry } from '../../routing/registry.js';

export interface FakeRpc {
  url: string;
  calls: { method: string; params: unknown[] }[];
  close(): Promise<void>;
}

/** A loopback JSON-RPC that answers eth_call with an ABI-encoded MessagingFee {nativeFee, lzTokenFee}. */
export async function fakeEvmRpc(nativeFee: bigint): Promise<FakeRpc> {
  const calls: FakeRpc['calls'] = [];
  const fee = AbiCoder.defaultAbiCoder().encode(['tuple(uint256,uint256)'], [[nativeFee, 0n]]);
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const msgs = JSON.parse(body) as
        | { id: number; method: string; params: unknown[] }
        | { id: number; method: string; params: unknown[] }[];
      const answer = (m: { id: number; method: string; params: unknown[] }) => {
        calls.push({ method: m.method, params: m.params });
        if (m.method === 'eth_chainId') return { jsonrpc: '2.0', id: m.id, result: '0x1' };
        if (m.method === 'eth_call') return { jsonrpc: '2.0', id: m.id, result: fee };
        return { jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'method not found' } };
      };
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(Array.isArray(msgs) ? msgs.map(answer) : answer(msgs)));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return { url: `http://127.0.0.1:${port}`, calls, close: () => new Promise((r) => server.close(() => r())) };
}

export const TEST_OFT = '0x1111111111111111111111111111111111111111';
export const TEST_TOKEN = '0x2222222222222222222222222222222222222222';
export const ETH_L1 = 'move/edfcddacac79ab86737a1e9e65805066d8be286a37cb94f4884b892b0e39f954';

/** Mainnet registry plus a test LayerZero file whose Ethereum side has an OFT and a JSON-RPC (loopback). */
export function registryWithLz(jsonRpc: string, kind: 'native' | 'adapter' = 'native'): Registry {
  const reg = path.join(CONFIG_DIR, 'registry');
  return buildRegistry(
    'mainnet',
    readRegistryDirs([{ dir: path.join(reg, 'mainnets') }, { dir: path.join(reg, 'removed-mainnets'), removed: true }]),
    {
      network: 'mainnet',
      external_chains: [{ chain_id: '1', pretty_name: 'Ethereum', vm: 'evm', evm_chain_id: 1, json_rpc: jsonRpc }],
      endpoints: { 'interwoven-1': 30326, '1': 30101 },
      assets: [
        {
          symbol: 'ETH',
          shared_decimals: 6,
          deployments: [
            {
              chain_id: 'interwoven-1',
              denom: ETH_L1,
              local_decimals: 6,
              oft_address: null,
              kind: 'oft',
              verified: false,
              source: 'test',
            },
            {
              chain_id: '1',
              denom: 'ethereum-native',
              local_decimals: 18,
              oft_address: TEST_OFT,
              kind,
              ...(kind === 'adapter' ? { token_address: TEST_TOKEN } : {}),
              verified: true,
              source: 'test',
            },
          ],
        },
      ],
    },
  );
}

const fixture = JSON.parse(
  readFileSync(
    new URL('../../devnet/recorded/initia-tx-decoder/protocols/op-init/finalize-token-deposit.json', import.meta.url),
    'utf8',
  ),
);
/** The real signed op-hook (base64 cosmos Tx) carried by a yominet-1 MsgFinalizeTokenDeposit, and its recipient. */
export const recordedHook = (which: 'mockMsgFinalizeTokenDepositSuccess' | 'mockMsgFinalizeTokenDepositError') => {
  const m = fixture[which].tx.body.messages[0];
  return { data: m.data as string, to: m.to as string, denom: m.amount.denom as string };
};
