// Pure hop state machines against the recorded real Initia txs (devnet/recorded/initia-tx-decoder, SOURCES.md).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  deriveHops,
  depositFinalized,
  ibcAckWritten,
  ibcAcknowledged,
  ibcReceived,
  ibcTimedOut,
  parseAck,
  findPacketEvent,
  type Resolver,
} from '../../workflows/evidence.js';
import type { ChainTx, IbcHop, OpDepositHop } from '../../workflows/model.js';

const fx = (file: string, name: string) => {
  const all = JSON.parse(
    readFileSync(path.join(__dirname, '../../devnet/recorded/initia-tx-decoder', file), 'utf8'),
  ) as Record<string, any>;
  return all[name];
};
const asTx = (chainId: string, r: any): ChainTx => ({
  chainId,
  hash: r.txhash,
  height: Number(r.height),
  time: r.timestamp,
  code: r.code,
  events: r.events,
});

// Registry facts of the recorded chains (config/registry/README.md): L1 channel-29 ↔ moo-1 channel-0; bridge 30 = rena-nuwa-1.
const resolver: Resolver = {
  ibcCounterparty: (c, _p, ch) =>
    c === 'interwoven-1' && ch === 'channel-29'
      ? 'moo-1'
      : c === 'moo-1' && ch === 'channel-0'
        ? 'interwoven-1'
        : undefined,
  l2ByBridgeId: (b) => (b === '30' ? 'rena-nuwa-1' : undefined),
  l1Of: (c) => (c === 'yominet-1' ? { l1ChainId: 'interwoven-1', bridgeId: '11' } : undefined),
  chainByLzEid: () => undefined,
  lzEidOf: () => undefined,
  txRef: (chainId, txHash, onChainAt) => ({
    chainId,
    txHash,
    explorerLink: `https://scan/${chainId}/txs/${txHash}`,
    ...(onChainAt ? { onChainAt } : {}),
  }),
};

const send = asTx('interwoven-1', fx('protocols/ibc/move/send-ft-move.json', 'mockFtSendMoveTransaction'));
const recv = asTx('moo-1', fx('protocols/ibc/move/receive-ft-move.json', 'mockFtReceiveMoveTransaction'));

it('names the recorded send_packet as unfollowed when the registry does not know its channel, and derives no hop', () => {
  const unknown: Resolver = { ...resolver, ibcCounterparty: () => undefined };
  const unfollowed: string[] = [];
  expect(deriveHops(send, unknown, unfollowed)).toEqual([]);
  expect(unfollowed).toEqual(['send_packet on transfer/channel-29']);
  // Known: a hop, nothing unfollowed.
  const none: string[] = [];
  expect(deriveHops(send, resolver, none)).toHaveLength(1);
  expect(none).toEqual([]);
  // A packet that is no fungible transfer (an interchain account's, here) is no transfer of the tx's to follow.
  const ica: ChainTx = {
    ...send,
    events: send.events.map((e) =>
      e.type !== 'send_packet'
        ? e
        : {
            ...e,
            attributes: e.attributes
              .filter((x) => x.key !== 'packet_data_hex')
              .map((x) =>
                x.key === 'packet_data'
                  ? { ...x, value: JSON.stringify({ type: 'TYPE_EXECUTE_TX', data: 'CgA=' }) }
                  : x,
              ),
          },
    ),
  };
  const icaMisses: string[] = [];
  expect(deriveHops(ica, unknown, icaMisses)).toEqual([]);
  expect(icaMisses).toEqual([]);
});

it('a forwarded packet that timed out and was sent again by packet forwarding (same data, new sequence) goes on as the retry', () => {
  const [hop] = deriveHops(send, resolver) as IbcHop[];
  const sent = send.events.find((e) => e.type === 'send_packet')!;
  const again = (seq: string, data?: (d: Record<string, unknown>) => Record<string, unknown>) => ({
    type: 'send_packet',
    attributes: sent.attributes.map((x) => {
      if (x.key === 'packet_sequence') return { ...x, value: seq };
      if (x.key === 'packet_data' && data) return { ...x, value: JSON.stringify(data(JSON.parse(x.value))) };
      if (x.key === 'packet_data_hex' && data)
        return {
          ...x,
          value: Buffer.from(JSON.stringify(data(JSON.parse(Buffer.from(x.value, 'hex').toString())))).toString('hex'),
        };
      return x;
    }),
  });
  const timeout = {
    type: 'timeout_packet',
    attributes: sent.attributes.filter((x) => x.key.startsWith('packet_') && !x.key.startsWith('packet_data')),
  };
  const tx = (events: ChainTx['events']): ChainTx => ({ ...send, hash: 'T'.repeat(64), events });
  // PFM's retry in the timeout tx: the same data on the same channel, a new sequence.
  const retried = ibcTimedOut(hop!, tx([timeout, again('2899')]), resolver);
  expect(retried).toMatchObject({ state: 'TRANSFER_PENDING', sequence: '2899', retries: 1 });
  expect(retried.sendTx.txHash).toBe('T'.repeat(64));
  expect(retried.timeoutTx).toBeUndefined();
  // Another transfer's packet in the same relayer tx (other data) is no retry of this one: it timed out.
  const other = ibcTimedOut(hop!, tx([timeout, again('2900', (d) => ({ ...d, amount: '1' }))]), resolver);
  expect(other).toMatchObject({ state: 'TRANSFER_FAILURE', sequence: '2898', error: { type: 'PACKET_ERROR_TIMEOUT' } });
  expect(ibcTimedOut(hop!, tx([timeout]), resolver).state).toBe('TRANSFER_FAILURE');
});

