// The simnet's relayer / executor / LayerZero executor. It watches every sealed block and delivers what the
// chains emitted after configurable delays: IBC recv + ack (or timeout, error ack, PFM forwarding with async
// acks), OPinit deposit finalization, withdrawal output proposal + claim, LayerZero delivery. Each transfer
// can be planned to fail, time out or stall.
import { createHash } from 'node:crypto';
import type { SealedBlock, SealedTx } from '../chain-sim/types.js';
import { LZ_TOPICS } from '../../workflows/evidence.js';
import { proofOutputRoot } from '../../routing/claim.js';
import type { Simnet } from './index.js';
import { BRIDGES, CHANNELS, LZ_EIDS, LZ_ENDPOINT, LZ_OFT, SIM, evmTx } from './index.js';
import * as T from './templates.js';

/**
 * success | errorAck (IBC error acknowledgement) | timeout (IBC) | hookFail (OPinit deposit: its hook) | depositFail
 * (OPinit deposit: refunded by a withdrawal back to L1) | fail (LzReceiveAlert) | stall (never delivered).
 */
export type Outcome = 'success' | 'errorAck' | 'timeout' | 'hookFail' | 'depositFail' | 'fail' | 'stall';

export interface RelayerDelays {
  recvMs: number;
  ackMs: number;
  depositMs: number;
  outputMs: number;
  claimMs: number;
  lzMs: number;
}
const DEFAULTS: RelayerDelays = { recvMs: 300, ackMs: 300, depositMs: 300, outputMs: 300, claimMs: 300, lzMs: 300 };

/**
 * opinit-bots' `GET /withdrawal/{sequence}` answer (test/fixtures/opinit-devnet/executor-withdrawal*.json): numbers
 * for sequence / output_index / bridge_id, base64 bytes, null proofs and roots (and output_index 0) until an
 * output covers the withdrawal.
 */
interface ExecutorWithdrawal {
  sequence: number;
  to: string;
  from: string;
  amount: { denom: string; amount: string };
  output_index: number;
  bridge_id: number;
  withdrawal_proofs: string[] | null;
  version: string;
  storage_root: string | null;
  last_block_hash: string | null;
  tx_time: string;
  tx_height: number;
  tx_hash: string;
}

interface PacketEntry {
  chainId: string;
  packet: T.Packet;
  outcome: Outcome;
  forwardOutcome?: Outcome;
  parent?: string;
}

/** minievm writes plain ICS-04 acks (recorded real minievm devnet); Initia L1 / minimove the recorded wrapper. */
/** A stable bech32-looking address for a simnet role (not a real key). */
const simAddress = (role: string) => `init1${createHash('sha256').update(role).digest('hex').slice(0, 38)}`;

const ackStyle = (chainId: string): T.AckStyle => (chainId === SIM.evm ? 'plain' : 'wrapped');

export class Relayer {
  readonly delays: RelayerDelays;
  private readonly packets = new Map<string, PacketEntry>();
  private readonly plans = new Map<string, Outcome>();
  private readonly seqs = new Map<string, number>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly unsubscribe: (() => void)[] = [];
  /** bridge id → output index → proposal; L2 chain → l2 sequence → output index (the executor's view). */
  private readonly outputs = new Map<
    string,
    Map<number, { output_root: string; l1_block_number: string; l1_block_time: string; l2_block_number: string }>
  >();
  private readonly executor = new Map<string, Map<string, ExecutorWithdrawal>>();
  /** Deliveries made, by kind (tests and benches read it). */
  readonly delivered = { ibc: 0, deposit: 0, withdrawal: 0, lz: 0 };

  constructor(
    private readonly net: Simnet,
    delays: Partial<RelayerDelays>,
    private readonly finalizationPeriodS: number,
  ) {
    this.delays = { ...DEFAULTS, ...delays };
  }

