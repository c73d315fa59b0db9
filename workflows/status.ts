// Pure projection: TrackingState → the `GET /v2/tx/status` document (docs/router.md, docs/tracking.md).
// The workflow computes it deterministically and appends it to ClickHouse; the API serves it verbatim.
import {
  hopIsTerminal,
  hopSucceeded,
  withdrawalPhase,
  type Hop,
  type OpWithdrawalHop,
  type TrackingState,
  type TxRef,
} from './model.js';

export type TxState =
  | 'STATE_SUBMITTED'
  | 'STATE_PENDING'
  | 'STATE_PENDING_ERROR'
  | 'STATE_COMPLETED_SUCCESS'
  | 'STATE_COMPLETED_ERROR'
  | 'STATE_ABANDONED';
export type OverallStatus = 'STATE_SUBMITTED' | 'STATE_PENDING' | 'STATE_COMPLETED' | 'STATE_FAILED';

export interface StatusError {
  message: string;
  type:
    | 'STATUS_ERROR_UNKNOWN'
    | 'STATUS_ERROR_TRANSACTION_EXECUTION'
    | 'STATUS_ERROR_INDEXING'
    | 'STATUS_ERROR_TRANSFER';
  details: { code: number; message: string } | null;
}
export interface AssetRelease {
  chain_id: string;
  denom: string;
  amount: string | null;
  released: boolean;
}
export interface ChainTransaction {
  chain_id: string;
  tx_hash: string;
  explorer_link: string;
  on_chain_at?: string;
}
/**
 * `transfer_asset_release` and `error` are absent, never null, when there is none: Skip's OpenAPI declares both as
 * objects (not nullable), and neither @skip-go/client nor InterwovenKit tells null from absent (docs/router.md).
 */
export interface TransferStatus {
  state: TxState;
  transfer_sequence: Record<string, unknown>[];
  next_blocking_transfer: { transfer_sequence_index: number } | null;
  transfer_asset_release?: AssetRelease;
  error?: StatusError;
  /** Ours, absent when none: what the user must do for the transfer to complete (docs/tracking.md). */
  next_action?: NextAction;
}

/**
 * A claimable OPinit withdrawal: someone must submit MsgFinalizeTokenWithdrawal on L1. `ready` = `GET
 * /v2/tx/claim_msgs` can build it now (the executor serves the proof); otherwise `reason` says why not.
 */
export interface NextAction {
  type: 'CLAIM_WITHDRAWAL';
  transfer_sequence_index: number;
  chain_id: string;
  claimable_at: string;
  ready: boolean;
  reason?: 'EXECUTOR_UNKNOWN' | 'EXECUTOR_UNREACHABLE' | 'PROOF_PENDING';
}
/** What the rules below compute, before the absent fields are dropped. */
interface TransferOutcome extends Omit<TransferStatus, 'transfer_asset_release' | 'error'> {
  transfer_asset_release: AssetRelease | null;
  error: StatusError | null;
}
export interface StatusDocument extends TransferStatus {
  status: OverallStatus;
  transfers: TransferStatus[];
}

/** The state ↔ status table of docs/router.md */
export const STATUS_OF: Record<TxState, OverallStatus> = {
  STATE_SUBMITTED: 'STATE_SUBMITTED',
  STATE_PENDING: 'STATE_PENDING',
  STATE_PENDING_ERROR: 'STATE_PENDING',
  STATE_COMPLETED_SUCCESS: 'STATE_COMPLETED',
  STATE_COMPLETED_ERROR: 'STATE_FAILED',
  STATE_ABANDONED: 'STATE_FAILED',
};

export const isTerminalState = (s: TxState) =>
  s === 'STATE_COMPLETED_SUCCESS' || s === 'STATE_COMPLETED_ERROR' || s === 'STATE_ABANDONED';

function claimableAt(h: OpWithdrawalHop): string | null {
  return h.output && h.claimableAtMs !== undefined ? new Date(h.claimableAtMs).toISOString() : null;
}

const CLAIM_REASON = {
  executor_unknown: 'EXECUTOR_UNKNOWN',
  executor_unreachable: 'EXECUTOR_UNREACHABLE',
  proof_pending: 'PROOF_PENDING',
} as const;

