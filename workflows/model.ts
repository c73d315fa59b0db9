// Domain model of a tracked transfer. Pure data: shared by the workflow sandbox, the activities and the
// status projection, so nothing here may import I/O (the workflow bundle must stay deterministic).

import type { AbciEvent, EvmLog } from '../chain/events.js';

/** A transaction as the activities read it from any chain, reduced to what tracking needs. */
export interface ChainTx {
  chainId: string;
  hash: string;
  height: number;
  /** RFC 3339 block time. */
  time: string;
  /** 0 = success (Cosmos `code`, or EVM receipt status 1). */
  code: number;
  log?: string;
  events: AbciEvent[];
  evmLogs?: EvmLog[];
}

/** A ChainTransaction of the status API: where a hop step happened. */
export interface TxRef {
  chainId: string;
  txHash: string;
  explorerLink: string;
  onChainAt?: string;
}

export type IbcHopState = 'TRANSFER_PENDING' | 'TRANSFER_RECEIVED' | 'TRANSFER_SUCCESS' | 'TRANSFER_FAILURE';
export type OpinitHopState = 'OPINIT_TRANSFER_SENT' | 'OPINIT_TRANSFER_RECEIVED';
export type LzHopState =
  | 'LAYER_ZERO_TRANSFER_SENT'
  | 'LAYER_ZERO_TRANSFER_WAITING_FOR_COMPOSE'
  | 'LAYER_ZERO_TRANSFER_RECEIVED'
  | 'LAYER_ZERO_TRANSFER_FAILED';

export interface PacketError {
  type: 'PACKET_ERROR_ACKNOWLEDGEMENT' | 'PACKET_ERROR_TIMEOUT' | 'PACKET_ERROR_UNKNOWN';
  message?: string;
}

export interface IbcHop {
  kind: 'ibc';
  fromChainId: string;
  toChainId: string;
  /** Join key on both chains: (src port, src channel, sequence). */
  srcPort: string;
  srcChannel: string;
  dstPort: string;
  dstChannel: string;
  sequence: string;
  /** Unix ns, decimal string ("0" when unused). */
  timeoutTimestamp: string;
  /** The packet data's denom (ICS-20 trace path form, as sent). */
  denom: string;
  /** ICS-20 only: the denom the sender holds (refunds land in it) and the one the receiver holds after recv. */
  denomOnSource?: string;
  denomOnDest?: string;
  amount: string;
  state: IbcHopState;
  sendTx: TxRef;
  receiveTx?: TxRef;
  acknowledgeTx?: TxRef;
  timeoutTx?: TxRef;
  /** Outcome of the acknowledgement written on the destination, once seen. */
  ack?: { success: boolean; message?: string };
  error?: PacketError;
  /** True once the forwarded (PFM) hops started in receiveTx were appended. */
  forwardsDerived?: boolean;
  /** The packet data's receiver (absent in histories recorded before it was kept). */
  receiver?: string;
  /** Times packet forwarding sent this hop's packet again after a timeout (the hop follows the latest). */
  retries?: number;
}

export interface OpDepositHop {
  kind: 'op_deposit';
  fromChainId: string;
  toChainId: string;
  bridgeId: string;
  l1Sequence: string;
  l1Denom: string;
  l2Denom: string;
  amount: string;
  state: OpinitHopState;
  sendTx: TxRef;
  receiveTx?: TxRef;
  /** From finalize_token_deposit: `success` and `reason`. */
  success?: boolean;
  reason?: string;
  /** Set while the executor that must relay the deposit does not answer. */
  waitReason?: ExecutorWaitReason;
}

/** Why an OPinit hop waits on the rollup's executor (absent while nothing is known to be wrong). */
export type ExecutorWaitReason = 'EXECUTOR_UNREACHABLE';

