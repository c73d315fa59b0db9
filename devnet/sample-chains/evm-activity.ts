// EVM-side helpers of the minievm sample chain: re-hexing viem-normalised payloads, wrapping EVM txs
// into the Cosmos txs minievm records (MsgCall / MsgCreate with `evm` log events), the mirror pseudo
// txs minievm creates for Cosmos txs that emit EVM logs, derived ERC20 / ERC721 activity, and the
// independent log replay that gives expected balances and NFT owners.
import { toBech32, fromHex } from '@cosmjs/encoding';
import { keccak256, toUtf8Bytes, getAddress, Signature, SigningKey, Transaction, computeAddress } from 'ethers';
import type { EvmReceipt, EvmSide, EvmTxObject, TxJson, TxResult } from '../chain-sim/types.js';
import type { AbciEvent, EvmLog } from '../../chain/events.js';
import type { RecordedEvmPayload } from './fixtures.js';
import type { SampleTx, SampleTxOrigin } from './builder.js';

export const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
export const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';
const ZERO_BLOOM = `0x${'0'.repeat(512)}`;

const hexQty = (v: unknown): string => `0x${BigInt(String(v ?? '0')).toString(16)}`;
const lower = (a: unknown): string | null => (typeof a === 'string' && a !== 'None' ? a.toLowerCase() : null);
export const pad32 = (hex: string): string => `0x${hex.replace(/^0x/, '').toLowerCase().padStart(64, '0')}`;
export const addrTopic = (addr: string): string => pad32(addr);
export const topicAddr = (topic: string): string => `0x${topic.slice(-40)}`.toLowerCase();
export const bech32OfEvm = (addr: string): string => toBech32('init', fromHex(addr.replace(/^0x/, '')));
/**
 * The i-th derived account of a kind: the address of a deterministic private key, so the derived txs it sends
 * carry a real signature and the public key minievm recovers from it (never a placeholder).
 */
const derivedKeys = new Map<string, string>();
export const derivedAddress = (kind: string, i: number): string => {
  const key = keccak256(toUtf8Bytes(`chain-sim derived key ${kind} ${i}`));
  const address = computeAddress(key).toLowerCase();
  derivedKeys.set(address, key);
  return address;
};

/** viem-normalised tx → geth JSON-RPC tx object (hex quantities, lowercase addresses). */
export function rehexTx(t: RecordedEvmPayload['tx'], evmChainId: bigint): EvmTxObject {
  const type = String(t.type ?? '0x0');
  return {
    hash: t.hash.toLowerCase(),
    type,
    chainId: `0x${evmChainId.toString(16)}`,
    from: String(t.from).toLowerCase(),
    to: lower(t.to),
    nonce: hexQty(t.nonce),
    gas: hexQty(t.gas),
    gasPrice: hexQty(t.gasPrice),
    ...(type === '0x2'
      ? {
          maxFeePerGas: hexQty(t.maxFeePerGas),
          maxPriorityFeePerGas: hexQty(t.maxPriorityFeePerGas),
          accessList: [],
          yParity: String(t.yParity ?? '0x0'),
        }
      : {}),
    input: t.input,
    value: hexQty(t.value),
    v: String(t.v ?? '0x0'),
    r: String(t.r ?? '0x0'),
    s: String(t.s ?? '0x0'),
  };
}

export function rehexReceipt(r: RecordedEvmPayload['txReceipt']): EvmReceipt {
  return {
    transactionHash: r.transactionHash.toLowerCase(),
    from: String(r.from).toLowerCase(),
    to: lower(r.to),
    contractAddress: lower(r.contractAddress),
    gasUsed: hexQty(r.gasUsed),
    cumulativeGasUsed: hexQty(r.cumulativeGasUsed),
    effectiveGasPrice: hexQty(r.effectiveGasPrice),
    status: r.status === true || r.status === '0x1' ? '0x1' : '0x0',
    type: String(r.type ?? '0x0'),
    logsBloom: String(r.logsBloom ?? ZERO_BLOOM),
    logs: r.logs.map((l) => ({
      address: String(l.address).toLowerCase(),
      topics: (l.topics as string[]).map((x) => x.toLowerCase()),
      data: String(l.data),
    })),
  };
}

