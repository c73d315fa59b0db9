// Pure hop state machines: on-chain evidence (ABCI events, EVM logs) → hop transitions.
// No I/O: activities fetch txs and call these; unit tests feed them the recorded real Initia txs.
import { createHash } from 'node:crypto';
import type {
  ChainTx,
  CoveringOutput,
  ExecutorWaitReason,
  Hop,
  IbcHop,
  LzHop,
  OpDepositHop,
  OpWithdrawalHop,
  TransferParties,
  TxRef,
} from './model.js';
import type { EvmLog } from '../chain/events.js';
import { attrs } from '../chain/events.js';
import { topicAddress } from '../chain/address.js';

/** Registry knowledge the derivation needs (filled from routing/registry or the simnet by the activities). */
export interface Resolver {
  /** Chain on the other end of `port/channel` of `chainId`. */
  ibcCounterparty(chainId: string, port: string, channel: string): string | undefined;
  /** L2 chain of an OPinit bridge id. */
  l2ByBridgeId(bridgeId: string): string | undefined;
  /** L1 chain and bridge id of an L2. */
  l1Of(l2ChainId: string): { l1ChainId: string; bridgeId: string } | undefined;
  chainByLzEid(eid: number): string | undefined;
  lzEidOf(chainId: string): number | undefined;
  txRef(chainId: string, txHash: string, onChainAt?: string): TxRef;
}

export { attrs };

export function eventsOf(tx: Pick<ChainTx, 'events'>, type: string): Record<string, string>[] {
  return tx.events.filter((e) => e.type === type).map(attrs);
}

function hexToUtf8(hex: string): string {
  const clean = hex.startsWith('0x') ? hex.slice(2) : hex;
  let out = '';
  for (let i = 0; i + 1 < clean.length; i += 2) out += String.fromCharCode(parseInt(clean.slice(i, i + 2), 16));
  try {
    return decodeURIComponent(escape(out));
  } catch {
    return out;
  }
}

function base64ToUtf8(b64: string): string {
  // atob exists in Node 20 and in the workflow sandbox; Buffer does not exist in the sandbox.
  const bin = atob(b64);
  try {
    return decodeURIComponent(escape(bin));
  } catch {
    return bin;
  }
}

/**
 * Acknowledgement outcome from `write_acknowledgement` (packet_ack_hex preferred, packet_ack as fallback).
 * Handles the plain ICS-20/721 forms and the Initia wrapper {app_acknowledgement, underlying_app_success}.
 */
export function parseAck(a: Record<string, string>): { success: boolean; message?: string } {
  const text = a.packet_ack_hex ? hexToUtf8(a.packet_ack_hex) : (a.packet_ack ?? '');
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return { success: false, message: `unparseable acknowledgement: ${text.slice(0, 128)}` };
  }
  if (typeof parsed.app_acknowledgement === 'string') {
    let inner: Record<string, unknown> = {};
    try {
      inner = JSON.parse(base64ToUtf8(parsed.app_acknowledgement)) as Record<string, unknown>;
    } catch {
      /* the wrapper's underlying_app_success still decides */
    }
    const ok = parsed.underlying_app_success === true && inner.error === undefined;
    return ok ? { success: true } : { success: false, message: String(inner.error ?? 'acknowledgement error') };
  }
  if (typeof parsed.error === 'string') return { success: false, message: parsed.error };
  if (typeof parsed.result === 'string') return { success: true };
  return { success: false, message: `unknown acknowledgement: ${text.slice(0, 128)}` };
}

/**
 * Whether a packet event is this hop's packet. A sequence is unique per source (port, channel) only, and every
 * rollup's channel to L1 tends to be `channel-0`: on the destination, packets of several sources share (source
 * port, channel, sequence), so the destination end (port, channel) must match too. ibc-go prints all five on every
 * packet event.
 */
const samePacket = (
  a: Record<string, string>,
  h: Pick<IbcHop, 'srcPort' | 'srcChannel' | 'dstPort' | 'dstChannel' | 'sequence'>,
) =>
  a.packet_src_port === h.srcPort &&
  a.packet_src_channel === h.srcChannel &&
  a.packet_sequence === h.sequence &&
  (!h.dstChannel || a.packet_dst_channel === h.dstChannel) &&
  (!h.dstPort || a.packet_dst_port === h.dstPort);

