// TypeScript handle on the OPinit bridge devnet of devnet/opinit/start.sh (L1 initiad + L2 minievm + executor
// opinitd, by pid on loopback): start/stop, executor control, a challenger's delete_output, balances, tx_search,
// and a wallet that signs the router's OPinit messages with the project's ethsecp256k1 signing.
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Any } from 'cosmjs-types/google/protobuf/any';
import { Contract, JsonRpcProvider, getAddress } from 'ethers';
import type { DevAccount } from '../minievm/accounts.js';
import { buildSignedTx } from '../minievm/cosmos-tx.js';
import {
  broadcastSync,
  cometRpc,
  fetchAccount,
  getJson,
  type CometTx,
  type NodeEndpoints,
} from '../minievm/node-client.js';
import { opinitMsgAny } from './messages.js';

const run = promisify(execFile);
const HERE = path.dirname(fileURLToPath(import.meta.url));
const REQUIRED = [
  'L1_CHAIN_ID',
  'L1_RPC_URL',
  'L1_REST_URL',
  'L2_CHAIN_ID',
  'L2_RPC_URL',
  'L2_REST_URL',
  'L2_EVM_RPC_URL',
  'L2_DENOM_UINIT',
  'BRIDGE_ID',
  'EXECUTOR_URL',
  'FINALIZATION_PERIOD',
  'USER_ADDRESS',
  'CHALLENGER_KEY',
  'L1_HOME',
  'INITIAD',
  'INITIAD_LD_LIBRARY_PATH',
] as const;
export type OpinitEnv = Record<(typeof REQUIRED)[number], string>;

function parseEnv(text: string): OpinitEnv {
  const out: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const m = /^([A-Z0-9_]+)=(.*)$/.exec(line.trim());
    if (m) out[m[1]!] = m[2]!;
  }
  for (const k of REQUIRED) if (!out[k]) throw new Error(`devnet/opinit/start.sh did not print ${k}`);
  return out as OpinitEnv;
}

async function script(name: string, args: string[], env: Record<string, string>, timeoutMs: number): Promise<string> {
  try {
    const r = await run('bash', [path.join(HERE, name), ...args], {
      timeout: timeoutMs,
      maxBuffer: 16 << 20,
      env: { ...process.env, ...env },
    });
    return r.stdout;
  } catch (e) {
    const err = e as { stderr?: string; code?: number; message: string };
    throw new Error(
      `devnet/opinit/${name} ${args.join(' ')} failed (exit ${err.code ?? '?'}): ${(err.stderr ?? err.message).slice(-3000)}`,
    );
  }
}

export class OpinitDevnet {
  readonly l1: NodeEndpoints;
  readonly l2: NodeEndpoints;
  private constructor(
    readonly runDir: string,
    readonly env: OpinitEnv,
  ) {
    this.l1 = { chainId: env.L1_CHAIN_ID, cometRpc: env.L1_RPC_URL, rest: env.L1_REST_URL, evmRpc: '' };
    this.l2 = {
      chainId: env.L2_CHAIN_ID,
      cometRpc: env.L2_RPC_URL,
      rest: env.L2_REST_URL,
      evmRpc: env.L2_EVM_RPC_URL,
    };
  }

  /** Builds (cached) initiad, minitiad and opinitd, starts L1, L2 and the executor, creates the bridge. Fails loudly. */
  static async start(runDir: string, opts: Record<string, string> = {}, timeoutMs = 1_500_000): Promise<OpinitDevnet> {
    return new OpinitDevnet(runDir, parseEnv(await script('start.sh', [runDir], opts, timeoutMs)));
  }

  async stop(): Promise<void> {
    await script('stop.sh', [this.runDir], {}, 120_000);
  }

  /** Stops or starts the executor alone; `recover` after a delete_output (devnet/opinit/executor.sh). */
  async executor(cmd: 'stop' | 'start' | 'recover'): Promise<void> {
    await script('executor.sh', [cmd, this.runDir], {}, 120_000);
  }