/** EVM logs carried by a Cosmos tx's `evm` events (attribute `log` = JSON {address, topics, data}). */
export function evmLogsOfEvents(events: AbciEvent[]): EvmLog[] {
  const out: EvmLog[] = [];
  for (const e of events) {
    if (e.type !== 'evm') continue;
    for (const a of e.attributes) {
      if (a.key !== 'log') continue;
      const l = JSON.parse(a.value) as { address: string; topics: string[] | null; data: string };
      out.push({
        address: l.address.toLowerCase(),
        topics: (l.topics ?? []).map((x) => x.toLowerCase()),
        data: l.data || '0x',
      });
    }
  }
  return out;
}

/**
 * minievm's pseudo EVM tx for a Cosmos tx that emitted EVM logs: from 0x0, gas 0, no `to`, input = the
 * Cosmos tx hash. Its hash here is keccak256(Cosmos hash bytes) (deterministic; minievm's own rule differs).
 */
export function mirrorSide(
  cosmosHash: string,
  result: TxResult,
  evmChainId: bigint,
  recorded?: RecordedEvmPayload,
): EvmSide | undefined {
  const logs = evmLogsOfEvents(result.events);
  if (logs.length === 0 && !recorded) return undefined;
  const hash = recorded ? recorded.tx.hash.toLowerCase() : keccak256(fromHex(cosmosHash));
  const tx: EvmTxObject = {
    hash,
    type: '0x0',
    chainId: `0x${evmChainId.toString(16)}`,
    from: ZERO_ADDRESS,
    to: null,
    nonce: '0x0',
    gas: '0x0',
    gasPrice: '0x0',
    input: `0x${cosmosHash.toLowerCase()}`,
    value: '0x0',
    v: '0x0',
    r: '0x0',
    s: '0x0',
  };
  const receipt: EvmReceipt = {
    transactionHash: hash,
    from: ZERO_ADDRESS,
    to: null,
    contractAddress: null,
    gasUsed: hexQty(result.gas_used),
    cumulativeGasUsed: hexQty(result.gas_used),
    effectiveGasPrice: '0x0',
    status: result.code === 0 ? '0x1' : '0x0',
    type: '0x0',
    logsBloom: ZERO_BLOOM,
    logs: recorded ? rehexReceipt(recorded.txReceipt).logs : logs,
  };
  return { txs: [tx], receipts: [receipt] };
}

const attr = (key: string, value: string): { key: string; value: string; index: boolean } => ({
  key,
  value,
  index: true,
});

/**
 * The ethsecp256k1 public key (33-byte compressed, base64) minievm reports in `signer_infos` of an Ethereum
 * tx: the key recovered from its signature. null when the signature does not recover to `from` (a key of
 * another account would change the tx's signer); the sample's txs all recover (sample-fidelity.test.ts).
 */
export function recoveredEthPubKey(t: EvmTxObject): { '@type': string; key: string } | null {
  try {
    const type = Number(BigInt(String(t.type ?? '0x0')));
    const v = BigInt(String(t.v ?? '0x0'));
    const yParity = type === 0 ? (v >= 35n ? Number((v - 35n) % 2n) : Number(v - 27n)) : Number(v & 1n);
    const tx = Transaction.from({
      type,
      chainId: BigInt(String(t.chainId ?? '0x0')),
      nonce: Number(BigInt(String(t.nonce))),
      gasLimit: BigInt(String(t.gas)),
      ...(type === 2
        ? {
            maxFeePerGas: BigInt(String(t.maxFeePerGas ?? '0x0')),
            maxPriorityFeePerGas: BigInt(String(t.maxPriorityFeePerGas ?? '0x0')),
            accessList: [],
          }
        : { gasPrice: BigInt(String(t.gasPrice ?? '0x0')) }),
      to: (t.to as string | null) ?? null,
      value: BigInt(String(t.value ?? '0x0')),
      data: String(t.input ?? '0x'),
      signature: Signature.from({ r: pad32(String(t.r)), s: pad32(String(t.s)), yParity: yParity as 0 | 1 }),
    });
    const pub = tx.fromPublicKey;
    if (!pub || computeAddress(pub).toLowerCase() !== String(t.from).toLowerCase()) return null;
    const compressed = SigningKey.computePublicKey(pub, true);
    return {
      '@type': '/initia.crypto.v1beta1.ethsecp256k1.PubKey',
      key: Buffer.from(compressed.slice(2), 'hex').toString('base64'),
    };
  } catch {
    return null;
  }
}