/** A full ICS-20 trace path as the chain holding it names it: the base denom itself, or ibc/SHA256(path). */
export function ics20ChainDenom(path: string): string {
  return /^[^/]+\/channel-\d+\//.test(path)
    ? `ibc/${createHash('sha256').update(path, 'utf8').digest('hex').toUpperCase()}`
    : path;
}

/**
 * ibc-go's denom rules for an ICS-20 packet (`denom` = the packet data's trace path): what the sender escrowed or
 * burned (and gets back on a refund), and what the receiver holds after recv_packet (the prefix of the source
 * port/channel removed when the token goes home, else the destination port/channel prepended).
 */
export function ics20Denoms(
  denom: string,
  h: Pick<IbcHop, 'srcPort' | 'srcChannel' | 'dstPort' | 'dstChannel'>,
): { denomOnSource: string; denomOnDest: string } {
  const back = `${h.srcPort}/${h.srcChannel}/`;
  return {
    denomOnSource: ics20ChainDenom(denom),
    denomOnDest: ics20ChainDenom(
      denom.startsWith(back) ? denom.slice(back.length) : `${h.dstPort}/${h.dstChannel}/${denom}`,
    ),
  };
}

/** What a send_packet's data says: the denom (or NFT class), the amount (or NFT count), the receiver. */
function packetData(a: Record<string, string>): { denom: string; amount: string; receiver: string; ics20: boolean } {
  try {
    const data = JSON.parse(a.packet_data_hex ? hexToUtf8(a.packet_data_hex) : (a.packet_data ?? '{}')) as Record<
      string,
      unknown
    >;
    return {
      ics20: typeof data.denom === 'string' && data.denom !== '',
      denom: String(data.denom ?? data.class_id ?? ''),
      amount: String(data.amount ?? (Array.isArray(data.token_ids) ? data.token_ids.length : '')),
      receiver: typeof data.receiver === 'string' ? data.receiver : '',
    };
  } catch {
    return { denom: '', amount: '', receiver: '', ics20: false }; // NFT / opaque data
  }
}

function ibcHopFromSend(a: Record<string, string>, tx: ChainTx, r: Resolver): IbcHop | undefined {
  const port = a.packet_src_port ?? '';
  const channel = a.packet_src_channel ?? '';
  const to = r.ibcCounterparty(tx.chainId, port, channel);
  if (!to || !a.packet_sequence) return undefined;
  const { denom, amount, receiver, ics20 } = packetData(a);
  const hop: IbcHop = {
    kind: 'ibc',
    fromChainId: tx.chainId,
    toChainId: to,
    srcPort: port,
    srcChannel: channel,
    dstPort: a.packet_dst_port ?? '',
    dstChannel: a.packet_dst_channel ?? '',
    sequence: a.packet_sequence,
    timeoutTimestamp: a.packet_timeout_timestamp ?? '0',
    denom,
    amount,
    ...(receiver ? { receiver } : {}),
    state: 'TRANSFER_PENDING',
    sendTx: r.txRef(tx.chainId, tx.hash, tx.time),
  };
  if (ics20)
    Object.assign(
      hop,
      ics20Denoms(denom, { srcPort: port, srcChannel: channel, dstPort: hop.dstPort, dstChannel: hop.dstChannel }),
    );
  return hop;
}

/** The receiver at the end of a packet's forwards (PFM memo: `forward.receiver`, `forward.next` nested). */
function finalReceiver(receiver: string | undefined, memo: unknown): string | undefined {
  let m: unknown = memo;
  let out = receiver;
  for (let depth = 0; depth < 8; depth++) {
    if (typeof m === 'string') {
      if (!m.startsWith('{')) break;
      try {
        m = JSON.parse(m);
      } catch {
        break;
      }
    }
    const forward = (m as { forward?: { receiver?: unknown; next?: unknown } } | null)?.forward;
    if (!forward || typeof forward !== 'object') break;
    if (typeof forward.receiver === 'string' && forward.receiver !== '') out = forward.receiver;
    m = forward.next;
  }
  return out;
}

/**
 * The sender and final receiver of the transfer a source tx starts, from its first bridge event (IBC send_packet,
 * OPinit deposit or withdrawal, LayerZero OFTSent: the receiver of an OFT send is not in the source tx). Empty when
 * the tx starts no transfer.
 */