  /** The finalization period of the bridge as start.sh configured it, in ms. */
  get finalizationMs(): number {
    return Number.parseFloat(this.env.FINALIZATION_PERIOD) * 1000;
  }

  endpoints(chainId: string): NodeEndpoints {
    if (chainId === this.l1.chainId) return this.l1;
    if (chainId === this.l2.chainId) return this.l2;
    throw new Error(`not a chain of the OPinit devnet: ${chainId}`);
  }

  async balance(chainId: string, address: string, denom: string): Promise<bigint> {
    const r = await getJson<{ balance?: { amount: string } }>(
      `${this.endpoints(chainId).rest}/cosmos/bank/v1beta1/balances/${address}/by_denom?denom=${encodeURIComponent(denom)}`,
    );
    return BigInt(r.balance?.amount ?? '0');
  }

  async txSearch(chainId: string, query: string): Promise<CometTx[]> {
    const r = await cometRpc<{ txs: CometTx[] }>(this.endpoints(chainId).cometRpc, 'tx_search', {
      query,
      per_page: '100',
      order_by: 'asc',
    });
    return r.txs;
  }

  /** The challenger deletes L1 outputs from `index` on (initiad's CLI, signed from its test keyring). */
  async deleteOutput(index: string): Promise<string> {
    const { stdout } = await run(
      this.env.INITIAD,
      [
        ...['tx', 'ophost', 'delete-output', this.env.BRIDGE_ID, index],
        ...['--from', this.env.CHALLENGER_KEY, '--keyring-backend', 'test', '--home', this.env.L1_HOME],
        ...['--chain-id', this.l1.chainId, '--node', this.l1.cometRpc, '--fees', '0uinit', '--gas', '300000'],
        ...['-b', 'sync', '-y', '-o', 'json'],
      ],
      { env: { ...process.env, LD_LIBRARY_PATH: this.env.INITIAD_LD_LIBRARY_PATH }, timeout: 60_000 },
    );
    const r = JSON.parse(stdout) as { txhash: string; code: number; raw_log?: string };
    if (r.code !== 0) throw new Error(`delete-output refused: ${r.raw_log}`);
    return r.txhash;
  }

  /** Sign (SIGN_MODE_DIRECT over keccak256, ethsecp256k1) and broadcast_tx_sync, fee-less on both chains. */
  async signAndBroadcast(
    chainId: string,
    account: DevAccount,
    messages: Any[],
  ): Promise<{ txHash: string; code: number; log: string }> {
    const signed = await this.sign(chainId, account, messages);
    const r = await broadcastSync(this.endpoints(chainId), signed.txBytes);
    return { txHash: signed.txHash, code: r.code, log: r.log };
  }

  /** `messages` signed by `account` at its current account sequence (plus `sequenceAhead`), fee-less. */
  private async sign(chainId: string, account: DevAccount, messages: Any[], sequenceAhead = 0) {
    const acc = await fetchAccount(this.endpoints(chainId), account.bech32);
    const denom = chainId === this.l1.chainId ? 'uinit' : 'umin';
    return buildSignedTx(
      { account, chainId, accountNumber: acc.accountNumber, sequence: acc.sequence + BigInt(sequenceAhead) },
      messages,
      { amount: [{ denom, amount: '0' }], gasLimit: 800_000 },
      '',
      'keccak',
    );
  }

