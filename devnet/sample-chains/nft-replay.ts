// Expected NFT owners of the Move and Wasm sample chains, replayed from the served events in chain order
// (independently of any indexer code), so tests can compare an indexer's NFT state against them.
import type { AbciEvent } from '../../chain/events.js';
import type { SimChain } from '../chain-sim/chain.js';

export interface ExpectedNft {
  collection: string;
  tokenId: string;
  owner: string;
  object?: string;
}

const attrOf = (e: AbciEvent, key: string): string | undefined => e.attributes.find((a) => a.key === key)?.value;

interface MoveNftResource {
  collection: { inner: string };
  token_id: string;
}

/**
 * Move NFTs: `0x1::collection::MintEvent` names the NFT object, `0x1::object::CreateEvent` /
 * `TransferEvent` move it, `0x1::collection::BurnEvent` removes it. Objects moved without a served mint
 * are identified from their recorded `0x1::nft::Nft` resource (`nftResource`).
 */
export function replayMoveNfts(
  chain: SimChain,
  nftResource: (object: string) => MoveNftResource | undefined,
): ExpectedNft[] {
  const owners = new Map<string, string>();
  const nfts = new Map<string, { collection: string; tokenId: string }>();
  const burned = new Set<string>();
  const moved = new Set<string>();
  for (let h = 1; h <= chain.latestHeight(); h++) {
    for (const t of chain.block(h)?.txs ?? []) {
      if (t.result.code !== 0) continue;
      for (const e of t.result.events) {
        if (e.type !== 'move') continue;
        const tag = attrOf(e, 'type_tag');
        const data = attrOf(e, 'data');
        if (!tag || !data) continue;
        const d = JSON.parse(data) as Record<string, string>;
        if (tag === '0x1::collection::MintEvent' && d.nft)
          nfts.set(d.nft, { collection: d.collection ?? '', tokenId: d.token_id ?? '' });
        else if (tag === '0x1::collection::BurnEvent' && d.nft) burned.add(d.nft);
        else if (tag === '0x1::object::CreateEvent' && d.object && d.owner) owners.set(d.object, d.owner);
        else if (tag === '0x1::object::TransferEvent' && d.object && d.to) {
          owners.set(d.object, d.to);
          moved.add(d.object);
        }
      }
    }
  }
  for (const o of moved) {
    if (nfts.has(o)) continue;
    const r = nftResource(o);
    if (r) nfts.set(o, { collection: r.collection.inner, tokenId: r.token_id });
  }
  return [...nfts]
    .filter(([o]) => !burned.has(o) && owners.has(o))
    .map(([object, n]) => ({
      collection: n.collection,
      tokenId: n.tokenId,
      owner: owners.get(object) as string,
      object,
    }))
    .sort((a, b) => a.collection.localeCompare(b.collection) || a.tokenId.localeCompare(b.tokenId));
}

/** CW721: `wasm` events with action mint (owner), transfer_nft / send_nft (recipient), burn. */
export function replayCw721(chain: SimChain): ExpectedNft[] {
  const owners = new Map<string, string>();
  for (let h = 1; h <= chain.latestHeight(); h++) {
    for (const t of chain.block(h)?.txs ?? []) {
      if (t.result.code !== 0) continue;
      for (const e of t.result.events) {
        if (e.type !== 'wasm') continue;
        const contract = attrOf(e, '_contract_address');
        const action = attrOf(e, 'action');
        const tokenId = attrOf(e, 'token_id');
        if (!contract || !tokenId) continue;
        const key = `${contract}\u0000${tokenId}`;
        if (action === 'mint' && attrOf(e, 'owner')) owners.set(key, attrOf(e, 'owner') as string);
        else if ((action === 'transfer_nft' || action === 'send_nft') && attrOf(e, 'recipient'))
          owners.set(key, attrOf(e, 'recipient') as string);
        else if (action === 'burn') owners.delete(key);
      }
    }
  }
  return [...owners]
    .map(([k, owner]) => {
      const [collection, tokenId] = k.split('\u0000') as [string, string];
      return { collection, tokenId, owner };
    })
    .sort((a, b) => a.collection.localeCompare(b.collection) || a.tokenId.localeCompare(b.tokenId));
}
