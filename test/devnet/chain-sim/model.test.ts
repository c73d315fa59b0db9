// Pure parts of chain-sim and the sample builder, on recorded data: the tx_search query subset, the
// eth_getLogs filter, RFC3339Nano times, tx encoding / hashing, and the Transfer-log replay.
import { describe, expect, it } from 'vitest';
import { TxRaw, TxBody } from 'cosmjs-types/cosmos/tx/v1beta1/tx';
import { MsgSend } from 'cosmjs-types/cosmos/bank/v1beta1/tx';
import { parseTxQuery, txMatches, heightBounds, QueryError } from '../../../devnet/chain-sim/txquery.js';
import { logMatches } from '../../../devnet/chain-sim/evm.js';
import { toRfc3339Nano, SimChain } from '../../../devnet/chain-sim/chain.js';
import { encodeTxRaw, sha256Hex, txHashOfRaw } from '../../../devnet/chain-sim/txcodec.js';
import { decodeTxHashParam } from '../../../devnet/chain-sim/cometbft.js';
import { fromRecorded, signerOf } from '../../../devnet/sample-chains/builder.js';
import { loadExport, type RecordedEvmPayload } from '../../../devnet/sample-chains/fixtures.js';
import { rehexReceipt, replayTransfers, TRANSFER_TOPIC } from '../../../devnet/sample-chains/evm-activity.js';

const deposit = fromRecorded('protocols/op-init/initiate-token-deposit.json', 'mockMsgInitiateTokenDeposit');
const bankMulti = fromRecorded('cosmos/move/bank.json', 'mockMsgSendWithMultipleMessages');

describe('tx_search query subset', () => {
  it('parses quoted strings, numbers, ranges and AND', () => {
    expect(parseTxQuery("tx.height>=5 AND transfer.recipient='init1x' and move.amount=7")).toEqual([
      { key: 'tx.height', op: '>=', value: '5', numeric: true },
      { key: 'transfer.recipient', op: '=', value: 'init1x', numeric: false },
      { key: 'move.amount', op: '=', value: '7', numeric: true },
    ]);
    expect(() => parseTxQuery('garbage')).toThrow(QueryError);
    expect(() => parseTxQuery("a='b' OR c='d'")).toThrow(QueryError);
    expect(() => parseTxQuery('nodot=1')).toThrow(/type/);
    expect(() => parseTxQuery(`a.b='${'x'.repeat(600)}'`)).toThrow(/longer/);
  });

  it('matches the recorded deposit events, numbers numerically, each condition on any event', () => {
    const ev = deposit.result.events;
    expect(txMatches(parseTxQuery("initiate_token_deposit.l1_sequence='2009'"), 10, 'AB', ev)).toBe(true);
    expect(txMatches(parseTxQuery('initiate_token_deposit.l1_sequence=2009.0'), 10, 'AB', ev)).toBe(true);
    expect(txMatches(parseTxQuery('initiate_token_deposit.l1_sequence>2009'), 10, 'AB', ev)).toBe(false);
    expect(
      txMatches(
        parseTxQuery(
          "initiate_token_deposit.bridge_id='30' AND message.action='/opinit.ophost.v1.MsgInitiateTokenDeposit'",
        ),
        10,
        'AB',
        ev,
      ),
    ).toBe(true);
    expect(txMatches(parseTxQuery("initiate_token_deposit.l2_denom CONTAINS 'l2/9d3d'"), 10, 'AB', ev)).toBe(true);
    expect(txMatches(parseTxQuery("tx.height=10 AND tx.hash='ab'"), 10, 'AB', ev)).toBe(true);
    expect(txMatches(parseTxQuery('tx.height<10'), 10, 'AB', ev)).toBe(false);
    expect(heightBounds(parseTxQuery('tx.height>3 AND tx.height<=8'), 100)).toEqual({ from: 4, to: 8 });
  });
});

describe('tx hashes', () => {
  it('CometBFT tx hash param: base64 from JSON-RPC clients, hex from the URI form', () => {
    const hex = 'A'.repeat(64);
    expect(decodeTxHashParam(Buffer.from(hex, 'hex').toString('base64'))).toBe(hex);
    expect(decodeTxHashParam(`0x${hex.toLowerCase()}`)).toBe(hex);
    expect(decodeTxHashParam('"0xzz"')).toBeUndefined();
  });

  it('encodes a recorded tx deterministically, MsgSend as real protobuf, and hashes with sha256', () => {
    const a = encodeTxRaw(bankMulti.tx);
    const b = encodeTxRaw(JSON.parse(JSON.stringify(bankMulti.tx)));
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
    const body = TxBody.decode(TxRaw.decode(a).bodyBytes);
    expect(body.messages.length).toBe(4);
    const first = MsgSend.decode(body.messages[0]!.value);
    const recorded = bankMulti.tx.body.messages[0] as { from_address: string; to_address: string; amount: unknown };
    expect(first.fromAddress).toBe(recorded.from_address);
    expect(first.toAddress).toBe(recorded.to_address);
    expect(first.amount).toEqual(recorded.amount);
    const raw = Buffer.from(a).toString('base64');
    expect(txHashOfRaw(raw)).toBe(sha256Hex(a));
    const changed = encodeTxRaw({ ...bankMulti.tx, body: { ...bankMulti.tx.body, memo: 'x' } });
    expect(sha256Hex(changed)).not.toBe(sha256Hex(a));
  });

  it('a chain refuses the same tx twice and times that go backwards', () => {
    const c = new SimChain({ chainId: 'x-1' });
    c.appendBlock({ time: '2025-01-01T00:00:01Z', txs: [{ tx: deposit.tx, result: deposit.result }] });
    expect(() => c.appendBlock({ txs: [{ tx: deposit.tx, result: deposit.result }] })).toThrow(/duplicate tx/);
    expect(() => c.appendBlock({ time: '2024-01-01T00:00:00Z', txs: [] })).toThrow(/before/);
  });
});