export function transferParties(tx: ChainTx): TransferParties {
  for (const ev of tx.events) {
    const a = attrs(ev);
    if (ev.type === 'send_packet') {
      try {
        const data = JSON.parse(a.packet_data_hex ? hexToUtf8(a.packet_data_hex) : (a.packet_data ?? '{}')) as {
          sender?: unknown;
          receiver?: unknown;
          memo?: unknown;
        };
        const sender = typeof data.sender === 'string' ? data.sender : undefined;
        const receiver = finalReceiver(typeof data.receiver === 'string' ? data.receiver : undefined, data.memo);
        return { ...(sender ? { sender } : {}), ...(receiver ? { receiver } : {}) };
      } catch {
        continue;
      }
    }
    if (ev.type === 'initiate_token_deposit' || ev.type === 'initiate_token_withdrawal')
      return { ...(a.from ? { sender: a.from } : {}), ...(a.to ? { receiver: a.to } : {}) };
  }
  for (const l of tx.evmLogs ?? []) {
    if ((l.topics[0] ?? '').toLowerCase() !== LZ_TOPICS.OFTSent) continue;
    const sender = topicAddress(l.topics[2]);
    return sender ? { sender } : {};
  }
  return {};
}

/** The withdrawal an `initiate_token_withdrawal` event of `tx` starts (the bridge from the registry: L2 → its L1). */
function withdrawalHopFrom(a: Record<string, string>, tx: ChainTx, r: Resolver): OpWithdrawalHop | undefined {
  const l1 = r.l1Of(tx.chainId);
  if (!l1 || !a.l2_sequence) return undefined;
  return {
    kind: 'op_withdrawal',
    fromChainId: tx.chainId,
    toChainId: l1.l1ChainId,
    bridgeId: l1.bridgeId,
    l2Sequence: a.l2_sequence,
    denom: a.denom ?? '',
    baseDenom: a.base_denom ?? '',
    amount: a.amount ?? '',
    state: 'OPINIT_TRANSFER_SENT',
    sendTx: r.txRef(tx.chainId, tx.hash, tx.time),
    l2Height: tx.height,
  };
}

/**
 * The hops a (successful) source tx starts, in message order. Unknown events are ignored; a bridge event that
 * starts a transfer this deployment cannot follow (a channel or bridge its registry does not know) is named in
 * `unfollowed`.
 */
export function deriveHops(tx: ChainTx, r: Resolver, unfollowed?: string[]): Hop[] {
  const hops: Hop[] = [];
  const sendTx = r.txRef(tx.chainId, tx.hash, tx.time);
  for (const ev of tx.events) {
    const a = attrs(ev);
    if (ev.type === 'send_packet') {
      const h = ibcHopFromSend(a, tx, r);
      if (h) hops.push(h);
      // A fungible (ICS-20) transfer this deployment cannot follow. Other packets (interchain accounts, queries,
      // NFTs) are no transfer of the tx's: they stay ignored, as every unknown event is.
      else if (packetData(a).ics20)
        unfollowed?.push(`send_packet on ${a.packet_src_port ?? '?'}/${a.packet_src_channel ?? '?'}`);
    } else if (ev.type === 'initiate_token_deposit') {
      const to = r.l2ByBridgeId(a.bridge_id ?? '');
      if (!to || !a.l1_sequence) {
        unfollowed?.push(`initiate_token_deposit on bridge ${a.bridge_id ?? '?'}`);
        continue;
      }
      const h: OpDepositHop = {
        kind: 'op_deposit',
        fromChainId: tx.chainId,
        toChainId: to,
        bridgeId: a.bridge_id ?? '',
        l1Sequence: a.l1_sequence,
        l1Denom: a.l1_denom ?? '',
        l2Denom: a.l2_denom ?? '',
        amount: a.amount ?? '',
        state: 'OPINIT_TRANSFER_SENT',
        sendTx,
      };
      hops.push(h);
    } else if (ev.type === 'initiate_token_withdrawal') {
      const h = withdrawalHopFrom(a, tx, r);
      if (!h) {
        unfollowed?.push(`initiate_token_withdrawal on bridge ${a.bridge_id ?? '?'}`);
        continue;
      }
      hops.push(h);
    }
  }
  for (const h of lzSends(tx.evmLogs ?? [], tx, r)) hops.push(h);
  return hops;
}

// ---- IBC transitions ----