  start(): void {
    for (const [id, chain] of this.net.chains) this.unsubscribe.push(chain.onBlock((b) => this.onBlock(id, b)));
    const l1 = this.net.servers.get(SIM.l1)!;
    l1.registerGet(/^\/opinit\/ophost\/v1\/bridges\/(\d{1,10})$/, (m) => {
      if (!Object.values(BRIDGES).includes(m[1]!)) return undefined;
      // the field set and order of initiad's answer (test/fixtures/opinit-devnet/l1-rest-bridge.json)
      return {
        bridge_id: m[1],
        bridge_addr: simAddress(`bridge-${m[1]}`),
        bridge_config: {
          challenger: simAddress('challenger'),
          proposer: simAddress('proposer'),
          batch_info: { submitter: simAddress('batcher'), chain_type: 'INITIA' },
          submission_interval: '60s',
          finalization_period: `${this.finalizationPeriodS}s`,
          submission_start_height: '1',
          oracle_enabled: false,
          metadata: null,
          bridge_disabled: false,
          bridge_disabled_at: '0001-01-01T00:00:00Z',
        },
      };
    });
    l1.registerGet(/^\/opinit\/ophost\/v1\/bridges\/(\d{1,10})\/outputs\/(\d{1,10})$/, (m) => {
      const o = this.outputs.get(m[1]!)?.get(Number(m[2]));
      if (!o) return undefined;
      return {
        bridge_id: m[1],
        output_index: m[2],
        output_proposal: o,
      };
    });
    for (const l2 of Object.keys(BRIDGES)) {
      // The executor API (opinit-bots) is served from the L2's REST address in the simnet.
      this.net.servers.get(l2)!.registerGet(/^\/withdrawal\/(\d{1,20})$/, (m) => {
        // an unknown sequence: opinit-bots answers HTTP 500, plain text
        return this.executor.get(l2)?.get(m[1]!) ?? { status: 500, body: 'failed to query withdrawal' };
      });
    }
  }

  stop(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    for (const u of this.unsubscribe) u();
  }

  private later(ms: number, fn: () => void): void {
    const t = setTimeout(() => {
      this.timers.delete(t);
      fn();
    }, ms);
    this.timers.add(t);
  }

  private next(key: string): string {
    const n = (this.seqs.get(key) ?? 0) + 1;
    this.seqs.set(key, n);
    return String(n);
  }
  nextDepositSequence(bridgeId: string): string {
    return this.next(`dep:${bridgeId}`);
  }
  nextWithdrawalSequence(l2: string): string {
    return this.next(`wd:${l2}`);
  }
  nextLzNonce(): string {
    return this.next('lz');
  }
  planKey(key: string, o: Outcome): void {
    this.plans.set(key, o);
  }

  newPacket(chainId: string, channel: string, data: Record<string, string>): T.Packet {
    const cp = CHANNELS[chainId]?.[channel];
    if (!cp) throw new Error(`${chainId} has no channel ${channel}`);
    return {
      sequence: this.next(`ibc:${chainId}:${channel}`),
      srcPort: 'transfer',
      srcChannel: channel,
      dstPort: 'transfer',
      dstChannel: cp.channelId,
      timeoutNs: String(BigInt(Date.now() + 600_000) * 1_000_000n),
      data,
    };
  }
  plan(chainId: string, p: T.Packet, outcome: Outcome, forwardOutcome?: Outcome, parent?: string): void {
    this.packets.set(`${chainId}:${p.srcChannel}:${p.sequence}`, {
      chainId,
      packet: p,
      outcome,
      ...(forwardOutcome ? { forwardOutcome } : {}),
      ...(parent ? { parent } : {}),
    });
  }

  private onBlock(chainId: string, b: SealedBlock): void {
    for (const tx of b.txs) {
      if (tx.result.code !== 0) continue;
      for (const ev of tx.result.events) {
        const a = Object.fromEntries(ev.attributes.map((x) => [x.key, x.value]));
        if (ev.type === 'send_packet') this.relayPacket(chainId, a);
        else if (ev.type === 'initiate_token_deposit') this.relayDeposit(a);
        else if (ev.type === 'initiate_token_withdrawal') this.relayWithdrawal(chainId, a, tx, b);
      }
      for (const r of tx.evm?.receipts ?? [])
        for (const l of r.logs) if (l.topics[0] === LZ_TOPICS.OFTSent) this.relayLz(l.topics[1]!, l.topics[2]!);
    }
  }