  /**
   * minievm's decimal wrapper (deployed at genesis) and the tokens of `l2Denom` it converts between: the ERC20 the
   * chain made for the bridged denom (it exists from the denom's first deposit on) and the 18-decimal token
   * `toLocal` mints, at the address the wrapper itself computes.
   */
  async decimalWrapper(l2Denom: string, decimals: number): Promise<{ wrapper: string; remote: string; local: string }> {
    const rest = this.l2.rest;
    const { address: wrapper } = await getJson<{ address: string }>(`${rest}/minievm/evm/v1/contracts/erc20_wrapper`);
    const { address: remote } = await getJson<{ address: string }>(
      `${rest}/minievm/evm/v1/contracts/by_denom?denom=${encodeURIComponent(l2Denom)}`,
    );
    const evm = this.evm();
    const token = new Contract(
      remote,
      ['function name() view returns (string)', 'function symbol() view returns (string)'],
      evm,
    );
    const w = new Contract(
      wrapper,
      ['function getToLocalERC20Address(string,string,string,uint8) view returns (address)'],
      evm,
    );
    const local = (await w.getFunction('getToLocalERC20Address')(
      l2Denom,
      await token.getFunction('name')(),
      await token.getFunction('symbol')(),
      decimals,
    )) as string;
    return { wrapper: getAddress(wrapper), remote: getAddress(remote), local: getAddress(local) };
  }

  /** ERC20 balance on the L2 (JSON-RPC eth_call); 0 while the token is not deployed yet (the wrapper deploys on use). */
  async erc20Balance(token: string, holder: string): Promise<bigint> {
    const evm = this.evm();
    if ((await evm.getCode(token)) === '0x') return 0n;
    const c = new Contract(token, ['function balanceOf(address) view returns (uint256)'], evm);
    return (await c.getFunction('balanceOf')(holder)) as bigint;
  }

  private evm(): JsonRpcProvider {
    return new JsonRpcProvider(this.l2.evmRpc, undefined, { staticNetwork: true });
  }

  /**
   * Signs /op-hook's messages as the L2 tx a wallet would sign (never broadcast: the bridge runs it when the
   * deposit finalizes) and returns it base64, for /v2/fungible/msgs' signed_op_hook. The chain checks the
   * signature against the signer's account sequence at that moment; `sequenceAhead` signs for a later one, which
   * is what a wallet produces when another L2 tx of the same account lands first.
   */
  async signHook(
    account: DevAccount,
    hook: { chain_id: string; hook: { msg: string; msg_type_url: string }[] },
    sequenceAhead = 0,
  ): Promise<string> {
    const signed = await this.sign(hook.chain_id, account, hook.hook.map(opinitMsgAny), sequenceAhead);
    return Buffer.from(signed.txBytes).toString('base64');
  }

  /** Sign and broadcast a cosmos_tx of the router (/v2/fungible/msgs, /v2/tx/claim_msgs). */
  signRouterTx(account: DevAccount, tx: { chain_id: string; msgs: { msg: string; msg_type_url: string }[] }) {
    return this.signAndBroadcast(tx.chain_id, account, tx.msgs.map(opinitMsgAny));
  }
}

/** A decimal-wrapped ERC20 of the bridged INIT on the L2, reached by a deposit with an op-hook. */
export interface WrappedInit {
  /** The wrapper contract (`toLocal`). */
  wrapper: string;
  /** The ERC20 the chain made for the bridged denom (the op-hook approves the wrapper on it). */
  remote: string;
  /** The 18-decimal token the wrapper mints: the asset's denom is `evm/<address>`. */
  local: string;
}

/**
 * The router registry of this bridge, in the upstream registry's layout (ROUTER_NETWORK=custom): the L1 with its
 * uinit, the L2 (minievm, bridge id, executor_uri, op_denoms) with its umin and the bridged uinit under the L2
 * denom the chain derives, and, once known, the wrapped INIT with its `erc20.json` row. Returns the folder.
 */
