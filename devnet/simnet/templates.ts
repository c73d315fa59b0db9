// Tx builders of the simnet. Every Cosmos tx starts from a recorded real Initia tx (devnet/recorded/
// initia-tx-decoder, see SOURCES.md) and changes only sequences, channels, addresses, amounts and ack bytes,
// so the events are exactly in the recorded format. Events with no recorded example (acknowledge_packet,
// timeout_packet, finalize_token_withdrawal) reuse the recorded packet attribute set / the documented list.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AbiCoder, zeroPadValue } from 'ethers';
import type { TxInput, TxJson } from '../chain-sim/types.js';
import type { AbciEvent } from '../../chain/events.js';
import { LZ_TOPICS } from '../../workflows/evidence.js';

const fixturesDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../recorded/initia-tx-decoder');

interface RecordedTx {
  txhash: string;
  code: number;
  codespace?: string;
  raw_log?: string;
  gas_wanted: string;
  gas_used: string;
  events: AbciEvent[];
  tx: TxJson;
}

const parsed = new Map<string, Record<string, RecordedTx>>();
/** Parsed once per process; callers never mutate the result (patchEvents copies, txFrom clones the tx). */
function recorded(file: string, exportName: string): RecordedTx {
  let all = parsed.get(file);
  if (!all) {
    all = JSON.parse(readFileSync(path.join(fixturesDir, file), 'utf8')) as Record<string, RecordedTx>;
    parsed.set(file, all);
  }
  const t = all[exportName];
  if (!t) throw new Error(`fixture ${file} has no export ${exportName}`);
  return t;
}

export const RECORDED = {
  ibcSend: () => recorded('protocols/ibc/move/send-ft-move.json', 'mockFtSendMoveTransaction'),
  ibcRecv: () => recorded('protocols/ibc/move/receive-ft-move.json', 'mockFtReceiveMoveTransaction'),
  deposit: () => recorded('protocols/op-init/initiate-token-deposit.json', 'mockMsgInitiateTokenDeposit'),
  finalizeOk: () => recorded('protocols/op-init/finalize-token-deposit.json', 'mockMsgFinalizeTokenDepositSuccess'),
  finalizeHookFail: () => recorded('protocols/op-init/finalize-token-deposit.json', 'mockMsgFinalizeTokenDepositError'),
  withdrawal: () => recorded('protocols/op-init/initiate-token-withdrawal.json', 'mockInitiateTokenWithdrawal'),
  failed: () => recorded('common/failed.json', 'mockMsgFailed'),
};

let uniq = 0;
/** A distinct memo per built tx: the tx hash is sha256 of the raw bytes, so equal bodies would collide. */
const tag = () => `simnet-${process.pid}-${Date.now()}-${++uniq}`;

const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

/** Replace attribute values of every event of `type` (attributes not listed stay as recorded). */
export function patchEvents(events: AbciEvent[], type: string, values: Record<string, string>): AbciEvent[] {
  return events.map((e) =>
    e.type !== type
      ? e
      : { ...e, attributes: e.attributes.map((a) => (a.key in values ? { ...a, value: values[a.key]! } : a)) },
  );
}

function txFrom(
  base: RecordedTx,
  events: AbciEvent[],
  opts: { code?: number; log?: string; messages?: Record<string, unknown>[] } = {},
): TxInput {
  const tx = clone(base.tx);
  tx.body.memo = tag();
  if (opts.messages) tx.body.messages = opts.messages;
  return {
    tx,
    result: {
      code: opts.code ?? base.code,
      log: opts.log ?? base.raw_log ?? '',
      gas_wanted: base.gas_wanted,
      gas_used: base.gas_used,
      events,
      ...(opts.code ? { codespace: base.codespace ?? 'sdk' } : {}),
    },
  };
}

const hex = (s: string) => Buffer.from(s, 'utf8').toString('hex');

export interface Packet {
  sequence: string;
  srcPort: string;
  srcChannel: string;
  dstPort: string;
  dstChannel: string;
  timeoutNs: string;
  /** ICS-20 packet data (amount, denom, receiver, sender, memo). */
  data: Record<string, string>;
}

/**
 * ICS-20 packet data as ibc-go writes it: keys sorted, an empty memo left out (recorded real minievm devnet:
 * `{"amount":"1000","denom":"umin","receiver":"init1…","sender":"init1…"}`, test/fixtures/ibc-devnet).
 */