/** The Cosmos tx minievm records for an EVM tx: one MsgCall (or MsgCreate) with call/create and evm events. */
export function wrapEvmTx(evmTx: EvmTxObject, receipt: EvmReceipt, origin: SampleTxOrigin): SampleTx {
  const sender = bech32OfEvm(String(evmTx.from));
  const to = evmTx.to as string | null;
  const value = BigInt(String(evmTx.value ?? '0x0')).toString();
  const nonce = BigInt(String(evmTx.nonce)).toString();
  const msg: Record<string, unknown> = to
    ? {
        '@type': '/minievm.evm.v1.MsgCall',
        sender,
        contract_addr: getAddress(to),
        input: evmTx.input,
        value,
        access_list: [],
      }
    : { '@type': '/minievm.evm.v1.MsgCreate', sender, code: evmTx.input, value, access_list: [] };
  const sig = Buffer.concat([
    fromHex(pad32(String(evmTx.r)).slice(2)),
    fromHex(pad32(String(evmTx.s)).slice(2)),
    Buffer.from([Number(BigInt(String(evmTx.v ?? '0x0')) & 1n)]),
  ]).toString('base64');
  const tx: TxJson = {
    '@type': '/cosmos.tx.v1beta1.Tx',
    body: {
      messages: [msg],
      // minievm keeps the EVM fee fields in the memo of the converted Cosmos tx (see the contract-creation fixtures).
      memo: JSON.stringify({
        type: Number(BigInt(String(evmTx.type ?? '0x0'))),
        gas_fee_cap: BigInt(String(evmTx.maxFeePerGas ?? evmTx.gasPrice ?? '0x0')).toString(),
        gas_tip_cap: BigInt(String(evmTx.maxPriorityFeePerGas ?? '0x0')).toString(),
      }),
      timeout_height: '0',
      extension_options: [],
      non_critical_extension_options: [],
    },
    auth_info: {
      fee: { amount: [], gas_limit: BigInt(String(evmTx.gas)).toString(), granter: '', payer: '' },
      // minievm reports the key recovered from the Ethereum signature (an explorer's schema rejects null)
      signer_infos: [{ mode_info: { single: { mode: 9999 } }, public_key: recoveredEthPubKey(evmTx), sequence: nonce }],
      tip: null,
    },
    signatures: [sig],
  };
  const mi = attr('msg_index', '0');
  const events: AbciEvent[] = [
    { type: 'tx', attributes: [attr('fee', ''), attr('fee_payer', sender)] },
    { type: 'tx', attributes: [attr('acc_seq', `${sender}/${nonce}`)] },
    { type: 'tx', attributes: [attr('signature', sig)] },
    {
      type: 'message',
      attributes: [attr('action', String(msg['@type'])), attr('sender', sender), attr('module', 'evm'), mi],
    },
    ...(to
      ? [{ type: 'call', attributes: [attr('contract', getAddress(to)), attr('ret', '0x'), mi] }]
      : [
          {
            type: 'contract_created',
            attributes: [attr('contract', getAddress(receipt.contractAddress ?? ZERO_ADDRESS)), mi],
          },
          {
            type: 'create',
            attributes: [attr('contract', getAddress(receipt.contractAddress ?? ZERO_ADDRESS)), attr('ret', '0x'), mi],
          },
        ]),
    ...(receipt.logs.length
      ? [
          {
            type: 'evm',
            attributes: [
              ...receipt.logs.map((l) =>
                attr('log', JSON.stringify({ address: getAddress(l.address), topics: l.topics, data: l.data })),
              ),
              mi,
            ],
          },
        ]
      : []),
  ];
  return {
    tx,
    result: {
      code: receipt.status === '0x1' ? 0 : 2,
      codespace: receipt.status === '0x1' ? '' : 'evm',
      data: '',
      log: '',
      info: '',
      gas_wanted: BigInt(String(evmTx.gas)).toString(),
      gas_used: BigInt(receipt.gasUsed).toString(),
      events,
    },
    origin,
    evm: { txs: [evmTx], receipts: [receipt] },
  };
}

