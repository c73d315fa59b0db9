// Our simulation against the recorded real answers of a real ICS-20 transfer between two minievm devnets
// relayed by Hermes (test/fixtures/ibc-devnet, SOURCES.md): the simnet's minievm chain must answer tx_search with
// the same envelope, event names, attribute keys (in order), encodings, ICS-20 packet_data JSON and ack format,
// and our pure hop machines must read the real answers to TRANSFER_SUCCESS with the recorded hashes.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIM, Simnet } from '../../devnet/simnet/index.js';
import { deriveHops, ibcAcknowledged, ibcReceived, ics20Denoms, parseAck } from '../../workflows/evidence.js';
import type { IbcHop } from '../../workflows/model.js';
import type { AbciEvent } from '../../chain/events.js';
import { asTx, attr, keysOf, recordedResolver, shape, type CometTx } from '../support/recorded-answers.js';

const dir = path.join(__dirname, '../fixtures/ibc-devnet');
// Recorded answers are untyped JSON (any: read field by field below).
const rec = (f: string): any => JSON.parse(readFileSync(path.join(dir, f), 'utf8'));
const recorded = {
  send: rec('tx_search-a-send_packet.json').result.txs[0] as CometTx,
  recv: rec('tx_search-b-recv_packet.json').result.txs[0] as CometTx,
  ack: rec('tx_search-a-acknowledge_packet.json').result.txs[0] as CometTx,
};
const summary = rec('summary.json');

const resolver = recordedResolver({
  ibcCounterparty: (c, _p, ch) =>
    ch === 'channel-0' ? (c === 'devnet-a' ? 'devnet-b' : c === 'devnet-b' ? 'devnet-a' : undefined) : undefined,
});

describe('hop machines on the recorded real minievm ↔ minievm transfer', () => {
  it('send → recv (+ write_acknowledgement) → acknowledge_packet: TRANSFER_SUCCESS with the recorded hashes', () => {
    const [hop] = deriveHops(asTx('devnet-a', recorded.send), resolver) as IbcHop[];
    expect(hop).toMatchObject({
      kind: 'ibc',
      fromChainId: 'devnet-a',
      toChainId: 'devnet-b',
      srcChannel: 'channel-0',
      sequence: '1',
      state: 'TRANSFER_PENDING',
    });
    const { hop: received } = ibcReceived(hop!, asTx('devnet-b', recorded.recv), resolver);
    expect(received.state).toBe('TRANSFER_RECEIVED');
    expect(received.receiveTx?.txHash).toBe(summary.recv_packet_tx_on_b);
    const done = ibcAcknowledged(received, asTx('devnet-a', recorded.ack), resolver);
    expect(done.state).toBe('TRANSFER_SUCCESS');
    expect(done.acknowledgeTx?.txHash).toBe(summary.acknowledge_packet_tx_on_a);
    expect(hop!.sendTx.txHash).toBe(summary.transfer_tx_on_a);
  });

  it('the real minievm ack is the plain ICS-04 form and parses as success', () => {
    const a = Object.fromEntries(
      recorded.recv.tx_result.events
        .find((e) => e.type === 'write_acknowledgement')!
        .attributes.map((x) => [x.key, x.value]),
    );
    expect(a.packet_ack).toBe('{"result":"AQ=="}');
    expect(parseAck(a)).toEqual({ success: true });
  });
});