/** recv_packet seen on the destination in `tx`: RECEIVED, plus the ack if written in the same tx and the PFM forwards. */
export function ibcReceived(hop: IbcHop, tx: ChainTx, r: Resolver): { hop: IbcHop; forwards: Hop[] } {
  let next: IbcHop = hop.state === 'TRANSFER_PENDING' ? { ...hop, state: 'TRANSFER_RECEIVED' } : { ...hop };
  next.receiveTx = r.txRef(tx.chainId, tx.hash, tx.time);
  const ack = eventsOf(tx, 'write_acknowledgement').find((a) => samePacket(a, hop));
  if (ack) next = ibcAckWritten(next, ack);
  // Packet forwarding: the next hop's send_packet is emitted by the same message as this recv_packet. A relayer
  // puts many MsgRecvPacket in one tx, so only the send_packet of this packet's message (its `msg_index`) is ours.
  const msgIndex = eventsOf(tx, 'recv_packet').find((a) => samePacket(a, hop))?.msg_index;
  const forwards = eventsOf(tx, 'send_packet')
    .filter((a) => msgIndex === undefined || a.msg_index === undefined || a.msg_index === msgIndex)
    .map((a) => ibcHopFromSend(a, tx, r))
    .filter((h): h is IbcHop => !!h);
  next.forwardsDerived = true;
  return { hop: next, forwards };
}

/** write_acknowledgement for this packet on the destination (same tx as recv, or later for async PFM acks). */
export function ibcAckWritten(hop: IbcHop, a: Record<string, string>): IbcHop {
  const ack = parseAck(a);
  const next: IbcHop = { ...hop, ack };
  if (!ack.success) next.error = { type: 'PACKET_ERROR_ACKNOWLEDGEMENT', message: ack.message };
  if (next.acknowledgeTx) next.state = ack.success ? 'TRANSFER_SUCCESS' : 'TRANSFER_FAILURE';
  else if (!ack.success) next.state = 'TRANSFER_FAILURE';
  return next;
}

/** acknowledge_packet on the source: the ack (success or error) has been relayed back. */
export function ibcAcknowledged(hop: IbcHop, tx: ChainTx, r: Resolver): IbcHop {
  const next: IbcHop = { ...hop, acknowledgeTx: r.txRef(tx.chainId, tx.hash, tx.time) };
  // Without the destination's ack bytes the outcome is unknown yet; the activity fetches write_acknowledgement first.
  if (hop.ack) next.state = hop.ack.success ? 'TRANSFER_SUCCESS' : 'TRANSFER_FAILURE';
  return next;
}

/** timeout_packet on the source: never received in time, funds refunded. */
export function ibcTimedOut(hop: IbcHop, tx: ChainTx, r: Resolver): IbcHop {
  // Packet forwarding retries a forwarded packet that timed out (its `retries`; our own routes ask for 2): the
  // timeout tx on the middle chain sends the same data again on the same channel, with a new sequence. The hop goes
  // on as that packet; the transfer has not failed (the first hop's acknowledgement waits for the retry's outcome).
  const retry = eventsOf(tx, 'send_packet').find((a) => {
    if (a.packet_src_port !== hop.srcPort || a.packet_src_channel !== hop.srcChannel) return false;
    if (!a.packet_sequence || a.packet_sequence === hop.sequence) return false;
    const d = packetData(a);
    return d.denom === hop.denom && d.amount === hop.amount && (hop.receiver ?? '') === d.receiver && d.denom !== '';
  });
  if (retry) {
    const { timeoutTx: _t, error: _e, ...rest } = hop;
    return {
      ...rest,
      sequence: retry.packet_sequence!,
      timeoutTimestamp: retry.packet_timeout_timestamp ?? '0',
      sendTx: r.txRef(tx.chainId, tx.hash, tx.time),
      state: 'TRANSFER_PENDING',
      retries: (hop.retries ?? 0) + 1,
    };
  }
  return {
    ...hop,
    state: 'TRANSFER_FAILURE',
    timeoutTx: r.txRef(tx.chainId, tx.hash, tx.time),
    error: { type: 'PACKET_ERROR_TIMEOUT', message: 'packet timed out' },
  };
}

export function findPacketEvent(tx: ChainTx, type: string, hop: IbcHop): Record<string, string> | undefined {
  return eventsOf(tx, type).find((a) => samePacket(a, hop));
}

// ---- OPinit transitions ----

export function depositFinalized(hop: OpDepositHop, tx: ChainTx, r: Resolver): OpDepositHop | undefined {
  const a = eventsOf(tx, 'finalize_token_deposit').find((e) => e.l1_sequence === hop.l1Sequence);
  if (!a) return undefined;
  const { waitReason: _relayed, ...rest } = hop;
  const next: OpDepositHop = {
    ...rest,
    state: 'OPINIT_TRANSFER_RECEIVED',
    receiveTx: r.txRef(tx.chainId, tx.hash, tx.time),
  };
  next.success = a.success !== 'false';
  if (a.reason) next.reason = a.reason;
  return next;
}