export function ics20Json(data: Record<string, string>): string {
  const out: Record<string, string> = {};
  for (const k of Object.keys(data).sort()) if (!(k === 'memo' && data[k] === '')) out[k] = data[k]!;
  return JSON.stringify(out);
}

/**
 * Acknowledgement bytes a chain writes. minievm (recorded real devnet, ibc-go v8) writes the plain ICS-04 form
 * `{"result":"AQ=="}` / `{"error":"…"}`; the recorded Initia L1/minimove receive tx carries Initia's wrapper.
 */
export type AckStyle = 'plain' | 'wrapped';
export function ackBytes(style: AckStyle, ok: boolean, error?: string): string {
  if (style === 'wrapped') return wrappedAck(ok, error);
  return ok
    ? '{"result":"AQ=="}'
    : JSON.stringify({ error: error ?? 'ABCI code: 6: error handling packet: see events for details' });
}

function packetAttrs(p: Packet): Record<string, string> {
  const data = ics20Json(p.data);
  return {
    packet_data: data,
    packet_data_hex: hex(data),
    packet_timeout_timestamp: p.timeoutNs,
    packet_sequence: p.sequence,
    packet_src_port: p.srcPort,
    packet_src_channel: p.srcChannel,
    packet_dst_port: p.dstPort,
    packet_dst_channel: p.dstChannel,
  };
}

/** The recorded send_packet + ibc_transfer events with this packet. */
export function sendPacketEvents(p: Packet): AbciEvent[] {
  let ev = patchEvents(RECORDED.ibcSend().events, 'send_packet', packetAttrs(p));
  ev = patchEvents(ev, 'ibc_transfer', {
    amount: p.data.amount ?? '',
    denom: p.data.denom ?? '',
    memo: p.data.memo ?? '',
  });
  return ev;
}

export function ibcSendTx(p: Packet): TxInput {
  return txFrom(RECORDED.ibcSend(), sendPacketEvents(p));
}

/** Initia's wrapped acknowledgement, as written by every real Initia receive tx. */
export function wrappedAck(ok: boolean, error = 'ABCI code: 6: error handling packet: see events for details'): string {
  const app = ok ? '{"result":"AQ=="}' : JSON.stringify({ error });
  return JSON.stringify({
    app_acknowledgement: Buffer.from(app).toString('base64'),
    forward_relayer_address: '',
    underlying_app_success: ok,
  });
}

/**
 * Relayer MsgUpdateClient + MsgRecvPacket on the destination. `ack` undefined = async acknowledgement
 * (packet forwarding): no write_acknowledgement in this tx; `forwards` are the PFM send_packet events.
 */
export function ibcRecvTx(
  p: Packet,
  ack: { ok: boolean; error?: string } | undefined,
  forwards: Packet[] = [],
  style: AckStyle = 'wrapped',
): TxInput {
  const base = RECORDED.ibcRecv();
  let ev = patchEvents(base.events, 'recv_packet', packetAttrs(p));
  ev = patchEvents(ev, 'fungible_token_packet', {
    amount: p.data.amount ?? '',
    denom: p.data.denom ?? '',
    sender: p.data.sender ?? '',
    receiver: p.data.receiver ?? '',
    memo: p.data.memo ?? '',
    success: String(ack?.ok ?? true),
  });
  if (ack) {
    const a = ackBytes(style, ack.ok, ack.error);
    ev = patchEvents(ev, 'write_acknowledgement', { ...packetAttrs(p), packet_ack: a, packet_ack_hex: hex(a) });
  } else {
    ev = ev.filter((e) => e.type !== 'write_acknowledgement');
  }
  for (const f of forwards)
    ev = ev.concat(
      sendPacketEvents(f)
        .filter((e) => e.type === 'send_packet')
        .map((e) => withMsgIndex(e, '1')),
    );
  return txFrom(base, ev);
}

function withMsgIndex(e: AbciEvent, idx: string): AbciEvent {
  return { ...e, attributes: e.attributes.map((a) => (a.key === 'msg_index' ? { ...a, value: idx } : a)) };
}

