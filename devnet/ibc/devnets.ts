// TypeScript handle on the IBC devnet pair of devnet/ibc/start.sh: start/stop by pid through the scripts,
// relayer control (hold back, resume, clear), and a wallet that signs and broadcasts the cosmos_tx the router's
// /v2/fungible/msgs returns with the project's own minievm signing (devnet/minievm/cosmos-tx.ts).
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { MsgTransfer } from 'cosmjs-types/ibc/applications/transfer/v1/tx';
import type { Any } from 'cosmjs-types/google/protobuf/any';
import type { DevAccount } from '../minievm/accounts.js';
import { buildSignedTx, msgSendAny, type DigestMode } from '../minievm/cosmos-tx.js';
import {
  broadcastSync,
  cometRpc,
  fetchAccount,
  getJson,
  waitForCosmosTx,
  type CometTx,
  type NodeEndpoints,
} from '../minievm/node-client.js';
import type { IbcDevnetEnv } from './registry.js';

const run = promisify(execFile);
const HERE = path.dirname(fileURLToPath(import.meta.url));
export const MSG_TRANSFER_TYPE_URL = '/ibc.applications.transfer.v1.MsgTransfer';

function parseEnv(text: string): IbcDevnetEnv {
  const out: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const m = /^([A-Z_]+)=(.*)$/.exec(line.trim());
    if (m) out[m[1]!] = m[2]!;
  }
  for (const k of ['A_RPC', 'B_RPC', 'CHANNEL_A', 'CHANNEL_B', 'RLY_BIN'])
    if (!out[k]) throw new Error(`devnet/ibc/start.sh did not print ${k}`);
  return out as unknown as IbcDevnetEnv;
}

async function script(name: string, args: string[], timeoutMs: number): Promise<string> {
  try {
    const r = await run('bash', [path.join(HERE, name), ...args], { timeout: timeoutMs, maxBuffer: 16 << 20 });
    return r.stdout;
  } catch (e) {
    const err = e as { stderr?: string; code?: number; message: string };
    throw new Error(
      `devnet/ibc/${name} ${args.join(' ')} failed (exit ${err.code ?? '?'}): ${(err.stderr ?? err.message).slice(-3000)}`,
    );
  }
}

export class IbcDevnets {
  private constructor(
    readonly runDir: string,
    readonly env: IbcDevnetEnv,
  ) {}

  /** Builds (cached) minitiad and rly, starts both chains and creates the channel. Fails loudly. */
  static async start(runDir: string, timeoutMs = 600_000): Promise<IbcDevnets> {
    const out = await script('start.sh', [runDir], timeoutMs);
    return new IbcDevnets(runDir, parseEnv(out));
  }

  /** Re-attach to a running pair (bench / tools): reads <runDir>/ibc.env. */
  static attach(runDir: string): IbcDevnets {
    return new IbcDevnets(runDir, parseEnv(readFileSync(path.join(runDir, 'ibc.env'), 'utf8')));
  }

  get a(): NodeEndpoints {
    return {
      chainId: this.env.A_CHAIN_ID,
      cometRpc: this.env.A_RPC,
      rest: this.env.A_REST,
      evmRpc: this.env.A_JSONRPC,
    };
  }

  get b(): NodeEndpoints {
    return {
      chainId: this.env.B_CHAIN_ID,
      cometRpc: this.env.B_RPC,
      rest: this.env.B_REST,
      evmRpc: this.env.B_JSONRPC,
    };
  }

  endpoints(chainId: string): NodeEndpoints {
    if (chainId === this.env.A_CHAIN_ID) return this.a;
    if (chainId === this.env.B_CHAIN_ID) return this.b;
    throw new Error(`not a devnet chain: ${chainId}`);
  }

  startRelayer(): Promise<string> {
    return script('relayer.sh', ['start', this.runDir], 90_000);
  }

  stopRelayer(): Promise<string> {
    return script('relayer.sh', ['stop', this.runDir], 30_000);
  }

  /** Relay every pending packet (recv, ack, timeout) once, without the daemon. */
  clearPackets(): Promise<string> {
    return script('relayer.sh', ['clear', this.runDir], 120_000);
  }

