// Router registry for the two IBC devnets (devnet/ibc/start.sh), written as a folder laid out like
// config/registry/mainnets (<chain>/chain.json + assetlist.json) so that the router loads it exactly like the
// real registry: loadRouterRegistry({ ROUTER_NETWORK: 'custom', ROUTER_REGISTRY_FILE: <folder> }).
//
// The registry format requires exactly one L1 (metadata.is_l1) and an op_bridge_id on every rollup, as in
// initia-registry. The devnets are two minievm rollups linked only by IBC, so the folder also holds a stub
// L1 entry (`devnet-l1`, no endpoints, no channels, no OP denoms): no node runs for it and no route can use it.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ibcDenom } from '../../routing/denom.js';

export interface IbcDevnetEnv {
  A_CHAIN_ID: string;
  A_RPC: string;
  A_REST: string;
  A_JSONRPC: string;
  A_HOME: string;
  B_CHAIN_ID: string;
  B_RPC: string;
  B_REST: string;
  B_JSONRPC: string;
  B_HOME: string;
  CHANNEL_A: string;
  CHANNEL_B: string;
  RLY_BIN: string;
  RLY_HOME: string;
  RLY_PATH: string;
  RELAYER_ADDRESS: string;
  MINITIAD: string;
}

export const DEVNET_L1 = 'devnet-l1';
export const DEVNET_EXPLORER = 'https://scan.devnet.local';

/** The voucher of devnet-a's umin on devnet-b, as our code derives it: ibc/SHA256("transfer/<channel on B>/umin"). */
export function voucherOnB(env: Pick<IbcDevnetEnv, 'CHANNEL_B'>, base = 'umin'): string {
  return ibcDenom(`transfer/${env.CHANNEL_B}/${base}`);
}

function chainJson(
  id: string,
  bridgeId: string,
  rpc: string,
  rest: string,
  jsonRpc: string,
  channels: { chain_id: string; channel_id: string }[],
) {
  return {
    chain_id: id,
    chain_name: id,
    pretty_name: id,
    network_type: 'devnet',
    bech32_prefix: 'init',
    apis: { rpc: [{ address: rpc }], rest: [{ address: rest }], 'json-rpc': [{ address: jsonRpc }] },
    explorers: [{ kind: 'devnet', url: DEVNET_EXPLORER, tx_page: `${DEVNET_EXPLORER}/${id}/txs/\${txHash}` }],
    fees: {
      fee_tokens: [
        { denom: 'umin', fixed_min_gas_price: 0, low_gas_price: 0, average_gas_price: 0, high_gas_price: 0 },
      ],
    },
    metadata: {
      is_l1: false,
      minitia: { type: 'minievm' },
      op_bridge_id: bridgeId,
      op_denoms: [],
      ibc_channels: channels.map((c) => ({ ...c, port_id: 'transfer', version: 'ics20-1' })),
    },
  };
}

const umin = (description: string) => ({
  description,
  denom_units: [{ denom: 'umin', exponent: 0 }],
  base: 'umin',
  display: 'umin',
  name: 'Devnet MIN',
  symbol: 'MIN',
});

/** Write the registry folder; returns its path (pass it as ROUTER_REGISTRY_FILE with ROUTER_NETWORK=custom). */
export function writeDevnetRegistry(env: IbcDevnetEnv, dir: string): string {
  const a = env.A_CHAIN_ID;
  const b = env.B_CHAIN_ID;
  const files: Record<string, { chain: unknown; assetlist: unknown }> = {
    [DEVNET_L1]: {
      chain: {
        chain_id: DEVNET_L1,
        chain_name: DEVNET_L1,
        bech32_prefix: 'init',
        network_type: 'devnet',
        metadata: { is_l1: true, ibc_channels: [] },
      },
      assetlist: { chain_name: DEVNET_L1, assets: [] },
    },
    [a]: {
      chain: chainJson(a, '1', env.A_RPC, env.A_REST, env.A_JSONRPC, [{ chain_id: b, channel_id: env.CHANNEL_A }]),
      assetlist: { chain_name: a, assets: [umin(`native MIN of ${a}`)] },
    },
    [b]: {
      chain: chainJson(b, '2', env.B_RPC, env.B_REST, env.B_JSONRPC, [{ chain_id: a, channel_id: env.CHANNEL_B }]),
      assetlist: {
        chain_name: b,
        assets: [
          umin(`native MIN of ${b}`),
          {
            description: `MIN of ${a} over IBC`,
            denom_units: [{ denom: voucherOnB(env), exponent: 0 }],
            base: voucherOnB(env),
            display: voucherOnB(env),
            name: `${a} MIN`,
            symbol: 'MIN.a',
            traces: [
              {
                type: 'ibc',
                counterparty: { chain_id: a, base_denom: 'umin', channel_id: env.CHANNEL_A },
                chain: { channel_id: env.CHANNEL_B, path: `transfer/${env.CHANNEL_B}/umin` },
              },
            ],
          },
        ],
      },
    },
  };
  for (const [name, f] of Object.entries(files)) {
    mkdirSync(path.join(dir, name), { recursive: true });
    writeFileSync(path.join(dir, name, 'chain.json'), `${JSON.stringify(f.chain, null, 2)}\n`);
    writeFileSync(path.join(dir, name, 'assetlist.json'), `${JSON.stringify(f.assetlist, null, 2)}\n`);
  }
  return dir;
}