/** The first claimable, unclaimed withdrawal of a transfer still in flight: its claim is the next action. */
function nextAction(s: TrackingState): NextAction | undefined {
  if (s.phase !== 'tracking') return undefined;
  const i = s.hops.findIndex((h) => h.kind === 'op_withdrawal' && withdrawalPhase(h) === 'claimable');
  const h = s.hops[i];
  if (h?.kind !== 'op_withdrawal') return undefined;
  const a: NextAction = {
    type: 'CLAIM_WITHDRAWAL',
    transfer_sequence_index: i,
    chain_id: h.toChainId,
    claimable_at: claimableAt(h) ?? '',
    ready: h.claimProof === 'ready',
  };
  if (h.claimProof && h.claimProof !== 'ready') a.reason = CLAIM_REASON[h.claimProof];
  return a;
}

function chainTx(t: TxRef | undefined): ChainTransaction | null {
  if (!t) return null;
  const out: ChainTransaction = { chain_id: t.chainId, tx_hash: t.txHash, explorer_link: t.explorerLink };
  if (t.onChainAt) out.on_chain_at = t.onChainAt;
  return out;
}

/** One `transfer_sequence` element: exactly one kind key, states only from the enums clients know. */
export function transferEvent(h: Hop): Record<string, unknown> {
  switch (h.kind) {
    case 'ibc': {
      const packetTxs: Record<string, unknown> = {
        send_tx: chainTx(h.sendTx),
        receive_tx: chainTx(h.receiveTx),
        acknowledge_tx: chainTx(h.acknowledgeTx),
        timeout_tx: chainTx(h.timeoutTx),
      };
      if (h.error) packetTxs.error = { type: h.error.type, message: h.error.message ?? '', details: null };
      return {
        ibc_transfer: {
          from_chain_id: h.fromChainId,
          to_chain_id: h.toChainId,
          src_chain_id: h.fromChainId,
          dst_chain_id: h.toChainId,
          state: h.state,
          packet_txs: packetTxs,
        },
      };
    }
    // Beside the fields clients know (the state stays OPINIT_TRANSFER_SENT until received or claimed: the stock
    // client renders any other state as failed), ours: the bridge, the sequence and the phase of the hop, and for
    // a withdrawal its covering output and when it can be claimed.
    case 'op_deposit':
      return {
        op_init_transfer: {
          from_chain_id: h.fromChainId,
          to_chain_id: h.toChainId,
          state: h.state,
          txs: { send_tx: chainTx(h.sendTx), receive_tx: chainTx(h.receiveTx) },
          bridge_id: h.bridgeId,
          l1_sequence: h.l1Sequence,
          phase: h.state !== 'OPINIT_TRANSFER_RECEIVED' ? 'initiated' : h.success === false ? 'failed' : 'finalized',
          waiting_reason: h.waitReason ?? null,
        },
      };
    case 'op_withdrawal':
      return {
        op_init_transfer: {
          from_chain_id: h.fromChainId,
          to_chain_id: h.toChainId,
          state: h.state,
          txs: { send_tx: chainTx(h.sendTx), receive_tx: chainTx(h.receiveTx) },
          bridge_id: h.bridgeId,
          l2_sequence: h.l2Sequence,
          phase: withdrawalPhase(h),
          output_index: h.output?.index ?? null,
          claimable_at: claimableAt(h),
          waiting_reason: h.waitReason ?? null,
        },
      };
    case 'layer_zero':
      return {
        layer_zero_transfer: {
          from_chain_id: h.fromChainId,
          to_chain_id: h.toChainId,
          state: h.state,
          txs: {
            send_tx: chainTx(h.sendTx),
            receive_tx: chainTx(h.receiveTx),
            compose_tx: chainTx(h.composeTx),
            error_tx: chainTx(h.errorTx),
          },
        },
      };
  }
}

