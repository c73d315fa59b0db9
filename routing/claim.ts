// The claim of a finalized OPinit withdrawal as a signable message: MsgFinalizeTokenWithdrawal built from the
// executor's proof (opinit-bots `GET /withdrawal/{sequence}`), in the shape POST /v2/fungible/msgs answers, so a
// client only signs and broadcasts it. Pure: the caller fetches the proof; nothing here signs.
import { createHash } from 'node:crypto';
import { unavailableNow } from './errors.js';

export const FINALIZE_WITHDRAWAL_TYPE_URL = '/opinit.ophost.v1.MsgFinalizeTokenWithdrawal';

/** The executor's answer, reduced to the fields the message needs (bytes are base64, as Go's JSON writes them). */
export interface WithdrawalProof {
  sequence: string;
  bridgeId: string;
  outputIndex: string;
  from: string;
  to: string;
  amount: { denom: string; amount: string };
  withdrawalProofs: string[];
  version: string;
  storageRoot: string;
  lastBlockHash: string;
}

/** What the tracked withdrawal says the proof must be for. */
export interface ClaimTarget {
  bridgeId: string;
  l2Sequence: string;
  outputIndex: string;
  l1ChainId: string;
  l2ChainId: string;
  /** The output's root, hex (as the propose_output event prints it): when given, the proof must hash to it. */
  outputRoot?: string;
}

const UINT = /^\d{1,20}$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const MAX_PROOFS = 64; // a Merkle path of a 2^64-leaf tree; an executor answering more is not one we trust
const MAX_TEXT = 256;

function text(v: unknown, what: string): string {
  if (typeof v !== 'string' || v.length === 0 || v.length > MAX_TEXT)
    throw unavailableNow(`executor proof: bad ${what}`, 'EXECUTOR_BAD_ANSWER');
  return v;
}
function uint(v: unknown, what: string): string {
  const s = typeof v === 'number' && Number.isSafeInteger(v) ? String(v) : v;
  if (typeof s !== 'string' || !UINT.test(s))
    throw unavailableNow(`executor proof: bad ${what}`, 'EXECUTOR_BAD_ANSWER');
  return s;
}
/** Go writes an empty byte slice as null (the executor does, before the withdrawal's output). */
function bytes(v: unknown, what: string): string {
  if (v === null) return '';
  if (typeof v !== 'string' || v.length > 4096 || !BASE64.test(v))
    throw unavailableNow(`executor proof: bad ${what}`, 'EXECUTOR_BAD_ANSWER');
  return v;
}

/** The executor's JSON as a proof, or a RouteError (unavailable: the executor answered something unusable). */
export function parseWithdrawalProof(raw: unknown): WithdrawalProof {
  if (!raw || typeof raw !== 'object') throw unavailableNow('executor proof: not an object', 'EXECUTOR_BAD_ANSWER');
  const r = raw as Record<string, unknown>;
  const amount = (r.amount ?? {}) as Record<string, unknown>;
  const proofs = r.withdrawal_proofs ?? []; // null before the output
  if (!Array.isArray(proofs) || proofs.length > MAX_PROOFS)
    throw unavailableNow('executor proof: bad withdrawal_proofs', 'EXECUTOR_BAD_ANSWER');
  return {
    sequence: uint(r.sequence, 'sequence'),
    bridgeId: uint(r.bridge_id, 'bridge_id'),
    outputIndex: uint(r.output_index, 'output_index'),
    from: text(r.from, 'from'),
    to: text(r.to, 'to'),
    amount: { denom: text(amount.denom, 'amount.denom'), amount: uint(amount.amount, 'amount.amount') },
    withdrawalProofs: proofs.map((p, i) => bytes(p, `withdrawal_proofs[${i}]`)),
    version: bytes(r.version, 'version'),
    storageRoot: bytes(r.storage_root, 'storage_root'),
    lastBlockHash: bytes(r.last_block_hash, 'last_block_hash'),
  };
}

/**
 * The output root a proof stands for, hex: ophost accepts the claim only when sha3_256(version ‖ storage_root ‖
 * last_block_hash) is the output's root (checked on the recorded devnet answers, test/routing/claim.test.ts).
 */
export function proofOutputRoot(p: Pick<WithdrawalProof, 'version' | 'storageRoot' | 'lastBlockHash'>): string {
  const b = (v: string) => Buffer.from(v, 'base64');
  return createHash('sha3-256')
    .update(Buffer.concat([b(p.version), b(p.storageRoot), b(p.lastBlockHash)]))
    .digest('hex');
}

/**
 * Is this proof for the tracked withdrawal under its current output? An executor may lag a re-proposed output, and
 * an index is reused after a deletion: the index alone can name the deleted output, so the root must match too.
 */
export function proofMatches(p: WithdrawalProof, t: ClaimTarget): boolean {
  return (
    p.bridgeId === t.bridgeId &&
    p.sequence === t.l2Sequence &&
    p.outputIndex === t.outputIndex &&
    (t.outputRoot === undefined || proofOutputRoot(p) === t.outputRoot.toLowerCase())
  );
}

/**
 * The unsigned claim, as `/v2/fungible/msgs` answers: one cosmos_tx on L1 (`txs`) and the legacy `msgs` form.
 * `sender` pays the fee and may be anyone; it defaults to the withdrawal's recipient.
 */
export function claimMessages(p: WithdrawalProof, t: ClaimTarget, sender = p.to) {
  if (!proofMatches(p, t))
    throw unavailableNow(
      `the executor's proof is for output ${p.outputIndex} (root ${proofOutputRoot(p)}) of bridge ${p.bridgeId}, sequence ${p.sequence}; the withdrawal is under output ${t.outputIndex}${t.outputRoot ? ` (root ${t.outputRoot})` : ''}`,
      'PROOF_PENDING',
    );
  const msg = JSON.stringify({
    sender,
    bridge_id: p.bridgeId,
    output_index: p.outputIndex,
    withdrawal_proofs: p.withdrawalProofs,
    from: p.from,
    to: p.to,
    sequence: p.sequence,
    amount: p.amount,
    version: p.version,
    storage_root: p.storageRoot,
    last_block_hash: p.lastBlockHash,
  });
  const path = [t.l2ChainId, t.l1ChainId];
  const m = { msg, msg_type_url: FINALIZE_WITHDRAWAL_TYPE_URL };
  return {
    txs: [{ cosmos_tx: { chain_id: t.l1ChainId, path, signer_address: sender, msgs: [m] }, operations_indices: [] }],
    msgs: [{ multi_chain_msg: { chain_id: t.l1ChainId, path, ...m } }],
  };
}
