// The small slice of chain knowledge tracking needs (chain id → endpoints, IBC counterparties, OP bridges,
// LayerZero endpoint ids, explorer links). Filled from the router registry or from the simnet.
import type { Resolver } from '../workflows/evidence.js';
import type { TxRef } from '../workflows/model.js';

export interface ChainInfo {
  chainId: string;
  /** CometBFT RPC (tx, tx_search, block). Absent for EVM-only chains. */
  rpcUrl?: string;
  /** Cosmos REST (OPinit bridge and output queries on L1). */
  restUrl?: string;
  /** EVM JSON-RPC (receipts, eth_getLogs) for minievm / EVM chains. */
  evmRpcUrl?: string;
  bech32Prefix?: string;
  /** Explorer tx page template containing `${txHash}`. */
  explorerTxPage?: string;
  /** Own channel id → counterparty chain (ports share the channel id namespace per chain). */
  ibcChannels?: Record<string, { chainId: string; channelId: string; portId?: string }>;
  /** For an L2: its OPinit bridge id and L1 chain. */
  opBridgeId?: string;
  l1ChainId?: string;
  /** OPinit executor API (GET /withdrawal/{sequence}). */
  executorUrl?: string;
  /** LayerZero v2 endpoint id. */
  lzEid?: number;
}

export interface ChainDirectory {
  chain(chainId: string): ChainInfo | undefined;
  all(): ChainInfo[];
}

export function staticDirectory(chains: ChainInfo[]): ChainDirectory {
  const byId = new Map(chains.map((c) => [c.chainId, c]));
  return { chain: (id) => byId.get(id), all: () => [...byId.values()] };
}

export function explorerLink(c: ChainInfo | undefined, txHash: string): string {
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the registry's explorer page template uses a literal ${txHash} placeholder
  return c?.explorerTxPage ? c.explorerTxPage.split('${txHash}').join(txHash) : '';
}

export function resolverFor(dir: ChainDirectory): Resolver {
  return {
    ibcCounterparty: (chainId, _port, channel) => dir.chain(chainId)?.ibcChannels?.[channel]?.chainId,
    l2ByBridgeId: (bridgeId) => dir.all().find((c) => c.opBridgeId === bridgeId && c.l1ChainId)?.chainId,
    l1Of: (l2) => {
      const c = dir.chain(l2);
      return c?.opBridgeId && c.l1ChainId ? { l1ChainId: c.l1ChainId, bridgeId: c.opBridgeId } : undefined;
    },
    chainByLzEid: (eid) => dir.all().find((c) => c.lzEid === eid)?.chainId,
    lzEidOf: (chainId) => dir.chain(chainId)?.lzEid,
    txRef: (chainId, txHash, onChainAt): TxRef => {
      const ref: TxRef = { chainId, txHash, explorerLink: explorerLink(dir.chain(chainId), txHash) };
      if (onChainAt) ref.onChainAt = onChainAt;
      return ref;
    },
  };
}
