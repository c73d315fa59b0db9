// The minievm sample chain (yominet-1, EVM chain id 428962654539583), the default demo chain:
// the real minievm Cosmos txs, the real EVM txs wrapped as minievm records them, and derived
// ERC20 / ERC721 activity (marked `derived` in the manifest) so rich lists and NFT pages have content.
import { getAddress } from 'ethers';
import { buildSampleChain, fromRecorded, fromTxResponse, type SampleManifest, type SampleTx } from './builder.js';
import { loadExport, recordedEnvelopes, recordedCosmosHashes, type RecordedEvmPayload } from './fixtures.js';
import { recordedRoutes, type SampleRoute } from './routes.js';
import {
  calldata,
  derivedAddress,
  derivedCall,
  erc20TransferLog,
  erc721TransferLog,
  evmLogsOfEvents,
  mirrorSide,
  rehexReceipt,
  rehexTx,
  replayTransfers,
  wrapEvmTx,
  ZERO_ADDRESS,
  type ExpectedEvmState,
} from './evm-activity.js';
import type { SimChain } from '../chain-sim/chain.js';
import type { EthCallHandler } from '../chain-sim/evm.js';
import { grpcError } from '../chain-sim/rest.js';
import { erc721Names } from './nft-names.js';
import { SampleBankState } from './bank-state.js';
import type { EvmLog } from '../../chain/events.js';

export const EVM_CHAIN_ID = 428962654539583n;
/** The ERC20 of ethereum/erc20/erc20-transfer.json: the rich-list token. */
/** minievm's base denom and the ERC20 contract that holds its bank balances (devnet/minievm fixtures). */
export const NATIVE_DENOM = 'umin';
export const NATIVE_DENOM_CONTRACT = '0x0F0F0F0F0F0F0F0F0F0F0F0F0F0F0F0F0F0F0F0F';
export const RICH_LIST_TOKEN = '0x4badfb501ab304ff11217c44702bb9e9732e7cf4';
/** Holder of the token's initial 1,000,000 mint (multiple-contract-creation.json). */
const TOKEN_TREASURY = '0x4a8b41ac258ae5aae054c10c8b475eb0ce2465ec';
/** ERC721 of erc721-transfer-from.json (token 4561 moved 0x19f8… → …) and the Kami721 of the public mint. */
export const NFT_COLLECTION_A = '0x5d4376b62fa8ac16dfabe6a9861e11c33a48c677';
export const NFT_COLLECTION_B = '0x014c4861f5f19b4c86f26657dd40c1a18539d11a';
const NFT_A_HOLDER = '0x19f8a98c3512cf16731de58f83318ec553314f46';
const ERC20_SENDER = '0xb395c9f2e84f75b1686fcdc62f8cb62a572b7820';

export interface EvmSampleManifest extends SampleManifest {
  richListToken: string;
  nftCollections: string[];
  expected: ExpectedEvmState;
}

function recordedEvm(file: string, exportName: string): SampleTx {
  const p = loadExport<RecordedEvmPayload>(file, exportName);
  const origin = {
    file,
    export: exportName,
    originalHash: p.tx.hash.toLowerCase(),
    originalHeight: String(p.tx.blockNumber),
    derived: false,
  };
  const evmTx = rehexTx(p.tx, EVM_CHAIN_ID);
  const receipt = rehexReceipt(p.txReceipt);
  // Where the fixture also recorded the Cosmos side (contract creations, mirrors), serve that real record.
  const cosmosHash =
    recordedCosmosHashes(file).get(origin.originalHash) ??
    (evmTx.from === ZERO_ADDRESS ? String(p.tx.input).slice(2) : undefined);
  const envelope = cosmosHash ? recordedEnvelopes(file).get(cosmosHash.toLowerCase()) : undefined;
  if (!envelope) return wrapEvmTx(evmTx, receipt, origin);
  const t = fromTxResponse(envelope.tx_response, {
    ...origin,
    originalTime: envelope.tx_response.timestamp,
    note: `Cosmos record ${envelope.tx_response.txhash}`,
  });
  if (evmTx.from === ZERO_ADDRESS) {
    // A minievm mirror tx: its input is the Cosmos hash, which is this chain's (re-encoded) hash.
    t.evm = (h) => mirrorSide(h, t.result, EVM_CHAIN_ID, p);
  } else {
    t.evm = { txs: [evmTx], receipts: [receipt] };
  }
  return t;
}