  stop(): Promise<string> {
    return script('stop.sh', [this.runDir], 60_000);
  }

  async balance(chainId: string, address: string, denom: string): Promise<bigint> {
    const r = await getJson<{ balance?: { amount: string } }>(
      `${this.endpoints(chainId).rest}/cosmos/bank/v1beta1/balances/${address}/by_denom?denom=${encodeURIComponent(denom)}`,
    );
    return BigInt(r.balance?.amount ?? '0');
  }

  /** The node's own ibc denom for a full trace path (ibc-go DenomHash query). */
  async denomHash(chainId: string, trace: string): Promise<string> {
    const r = await getJson<{ hash: string }>(
      `${this.endpoints(chainId).rest}/ibc/apps/transfer/v1/denom_hashes/${trace.split('/').map(encodeURIComponent).join('/')}`,
    );
    return `ibc/${r.hash}`;
  }

  /** CometBFT tx_search for a packet event attribute (what the nodes report). */
  async txSearch(chainId: string, query: string): Promise<CometTx[]> {
    const r = await cometRpc<{ txs: CometTx[] }>(this.endpoints(chainId).cometRpc, 'tx_search', {
      query,
      prove: false,
      per_page: '100',
      order_by: 'asc',
    });
    return r.txs;
  }
}

/** A cosmos_tx entry of the /v2/fungible/msgs answer. */
export interface RouterCosmosTx {
  chain_id: string;
  signer_address: string;
  msgs: { msg: string; msg_type_url: string }[];
}

/** JSON MsgTransfer (the router's snake_case) → protobuf Any. */
export function msgTransferAny(json: string): Any {
  const m = JSON.parse(json) as {
    source_port: string;
    source_channel: string;
    token: { denom: string; amount: string };
    sender: string;
    receiver: string;
    timeout_height?: { revision_number?: string; revision_height?: string };
    timeout_timestamp?: string;
    memo?: string;
  };
  return {
    typeUrl: MSG_TRANSFER_TYPE_URL,
    value: MsgTransfer.encode(
      MsgTransfer.fromPartial({
        sourcePort: m.source_port,
        sourceChannel: m.source_channel,
        token: m.token,
        sender: m.sender,
        receiver: m.receiver,
        timeoutHeight: {
          revisionNumber: BigInt(m.timeout_height?.revision_number ?? 0),
          revisionHeight: BigInt(m.timeout_height?.revision_height ?? 0),
        },
        timeoutTimestamp: BigInt(m.timeout_timestamp ?? 0),
        memo: m.memo ?? '',
      }),
    ).finish(),
  };
}

/**
 * Sign and broadcast as a wallet would: the account's number and sequence from REST, SIGN_MODE_DIRECT over
 * keccak256 (ethsecp256k1), broadcast_tx_sync. Returns the hash and CheckTx answer; does not wait for inclusion.
 */
export async function signAndBroadcast(
  ep: NodeEndpoints,
  account: DevAccount,
  messages: Any[],
  opts: { gasLimit?: number; memo?: string; sequence?: bigint; mode?: DigestMode } = {},
): Promise<{ txHash: string; code: number; log: string }> {
  const acc = await fetchAccount(ep, account.bech32);
  const signed = buildSignedTx(
    { account, chainId: ep.chainId, accountNumber: acc.accountNumber, sequence: opts.sequence ?? acc.sequence },
    messages,
    { amount: [{ denom: 'umin', amount: '0' }], gasLimit: opts.gasLimit ?? 400_000 },
    opts.memo ?? '',
    opts.mode ?? 'keccak',
  );
  const r = await broadcastSync(ep, signed.txBytes);
  return { txHash: signed.txHash, code: r.code, log: r.log };
}

/** Sign the router's cosmos_tx (MsgTransfer only, which is all an IBC route needs). */
export function routerTxMessages(tx: RouterCosmosTx): Any[] {
  return tx.msgs.map((m) => {
    if (m.msg_type_url !== MSG_TRANSFER_TYPE_URL) throw new Error(`unsupported msg type ${m.msg_type_url}`);
    return msgTransferAny(m.msg);
  });
}

export { msgSendAny, waitForCosmosTx };