  private relayPacket(chainId: string, a: Record<string, string>): void {
    const key = `${chainId}:${a.packet_src_channel}:${a.packet_sequence}`;
    const entry = this.packets.get(key);
    const dst = CHANNELS[chainId]?.[a.packet_src_channel ?? '']?.chainId;
    if (!entry || !dst) return; // not ours (or a channel the simnet does not know)
    const p = entry.packet;
    const d = this.delays;
    switch (entry.outcome) {
      case 'stall':
        return;
      case 'timeout':
        this.later(d.recvMs + d.ackMs, () => this.settle(entry, 'timeout_packet', false, 'packet timed out'));
        return;
      case 'errorAck':
        this.later(d.recvMs, () => {
          this.net.include(dst, [T.ibcRecvTx(p, { ok: false }, [], ackStyle(dst))]);
          this.delivered.ibc++;
          this.later(d.ackMs, () => this.settle(entry, 'acknowledge_packet', false));
        });
        return;
      default: {
        const fwd = parseForward(p.data.memo);
        this.later(d.recvMs, () => {
          this.delivered.ibc++;
          if (fwd && CHANNELS[dst]?.[fwd.channel]) {
            const child = this.newPacket(dst, fwd.channel, { ...p.data, receiver: fwd.receiver, memo: '' });
            this.plan(dst, child, entry.forwardOutcome ?? 'success', undefined, key);
            this.net.include(dst, [T.ibcRecvTx(p, undefined, [child], ackStyle(dst))]);
            return; // this packet is acknowledged when the forwarded one settles
          }
          this.net.include(dst, [T.ibcRecvTx(p, { ok: true }, [], ackStyle(dst))]);
          this.later(d.ackMs, () => this.settle(entry, 'acknowledge_packet', true));
        });
      }
    }
  }

  /** Ack/timeout relayed back to the packet's source; with PFM the parent's async ack is written in the same tx. */
  private settle(entry: PacketEntry, kind: 'acknowledge_packet' | 'timeout_packet', ok: boolean, error?: string): void {
    const parent = entry.parent ? this.packets.get(entry.parent) : undefined;
    // The parent's async ack is written on this packet's source chain (the forwarding chain).
    const extra = parent ? [T.writeAckEvent(parent.packet, ok, error, ackStyle(entry.chainId))] : [];
    this.net.include(entry.chainId, [T.ibcAckTx(entry.packet, kind, extra, { ok, ...(error ? { error } : {}) })]);
    if (parent) this.later(this.delays.ackMs, () => this.settle(parent, 'acknowledge_packet', ok, error));
  }

  private relayDeposit(a: Record<string, string>): void {
    const bridgeId = a.bridge_id ?? '';
    const l2 = Object.keys(BRIDGES).find((k) => BRIDGES[k] === bridgeId);
    const outcome = this.plans.get(`dep:${bridgeId}:${a.l1_sequence}`) ?? 'success';
    if (!l2 || outcome === 'stall') return;
    const l1Height = this.net.chain(SIM.l1).latestHeight();
    this.later(this.delays.depositMs, () => {
      this.delivered.deposit++;
      this.net.include(l2, [
        T.finalizeDepositTx({
          l1Sequence: a.l1_sequence ?? '',
          amount: a.amount ?? '',
          l2Denom: a.l2_denom ?? '',
          sender: a.from ?? '',
          recipient: a.to ?? '',
          l1Height,
          ...(outcome === 'hookFail'
            ? {
                hookFailure:
                  'hook failed; Failed to run AnteHandler: account sequence mismatch, expected 63, got 61: incorrect account sequence',
              }
            : {}),
          ...(outcome === 'depositFail'
            ? {
                depositFailure: {
                  reason: 'deposit failed; failed to mint coins: invalid denom',
                  refundSequence: this.nextWithdrawalSequence(l2),
                },
              }
            : {}),
        }),
      ]);
    });
  }