describe('IBC hop from the recorded matched pair (sequence 2898, channel-29 → moo-1 channel-0)', () => {
  const [hop] = deriveHops(send, resolver) as IbcHop[];
  it('derives one TRANSFER_PENDING hop with the join key from send_packet', () => {
    expect(hop).toMatchObject({
      kind: 'ibc',
      fromChainId: 'interwoven-1',
      toChainId: 'moo-1',
      srcPort: 'transfer',
      srcChannel: 'channel-29',
      dstChannel: 'channel-0',
      sequence: '2898',
      timeoutTimestamp: '1751257396110677500',
      denom: 'uinit',
      amount: '200000',
      state: 'TRANSFER_PENDING',
    });
    expect(hop!.sendTx.txHash).toBe(send.hash);
  });
  it('recv_packet + wrapped success ack on moo-1 → RECEIVED with a successful ack, no forwards', () => {
    const { hop: next, forwards } = ibcReceived(hop!, recv, resolver);
    expect(next.state).toBe('TRANSFER_RECEIVED');
    expect(next.ack).toEqual({ success: true });
    expect(next.receiveTx?.txHash).toBe(recv.hash);
    expect(forwards).toEqual([]);
    const acked = ibcAcknowledged(next, { ...send, hash: 'ACK', events: [] }, resolver);
    expect(acked.state).toBe('TRANSFER_SUCCESS');
  });
  it('ignores a recv of another packet', () => {
    expect(findPacketEvent(recv, 'recv_packet', { ...hop!, sequence: '2899' })).toBeUndefined();
    expect(findPacketEvent(recv, 'recv_packet', hop!)).toBeDefined();
  });
  it("ignores a recv of another source's packet with the same source channel and sequence", () => {
    // Every rollup's channel to L1 tends to be channel-0: on L1, (transfer, channel-0, sequence) is not one packet.
    // The recorded recv arrived on moo-1's channel-0; the same packet key into another channel is another packet.
    expect(findPacketEvent(recv, 'recv_packet', { ...hop!, dstChannel: 'channel-7' })).toBeUndefined();
    expect(findPacketEvent(recv, 'write_acknowledgement', { ...hop!, dstChannel: 'channel-7' })).toBeUndefined();
    expect(ibcReceived({ ...hop!, dstChannel: 'channel-7' }, recv, resolver).hop.ack).toBeUndefined();
  });
  it("takes as forwards only the send_packet of its own message, not another packet's in the same relayer tx", () => {
    // A relayer tx with two MsgRecvPacket: the recorded one (msg_index 0 here) and another packet (msg_index 1)
    // that a PFM chain forwarded onwards; that forward's send_packet is the other packet's, not ours.
    const at = (e: ChainTx['events'][number], msgIndex: string) => ({
      ...e,
      attributes: [...e.attributes.filter((a) => a.key !== 'msg_index'), { key: 'msg_index', value: msgIndex }],
    });
    const ours = recv.events.map((e) => at(e, '0'));
    const other = recv.events
      .filter((e) => e.type === 'recv_packet')
      .map((e) => ({
        ...at(e, '1'),
        attributes: at(e, '1').attributes.map((a) => (a.key === 'packet_sequence' ? { ...a, value: '77' } : a)),
      }));
    const forward = {
      type: 'send_packet',
      attributes: [
        { key: 'packet_src_port', value: 'transfer' },
        { key: 'packet_src_channel', value: 'channel-0' },
        { key: 'packet_dst_port', value: 'transfer' },
        { key: 'packet_dst_channel', value: 'channel-29' },
        { key: 'packet_sequence', value: '5' },
        { key: 'packet_data', value: '{"denom":"uinit","amount":"1"}' },
        { key: 'msg_index', value: '1' },
      ],
    };
    const relayed = { ...recv, events: [...ours, ...other, forward] };
    expect(ibcReceived(hop!, relayed, resolver).forwards).toEqual([]);
    // The same send_packet under our message is our forward.
    const ownForward = {
      ...forward,
      attributes: forward.attributes.map((a) => (a.key === 'msg_index' ? { ...a, value: '0' } : a)),
    };
    expect(ibcReceived(hop!, { ...recv, events: [...ours, ownForward] }, resolver).forwards).toHaveLength(1);
  });
  it('error acknowledgement → TRANSFER_FAILURE with PACKET_ERROR_ACKNOWLEDGEMENT, then settled by acknowledge_packet', () => {
    const wrapped = JSON.stringify({
      app_acknowledgement: Buffer.from('{"error":"ABCI code: 6"}').toString('base64'),
      forward_relayer_address: '',
      underlying_app_success: false,
    });
    const failed = ibcAckWritten(
      { ...hop!, state: 'TRANSFER_RECEIVED' },
      { packet_ack_hex: Buffer.from(wrapped).toString('hex') },
    );
    expect(failed.state).toBe('TRANSFER_FAILURE');
    expect(failed.error).toEqual({ type: 'PACKET_ERROR_ACKNOWLEDGEMENT', message: 'ABCI code: 6' });
    expect(ibcAcknowledged(failed, { ...send, hash: 'ACK' }, resolver).acknowledgeTx?.txHash).toBe('ACK');
  });
  it('timeout_packet → TRANSFER_FAILURE with PACKET_ERROR_TIMEOUT', () => {
    const t = ibcTimedOut(hop!, { ...send, hash: 'TIMEOUT' }, resolver);
    expect(t.state).toBe('TRANSFER_FAILURE');
    expect(t.error?.type).toBe('PACKET_ERROR_TIMEOUT');
    expect(t.timeoutTx?.txHash).toBe('TIMEOUT');
  });
});