/** A derived EVM call (one log set) from `from` to `contract`, wrapped like a real minievm tx. */
export function derivedCall(p: {
  from: string;
  contract: string;
  input: string;
  logs: EvmLog[];
  nonce: number;
  evmChainId: bigint;
  note: string;
}): SampleTx {
  // Signed by the sender's derived key (EIP-1559), so the hash, r/s/yParity and the recovered key are real;
  // deterministic (RFC 6979) and so the same on every build.
  const key = derivedKeys.get(p.from.toLowerCase());
  if (!key) throw new Error(`derived tx from ${p.from}: not a derived account, no key to sign with`);
  const signed = Transaction.from({
    type: 2,
    chainId: p.evmChainId,
    nonce: p.nonce,
    gasLimit: 200_000n,
    maxFeePerGas: 2_500_000n,
    maxPriorityFeePerGas: 0n,
    to: p.contract,
    data: p.input,
    value: 0n,
    accessList: [],
  });
  signed.signature = new SigningKey(key).sign(signed.unsignedHash);
  const sig = signed.signature!;
  const hash = signed.hash!;
  const tx: EvmTxObject = {
    hash,
    type: '0x2',
    chainId: `0x${p.evmChainId.toString(16)}`,
    from: p.from.toLowerCase(),
    to: p.contract.toLowerCase(),
    nonce: hexQty(p.nonce),
    gas: hexQty(signed.gasLimit),
    gasPrice: hexQty(signed.maxFeePerGas),
    maxFeePerGas: hexQty(signed.maxFeePerGas),
    maxPriorityFeePerGas: '0x0',
    accessList: [],
    input: p.input,
    value: '0x0',
    v: hexQty(sig.yParity),
    r: sig.r,
    s: sig.s,
    yParity: hexQty(sig.yParity),
  };
  const receipt: EvmReceipt = {
    transactionHash: hash,
    from: p.from.toLowerCase(),
    to: p.contract.toLowerCase(),
    contractAddress: null,
    gasUsed: '0xc350',
    cumulativeGasUsed: '0xc350',
    effectiveGasPrice: '0x2625a0',
    status: '0x1',
    type: '0x2',
    logsBloom: ZERO_BLOOM,
    logs: p.logs,
  };
  return wrapEvmTx(tx, receipt, { file: 'derived', export: 'derived', originalHash: '', derived: true, note: p.note });
}

export const erc20TransferLog = (token: string, from: string, to: string, amount: bigint): EvmLog => ({
  address: token.toLowerCase(),
  topics: [TRANSFER_TOPIC, addrTopic(from), addrTopic(to)],
  data: pad32(amount.toString(16)),
});
export const erc721TransferLog = (collection: string, from: string, to: string, tokenId: bigint): EvmLog => ({
  address: collection.toLowerCase(),
  topics: [TRANSFER_TOPIC, addrTopic(from), addrTopic(to), pad32(tokenId.toString(16))],
  data: '0x',
});

export const calldata = {
  transfer: (to: string, amount: bigint): string =>
    `0xa9059cbb${pad32(to).slice(2)}${pad32(amount.toString(16)).slice(2)}`,
  transferFrom: (from: string, to: string, id: bigint): string =>
    `0x23b872dd${pad32(from).slice(2)}${pad32(to).slice(2)}${pad32(id.toString(16)).slice(2)}`,
  mint: (to: string, id: bigint): string => `0x40c10f19${pad32(to).slice(2)}${pad32(id.toString(16)).slice(2)}`,
  burn: (id: bigint): string => `0x42966c68${pad32(id.toString(16)).slice(2)}`,
};