function recordedCosmos(file: string, exportName: string): SampleTx {
  const t = fromRecorded(file, exportName);
  t.evm = (h) => mirrorSide(h, t.result, EVM_CHAIN_ID);
  return t;
}

/** Derived activity; nonces per sender keep the wrapped txs' acc_seq plausible. */
function derivedActivity(): {
  erc20Distribution: SampleTx[];
  kamiActivity: SampleTx[];
  collectionAMints: SampleTx[];
  collectionAAfter: SampleTx[];
  erc20Trades: SampleTx[];
} {
  const nonces = new Map<string, number>();
  const call = (
    from: string,
    contract: string,
    input: string,
    logs: ReturnType<typeof erc20TransferLog>[],
    note: string,
  ): SampleTx => {
    const nonce = nonces.get(from) ?? 0;
    nonces.set(from, nonce + 1);
    return derivedCall({ from, contract, input, logs, nonce, evmChainId: EVM_CHAIN_ID, note });
  };
  const unit = 10n ** 18n;
  const holders = Array.from({ length: 24 }, (_, i) => derivedAddress('erc20 holder', i));
  // Treasury pays out like the recorded mint log, but to new recipients with varied amounts. The payouts are
  // signed by a derived operator of the treasury contract: the recorded deployer's key is not ours to sign with.
  const treasuryOperator = derivedAddress('erc20 treasury operator', 0);
  const erc20Distribution = [
    call(
      treasuryOperator,
      TOKEN_TREASURY,
      calldata.transfer(ERC20_SENDER, 50_000n * unit),
      [erc20TransferLog(RICH_LIST_TOKEN, TOKEN_TREASURY, ERC20_SENDER, 50_000n * unit)],
      'ERC20 treasury payout to the recorded sender',
    ),
    ...holders.map((h, i) => {
      const amount = BigInt(((i * 7919) % 25_000) + 100) * unit + BigInt(i);
      return call(
        treasuryOperator,
        TOKEN_TREASURY,
        calldata.transfer(h, amount),
        [erc20TransferLog(RICH_LIST_TOKEN, TOKEN_TREASURY, h, amount)],
        `ERC20 treasury payout to derived holder ${i}`,
      );
    }),
  ];
  const erc20Trades = holders.slice(0, 6).map((h, i) => {
    const to = holders[(i + 7) % holders.length] as string;
    const amount = BigInt(i + 1) * 37n * unit;
    return call(
      h,
      RICH_LIST_TOKEN,
      calldata.transfer(to, amount),
      [erc20TransferLog(RICH_LIST_TOKEN, h, to, amount)],
      `ERC20 transfer between derived holders ${i}`,
    );
  });
  const kamiOwners = Array.from({ length: 5 }, (_, i) => derivedAddress('kami721 owner', i));
  const kamiActivity = [
    ...kamiOwners.map((o, i) =>
      call(
        o,
        NFT_COLLECTION_B,
        '0x26092b83',
        [erc721TransferLog(NFT_COLLECTION_B, ZERO_ADDRESS, o, 101n + BigInt(i))],
        `Kami721 public mint of token ${101 + i}`,
      ),
    ),
    call(
      kamiOwners[0] as string,
      NFT_COLLECTION_B,
      calldata.transferFrom(kamiOwners[0] as string, kamiOwners[3] as string, 101n),
      [erc721TransferLog(NFT_COLLECTION_B, kamiOwners[0] as string, kamiOwners[3] as string, 101n)],
      'Kami721 transfer of token 101',
    ),
    call(
      kamiOwners[1] as string,
      NFT_COLLECTION_B,
      calldata.burn(102n),
      [erc721TransferLog(NFT_COLLECTION_B, kamiOwners[1] as string, ZERO_ADDRESS, 102n)],
      'Kami721 burn of token 102',
    ),
  ];
  const aOwners = Array.from({ length: 5 }, (_, i) => derivedAddress('erc721 owner', i));
  const minter = derivedAddress('erc721 minter', 0);
  const collectionAMints = [
    call(
      minter,
      NFT_COLLECTION_A,
      calldata.mint(NFT_A_HOLDER, 4561n),
      [erc721TransferLog(NFT_COLLECTION_A, ZERO_ADDRESS, NFT_A_HOLDER, 4561n)],
      'ERC721 mint of token 4561 (later moved by the recorded transferFrom)',
    ),
    ...aOwners.map((o, i) =>
      call(
        minter,
        NFT_COLLECTION_A,
        calldata.mint(o, 4562n + BigInt(i)),
        [erc721TransferLog(NFT_COLLECTION_A, ZERO_ADDRESS, o, 4562n + BigInt(i))],
        `ERC721 mint of token ${4562 + i}`,
      ),
    ),
  ];
  const collectionAAfter = [
    call(
      aOwners[0] as string,
      NFT_COLLECTION_A,
      calldata.transferFrom(aOwners[0] as string, aOwners[2] as string, 4562n),
      [erc721TransferLog(NFT_COLLECTION_A, aOwners[0] as string, aOwners[2] as string, 4562n)],
      'ERC721 transfer of token 4562',
    ),
    call(
      aOwners[1] as string,
      NFT_COLLECTION_A,
      calldata.burn(4563n),
      [erc721TransferLog(NFT_COLLECTION_A, aOwners[1] as string, ZERO_ADDRESS, 4563n)],
      'ERC721 burn of token 4563',
    ),
  ];
  return { erc20Distribution, kamiActivity, collectionAMints, collectionAAfter, erc20Trades };
}

