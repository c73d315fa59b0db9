// The Wasm chain's own CW721 state, read with the contract's smart queries over the node's REST
// (contract_info, num_tokens, owner_of, nft_info) and the contract's creator from /cosmwasm/wasm/v1/contract.
import { fromBech32, toHex } from '@cosmjs/encoding';
import type { NftCollectionState } from '../minievm/checks.js';
import { getJson, HttpError, type NodeEndpoints } from '../minievm/node-client.js';
import type { Cw721Minted } from './traffic.js';

/** A smart query's answer; undefined when the contract rejects it (e.g. owner_of of a burned token). */
export async function smartQuery<T>(ep: NodeEndpoints, contract: string, query: unknown): Promise<T | undefined> {
  const q = Buffer.from(JSON.stringify(query)).toString('base64');
  try {
    return (
      await getJson<{ data: T }>(`${ep.rest}/cosmwasm/wasm/v1/contract/${contract}/smart/${encodeURIComponent(q)}`)
    ).data;
  } catch (err) {
    if (err instanceof HttpError && err.status >= 400 && err.status < 600 && /not found/i.test(err.message))
      return undefined;
    throw err;
  }
}

export async function cw721State(
  ep: NodeEndpoints,
  contract: string,
  minted: readonly Cw721Minted[],
): Promise<NftCollectionState> {
  const info = await smartQuery<{ name: string }>(ep, contract, { contract_info: {} });
  const count = await smartQuery<{ count: number }>(ep, contract, { num_tokens: {} });
  const meta = await getJson<{ contract_info: { creator: string } }>(
    `${ep.rest}/cosmwasm/wasm/v1/contract/${contract}`,
  );
  if (!info || !count) throw new Error(`${contract} answers no contract_info / num_tokens`);
  const tokens = new Map<string, { owner: string; uri: string }>();
  const burned = new Set<string>();
  for (const m of minted.filter((x) => x.contract === contract)) {
    const owner = await smartQuery<{ owner: string }>(ep, contract, { owner_of: { token_id: m.tokenId } });
    const nft = await smartQuery<{ token_uri: string | null }>(ep, contract, { nft_info: { token_id: m.tokenId } });
    if (!owner || !nft) burned.add(m.tokenId);
    else tokens.set(m.tokenId, { owner: owner.owner, uri: nft.token_uri ?? '' });
  }
  return {
    // The API names a collection by its address bytes as 0x-hex on every VM (as the reference indexer does).
    address: `0x${toHex(fromBech32(contract).data)}`,
    name: info.name,
    creator: meta.contract_info.creator,
    supply: count.count,
    tokens,
    burned,
  };
}
