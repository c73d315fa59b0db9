// Collection names of the sample chains' NFT contracts. A real ERC721 answers name() and a real CW721
// answers {"contract_info":{}} with the name it was instantiated with; the recorded fixtures hold the NFT
// events but not these answers, so without them every collection of the EVM and Wasm sample chains had an
// empty name (the indexer asks exactly these queries, as upstream). The names are declared here, not recorded.
import { AbiCoder } from 'ethers';
import type { EthCallHandler } from '../chain-sim/evm.js';
import type { SimChain } from '../chain-sim/chain.js';
import type { SampleRoute } from './routes.js';

const NAME_SELECTOR = '0x06fdde03';

/** eth_call name() of the given ERC721 contracts (lowercase address → name). */
export function erc721Names(names: Record<string, string>): EthCallHandler {
  return (call) => {
    const data = call.data ?? call.input ?? '';
    const name = call.to ? names[call.to.toLowerCase()] : undefined;
    if (name === undefined || data.toLowerCase() !== NAME_SELECTOR) return undefined;
    return AbiCoder.defaultAbiCoder().encode(['string'], [name]);
  };
}

/** Every CW721 contract of the chain: `wasm` events of a contract that mint, move or burn a `token_id`. */
function cw721Contracts(chain: SimChain): string[] {
  const out = new Set<string>();
  for (let h = 1; h <= chain.latestHeight(); h++)
    for (const t of chain.block(h)?.txs ?? [])
      for (const e of t.result.events) {
        if (e.type !== 'wasm') continue;
        const addr = e.attributes.find((a) => a.key === '_contract_address')?.value;
        const action = e.attributes.find((a) => a.key === 'action')?.value ?? '';
        const nftAction = ['mint', 'transfer_nft', 'send_nft', 'burn'].includes(action);
        if (addr && nftAction && e.attributes.some((a) => a.key === 'token_id')) out.add(addr);
      }
  return [...out];
}

/**
 * `/cosmwasm/wasm/v1/contract/{addr}/smart/{base64 query}` answering `{"contract_info":{}}` for the chain's
 * CW721 contracts with `{data: {name, symbol}}`, named `<prefix> <n>` in order of first appearance.
 */
export function cw721ContractInfoRoute(chain: SimChain, prefix: string): SampleRoute {
  const names = new Map(cw721Contracts(chain).map((a, i) => [a, `${prefix} ${i + 1}`]));
  return {
    pattern: /^\/cosmwasm\/wasm\/v1\/contract\/(init1[0-9a-z]{38,80})\/smart\/([A-Za-z0-9+/_=%-]+)$/,
    handler: (m) => {
      const name = names.get(m[1] ?? '');
      if (name === undefined) return undefined;
      let query: unknown;
      try {
        const b64 = decodeURIComponent(m[2] ?? '')
          .replace(/-/g, '+')
          .replace(/_/g, '/');
        query = JSON.parse(Buffer.from(b64, 'base64').toString('utf8'));
      } catch {
        return undefined;
      }
      if (!query || typeof query !== 'object' || !('contract_info' in query)) return undefined;
      return {
        data: {
          name,
          symbol: name
            .replace(/[^A-Za-z0-9]/g, '')
            .toUpperCase()
            .slice(0, 8),
        },
      };
    },
  };
}
