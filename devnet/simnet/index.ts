// Simulated multi-chain network on loopback for tracking tests and the demo: an Initia-like L1, a Move
// rollup, an EVM rollup (minievm) and an external EVM chain (LayerZero peer), each a chain-sim node
// (CometBFT RPC, Cosmos REST, EVM JSON-RPC), plus a relayer (relayer.ts) that delivers IBC packets,
// OPinit deposits/withdrawals and LayerZero messages after configurable delays.
import { toBech32 } from '@cosmjs/encoding';
import { randomBytes } from 'node:crypto';
import { SimChain } from '../chain-sim/chain.js';
import { startChainServer, type ChainServer } from '../chain-sim/server.js';
import type { TxInput } from '../chain-sim/types.js';
import { encodeTxRaw, sha256Hex } from '../chain-sim/txcodec.js';
import type { ChainInfo } from '../../activities/chains.js';
import { Relayer, type Outcome, type RelayerDelays } from './relayer.js';
import * as T from './templates.js';

export const SIM = {
  l1: 'initia-sim-1',
  move: 'minimove-sim-1',
  evm: 'minievm-sim-1',
  eth: 'ethereum-sim-1',
} as const;
/** Channel topology: L1 channel-1 ↔ move channel-0, L1 channel-2 ↔ evm channel-0. */
export const CHANNELS = {
  [SIM.l1]: {
    'channel-1': { chainId: SIM.move, channelId: 'channel-0' },
    'channel-2': { chainId: SIM.evm, channelId: 'channel-0' },
  },
  [SIM.move]: { 'channel-0': { chainId: SIM.l1, channelId: 'channel-1' } },
  [SIM.evm]: { 'channel-0': { chainId: SIM.l1, channelId: 'channel-2' } },
} as Record<string, Record<string, { chainId: string; channelId: string }>>;
export const BRIDGES = { [SIM.move]: '1', [SIM.evm]: '2' } as Record<string, string>;
export const LZ_EIDS = { [SIM.evm]: 40999, [SIM.eth]: 40161 } as Record<string, number>;

export interface SimnetOptions {
  delays?: Partial<RelayerDelays>;
  /** OPinit BridgeConfig.finalization_period in seconds (7 days on mainnet; seconds in tests). */
  finalizationPeriodS?: number;
}

export interface SentTx {
  chainId: string;
  txHash: string;
  /** Who sent it and who receives at the end (the final forward's receiver), as the tx says. */
  sender?: string;
  receiver?: string;
}

export class Simnet {
  readonly chains = new Map<string, SimChain>();
  readonly servers = new Map<string, ChainServer>();
  relayer!: Relayer;
  private constructor() {}

  static async start(opts: SimnetOptions = {}): Promise<Simnet> {
    const s = new Simnet();
    const now = new Date(Date.now() - 60_000).toISOString();
    s.chains.set(SIM.l1, new SimChain({ chainId: SIM.l1, vm: 'move', genesisTime: now }));
    s.chains.set(SIM.move, new SimChain({ chainId: SIM.move, vm: 'move', genesisTime: now }));
    s.chains.set(SIM.evm, new SimChain({ chainId: SIM.evm, vm: 'evm', evmChainId: 4_309_991n, genesisTime: now }));
    s.chains.set(SIM.eth, new SimChain({ chainId: SIM.eth, vm: 'evm', evmChainId: 11_155_111n, genesisTime: now }));
    for (const [id, c] of s.chains) {
      c.appendBlock({ time: new Date().toISOString(), txs: [] });
      s.servers.set(id, await startChainServer(c));
    }
    s.relayer = new Relayer(s, { ...opts.delays }, opts.finalizationPeriodS ?? 5);
    s.relayer.start();
    return s;
  }

  chain(id: string): SimChain {
    const c = this.chains.get(id);
    if (!c) throw new Error(`unknown simnet chain ${id}`);
    return c;
  }