/**
 * The refund a failed deposit starts: opchild answers a deposit it cannot finalize (not a hook failure: then the
 * funds are minted on L2) with a withdrawal back to the L1 sender, in the same message. That withdrawal must still be
 * claimed on L1 after its output's finalization period, so it is followed as a hop of its own.
 */
export function depositRefunds(hop: OpDepositHop, tx: ChainTx, r: Resolver): OpWithdrawalHop[] {
  const fin = eventsOf(tx, 'finalize_token_deposit').find((e) => e.l1_sequence === hop.l1Sequence);
  if (fin?.success !== 'false' || (fin.reason ?? '').startsWith('hook failed')) return [];
  return eventsOf(tx, 'initiate_token_withdrawal')
    .filter((a) => fin.msg_index === undefined || a.msg_index === undefined || a.msg_index === fin.msg_index)
    .filter((a) => a.amount === hop.amount && (a.to === undefined || !fin.sender || a.to === fin.sender))
    .map((a) => withdrawalHopFrom(a, tx, r))
    .filter((h): h is OpWithdrawalHop => !!h);
}

export function withdrawalFinalized(hop: OpWithdrawalHop, tx: ChainTx, r: Resolver): OpWithdrawalHop | undefined {
  const a = eventsOf(tx, 'finalize_token_withdrawal').find(
    (e) => e.bridge_id === hop.bridgeId && e.l2_sequence === hop.l2Sequence,
  );
  if (!a) return undefined;
  const { waitReason: _claimed, ...rest } = hop;
  return { ...rest, state: 'OPINIT_TRANSFER_RECEIVED', receiveTx: r.txRef(tx.chainId, tx.hash, tx.time) };
}

/**
 * The `propose_output` events in `txs` of this withdrawal's bridge that could cover it (`l2_block_number` ≥ the
 * withdrawal's L2 height), lowest output index first. Only candidates: an output may since have been deleted and
 * its index reused, so the caller keeps the first one L1 still holds (`sameOutput`).
 */
export function coveringCandidates(hop: OpWithdrawalHop, txs: ChainTx[]): Omit<CoveringOutput, 'l1BlockTime'>[] {
  return txs
    .flatMap((tx) => eventsOf(tx, 'propose_output'))
    .filter((a) => a.bridge_id === hop.bridgeId && Number(a.l2_block_number) >= (hop.l2Height ?? 0))
    .map((a) => ({
      index: a.output_index ?? '',
      l2BlockNumber: Number(a.l2_block_number),
      outputRoot: (a.output_root ?? '').toLowerCase(),
    }))
    .filter((o) => /^\d+$/.test(o.index))
    .sort((x, y) => Number(x.index) - Number(y.index));
}

/**
 * L1's proposal at an index (REST `output_proposal`) is still the one the event announced. The event prints the
 * output root in hex, REST in base64 (test/fixtures/opinit-devnet/).
 */
export function sameOutput(
  o: Pick<CoveringOutput, 'l2BlockNumber' | 'outputRoot'>,
  live: { l2_block_number?: string; output_root?: string } | undefined,
): boolean {
  if (!live?.output_root || Number(live.l2_block_number) !== o.l2BlockNumber) return false;
  return base64ToHex(live.output_root) === o.outputRoot;
}

function base64ToHex(b64: string): string {
  let hex = '';
  try {
    for (const c of atob(b64)) hex += c.charCodeAt(0).toString(16).padStart(2, '0');
  } catch {
    return ''; // not base64: matches no event
  }
  return hex;
}

/** The hop with its executor wait reason set to `reason` (removed when undefined). */
export function withWaitReason<H extends OpDepositHop | OpWithdrawalHop>(
  hop: H,
  reason: ExecutorWaitReason | undefined,
): H {
  const { waitReason: _old, ...rest } = hop;
  return (reason ? { ...rest, waitReason: reason } : rest) as H;
}

// ---- LayerZero v2 (EVM logs; keccak topic hashes of the LayerZero-v2 event signatures) ----

