// The Move chain's own NFT state, read from the node's REST object resources: a collection's
// 0x1::collection::Collection (name, creator) and supply resource, each NFT object's 0x1::object::ObjectCore
// (owner) and 0x1::nft::Nft (token id, URI). A burned NFT's object has no resources left.
import { evmToBech32 } from '../minievm/accounts.js';
import type { NftCollectionState } from '../minievm/checks.js';
import { HttpError, getJson, type NodeEndpoints } from '../minievm/node-client.js';
import type { MintedNft } from './traffic.js';

/** One resource of an object or account, parsed; undefined when the node has none (404 / not found). */
export async function moveResource<T>(ep: NodeEndpoints, address: string, structTag: string): Promise<T | undefined> {
  try {
    const r = await getJson<{ resource: { move_resource: string } }>(
      `${ep.rest}/initia/move/v1/accounts/${address}/resources/by_struct_tag?struct_tag=${encodeURIComponent(structTag)}`,
    );
    return (JSON.parse(r.resource.move_resource) as { data: T }).data;
  } catch (err) {
    // the node answers a missing resource with 404, or 500 "not found" on some versions
    if (err instanceof HttpError && (err.status === 404 || /not found/i.test(err.message))) return undefined;
    throw err;
  }
}

const bech32 = (hex: string) => evmToBech32(`0x${hex.replace(/^0x/, '').padStart(40, '0').slice(-40)}`);

/** A collection object and the NFTs ever minted into it, as the chain holds them now. */
export async function moveCollectionState(
  ep: NodeEndpoints,
  collection: string,
  minted: readonly MintedNft[],
): Promise<NftCollectionState> {
  const info = await moveResource<{ name: string; creator: string }>(ep, collection, '0x1::collection::Collection');
  if (!info) throw new Error(`no 0x1::collection::Collection at ${collection}`);
  const supply =
    (await moveResource<{ current_supply: string }>(ep, collection, '0x1::collection::UnlimitedSupply')) ??
    (await moveResource<{ current_supply: string }>(ep, collection, '0x1::collection::FixedSupply'));
  if (!supply) throw new Error(`no supply resource at ${collection}`);
  const tokens = new Map<string, { owner: string; uri: string; object: string }>();
  const burned = new Set<string>();
  for (const m of minted.filter((x) => x.collection === collection)) {
    const nft = await moveResource<{ token_id: string; uri: string }>(ep, m.object, '0x1::nft::Nft');
    const core = await moveResource<{ owner: string }>(ep, m.object, '0x1::object::ObjectCore');
    if (!nft || !core) burned.add(m.tokenId);
    else tokens.set(nft.token_id, { owner: bech32(core.owner), uri: nft.uri, object: m.object });
  }
  return {
    address: collection,
    name: info.name,
    creator: bech32(info.creator),
    supply: Number(supply.current_supply),
    tokens,
    burned,
  };
}
