// The Wasm sample chain (intergaze-1): the real miniwasm txs of the tx-decoder fixtures: CW721 mint,
// CW20 transfer, execute / instantiate (one failed), bank sends, OPinit finalize deposit and withdrawal,
// IBC ICS-20 send and receive (the moo-1 receive of the L1 packet recorded under ibc/move) and ICS-721 receive.
import { loadIndex } from './fixtures.js';
import { ROLLUP_RECEIVE } from './move.js';
import {
  buildSampleChain,
  byOriginalTime,
  dedupeByOriginalHash,
  fromRecorded,
  type SampleManifest,
} from './builder.js';
import { recordedRoutes, type SampleRoute } from './routes.js';
import type { SimChain } from '../chain-sim/chain.js';
import type { TxResult } from '../chain-sim/types.js';
import { replayCw721, type ExpectedNft } from './nft-replay.js';
import { cw721ContractInfoRoute } from './nft-names.js';

export interface WasmSampleManifest extends SampleManifest {
  /** CW721 tokens alive at the tip with their owners (replayed from the served wasm events). */
  expectedNfts: ExpectedNft[];
}

const WASM_FILE = /^(cosmos\/wasm\/|protocols\/ibc\/wasm\/|protocols\/ibc\/nft-wasm\.json$)/;

export function wasmFixtureRows(): Array<{ file: string; export: string }> {
  const rows: Array<{ file: string; export: string }> = loadIndex().filter(
    (r) => r.kind === 'cosmos_tx_response' && !r.synthetic && WASM_FILE.test(r.file),
  );
  // The moo-1 receive of the L1 ICS-20 packet (sequence 2898 on channel-29) is a miniwasm rollup tx.
  return [...rows, ROLLUP_RECEIVE];
}

interface ContractInfo {
  address: string;
  code_id: string;
  creator: string;
  admin: string;
  label: string;
  /**
   * wasmd's AbsoluteTxPosition of the instantiation: its block, and as `tx_index` the block gas meter's reading at
   * that moment, i.e. the gas used by the txs before it in the block (the real miniwasm devnet's contract answer,
   * 140145, is the gas_used of the tx before it: test/fixtures/miniwasm-devnet/instantiate.json).
   */
  created: { block_height: string; tx_index: string };
}

/** Contracts instantiated on the chain, from their `instantiate` events and messages (for /cosmwasm/wasm/v1/contract/{addr}). */
function instantiatedContracts(chain: SimChain): Map<string, ContractInfo> {
  const out = new Map<string, ContractInfo>();
  for (let h = 1; h <= chain.latestHeight(); h++) {
    let blockGas = 0n;
    for (const t of chain.block(h)?.txs ?? []) {
      const before = blockGas;
      blockGas += BigInt(t.result.gas_used || '0');
      if (t.result.code === 0) addInstantiated(out, t, { block_height: String(h), tx_index: before.toString() });
    }
  }
  return out;
}

function addInstantiated(
  out: Map<string, ContractInfo>,
  t: { tx: { body: { messages: Array<Record<string, unknown>> } }; result: TxResult },
  created: ContractInfo['created'],
): void {
  const msg = t.tx.body.messages.find((m) => m['@type'] === '/cosmwasm.wasm.v1.MsgInstantiateContract');
  if (!msg) return;
  for (const e of t.result.events) {
    if (e.type !== 'instantiate') continue;
    const addr = e.attributes.find((a) => a.key === '_contract_address')?.value;
    const codeId = e.attributes.find((a) => a.key === 'code_id')?.value;
    if (addr)
      out.set(addr, {
        address: addr,
        code_id: codeId ?? String(msg.code_id ?? ''),
        creator: String(msg.sender ?? ''),
        admin: String(msg.admin ?? ''),
        label: String(msg.label ?? ''),
        created,
      });
  }
}

/** `/cosmwasm/wasm/v1/contract/{addr}` for the contracts instantiated on `chain`, in wasmd's answer shape. */
export function contractInfoRoute(chain: SimChain): SampleRoute {
  const contracts = instantiatedContracts(chain);
  return {
    pattern: /^\/cosmwasm\/wasm\/v1\/contract\/(init1[0-9a-z]{38,80})$/,
    handler: (m) => {
      const c = contracts.get(m[1] ?? '');
      return c
        ? {
            address: c.address,
            contract_info: {
              code_id: c.code_id,
              creator: c.creator,
              admin: c.admin,
              label: c.label,
              created: c.created,
              ibc_port_id: '',
              extension: null,
            },
          }
        : undefined;
    },
  };
}

export function buildWasmChain(): { chain: SimChain; manifest: WasmSampleManifest; routes: SampleRoute[] } {
  const rows = wasmFixtureRows();
  const txs = dedupeByOriginalHash(byOriginalTime(rows.map((r) => fromRecorded(r.file, r.export))));
  const { chain, manifest } = buildSampleChain({
    chainId: 'intergaze-1',
    vm: 'wasm',
    moniker: 'chain-sim-intergaze',
    blockIntervalMs: 500,
    layout: [1, 1, 0, 2, 1],
    txs,
    notes: [
      'chain id intergaze-1 (miniwasm, OP bridge 31): the wasm txs come from intergaze-1 and moo-1; intergaze-1 is chosen because its bank, withdrawal and IBC send (L1 channel-66) txs are real intergaze txs.',
      'txs ordered by their recorded timestamps, 500 ms block spacing like a rollup.',
    ],
  });
  // The moo-1 receive's file also records L1 Move answers of its sibling export; they do not belong here.
  const { routes } = recordedRoutes([...new Set(rows.filter((r) => r !== ROLLUP_RECEIVE).map((r) => r.file))]);
  routes.unshift(contractInfoRoute(chain));
  routes.unshift(cw721ContractInfoRoute(chain, 'Sample CW721')); // collection names (nft-names.ts)
  return { chain, manifest: { ...manifest, expectedNfts: replayCw721(chain) }, routes };
}