/** Packet event without the data fields (acknowledge_packet / timeout_packet carry no packet data in ibc-go v8). */
function lifecycleEvent(type: string, p: Packet): AbciEvent {
  const send = sendPacketEvents(p).find((e) => e.type === 'send_packet')!;
  const drop = new Set(['packet_data', 'packet_data_hex']);
  const attributes = send.attributes
    .filter((a) => !drop.has(a.key))
    .map((a) => (a.key === 'msg_index' ? { ...a, value: '1' } : a));
  if (type !== 'timeout_packet') return { type, attributes };
  // ibc-go v8 emits timeout_packet without packet_connection and with connection_id before the ordering
  // (the real minievm devnet's MsgTimeout tx, test/devnet/ibc/transfer.e2e.ts checks it).
  const order = [
    'packet_timeout_height',
    'packet_timeout_timestamp',
    'packet_sequence',
    'packet_src_port',
    'packet_src_channel',
    'packet_dst_port',
    'packet_dst_channel',
    'connection_id',
    'packet_channel_ordering',
    'msg_index',
  ];
  const byKey = new Map(attributes.map((a) => [a.key, a]));
  return { type, attributes: order.flatMap((k) => (byKey.has(k) ? [byKey.get(k)!] : [])) };
}

const attr = (key: string, value: string) => ({ key, value, index: true });

/**
 * The ICS-20 module's events on the source when the ack (or timeout) arrives, as ibc-go v8 emits them
 * (recorded real minievm devnet ack tx: fungible_token_packet {module, sender, receiver, denom, amount, memo,
 * acknowledgement = the ack's proto text form} then fungible_token_packet {success = the result bytes} or
 * {error}; a timeout emits `timeout` {module, refund_receiver, refund_denom, refund_amount, memo}).
 */
export function transferSettleEvents(
  p: Packet,
  kind: 'acknowledge_packet' | 'timeout_packet',
  ack: { ok: boolean; error?: string },
): AbciEvent[] {
  const d = p.data;
  const idx = attr('msg_index', '1');
  if (kind === 'timeout_packet')
    return [
      {
        type: 'timeout',
        attributes: [
          attr('module', 'transfer'),
          attr('refund_receiver', d.sender ?? ''),
          attr('refund_denom', d.denom ?? ''),
          attr('refund_amount', d.amount ?? ''),
          attr('memo', d.memo ?? ''),
          idx,
        ],
      },
    ];
  const text = ack.ok ? 'result:"\\001" ' : `error:${JSON.stringify(ack.error ?? '')} `;
  return [
    {
      type: 'fungible_token_packet',
      attributes: [
        attr('module', 'transfer'),
        attr('sender', d.sender ?? ''),
        attr('receiver', d.receiver ?? ''),
        attr('denom', d.denom ?? ''),
        attr('amount', d.amount ?? ''),
        attr('memo', d.memo ?? ''),
        attr('acknowledgement', text),
        idx,
      ],
    },
    {
      type: 'fungible_token_packet',
      attributes: [ack.ok ? attr('success', '\u0001') : attr('error', ack.error ?? ''), idx],
    },
  ];
}

/** Relayer MsgUpdateClient + MsgAcknowledgement (or MsgTimeout) on the packet's source chain. */
export function ibcAckTx(
  p: Packet,
  kind: 'acknowledge_packet' | 'timeout_packet',
  extra: AbciEvent[] = [],
  ack: { ok: boolean; error?: string } = { ok: true },
): TxInput {
  const base = RECORDED.ibcRecv();
  const action =
    kind === 'acknowledge_packet' ? '/ibc.core.channel.v1.MsgAcknowledgement' : '/ibc.core.channel.v1.MsgTimeout';
  const head = base.events.filter(
    (e) =>
      e.type === 'update_client' ||
      (e.type === 'message' && e.attributes.some((a) => a.value === '/ibc.core.client.v1.MsgUpdateClient')),
  );
  const events: AbciEvent[] = [
    ...head,
    {
      type: 'message',
      attributes: [
        { key: 'action', value: action, index: true },
        {
          key: 'sender',
          value: base.events.find((e) => e.type === 'message')?.attributes.find((a) => a.key === 'sender')?.value ?? '',
          index: true,
        },
        { key: 'msg_index', value: '1', index: true },
      ],
    },
    lifecycleEvent(kind, p),
    {
      type: 'message',
      attributes: [
        { key: 'module', value: 'ibc_channel', index: true },
        { key: 'msg_index', value: '1', index: true },
      ],
    },
    ...transferSettleEvents(p, kind, ack),
    ...extra,
  ];
  return txFrom(base, events, { messages: [{ '@type': '/ibc.core.client.v1.MsgUpdateClient' }, { '@type': action }] });
}

