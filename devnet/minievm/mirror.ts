// Real node → chain-sim: the same txs (their raw bytes, Tx JSON, results and EVM side) as chain-sim blocks,
// so that one history can be served both ways (bench/minievm-backfill.ts, test/minievm/devnet-fixtures.test.ts).
import type { EvmReceipt, EvmTxObject, TxInput, TxJson, TxResult } from '../chain-sim/types.js';
import { bech32ToEvm } from './accounts.js';

const ZERO = '0x0000000000000000000000000000000000000000';

export interface RecordedRestTx {
  tx: TxJson;
  tx_response: Record<string, unknown> & { txhash: string; events: TxResult['events'] };
}

/**
 * The EVM tx and receipt minievm shows for a Cosmos tx: its mirror (from 0x0, input = the Cosmos hash) or, for
 * an Ethereum-signed MsgCall/MsgCreate, the EVM tx of the same sender and nonce. Failed Cosmos txs have none.
 */
export function evmSideOf(
  rest: RecordedRestTx,
  evmTxs: readonly EvmTxObject[],
  receipts: readonly EvmReceipt[],
): { evmTx?: EvmTxObject; receipt?: EvmReceipt } {
  const hash = rest.tx_response.txhash.toUpperCase();
  const msg = rest.tx.body.messages[0] as { '@type'?: string; sender?: string } | undefined;
  const seq = (rest.tx.auth_info as { signer_infos?: { sequence?: string }[] }).signer_infos?.[0]?.sequence;
  let sender: string | undefined;
  try {
    sender = msg?.sender ? bech32ToEvm(msg.sender).toLowerCase() : undefined;
  } catch {
    sender = undefined;
  }
  const evmTx = evmTxs.find(
    (t) =>
      (t.from === ZERO &&
        String(t.input ?? '')
          .slice(2)
          .toUpperCase() === hash) ||
      (String(msg?.['@type']).startsWith('/minievm.evm.v1.') &&
        seq !== undefined &&
        String(t.from).toLowerCase() === sender &&
        BigInt(String(t.nonce)) === BigInt(seq)),
  );
  const receipt = evmTx ? receipts.find((r) => r.transactionHash === evmTx.hash) : undefined;
  return { evmTx, receipt };
}

/** One recorded tx as chain-sim input (same raw bytes, so the same hash). */
export function mirrorTx(
  raw: string,
  rest: RecordedRestTx,
  evmTxs: readonly EvmTxObject[],
  receipts: readonly EvmReceipt[],
): TxInput {
  const r = rest.tx_response;
  const { evmTx, receipt } = evmSideOf(rest, evmTxs, receipts);
  return {
    tx: rest.tx,
    raw,
    result: {
      code: Number(r.code),
      codespace: String(r.codespace ?? ''),
      data: String(r.data ?? ''),
      log: String(r.raw_log ?? ''),
      info: String(r.info ?? ''),
      gas_wanted: String(r.gas_wanted),
      gas_used: String(r.gas_used),
      events: r.events,
    },
    ...(evmTx && receipt ? { evm: { txs: [evmTx], receipts: [receipt] } } : {}),
  };
}