  private relayWithdrawal(l2: string, a: Record<string, string>, tx: SealedTx, b: SealedBlock): void {
    const bridgeId = BRIDGES[l2];
    if (!bridgeId) return;
    const seq = a.l2_sequence ?? '';
    const outcome = this.plans.get(`wd:${bridgeId}:${seq}`) ?? 'success';
    // The executor knows the withdrawal from its L2 block on, without an output yet.
    const ex = this.executor.get(l2) ?? new Map<string, ExecutorWithdrawal>();
    this.executor.set(l2, ex);
    const record: ExecutorWithdrawal = {
      sequence: Number(seq),
      to: a.to ?? '',
      from: a.from ?? '',
      amount: { denom: a.base_denom ?? '', amount: a.amount ?? '' },
      output_index: 0,
      bridge_id: Number(bridgeId),
      withdrawal_proofs: null,
      version: 'AQ==',
      storage_root: null,
      last_block_hash: null,
      tx_time: b.time,
      tx_height: b.height,
      tx_hash: tx.hash,
    };
    ex.set(seq, record);
    this.later(this.delays.outputMs, () => {
      // Output proposal on L1 covering the withdrawal; the executor now serves its output index.
      const outs = this.outputs.get(bridgeId) ?? new Map();
      this.outputs.set(bridgeId, outs);
      const idx = outs.size + 1;
      const leaf = (tag: string) => createHash('sha256').update(`${bridgeId}/${idx}/${seq}/${tag}`).digest('base64');
      // As ophost checks a claim: the output root is sha3_256(version ‖ storage_root ‖ last_block_hash).
      const root = Buffer.from(
        proofOutputRoot({ version: 'AQ==', storageRoot: leaf('storage'), lastBlockHash: leaf('block') }),
        'hex',
      );
      const l2Block = String(this.net.chain(l2).latestHeight());
      // Tracking finds the covering output from this L1 event (and checks it against the REST answer below).
      this.net.include(SIM.l1, [
        T.proposeOutputTx({
          bridgeId,
          outputIndex: String(idx),
          outputRoot: root.toString('hex'),
          l2BlockNumber: l2Block,
          proposer: simAddress('proposer'),
        }),
      ]);
      const l1 = this.net.chain(SIM.l1);
      const block = l1.block(l1.latestHeight())!;
      // initiad's output_proposal, field by field (test/fixtures/opinit-devnet/l1-rest-output.json): the root in
      // base64 (the event prints hex), the L1 block of the proposal
      outs.set(idx, {
        output_root: root.toString('base64'),
        l1_block_number: String(block.height),
        l1_block_time: block.time,
        l2_block_number: l2Block,
      });
      Object.assign(record, {
        output_index: idx,
        withdrawal_proofs: [leaf('proof')],
        storage_root: leaf('storage'),
        last_block_hash: leaf('block'),
      });
      if (outcome === 'stall') return;
      this.later(this.finalizationPeriodS * 1000 + this.delays.claimMs, () => {
        this.delivered.withdrawal++;
        this.net.include(SIM.l1, [
          T.finalizeWithdrawalTx({
            bridgeId,
            outputIndex: String(idx),
            l2Sequence: seq,
            from: a.from ?? '',
            to: a.to ?? '',
            l1Denom: a.base_denom ?? '',
            l2Denom: a.denom ?? '',
            amount: a.amount ?? '',
          }),
        ]);
      });
    });
  }

  private relayLz(guid: string, fromTopic: string): void {
    const outcome = this.plans.get(`lz:${guid}`) ?? 'success';
    if (outcome === 'stall') return;
    this.later(this.delays.lzMs, () => {
      this.delivered.lz++;
      const logs = T.lzDeliverLogs({
        endpoint: LZ_ENDPOINT,
        oft: LZ_OFT,
        guid,
        srcEid: LZ_EIDS[SIM.evm]!,
        sender: LZ_OFT,
        nonce: 1n,
        to: `0x${fromTopic.slice(-40)}`,
        amount: 10n ** 18n,
        ...(outcome === 'fail' ? { alert: 'OFT: lzReceive reverted: insufficient balance' } : {}),
      });
      this.net.include(SIM.eth, [evmTx(LZ_OFT, logs)]);
    });
  }
}

function parseForward(memo: string | undefined): { receiver: string; channel: string } | undefined {
  if (!memo) return undefined;
  try {
    const f = (JSON.parse(memo) as { forward?: { receiver?: string; channel?: string } }).forward;
    return f?.channel ? { receiver: f.receiver ?? '', channel: f.channel } : undefined;
  } catch {
    return undefined;
  }
}