/** write_acknowledgement of `p` (an async PFM ack, written on the intermediate chain when the next hop settles). */
export function writeAckEvent(p: Packet, ok: boolean, error?: string, style: AckStyle = 'wrapped'): AbciEvent {
  const recv = RECORDED.ibcRecv().events.find((e) => e.type === 'write_acknowledgement')!;
  const a = ackBytes(style, ok, error);
  return patchEvents([recv], 'write_acknowledgement', { ...packetAttrs(p), packet_ack: a, packet_ack_hex: hex(a) })[0]!;
}

// ---- OPinit ----

export function depositTx(v: {
  bridgeId: string;
  l1Sequence: string;
  amount: string;
  l2Denom: string;
  from: string;
  to: string;
}): TxInput {
  const base = RECORDED.deposit();
  return txFrom(
    base,
    patchEvents(base.events, 'initiate_token_deposit', {
      bridge_id: v.bridgeId,
      l1_sequence: v.l1Sequence,
      amount: v.amount,
      l2_denom: v.l2Denom,
      from: v.from,
      to: v.to,
    }),
  );
}

export function finalizeDepositTx(v: {
  l1Sequence: string;
  amount: string;
  l2Denom: string;
  sender: string;
  recipient: string;
  l1Height: number;
  hookFailure?: string;
  /**
   * The deposit fails (not its hook): opchild finalizes it with success=false and, in the same message, starts a
   * withdrawal of the amount back to the L1 sender (the recorded withdrawal event, patched).
   */
  depositFailure?: { reason: string; refundSequence: string };
}): TxInput {
  const failure = v.hookFailure ?? v.depositFailure?.reason;
  const base = failure ? RECORDED.finalizeHookFail() : RECORDED.finalizeOk();
  const values: Record<string, string> = {
    l1_sequence: v.l1Sequence,
    amount: v.amount,
    denom: v.l2Denom,
    sender: v.sender,
    recipient: v.recipient,
    finalize_height: String(v.l1Height),
  };
  if (failure) values.reason = failure;
  const events = patchEvents(base.events, 'finalize_token_deposit', values);
  if (v.depositFailure) {
    const fin = events.find((e) => e.type === 'finalize_token_deposit');
    const msgIndex = fin?.attributes.find((a) => a.key === 'msg_index')?.value;
    const refund = patchEvents(
      RECORDED.withdrawal().events.filter((e) => e.type === 'initiate_token_withdrawal'),
      'initiate_token_withdrawal',
      {
        l2_sequence: v.depositFailure.refundSequence,
        amount: v.amount,
        denom: v.l2Denom,
        from: v.recipient,
        to: v.sender,
        ...(msgIndex !== undefined ? { msg_index: msgIndex } : {}),
      },
    );
    events.push(...refund);
  }
  return txFrom(base, events);
}

export function withdrawalTx(v: {
  l2Sequence: string;
  amount: string;
  denom: string;
  from: string;
  to: string;
}): TxInput {
  const base = RECORDED.withdrawal();
  return txFrom(
    base,
    patchEvents(base.events, 'initiate_token_withdrawal', {
      l2_sequence: v.l2Sequence,
      amount: v.amount,
      denom: v.denom,
      from: v.from,
      to: v.to,
    }),
  );
}

/**
 * An ophost tx on L1 built on the recorded deposit's envelope: its `tx` events, the `message` event of `typeUrl`
 * sent by `sender`, and one event of `type` with `attributes` in the order given (the chain's order), then
 * `msg_index`. `message` is the tx body's message JSON.
 */
function ophostTx(
  typeUrl: string,
  sender: string,
  type: string,
  attributes: [string, string][],
  message: Record<string, unknown>,
): TxInput {
  const base = RECORDED.deposit();
  const attr = (key: string, value: string) => ({ key, value, index: true });
  const events: AbciEvent[] = [
    ...base.events.filter((e) => e.type === 'tx' || (e.type === 'message' && e.attributes.length === 1)),
    {
      type: 'message',
      attributes: [attr('action', typeUrl), attr('sender', sender), attr('module', 'ophost'), attr('msg_index', '0')],
    },
    { type, attributes: [...attributes.map(([k, v]) => attr(k, v)), attr('msg_index', '0')] },
  ];
  return txFrom(base, events, { messages: [{ '@type': typeUrl, ...message }] });
}