/** Where the funds are after hop `h` failed, and whether they have settled there. */
function failureRelease(h: Hop): { state: TxState; release: AssetRelease; error: StatusError } | undefined {
  switch (h.kind) {
    case 'ibc': {
      if (h.state !== 'TRANSFER_FAILURE') return undefined;
      const settled = !!(h.acknowledgeTx || h.timeoutTx);
      const message =
        h.error?.type === 'PACKET_ERROR_TIMEOUT'
          ? 'packet timed out'
          : `packet error acknowledgement: ${h.error?.message ?? ''}`;
      return {
        state: settled ? 'STATE_COMPLETED_ERROR' : 'STATE_PENDING_ERROR',
        // The refund lands back on the sending chain of the failed hop.
        release: {
          chain_id: h.fromChainId,
          denom: h.denomOnSource ?? h.denom,
          amount: h.amount || null,
          released: settled,
        },
        error: { message, type: 'STATUS_ERROR_TRANSFER', details: null },
      };
    }
    case 'op_deposit': {
      if (h.state !== 'OPINIT_TRANSFER_RECEIVED' || h.success !== false) return undefined;
      const reason = h.reason ?? 'deposit failed';
      const hookOnly = reason.startsWith('hook failed');
      return {
        state: 'STATE_COMPLETED_ERROR',
        // hook failure: funds minted on L2; deposit failure: refunded by a withdrawal that still has to finalize.
        release: hookOnly
          ? { chain_id: h.toChainId, denom: h.l2Denom, amount: h.amount, released: true }
          : { chain_id: h.fromChainId, denom: h.l1Denom, amount: h.amount, released: false },
        error: { message: reason, type: 'STATUS_ERROR_TRANSFER', details: null },
      };
    }
    case 'layer_zero': {
      if (h.state !== 'LAYER_ZERO_TRANSFER_FAILED') return undefined;
      return {
        state: 'STATE_PENDING_ERROR',
        release: { chain_id: h.toChainId, denom: '', amount: h.amountReceived, released: false },
        error: { message: h.errorMessage ?? 'lzReceive reverted', type: 'STATUS_ERROR_TRANSFER', details: null },
      };
    }
    default:
      return undefined;
  }
}

function successRelease(hops: Hop[]): AssetRelease | null {
  const last = hops[hops.length - 1];
  if (!last) return null;
  switch (last.kind) {
    case 'ibc':
      // The denom on the chain the funds landed on (an ibc/ voucher, or the native denom going home).
      return {
        chain_id: last.toChainId,
        denom: last.denomOnDest ?? last.denom,
        amount: last.amount || null,
        released: true,
      };
    case 'op_deposit':
      return { chain_id: last.toChainId, denom: last.l2Denom, amount: last.amount, released: true };
    case 'op_withdrawal':
      return { chain_id: last.toChainId, denom: last.baseDenom, amount: last.amount, released: true };
    case 'layer_zero':
      return { chain_id: last.toChainId, denom: '', amount: last.amountReceived, released: true };
  }
}

/**
 * The first failed hop's outcome. A failed IBC hop that was forwarded (packet forwarding) from the previous IBC
 * hop is refunded on the middle chain, which then writes an error acknowledgement for the previous hop: the funds
 * travel on back to its sender. Until that hop has failed too (the same tx on the middle chain, which the feed may
 * deliver a moment later), the failure is still pending and nothing is released.
 */
function firstFailure(hops: readonly Hop[]): ReturnType<typeof failureRelease> {
  const at = hops.findIndex((h) => !!failureRelease(h));
  if (at < 0) return undefined;
  let failure = failureRelease(hops[at]!)!;
  // A failed deposit's refund is a withdrawal followed after it: claimed, the funds are back on L1.
  if (hops[at]!.kind === 'op_deposit' && hops.slice(at + 1).some((h) => h.kind === 'op_withdrawal' && hopSucceeded(h)))
    failure = { ...failure, release: { ...failure.release, released: true } };
  const prev = hops[at - 1];
  if (hops[at]!.kind === 'ibc' && prev?.kind === 'ibc' && prev.state === 'TRANSFER_RECEIVED')
    return { ...failure, state: 'STATE_PENDING_ERROR', release: { ...failure.release, released: false } };
  // The refund has settled, but the answer is not final while any other hop is still open: a client stops at a
  // terminal state and would keep that hop pending forever, and a later terminal state (that hop abandoned) would
  // contradict it. That hop may come after the failure (the previous hop's error ack was seen before the forwarded
  // hop's own failure: their chains' feeds are independent) or before it (two independent transfers of one tx).
  if (failure.state === 'STATE_COMPLETED_ERROR' && hops.some((h, i) => i !== at && !hopIsTerminal(h)))
    return { ...failure, state: 'STATE_PENDING_ERROR' };
  return failure;
}