export const LZ_TOPICS = {
  /** OFTSent(bytes32 indexed guid, uint32 dstEid, address indexed fromAddress, uint256 amountSentLD, uint256 amountReceivedLD) */
  OFTSent: '0x85496b760a4b7f8d66384b9df21b381f5d1b1e79f229a47aaf4c232edc2fe59a',
  /** OFTReceived(bytes32 indexed guid, uint32 srcEid, address indexed toAddress, uint256 amountReceivedLD) */
  OFTReceived: '0xefed6d3500546b29533b128a29e3a94d70788727f0507505ac12eaf2e578fd9c',
  /** PacketSent(bytes encodedPayload, bytes options, address sendLibrary) */
  PacketSent: '0x1ab700d4ced0c005b164c0f789fd09fcbb0156d4c2041b8a3bfbcd961cd1567f',
  /** PacketDelivered((uint32,bytes32,uint64) origin, address receiver) */
  PacketDelivered: '0x3cd5e48f9730b129dc7550f0fcea9c767b7be37837cd10e55eb35f734f4bca04',
  /** LzReceiveAlert(address indexed receiver, address indexed executor, Origin origin, bytes32 guid, uint256 gas, uint256 value, bytes message, bytes extraData, bytes reason) */
  LzReceiveAlert: '0x7edfa10fe10193301ad8a8bea7e968c7bcabcc64981f368e3aeada40ce26ae2c',
} as const;

/** 32-byte ABI words of a log's data. */
export function abiWords(data: string): string[] {
  const hex = data.startsWith('0x') ? data.slice(2) : data;
  const out: string[] = [];
  for (let i = 0; i + 64 <= hex.length; i += 64) out.push(hex.slice(i, i + 64));
  return out;
}
const wordBig = (w: string | undefined) => (w ? BigInt(`0x${w}`) : 0n);

/** Dynamic `bytes` argument at head position `slot` of an ABI-encoded data blob, as utf8 text (revert reasons). */
export function abiBytesAt(data: string, slot: number): string {
  const words = abiWords(data);
  const offset = Number(wordBig(words[slot])) / 32;
  const len = Number(wordBig(words[offset]));
  const hex = words
    .slice(offset + 1)
    .join('')
    .slice(0, len * 2);
  return hexToUtf8(hex);
}

function lzSends(logs: EvmLog[], tx: ChainTx, r: Resolver): LzHop[] {
  const out: LzHop[] = [];
  const srcEid = r.lzEidOf(tx.chainId) ?? 0;
  for (const l of logs) {
    if ((l.topics[0] ?? '').toLowerCase() !== LZ_TOPICS.OFTSent) continue;
    const w = abiWords(l.data);
    const dstEid = Number(wordBig(w[0]));
    const to = r.chainByLzEid(dstEid);
    if (!to || !l.topics[1]) continue;
    out.push({
      kind: 'layer_zero',
      fromChainId: tx.chainId,
      toChainId: to,
      guid: l.topics[1].toLowerCase(),
      srcEid,
      dstEid,
      amountSent: wordBig(w[1]).toString(),
      amountReceived: wordBig(w[2]).toString(),
      state: 'LAYER_ZERO_TRANSFER_SENT',
      sendTx: r.txRef(tx.chainId, tx.hash, tx.time),
    });
  }
  return out;
}

/** Destination-side evidence for a LayerZero hop in one tx: OFTReceived (delivered) or LzReceiveAlert (reverted). */
export function lzDestination(hop: LzHop, tx: ChainTx, r: Resolver): LzHop | undefined {
  const ref = r.txRef(tx.chainId, tx.hash, tx.time);
  for (const l of tx.evmLogs ?? []) {
    const t0 = (l.topics[0] ?? '').toLowerCase();
    if (t0 === LZ_TOPICS.OFTReceived && (l.topics[1] ?? '').toLowerCase() === hop.guid) {
      const next: LzHop = { ...hop, state: 'LAYER_ZERO_TRANSFER_RECEIVED', receiveTx: ref };
      delete next.errorMessage;
      return next;
    }
    if (t0 === LZ_TOPICS.LzReceiveAlert) {
      // Non-indexed layout: origin (3 static words), guid (word 3), gas, value, message, extraData, reason.
      const w = abiWords(l.data);
      if (`0x${w[3] ?? ''}` !== hop.guid) continue;
      return {
        ...hop,
        state: 'LAYER_ZERO_TRANSFER_FAILED',
        errorTx: ref,
        errorMessage: abiBytesAt(l.data, 8) || 'lzReceive reverted',
      };
    }
  }
  return undefined;
}