/** The executor's MsgProposeOutput on L1: the `propose_output` event that covers withdrawals up to `l2BlockNumber`. */
export function proposeOutputTx(v: {
  bridgeId: string;
  outputIndex: string;
  /** hex, as the event prints it */
  outputRoot: string;
  l2BlockNumber: string;
  proposer: string;
}): TxInput {
  return ophostTx(
    '/opinit.ophost.v1.MsgProposeOutput',
    v.proposer,
    'propose_output',
    [
      ['proposer', v.proposer],
      ['bridge_id', v.bridgeId],
      ['output_index', v.outputIndex],
      ['l2_block_number', v.l2BlockNumber],
      ['output_root', v.outputRoot],
    ],
    {
      proposer: v.proposer,
      bridge_id: v.bridgeId,
      output_index: v.outputIndex,
      l2_block_number: v.l2BlockNumber,
      output_root: Buffer.from(v.outputRoot, 'hex').toString('base64'),
    },
  );
}

/** User claim MsgFinalizeTokenWithdrawal on L1 (attribute list of docs/tracking.md, step 4). */
export function finalizeWithdrawalTx(v: {
  bridgeId: string;
  outputIndex: string;
  l2Sequence: string;
  from: string;
  to: string;
  l1Denom: string;
  l2Denom: string;
  amount: string;
}): TxInput {
  const sender = v.to;
  return ophostTx(
    '/opinit.ophost.v1.MsgFinalizeTokenWithdrawal',
    sender,
    'finalize_token_withdrawal',
    [
      ['bridge_id', v.bridgeId],
      ['output_index', v.outputIndex],
      ['l2_sequence', v.l2Sequence],
      ['from', v.from],
      ['to', v.to],
      ['l1_denom', v.l1Denom],
      ['l2_denom', v.l2Denom],
      ['amount', v.amount],
    ],
    { sender, bridge_id: v.bridgeId, output_index: v.outputIndex, sequence: v.l2Sequence },
  );
}

export function failedTx(): TxInput {
  const base = RECORDED.failed();
  return txFrom(base, base.events, { code: base.code, log: base.raw_log ?? 'failed' });
}

// ---- LayerZero v2 (EVM logs, ABI-encoded from the LayerZero-v2 event signatures) ----

const abi = AbiCoder.defaultAbiCoder();
const pad32 = (addr: string) => zeroPadValue(addr, 32).toLowerCase();

export interface EvmLogSpec {
  address: string;
  topics: string[];
  data: string;
}

export function lzSendLogs(v: {
  endpoint: string;
  oft: string;
  guid: string;
  dstEid: number;
  from: string;
  amount: bigint;
  nonce: bigint;
  srcEid: number;
}): EvmLogSpec[] {
  const payload = abi.encode(
    ['uint64', 'uint32', 'bytes32', 'uint32', 'bytes32', 'bytes32'],
    [v.nonce, v.srcEid, pad32(v.oft), v.dstEid, pad32(v.oft), v.guid],
  );
  return [
    {
      address: v.endpoint,
      topics: [LZ_TOPICS.PacketSent],
      data: abi.encode(['bytes', 'bytes', 'address'], [payload, '0x0003', v.endpoint]),
    },
    {
      address: v.oft,
      topics: [LZ_TOPICS.OFTSent, v.guid, pad32(v.from)],
      data: abi.encode(['uint32', 'uint256', 'uint256'], [v.dstEid, v.amount, v.amount]),
    },
  ];
}

export function lzDeliverLogs(v: {
  endpoint: string;
  oft: string;
  guid: string;
  srcEid: number;
  sender: string;
  nonce: bigint;
  to: string;
  amount: bigint;
  alert?: string;
}): EvmLogSpec[] {
  const origin = [v.srcEid, pad32(v.sender), v.nonce];
  if (v.alert) {
    return [
      {
        address: v.endpoint,
        topics: [LZ_TOPICS.LzReceiveAlert, pad32(v.oft), pad32(v.endpoint)],
        data: abi.encode(
          ['tuple(uint32,bytes32,uint64)', 'bytes32', 'uint256', 'uint256', 'bytes', 'bytes', 'bytes'],
          [origin, v.guid, 200000n, 0n, '0x', '0x', `0x${hex(v.alert)}`],
        ),
      },
    ];
  }
  return [
    {
      address: v.endpoint,
      topics: [LZ_TOPICS.PacketDelivered],
      data: abi.encode(['tuple(uint32,bytes32,uint64)', 'address'], [origin, v.oft]),
    },
    {
      address: v.oft,
      topics: [LZ_TOPICS.OFTReceived, v.guid, pad32(v.to)],
      data: abi.encode(['uint32', 'uint256'], [v.srcEid, v.amount]),
    },
  ];
}