export interface ExpectedEvmState {
  /** token → holder → balance at the tip (decimal string): its opening balance plus every Transfer log served. */
  erc20Balances: Record<string, Record<string, string>>;
  /**
   * token → holder → balance before the first block: the least that keeps every running balance ≥ 0 (a holder who
   * spends what no served log gave it held it already, e.g. the fee token's payers). The chain's genesis state.
   */
  openingBalances: Record<string, Record<string, string>>;
  /** collection → tokenId (decimal) → owner; burned tokens are absent. */
  nftOwners: Record<string, Record<string, string>>;
  /** collection → tokenIds (decimal) burned. */
  nftBurned: Record<string, string[]>;
  nftMints: Record<string, number>;
  nftTransfers: Record<string, number>;
}

/**
 * The balance changes of an ERC20 Transfer log (3 topics + a 32-byte amount): the sender's debit and the
 * recipient's credit, the zero address (mint, burn) being no holder; [] for any other log.
 */
export function erc20Changes(l: EvmLog): { token: string; holder: string; amount: bigint }[] {
  if (l.topics[0] !== TRANSFER_TOPIC || l.topics.length !== 3 || l.data.length !== 66) return [];
  const token = l.address.toLowerCase();
  const amount = BigInt(l.data);
  const from = topicAddr(l.topics[1] ?? '');
  const to = topicAddr(l.topics[2] ?? '');
  return [
    ...(from !== ZERO_ADDRESS ? [{ token, holder: from, amount: -amount }] : []),
    ...(to !== ZERO_ADDRESS ? [{ token, holder: to, amount }] : []),
  ];
}

/** Replays Transfer logs in chain order: 3 topics + 32-byte data = ERC20, 4 topics = ERC721. */
export function replayTransfers(logs: EvmLog[]): ExpectedEvmState {
  const bal = new Map<string, Map<string, bigint>>();
  const owners = new Map<string, Map<string, string>>();
  const lowest = new Map<string, Map<string, bigint>>();
  const s: ExpectedEvmState = {
    erc20Balances: {},
    openingBalances: {},
    nftOwners: {},
    nftBurned: {},
    nftMints: {},
    nftTransfers: {},
  };
  for (const l of logs) {
    if (l.topics[0] !== TRANSFER_TOPIC) continue;
    const token = l.address.toLowerCase();
    if (l.topics.length === 3 && l.data.length === 66) {
      const m = bal.get(token) ?? new Map<string, bigint>();
      bal.set(token, m);
      const low = lowest.get(token) ?? new Map<string, bigint>();
      lowest.set(token, low);
      for (const c of erc20Changes(l)) {
        const v = (m.get(c.holder) ?? 0n) + c.amount;
        m.set(c.holder, v);
        if (v < (low.get(c.holder) ?? 0n)) low.set(c.holder, v);
      }
    } else if (l.topics.length === 4) {
      const from = topicAddr(l.topics[1] ?? '');
      const to = topicAddr(l.topics[2] ?? '');
      const id = BigInt(l.topics[3] ?? '0x0').toString();
      const m = owners.get(token) ?? new Map<string, string>();
      owners.set(token, m);
      if (from === ZERO_ADDRESS) s.nftMints[token] = (s.nftMints[token] ?? 0) + 1;
      else if (to !== ZERO_ADDRESS) s.nftTransfers[token] = (s.nftTransfers[token] ?? 0) + 1;
      if (to === ZERO_ADDRESS) {
        m.delete(id);
        (s.nftBurned[token] ??= []).push(id);
      } else m.set(id, to);
    }
  }
  for (const [t, m] of bal) {
    const low = lowest.get(t) ?? new Map<string, bigint>();
    s.openingBalances[t] = Object.fromEntries([...low].map(([k, v]) => [k, (-v).toString()]));
    s.erc20Balances[t] = Object.fromEntries(
      [...m]
        .map(([k, v]) => [k, v - (low.get(k) ?? 0n)] as const)
        .filter(([, v]) => v !== 0n)
        .map(([k, v]) => [k, v.toString()]),
    );
  }
  for (const [c, m] of owners) s.nftOwners[c] = Object.fromEntries(m);
  return s;
}