  /** Chain directory entries for tracking (and the router registry of the demo). */
  chainInfos(): ChainInfo[] {
    return [...this.chains.keys()].map((id) => {
      const srv = this.servers.get(id)!;
      const isL2 = id in BRIDGES;
      const info: ChainInfo = {
        chainId: id,
        explorerTxPage: `https://scan.simnet.local/${id}/txs/\${txHash}`,
        bech32Prefix: 'init',
        ...(id !== SIM.eth ? { rpcUrl: srv.rpcUrl, restUrl: srv.restUrl } : {}),
        ...(srv.evmUrl ? { evmRpcUrl: srv.evmUrl } : {}),
        ...(CHANNELS[id] ? { ibcChannels: CHANNELS[id] } : {}),
        ...(isL2 ? { opBridgeId: BRIDGES[id], l1ChainId: SIM.l1, executorUrl: srv.restUrl } : {}),
        ...(LZ_EIDS[id] ? { lzEid: LZ_EIDS[id] } : {}),
      };
      return info;
    });
  }

  /** Append one block holding `txs` on `chainId` with the current wall-clock time. */
  include(chainId: string, txs: TxInput[]): void {
    const c = this.chain(chainId);
    const prev = c.block(c.latestHeight());
    const t = Math.max(Date.now(), prev ? Date.parse(prev.time) + 1 : 0);
    c.appendBlock({ time: new Date(t).toISOString(), txs });
  }

  /** Cosmos tx hash the chain will assign to `tx` (sha256 of the raw bytes). */
  static hashOf(tx: TxInput): string {
    return sha256Hex(encodeTxRaw(tx.tx)).toUpperCase();
  }

  private submit(chainId: string, tx: TxInput, includeAfterMs?: number): SentTx {
    const txHash = tx.evm?.receipts[0]?.transactionHash ?? Simnet.hashOf(tx);
    if (includeAfterMs === undefined) this.include(chainId, [tx]);
    else setTimeout(() => this.include(chainId, [tx]), includeAfterMs).unref();
    return { chainId, txHash };
  }

  // ---- user actions (each returns the hash a client would register) ----

  /** ICS-20 transfer; `forward` makes the destination forward the packet (PFM) over its `forward.channel`. */
  ibcTransfer(o: {
    from: string;
    channel: string;
    amount?: string;
    denom?: string;
    outcome?: Outcome;
    forward?: { channel: string; outcome?: Outcome };
    includeAfterMs?: number;
    /** The accounts (default: fresh ones); with `forward`, `receiver` is the forward's. */
    sender?: string;
    receiver?: string;
  }): SentTx {
    const sender = o.sender ?? addr();
    const receiver = o.receiver ?? addr();
    const p = this.relayer.newPacket(o.from, o.channel, {
      amount: o.amount ?? '200000',
      denom: o.denom ?? 'uinit',
      receiver: o.forward ? addr() : receiver,
      sender,
      memo: o.forward ? JSON.stringify({ forward: { receiver, port: 'transfer', channel: o.forward.channel } }) : '',
    });
    this.relayer.plan(o.from, p, o.outcome ?? 'success', o.forward?.outcome);
    return { ...this.submit(o.from, T.ibcSendTx(p), o.includeAfterMs), sender, receiver };
  }

  deposit(o: { l2: string; amount?: string; outcome?: Outcome; from?: string; to?: string }): SentTx {
    const bridgeId = BRIDGES[o.l2]!;
    const from = o.from ?? addr();
    const to = o.to ?? addr();
    const l1Sequence = this.relayer.nextDepositSequence(bridgeId);
    this.relayer.planKey(`dep:${bridgeId}:${l1Sequence}`, o.outcome ?? 'success');
    const sent = this.submit(
      SIM.l1,
      T.depositTx({ bridgeId, l1Sequence, amount: o.amount ?? '1000000', l2Denom: `l2/${'ab'.repeat(32)}`, from, to }),
    );
    return { ...sent, sender: from, receiver: to };
  }