describe('simnet minievm chain vs the recorded real answers', () => {
  let net: Simnet;
  let rpc: Record<string, string>;
  beforeAll(async () => {
    net = await Simnet.start({ delays: { recvMs: 50, ackMs: 50 } });
    rpc = Object.fromEntries(net.chainInfos().map((c) => [c.chainId, c.rpcUrl!]));
  });
  afterAll(async () => {
    await net?.stop();
  });

  async function search(chainId: string, query: string): Promise<{ result: { txs: CometTx[] } }> {
    for (let i = 0; i < 100; i++) {
      const u = `${rpc[chainId]}/tx_search?query=${encodeURIComponent(`"${query}"`)}&prove=false`;
      const body = (await (await fetch(u)).json()) as { result: { txs: CometTx[]; total_count: string } };
      if (body.result?.txs?.length) return body;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`no tx on ${chainId} for ${query}`);
  }

  it('tx_search envelope and the send / recv / ack events match the recorded devnet answers', async () => {
    // minievm as the packet's source (send + ack on it) and as its destination (recv + write_ack on it).
    const out = net.ibcTransfer({ from: SIM.evm, channel: 'channel-0', amount: '1000', denom: 'umin' });
    const inn = net.ibcTransfer({ from: SIM.l1, channel: 'channel-2', amount: '1000', denom: 'umin' });
    const sendAns = await search(SIM.evm, `tx.hash='${out.txHash}'`);
    const seqOut = attr(sendAns.result.txs[0]!.tx_result.events, 'send_packet', 'packet_sequence');
    const ackAns = await search(SIM.evm, `acknowledge_packet.packet_sequence='${seqOut}'`);
    const inSend = await search(SIM.l1, `tx.hash='${inn.txHash}'`);
    const seqIn = attr(inSend.result.txs[0]!.tx_result.events, 'send_packet', 'packet_sequence');
    const recvAns = await search(SIM.evm, `recv_packet.packet_sequence='${seqIn}'`);

    // Envelope: every key path of the real tx_search answer exists in ours.
    const ours = new Set([...shape(sendAns), ...shape(recvAns), ...shape(ackAns)]);
    const real = new Set([
      ...shape(rec('tx_search-a-send_packet.json')),
      ...shape(rec('tx_search-b-recv_packet.json')),
      ...shape(rec('tx_search-a-acknowledge_packet.json')),
    ]);
    expect([...real].filter((k) => !ours.has(k) && !k.startsWith('.id') && !k.startsWith('.jsonrpc'))).toEqual([]);

    const sim = {
      send: sendAns.result.txs[0]!.tx_result.events,
      recv: recvAns.result.txs[0]!.tx_result.events,
      ack: ackAns.result.txs[0]!.tx_result.events,
    };
    const real3 = {
      send: recorded.send.tx_result.events,
      recv: recorded.recv.tx_result.events,
      ack: recorded.ack.tx_result.events,
    };
    // Event names and attribute keys, in order.
    for (const [k, type] of [
      ['send', 'send_packet'],
      ['recv', 'recv_packet'],
      ['recv', 'write_acknowledgement'],
      ['recv', 'fungible_token_packet'],
      ['ack', 'acknowledge_packet'],
      ['ack', 'fungible_token_packet'],
    ] as const)
      expect({ type, keys: keysOf(sim[k], type) }).toEqual({ type, keys: keysOf(real3[k], type) });

    // Encodings: packet_data is ibc-go's sorted ICS-20 JSON (empty memo omitted), packet_data_hex its hex,
    // timeouts "revision-height" and ns, the ack plain {"result":"AQ=="} with its hex.
    for (const ev of [sim.send, sim.recv, real3.send, real3.recv]) {
      const data = attr(ev, 'send_packet', 'packet_data') ?? attr(ev, 'recv_packet', 'packet_data')!;
      const hex = attr(ev, 'send_packet', 'packet_data_hex') ?? attr(ev, 'recv_packet', 'packet_data_hex')!;
      expect(Object.keys(JSON.parse(data))).toEqual(['amount', 'denom', 'receiver', 'sender']);
      expect(Buffer.from(data, 'utf8').toString('hex')).toBe(hex);
      expect(
        attr(ev, 'send_packet', 'packet_timeout_height') ?? attr(ev, 'recv_packet', 'packet_timeout_height'),
      ).toMatch(/^\d+-\d+$/);
    }
    for (const ev of [sim.recv, real3.recv]) {
      expect(attr(ev, 'write_acknowledgement', 'packet_ack')).toBe('{"result":"AQ=="}');
      expect(attr(ev, 'write_acknowledgement', 'packet_ack_hex')).toBe(
        Buffer.from('{"result":"AQ=="}').toString('hex'),
      );
      expect(attr(ev, 'fungible_token_packet', 'success')).toBe('true');
    }
    const settle = (ev: AbciEvent[]) =>
      ev
        .filter((e) => e.type === 'fungible_token_packet')
        .map((e) => e.attributes.filter((a) => a.key !== 'msg_index'));
    expect(settle(sim.ack)[0]!.find((a) => a.key === 'acknowledgement')?.value).toBe(
      settle(real3.ack)[0]!.find((a) => a.key === 'acknowledgement')?.value,
    );
    expect(settle(sim.ack)[1]).toEqual(settle(real3.ack)[1]);
  });
});

describe('ICS-20 denoms of the recorded transfer', () => {
  it('the receiver’s denom our hop machine derives is the node’s voucher (denom trace / balance)', () => {
    const [hop] = deriveHops(asTx('devnet-a', recorded.send), resolver) as IbcHop[];
    expect(hop!.denomOnSource).toBe('umin');
    expect(hop!.denomOnDest).toBe(summary.ibc_denom_on_b);
    const trace = rec('denom-trace-b.json');
    expect(JSON.stringify(trace)).toContain('transfer/channel-0');
    expect(rec('balances-b-user-after.json').balances.map((b: { denom: string }) => b.denom)).toContain(
      summary.ibc_denom_on_b,
    );
    // going home: the prefix of the source channel is removed again
    expect(
      ics20Denoms('transfer/channel-0/umin', {
        srcPort: 'transfer',
        srcChannel: 'channel-0',
        dstPort: 'transfer',
        dstChannel: 'channel-0',
      }),
    ).toEqual({
      denomOnSource: summary.ibc_denom_on_b,
      denomOnDest: 'umin',
    });
  });
});