export function buildEvmChain(): {
  chain: SimChain;
  manifest: EvmSampleManifest;
  routes: SampleRoute[];
  ethCalls: EthCallHandler[];
} {
  const d = derivedActivity();
  // Real txs in their recorded order (by yominet height where known), derived activity placed where it makes
  // the replay consistent (mints before the recorded transfer of the same token).
  const txs: SampleTx[] = [
    recordedEvm('ethereum/contract-creation/single-contract-creation.json', 'immutableContractDeploymentPayload'),
    recordedEvm('ethereum/contract-creation/multiple-contract-creation.json', 'multipleContractCreationPayload'),
    recordedEvm('ethereum/contract-creation/single-contract-creation.json', 'contractDeploymentPayload'),
    ...d.erc20Distribution,
    recordedEvm('ethereum/kami721/kami721-public-mint.json', 'mockKami721PublicMintPayload'),
    ...d.kamiActivity,
    recordedCosmos('protocols/ibc/evm/receive-nft-evm.json', 'mockNftReceiveEvmTransaction'),
    recordedCosmos('protocols/ibc/evm/send-nft-evm.json', 'mockNftSendEvmTransaction'),
    ...d.collectionAMints,
    recordedEvm('ethereum/erc721/erc721-transfer-from.json', 'mockErc721TransferFromPayload'),
    ...d.collectionAAfter,
    recordedEvm('ethereum/erc20/erc20-transfer.json', 'mockErc20TransferPayload'),
    recordedEvm('ethereum/approve.json', 'mockErc20ApprovePayload'),
    ...d.erc20Trades,
    recordedCosmos('cosmos/evm/bank-evm.json', 'bankSendWithEvmLogTxResponse'),
    recordedEvm('ethereum/cosmos-mirror/ibc-receive-ft.json', 'mockEvmMirroredCosmosIbcFtReceivePayload'),
    recordedCosmos('protocols/op-init/initiate-token-withdrawal.json', 'mockInitiateTokenWithdrawal'),
    recordedEvm('ethereum/not-supported.json', 'mockNotSupportedPayload'),
    recordedEvm('ethereum/cosmos-mirror/bank-send.json', 'mockEvmMirroredCosmosBankSendPayload'),
    recordedEvm('ethereum/eth-transfer.json', 'mockEthTransferPayload'),
  ];
  const { chain, manifest } = buildSampleChain({
    chainId: 'yominet-1',
    vm: 'evm',
    evmChainId: EVM_CHAIN_ID,
    moniker: 'chain-sim-yominet',
    blockIntervalMs: 500,
    layout: [1, 2, 1, 0, 3, 1, 2],
    txs,
    notes: [
      'chain id yominet-1 (minievm, EVM chain id 428962654539583, OP bridge 11): every recorded EVM tx is from yominet-1.',
      'EVM txs without a recorded Cosmos side are wrapped as minievm records them: one /minievm.evm.v1.MsgCall (or MsgCreate) with call / create and `evm` log events; their EVM hashes are the recorded ones.',
      "Cosmos txs that emit EVM logs get a minievm-style mirror pseudo EVM tx (from 0x0, input = this chain's Cosmos hash) so eth_getBlockReceipts and the Cosmos `evm` events agree; recorded mirrors keep their EVM hash.",
      'txs marked derived replicate the recorded Transfer logs with new recipients / amounts / token ids (ERC20 payouts from the recorded 1,000,000 mint, ERC721 / Kami721 mints, transfers and burns).',
      'expected.* is replayed from the Transfer logs of the Cosmos `evm` events of successful txs (they include the ante fee-token transfers that EVM receipts of EVM-originated txs leave out, as on minievm); expected.openingBalances is the genesis state: the least balance per holder that keeps every running balance ≥ 0 (the fee token has no served mint), served as the auth/bank state with the logs up to the asked height.',
      'the IBC NFT send / receive txs come from other minievm chains (embrmainnet-1 / rave-1) and are placed here as minievm activity.',
    ],
  });
  // Replayed from the Cosmos `evm` events, the complete record: for EVM-originated txs minievm puts the
  // ante-handler fee-token transfers in the Cosmos events but not in the EVM receipt (see the recorded
  // single-contract-creation envelope vs its receipt); for every other log both sides agree.
  const logs: { height: number; log: EvmLog }[] = [];
  for (let h = 1; h <= chain.latestHeight(); h++)
    for (const t of chain.block(h)?.txs ?? [])
      if (t.result.code === 0) for (const log of evmLogsOfEvents(t.result.events)) logs.push({ height: h, log });
  const expected = replayTransfers(logs.map((x) => x.log));
  const evmManifest: EvmSampleManifest = {
    ...manifest,
    richListToken: RICH_LIST_TOKEN,
    nftCollections: [NFT_COLLECTION_A, NFT_COLLECTION_B],
    expected,
  };

  const { routes } = recordedRoutes(['ethereum/cosmos-mirror/ibc-receive-ft.json']);
  routes.unshift(
    // auth accounts and bank balances at any height: what the ingest's balance seed reads on first start
    ...new SampleBankState(chain, expected.openingBalances, logs).routes(),
    {
      // minievm maps `evm/<address>` denoms to their ERC20 contract.
      pattern: /^\/minievm\/evm\/v1\/contracts\/by_denom$/,
      handler: (_m, q) => {
        const denom = q.get('denom') ?? '';
        // and its base denom (umin) to the ERC20 it keeps bank balances in
        if (denom === NATIVE_DENOM) return { address: NATIVE_DENOM_CONTRACT };
        const m = /^evm\/([0-9a-fA-F]{40})$/.exec(denom);
        return m ? { address: getAddress(`0x${m[1] ?? ''}`) } : undefined;
      },
    },
    {
      pattern: /^\/minievm\/evm\/v1\/denoms\/(0x[0-9a-fA-F]{40})$/,
      handler: (m) => ({ denom: `evm/${getAddress(m[1] ?? '').slice(2)}` }),
    },
    { pattern: /^\/minievm\/evm\/v1\/contracts\/by_denom$/, handler: () => grpcError(404, 5, 'denom not found') },
  );
  const ethCalls: EthCallHandler[] = [
    (call) => answerFromState(expected, call.to, call.data ?? call.input),
    // ERC721 name() (nft-names.ts): Kami721 is yominet's Kami collection, the IBC-received class carries the
    // name "Jennie" in its classData (receive-nft-evm.json); the other one is named for the sample
    erc721Names({
      [NFT_COLLECTION_A]: 'Sample ERC721',
      [NFT_COLLECTION_B]: 'Kami',
      '0x83769beeb7e5405ef0b7dc3c66c43e3a51a6d27f': 'Jennie',
    }),
  ];
  return { chain, manifest: evmManifest, routes, ethCalls };
}

/** eth_call answers for balanceOf / ownerOf from the replayed state at the tip. */
function answerFromState(s: ExpectedEvmState, to: string | undefined, data: string | undefined): string | undefined {
  if (!to || !data) return undefined;
  const contract = to.toLowerCase();
  if (data.startsWith('0x70a08231') && data.length === 74 && s.erc20Balances[contract]) {
    const holder = `0x${data.slice(-40)}`.toLowerCase();
    return `0x${BigInt(s.erc20Balances[contract]?.[holder] ?? '0')
      .toString(16)
      .padStart(64, '0')}`;
  }
  if (data.startsWith('0x6352211e') && data.length === 74 && s.nftOwners[contract]) {
    const owner = s.nftOwners[contract]?.[BigInt(`0x${data.slice(10)}`).toString()];
    return owner ? `0x${owner.slice(2).padStart(64, '0')}` : undefined;
  }
  return undefined;
}