export interface OpWithdrawalHop {
  kind: 'op_withdrawal';
  fromChainId: string;
  toChainId: string;
  bridgeId: string;
  l2Sequence: string;
  denom: string;
  baseDenom: string;
  amount: string;
  state: OpinitHopState;
  sendTx: TxRef;
  receiveTx?: TxRef;
  /** L2 height of the initiating tx: the first output with `l2_block_number` ≥ it covers the withdrawal. */
  l2Height?: number;
  /** The live L1 output covering the withdrawal, once proposed; cleared when it is deleted (`delete_output`). */
  output?: CoveringOutput;
  /** Unix ms: the output's L1 block time + the bridge's finalization period (a durable timer waits for it). */
  claimableAtMs?: number;
  /** Executions recorded before `claimableAtMs` (workflows/transfer.ts finalizingUntil) kept it here. */
  finalizesAtMs?: number;
  /** Set once the finalization period of a still-live output has ended; the claim is then the next action. */
  claimable?: boolean;
  /** Whether the claim can be built now: the executor serves the proof (`ready`), or why not. */
  claimProof?: ClaimProofState;
  /** Set while no output covers the withdrawal and the executor (its output proposer) does not answer. */
  waitReason?: ExecutorWaitReason;
}

/** One `propose_output` on L1, as the chain stores it (REST `…/outputs/{index}`). */
export interface CoveringOutput {
  index: string;
  l2BlockNumber: number;
  /** Hex, as the `propose_output` event prints it: tells a re-proposed output at a reused index from a deleted one. */
  outputRoot: string;
  /** RFC 3339 L1 block time of the proposal. */
  l1BlockTime: string;
}

/** `ready`: the executor serves the withdrawal's proof for this output; otherwise the reason the claim waits. */
export type ClaimProofState = 'ready' | 'executor_unknown' | 'executor_unreachable' | 'proof_pending';

/** Where an OPinit withdrawal is in its life (the status shows it beside the state clients know). */
export type WithdrawalPhase = 'initiated' | 'output_proposed' | 'claimable' | 'claimed';

export function withdrawalPhase(h: OpWithdrawalHop): WithdrawalPhase {
  if (h.receiveTx) return 'claimed';
  if (h.claimable && h.output) return 'claimable';
  return h.output ? 'output_proposed' : 'initiated';
}

export interface LzHop {
  kind: 'layer_zero';
  fromChainId: string;
  toChainId: string;
  guid: string;
  srcEid: number;
  dstEid: number;
  amountSent: string;
  amountReceived: string;
  state: LzHopState;
  sendTx: TxRef;
  receiveTx?: TxRef;
  composeTx?: TxRef;
  errorTx?: TxRef;
  errorMessage?: string;
}

export type Hop = IbcHop | OpDepositHop | OpWithdrawalHop | LzHop;

export type Phase = 'submitted' | 'source_failed' | 'tracking' | 'finished' | 'abandoned';

/** Everything the workflow knows about one registered tx; the status document is a pure function of it. */
/** Who a transfer is from and for, as its source tx says (history by address; `transferParties` in evidence.ts). */
export interface TransferParties {
  /** The account that sent the funds on the source chain. */
  sender?: string;
  /** The account that receives them at the end: for a forwarded IBC packet, the last forward's receiver. */
  receiver?: string;
}

export interface TrackingState {
  chainId: string;
  txHash: string;
  phase: Phase;
  sourceTx?: TxRef & { code: number; log?: string };
  hops: Hop[];
  /** Why tracking was abandoned (which wait timed out). */
  abandonReason?: string;
  /** Sender and final receiver, once the source tx is found (absent in histories recorded before they were). */
  parties?: TransferParties;
  /**
   * Bridge events of the source tx that start a transfer no hop follows (a channel or bridge the registry does not
   * know): the transfer can never be reported a success.
   */
  unfollowed?: string[];
  /** Monotonic projection version; every recorded change increments it. 0 is the registration row. */
  version: number;
}

/** Timings of one tracked transfer. All durations in ms; defaults in tracking/timings.ts. */
/** Name of the workflow signal that attaches a webhook (`{ url }`) to a transfer's workflow. */
/**
 * The failure type of a chain activity asked about a chain this deployment has no endpoint for (its RPC, REST or
 * EVM JSON-RPC is not configured): not retried, since no retry can succeed; the hop waits out its stall window.
 */
export const CHAIN_NOT_CONFIGURED = 'ChainNotConfigured';