describe('manifest signer', () => {
  it("is the signing key's account, not the fee granter; grants without a key fall back to the granter", () => {
    const exec = fromRecorded('cosmos/move/authz.json', 'mockRealMsgExecTransaction');
    expect((exec.tx.auth_info as { fee: { granter: string } }).fee.granter).toBe(
      'init1ryrg0mha5stezucvajy3mne8a74uhgmygdlnxp',
    );
    // acc_seq of the recorded ante events names the same account the public key derives to.
    const accSeq = exec.result.events.flatMap((e) => e.attributes).find((a) => a.key === 'acc_seq')!.value;
    expect(signerOf(exec.tx, exec.result)).toBe(accSeq.split('/')[0]);
    const grant = fromRecorded('cosmos/move/feegrant.json', 'mockMixedFeegrantAuthzTransaction');
    expect(signerOf(grant.tx, grant.result)).toBe('init1ryrg0mha5stezucvajy3mne8a74uhgmygdlnxp');
    const bankEvm = fromRecorded('cosmos/evm/bank-evm.json', 'bankSendWithEvmLogTxResponse');
    expect(signerOf(bankEvm.tx, bankEvm.result)).toBe('init1kw2unuhgfa6mz6r0ehrzlr9k9ftjk7pql8u5fm');
  });
});

describe('RFC3339Nano', () => {
  it('keeps nanoseconds, trims trailing zeros, normalises offsets to UTC', () => {
    expect(toRfc3339Nano('2023-05-17T14:12:53.088875124Z')).toBe('2023-05-17T14:12:53.088875124Z');
    expect(toRfc3339Nano('2025-06-17T09:30:31.500000000Z')).toBe('2025-06-17T09:30:31.5Z');
    expect(toRfc3339Nano('2025-06-17T09:30:31.000Z')).toBe('2025-06-17T09:30:31Z');
    expect(toRfc3339Nano('2025-06-17T11:30:31+02:00')).toBe('2025-06-17T09:30:31Z');
    expect(() => toRfc3339Nano('yesterday')).toThrow();
  });
});

describe('eth_getLogs filter', () => {
  const kami = rehexReceipt(
    loadExport<RecordedEvmPayload>('ethereum/kami721/kami721-public-mint.json', 'mockKami721PublicMintPayload')
      .txReceipt,
  );
  const [feeLog, mintLog] = kami.logs;

  it('address OR-list, topic wildcards, OR per position, too many positions', () => {
    expect(logMatches({ address: '0x014C4861F5f19b4c86f26657Dd40c1a18539D11A' }, mintLog!)).toBe(true);
    expect(logMatches({ address: ['0x0000000000000000000000000000000000000001', mintLog!.address] }, mintLog!)).toBe(
      true,
    );
    expect(logMatches({ address: [feeLog!.address] }, mintLog!)).toBe(false);
    expect(logMatches({ topics: [TRANSFER_TOPIC, null, null, mintLog!.topics[3]!] }, mintLog!)).toBe(true);
    expect(logMatches({ topics: [null, [mintLog!.topics[1]!, feeLog!.topics[1]!]] }, feeLog!)).toBe(true);
    expect(logMatches({ topics: [TRANSFER_TOPIC, null, null, null] }, feeLog!)).toBe(false);
    expect(logMatches({ topics: [[]] }, feeLog!)).toBe(true);
  });

  it('replays the recorded Kami721 mint: token 100 owned by the minter, ERC20 fee moved', () => {
    const s = replayTransfers(kami.logs);
    expect(s.nftOwners[mintLog!.address]).toEqual({ '100': '0x563466dec7f74bcbe97cd3bed1cbad3336c989ee' });
    expect(s.nftMints[mintLog!.address]).toBe(1);
    // the fee payer spent what no replayed log gave it: it held that much before (the opening), and 0 after
    expect(s.openingBalances[feeLog!.address]!['0x563466dec7f74bcbe97cd3bed1cbad3336c989ee']).toBe(
      100000000000000000n.toString(),
    );
    expect(s.erc20Balances[feeLog!.address]!['0x563466dec7f74bcbe97cd3bed1cbad3336c989ee']).toBeUndefined();
  });
});
