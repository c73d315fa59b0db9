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

/**
 * Every CW721 contract of the chain: `wasm` events of a contract that mint, move or burn a `token_id`, with the
 * time of the block it first appears in.
 */
function cw721Contracts(chain: SimChain): Map<string, string> {
  const out = new Map<string, string>();
  for (let h = 1; h <= chain.latestHeight(); h++)
    for (const t of chain.block(h)?.txs ?? [])
      for (const e of t.result.events) {
        if (e.type !== 'wasm') continue;
        const addr = e.attributes.find((a) => a.key === '_contract_address')?.value;
        const action = e.attributes.find((a) => a.key === 'action')?.value ?? '';
        const nftAction = ['mint', 'transfer_nft', 'send_nft', 'burn'].includes(action);
        if (addr && nftAction && e.attributes.some((a) => a.key === 'token_id') && !out.has(addr))
          out.set(addr, chain.block(h)?.time ?? '');
      }
  return out;
}

/** An RFC 3339 time with nanoseconds as Unix nanoseconds (decimal string), as CosmWasm's `Timestamp` prints. */
export function unixNanos(rfc3339: string): string {
  const m = /^(.*T\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?Z$/.exec(rfc3339);
  if (!m) return '0';
  const seconds = BigInt(Math.floor(Date.parse(`${m[1]}Z`) / 1000));
  return (seconds * 1_000_000_000n + BigInt((m[2] ?? '').padEnd(9, '0') || '0')).toString();
}

/**
 * `/cosmwasm/wasm/v1/contract/{addr}/smart/{base64 query}` answering `{"contract_info":{}}` for the chain's
 * CW721 contracts as the CW721 that miniwasm deploys answers it (test/fixtures/miniwasm-devnet/state.json):
 * `{data: {name, symbol, extension: null, updated_at}}`, named `<prefix> <n>` in order of first appearance,
 * `updated_at` the Unix nanoseconds of that first block (the node's is its instantiation's block time).
 */
export function cw721ContractInfoRoute(chain: SimChain, prefix: string): SampleRoute {
  const contracts = cw721Contracts(chain);
  const names = new Map([...contracts.keys()].map((a, i) => [a, `${prefix} ${i + 1}`]));
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
          extension: null,
          updated_at: unixNanos(contracts.get(m[1] ?? '') ?? ''),
        },
      };
    },
  };
}

const TOKEN_URI_SELECTOR = '0xc87b56dd';

/**
 * eth_call tokenURI(uint256) of the given ERC721 contracts: `<base>/<contract>/<id>` (declared, like the names;
 * a real ERC721 answers tokenURI for its tokens, and rollytics retries a reverted one with backoff for ~1 min).
 */
export function erc721TokenUris(contracts: string[], base = 'https://sample-chain.invalid/nft'): EthCallHandler {
  const known = new Set(contracts.map((c) => c.toLowerCase()));
  return (call) => {
    const data = (call.data ?? call.input ?? '').toLowerCase();
    const to = call.to?.toLowerCase();
    if (!to || !known.has(to) || !data.startsWith(TOKEN_URI_SELECTOR) || data.length !== 74) return undefined;
    const id = BigInt(`0x${data.slice(10)}`).toString();
    return AbiCoder.defaultAbiCoder().encode(['string'], [`${base}/${to}/${id}`]);
  };
}

const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';

/** Every ERC721 contract of the chain: Transfer logs with the token id as a third topic. */
export function erc721Contracts(chain: SimChain): string[] {
  const out = new Set<string>();
  for (let h = 1; h <= chain.latestHeight(); h++)
    for (const t of chain.block(h)?.txs ?? [])
      for (const r of t.evm?.receipts ?? [])
        for (const l of r.logs)
          if (l.topics[0] === TRANSFER_TOPIC && l.topics.length === 4) out.add(l.address.toLowerCase());
  return [...out];
}