export function writeOpinitRegistry(env: OpinitEnv, dir: string, wrapped?: WrappedInit): string {
  const explorer = 'https://scan.devnet.local';
  const common = (id: string) => ({
    chain_id: id,
    chain_name: id,
    pretty_name: id,
    network_type: 'devnet',
    bech32_prefix: 'init',
    explorers: [{ kind: 'devnet', url: explorer, tx_page: `${explorer}/${id}/txs/\${txHash}` }],
  });
  const fee = (denom: string) => ({
    fee_tokens: [{ denom, fixed_min_gas_price: 0, low_gas_price: 0, average_gas_price: 0, high_gas_price: 0 }],
  });
  // INIT has 6 decimals on both chains, as on the real networks; the wrapped INIT has 18.
  const asset = (
    denom: string,
    symbol: string,
    description: string,
    extra: Record<string, unknown> = {},
    decimals = 6,
  ) => ({
    description,
    denom_units: [
      { denom, exponent: 0 },
      { denom: symbol, exponent: decimals },
    ],
    base: denom,
    display: symbol,
    name: symbol,
    symbol,
    ...extra,
  });
  const bridged = {
    type: 'op',
    counterparty: { chain_id: env.L1_CHAIN_ID, base_denom: 'uinit' },
    chain: { bridge_id: env.BRIDGE_ID },
  };
  const files: Record<string, { chain: unknown; assetlist: unknown }> = {
    [env.L1_CHAIN_ID]: {
      chain: {
        ...common(env.L1_CHAIN_ID),
        apis: { rpc: [{ address: env.L1_RPC_URL }], rest: [{ address: env.L1_REST_URL }] },
        fees: fee('uinit'),
        metadata: { is_l1: true, ibc_channels: [] },
      },
      assetlist: { chain_name: env.L1_CHAIN_ID, assets: [asset('uinit', 'INIT', 'Devnet INIT')] },
    },
    [env.L2_CHAIN_ID]: {
      chain: {
        ...common(env.L2_CHAIN_ID),
        apis: {
          rpc: [{ address: env.L2_RPC_URL }],
          rest: [{ address: env.L2_REST_URL }],
          'json-rpc': [{ address: env.L2_EVM_RPC_URL }],
        },
        fees: fee('umin'),
        metadata: {
          is_l1: false,
          minitia: { type: 'minievm' },
          op_bridge_id: env.BRIDGE_ID,
          op_denoms: ['uinit'],
          executor_uri: env.EXECUTOR_URL,
          ibc_channels: [],
        },
      },
      assetlist: {
        chain_name: env.L2_CHAIN_ID,
        assets: [
          asset('umin', 'MIN', `native MIN of ${env.L2_CHAIN_ID}`),
          asset(env.L2_DENOM_UINIT, 'INIT', `INIT of ${env.L1_CHAIN_ID} over OPinit bridge ${env.BRIDGE_ID}`, {
            traces: [bridged],
          }),
          ...(wrapped
            ? [
                asset(
                  `evm/${wrapped.local.slice(2)}`,
                  'WINIT',
                  `INIT of ${env.L1_CHAIN_ID} over OPinit bridge ${env.BRIDGE_ID}, wrapped to 18 decimals`,
                  {
                    address: wrapped.local,
                    traces: [
                      bridged,
                      {
                        type: 'wrapped',
                        counterparty: { chain_id: env.L2_CHAIN_ID, base_denom: env.L2_DENOM_UINIT },
                        chain: { contract: wrapped.wrapper },
                      },
                    ],
                  },
                  18,
                ),
              ]
            : []),
        ],
      },
    },
  };
  for (const [name, f] of Object.entries(files)) {
    mkdirSync(path.join(dir, name), { recursive: true });
    writeFileSync(path.join(dir, name, 'chain.json'), `${JSON.stringify(f.chain, null, 2)}\n`);
    writeFileSync(path.join(dir, name, 'assetlist.json'), `${JSON.stringify(f.assetlist, null, 2)}\n`);
  }
  if (wrapped) {
    const rows = [{ chain_id: env.L2_CHAIN_ID, denom: env.L2_DENOM_UINIT, address: wrapped.remote }];
    writeFileSync(path.join(dir, 'erc20.json'), `${JSON.stringify(rows, null, 2)}\n`);
  }
  return dir;
}