export const WEBHOOK_SIGNAL = 'webhook';
/** The task queue of webhook deliveries beside a workflow task queue (served with its chain worker). */
export const webhookQueue = (taskQueue: string) => `${taskQueue}-webhooks`;

export interface TrackingTimings {
  /** Chain poll interval inside the polling activities. */
  pollIntervalMs: number;
  /** How long one polling activity runs (heartbeating) before handing control back to the workflow. */
  pollWindowMs: number;
  /** Source tx never seen in a block for this long → STATE_ABANDONED. */
  sourceTimeoutMs: number;
  ibcStallMs: number;
  lzStallMs: number;
  depositStallMs: number;
  /** Stall window for a withdrawal before its output is proposed, and after its finalization ends. */
  withdrawalStallMs: number;
  /**
   * During the finalization wait the durable timer wakes this often to check the output is still live on L1
   * (a challenger may delete it); optional, default 10 min (tests lower it).
   */
  outputCheckMs?: number;
  /** A LayerZero FAILED hop may still be retried to success within this window (PAYLOAD_STORED). */
  lzRetryWindowMs: number;
  /** Continue-as-new once the history holds this many events (default 4000; tests lower it). */
  historyEventLimit?: number;
  /** Longest back-off between retries of one webhook delivery (default 1 min). */
  webhookMaxBackoffMs?: number;
  /** A webhook delivery not acknowledged within this is given up, and the next event is sent (default 3 days). */
  webhookGiveUpMs?: number;
}

export function hopIsTerminal(h: Hop): boolean {
  switch (h.kind) {
    case 'ibc':
      return h.state === 'TRANSFER_SUCCESS' || (h.state === 'TRANSFER_FAILURE' && !!(h.acknowledgeTx || h.timeoutTx));
    case 'op_deposit':
    case 'op_withdrawal':
      return h.state === 'OPINIT_TRANSFER_RECEIVED';
    case 'layer_zero':
      return h.state === 'LAYER_ZERO_TRANSFER_RECEIVED';
  }
}

export function hopSucceeded(h: Hop): boolean {
  switch (h.kind) {
    case 'ibc':
      return h.state === 'TRANSFER_SUCCESS';
    case 'op_deposit':
      return h.state === 'OPINIT_TRANSFER_RECEIVED' && h.success !== false;
    case 'op_withdrawal':
      return h.state === 'OPINIT_TRANSFER_RECEIVED';
    case 'layer_zero':
      return h.state === 'LAYER_ZERO_TRANSFER_RECEIVED';
  }
}

/**
 * Whether a hop's silence can mean it is stuck. Not while it waits on its rollup's executor (an operator's outage:
 * the hop completes once the executor is back, and the clock restarts when the reason clears), nor once a
 * withdrawal is claimable (the funds wait for the user's claim, which never expires).
 */
export function hopCanStall(h: Hop): boolean {
  if (h.kind === 'op_deposit') return h.waitReason === undefined;
  if (h.kind === 'op_withdrawal') return h.waitReason === undefined && withdrawalPhase(h) !== 'claimable';
  return true;
}

export function stallWindowMs(h: Hop, t: TrackingTimings): number {
  switch (h.kind) {
    case 'ibc':
      return t.ibcStallMs;
    case 'op_deposit':
      return t.depositStallMs;
    case 'op_withdrawal':
      return t.withdrawalStallMs;
    case 'layer_zero':
      return h.state === 'LAYER_ZERO_TRANSFER_FAILED' ? t.lzRetryWindowMs : t.lzStallMs;
  }
}

/** A stable key for a hop (used for deterministic ids and de-duplicating forwarded hops). */
export function hopKey(h: Hop): string {
  switch (h.kind) {
    case 'ibc':
      return `ibc:${h.fromChainId}:${h.srcPort}/${h.srcChannel}/${h.sequence}`;
    case 'op_deposit':
      return `dep:${h.bridgeId}:${h.l1Sequence}`;
    case 'op_withdrawal':
      return `wd:${h.bridgeId}:${h.l2Sequence}`;
    case 'layer_zero':
      return `lz:${h.guid}`;
  }
}