describe('acknowledgement forms (docs/tracking.md)', () => {
  const hex = (s: string) => Buffer.from(s).toString('hex');
  it('recorded Initia wrapper', () => {
    const w = recv.events.find((e) => e.type === 'write_acknowledgement')!;
    const a = Object.fromEntries(w.attributes.map((x) => [x.key, x.value]));
    expect(parseAck(a)).toEqual({ success: true });
  });
  it('plain ICS-20 and ICS-721 success, plain error, garbage', () => {
    expect(parseAck({ packet_ack_hex: hex('{"result":"AQ=="}') })).toEqual({ success: true });
    expect(parseAck({ packet_ack_hex: hex('{"result":"MQ=="}') })).toEqual({ success: true });
    expect(parseAck({ packet_ack: '{"error":"insufficient funds"}' })).toEqual({
      success: false,
      message: 'insufficient funds',
    });
    expect(parseAck({ packet_ack: 'not json' }).success).toBe(false);
  });
});

describe('OPinit deposit from the recorded txs', () => {
  const dep = asTx('interwoven-1', fx('protocols/op-init/initiate-token-deposit.json', 'mockMsgInitiateTokenDeposit'));
  const [hop] = deriveHops(dep, resolver) as OpDepositHop[];
  it('initiate_token_deposit → OPINIT_TRANSFER_SENT to the bridge-30 L2', () => {
    expect(hop).toMatchObject({
      kind: 'op_deposit',
      toChainId: 'rena-nuwa-1',
      bridgeId: '30',
      l1Sequence: '2009',
      amount: '360000000',
      state: 'OPINIT_TRANSFER_SENT',
    });
  });
  it('finalize_token_deposit success and hook failure, joined on l1_sequence', () => {
    const ok = asTx('l2', fx('protocols/op-init/finalize-token-deposit.json', 'mockMsgFinalizeTokenDepositSuccess'));
    const bad = asTx('l2', fx('protocols/op-init/finalize-token-deposit.json', 'mockMsgFinalizeTokenDepositError'));
    expect(depositFinalized(hop!, ok, resolver)).toBeUndefined(); // sequence 217 ≠ 2009
    const s = depositFinalized({ ...hop!, l1Sequence: '217' }, ok, resolver)!;
    expect(s).toMatchObject({ state: 'OPINIT_TRANSFER_RECEIVED', success: true });
    const f = depositFinalized({ ...hop!, l1Sequence: '211' }, bad, resolver)!;
    expect(f.state).toBe('OPINIT_TRANSFER_RECEIVED');
    expect(f.success).toBe(false);
    expect(f.reason).toMatch(/^hook failed; Failed to run AnteHandler: account sequence mismatch/);
  });
});

describe('OPinit withdrawal and failed tx from the recorded txs', () => {
  it('initiate_token_withdrawal on yominet-1 → hop to L1 with l2_sequence 12, bridge from the registry', () => {
    const w = asTx('yominet-1', fx('protocols/op-init/initiate-token-withdrawal.json', 'mockInitiateTokenWithdrawal'));
    expect(deriveHops(w, resolver)).toMatchObject([
      {
        kind: 'op_withdrawal',
        fromChainId: 'yominet-1',
        toChainId: 'interwoven-1',
        bridgeId: '11',
        l2Sequence: '12',
        amount: '100000',
      },
    ]);
  });
  it('a tx without bridge events starts no hop', () => {
    const f = asTx('interwoven-1', fx('common/failed.json', 'mockMsgFailed'));
    expect(deriveHops(f, resolver)).toEqual([]);
  });
});