function outcomeOf(s: TrackingState): TransferOutcome {
  const seq = s.hops.map(transferEvent);
  const firstOpen = s.hops.findIndex((h) => !hopSucceeded(h));
  const base = { transfer_sequence: seq };
  if (s.phase === 'submitted')
    return {
      ...base,
      state: 'STATE_SUBMITTED',
      next_blocking_transfer: null,
      transfer_asset_release: null,
      error: null,
    };
  if (s.phase === 'source_failed')
    return {
      transfer_sequence: [],
      state: 'STATE_COMPLETED_ERROR',
      next_blocking_transfer: null,
      transfer_asset_release: null,
      error: {
        message: s.sourceTx?.log || 'source transaction failed',
        type: 'STATUS_ERROR_TRANSACTION_EXECUTION',
        details: { code: s.sourceTx?.code ?? 0, message: s.sourceTx?.log ?? '' },
      },
    };
  const failure = firstFailure(s.hops);
  if (s.phase === 'abandoned')
    return {
      ...base,
      state: 'STATE_ABANDONED',
      next_blocking_transfer: null,
      transfer_asset_release: failure?.release ?? null,
      error: {
        message: `tracking abandoned: ${s.abandonReason ?? 'no progress'}`,
        type: 'STATUS_ERROR_UNKNOWN',
        details: null,
      },
    };
  if (failure) {
    // A failed LayerZero hop is retriable until the workflow gives up on it (phase finished).
    const state: TxState =
      failure.state === 'STATE_PENDING_ERROR' && s.phase === 'finished' ? 'STATE_COMPLETED_ERROR' : failure.state;
    return {
      ...base,
      state,
      next_blocking_transfer: isTerminalState(state) ? null : { transfer_sequence_index: Math.max(0, firstOpen) },
      transfer_asset_release: failure.release,
      error: failure.error,
    };
  }
  const allDone = s.hops.length > 0 && s.hops.every((h) => hopIsTerminal(h) && hopSucceeded(h));
  // A transfer the tx started that no hop follows: whatever the followed hops did, success cannot be known.
  if ((allDone || s.phase === 'finished') && s.unfollowed?.length)
    return {
      ...base,
      state: 'STATE_COMPLETED_ERROR',
      next_blocking_transfer: null,
      transfer_asset_release: null,
      error: {
        message: `the transfer cannot be followed: ${s.unfollowed.join('; ')} (not in this deployment's registry)`,
        type: 'STATUS_ERROR_INDEXING',
        details: null,
      },
    };
  if (allDone || (s.phase === 'finished' && s.hops.length === 0))
    return {
      ...base,
      state: 'STATE_COMPLETED_SUCCESS',
      next_blocking_transfer: null,
      transfer_asset_release: successRelease(s.hops),
      error: null,
    };
  return {
    ...base,
    state: 'STATE_PENDING',
    next_blocking_transfer: { transfer_sequence_index: Math.max(0, firstOpen) },
    transfer_asset_release: null,
    error: null,
  };
}

function transferOf(s: TrackingState): TransferStatus {
  const { transfer_asset_release, error, ...rest } = outcomeOf(s);
  const t: TransferStatus = rest;
  if (transfer_asset_release) t.transfer_asset_release = transfer_asset_release;
  if (error) t.error = error;
  const action = nextAction(s);
  if (action) t.next_action = action;
  return t;
}

export function statusDocument(s: TrackingState): StatusDocument {
  const t = transferOf(s);
  // One `transfers` element per registered tx from the first answer on (Skip does the same): the stock client's
  // subscribeToRouteStatus reads finality from transfers[0].state, so an empty array reads as "no state".
  return { ...t, status: STATUS_OF[t.state], transfers: [t] };
}

/** The registration row: answers STATE_SUBMITTED before any worker has run. */
export function submittedDocument(): StatusDocument {
  return statusDocument({ chainId: '', txHash: '', phase: 'submitted', hops: [], version: 0 });
}