  withdraw(o: { l2: string; amount?: string; outcome?: Outcome; from?: string; to?: string }): SentTx {
    const from = o.from ?? addr();
    const to = o.to ?? addr();
    const l2Sequence = this.relayer.nextWithdrawalSequence(o.l2);
    this.relayer.planKey(`wd:${BRIDGES[o.l2]}:${l2Sequence}`, o.outcome ?? 'success');
    const sent = this.submit(
      o.l2,
      T.withdrawalTx({ l2Sequence, amount: o.amount ?? '100000', denom: `l2/${'cd'.repeat(32)}`, from, to }),
    );
    return { ...sent, sender: from, receiver: to };
  }

  /** OFT send from the EVM rollup to the external EVM chain; `fail` = LzReceiveAlert on the destination. */
  lzSend(o: { amount?: bigint; outcome?: Outcome } = {}): SentTx {
    const guid = `0x${randomBytes(32).toString('hex')}`;
    this.relayer.planKey(`lz:${guid}`, o.outcome ?? 'success');
    const from = evmAddr();
    const logs = T.lzSendLogs({
      endpoint: LZ_ENDPOINT,
      oft: LZ_OFT,
      guid,
      dstEid: LZ_EIDS[SIM.eth]!,
      from,
      amount: o.amount ?? 10n ** 18n,
      nonce: BigInt(this.relayer.nextLzNonce()),
      srcEid: LZ_EIDS[SIM.evm]!,
    });
    return { ...this.submit(SIM.evm, evmTx(LZ_OFT, logs)), sender: from };
  }

  failedTx(chainId: string = SIM.l1): SentTx {
    return this.submit(chainId, T.failedTx());
  }

  async stop(): Promise<void> {
    this.relayer.stop();
    await Promise.all([...this.servers.values()].map((s) => s.close()));
  }
}

export const LZ_ENDPOINT = '0x1a44076050125825900e736c501f859c50fe728c';
export const LZ_OFT = '0x00000000000000000000000000000000000a11ce';

/** A fresh account, real bech32 (history by address decodes it). */
const addr = () => toBech32('init', randomBytes(20));
const evmAddr = () => `0x${randomBytes(20).toString('hex')}`;

/** A minievm / EVM tx (Cosmos MsgCall wrapper + its EVM receipt) emitting `logs`. */
export function evmTx(to: string, logs: T.EvmLogSpec[]): TxInput {
  const hash = `0x${randomBytes(32).toString('hex')}`;
  const from = evmAddr();
  const base = T.RECORDED.deposit();
  return {
    tx: {
      ...JSON.parse(JSON.stringify(base.tx)),
      body: {
        messages: [{ '@type': '/minievm.evm.v1.MsgCall', sender: from, contract_addr: to, input: '0x' }],
        memo: hash,
      },
    },
    result: {
      code: 0,
      log: '',
      gas_wanted: '300000',
      gas_used: '120000',
      events: [
        {
          type: 'message',
          attributes: [
            { key: 'action', value: '/minievm.evm.v1.MsgCall', index: true },
            { key: 'module', value: 'evm', index: true },
            { key: 'msg_index', value: '0', index: true },
          ],
        },
      ],
    },
    evm: {
      txs: [
        {
          hash,
          from,
          to,
          nonce: '0x0',
          value: '0x0',
          input: '0x',
          gas: '0x493e0',
          gasPrice: '0x0',
          maxFeePerGas: '0x0',
          maxPriorityFeePerGas: '0x0',
          type: '0x2',
          chainId: '0x1',
          v: '0x0',
          r: '0x0',
          s: '0x0',
          accessList: [],
        },
      ],
      receipts: [
        {
          transactionHash: hash,
          from,
          to,
          contractAddress: null,
          gasUsed: '0x1d4c0',
          cumulativeGasUsed: '0x1d4c0',
          effectiveGasPrice: '0x0',
          status: '0x1',
          type: '0x2',
          logs: logs.map((l) => ({ ...l })),
          logsBloom: `0x${'0'.repeat(512)}`,
        },
      ],
    },
  };
}
