// NFT facts from one tx's events (docs/indexer.md): ERC721 Transfer logs (EVM), CW721 `wasm` events,
// Move `0x1::collection` / `0x1::nft` / `0x1::object` events. Pure: lookups (names, URIs, Move object →
// token) happen in ingest/enrich.ts.
import { createHash } from 'node:crypto';
import { fromBech32, toHex } from '@cosmjs/encoding';
import { normalizeAccount, topicAddress, ZERO_EVM_ADDRESS } from '../../chain/address.js';
import { evmLogsOf } from './events.js';
import { attrs, type AbciEvent } from '../../chain/events.js';

export const ERC721_TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';

export type NftKind = 'mint' | 'transfer' | 'burn' | 'mutate';

export interface NftEventFact {
  collection: string;
  token_id: string;
  kind: NftKind;
  from_owner: string;
  to_owner: string;
  uri: string;
  object_addr: string;
  event_index: number;
}

export interface CollectionFact {
  collection: string;
  name: string;
  origin_name: string;
  creator: string;
  /** Where the name must be looked up (empty name): 'evm' name(), 'wasm' contract_info, 'move' 0x1::collection::Collection. */
  lookup?: 'evm' | 'wasm' | 'move';
}

/** A Move object event that concerns an NFT only if the object is a known NFT (resolved later). */
export interface MoveObjectEvent {
  object: string;
  kind: 'transfer' | 'mutate';
  from_owner: string;
  to_owner: string;
  uri: string;
  event_index: number;
}

/** The holder of a token minted before the indexed range, proven by its first transfer (ledger opening). */
export interface NftOpening {
  collection: string;
  token_id: string;
  owner: string;
}

/**
 * A collection received over ICS-721 (`recv_packet` on `nft-transfer`): the collection this chain names `name` (the
 * class id it derives) came from one named `origin_name` on the sending chain (the packet's class data).
 */
export interface ClassOrigin {
  name: string;
  origin_name: string;
}

export interface NftDecodeResult {
  events: NftEventFact[];
  collections: CollectionFact[];
  /** Filled by ICS-721 receipts; the enricher gives the named collections their origin name. */
  origins?: ClassOrigin[];
  objectEvents: MoveObjectEvent[];
  /** EVM contracts this tx created (minievm's `contract_created` events, internal creations included). */
  contracts?: string[];
  /** Filled by the enricher: opening +1 entries of the ownership ledger (nft_holdings). */
  openings?: NftOpening[];
  /**
   * Filled by the enricher (Move): NFTs whose object this tx touches (its address among the tx's accounts) with no
   * NFT event of them: a description change, a marketplace listing. They are the NFT's txs too (nft_token_txs).
   */
  touches?: { collection: string; token_id: string }[];
}

import type { Vm } from '../../chain/vm.js';

export type { Vm };

const moveHex = (v: unknown): string => {
  const s = String(v ?? '')
    .toLowerCase()
    .replace(/^0x/, '')
    .replace(/^0+/, '');
  return `0x${s.padStart(s.length <= 40 ? 40 : 64, '0')}`;
};
export const moveObject = (v: unknown): string =>
  '0x' +
  String(v ?? '')
    .toLowerCase()
    .replace(/^0x/, '')
    .padStart(64, '0');

export function decodeNfts(vm: Vm, events: readonly AbciEvent[], signer: string, prefix = 'init'): NftDecodeResult {
  const out: NftDecodeResult = { events: [], collections: [], objectEvents: [] };
  const owner = (v: string) => normalizeAccount(v, prefix) ?? '';
  // Move: owners of objects created in this tx (0x1::object::CreateEvent), for the NFTs minted in it.
  const createdOwner = new Map<string, unknown>();
  if (vm === 'move') {
    for (const e of events) {
      if (e.type !== 'move') continue;
      const a = attrs(e);
      if (a.type_tag !== '0x1::object::CreateEvent') continue;
      const d = JSON.parse(a.data ?? '{}') as Record<string, unknown>;
      createdOwner.set(moveObject(d.object), d.owner);
    }
  }
  events.forEach((ev, i) => {
    if (vm === 'evm' && ev.type === 'contract_created') {
      // A collection's height/time is its deployment, as upstream reports it, not its first mint.
      const contract = attrs(ev).contract;
      if (contract && /^0x[0-9a-fA-F]{40}$/.test(contract)) (out.contracts ??= []).push(contract.toLowerCase());
    } else if (vm === 'evm' && ev.type === 'evm') {
      for (const log of evmLogsOf(ev)) {
        if (
          log.topics.length !== 4 ||
          log.topics[0] !== ERC721_TRANSFER_TOPIC ||
          (log.data !== '0x' && log.data !== '')
        )
          continue;
        const from = topicAddress(log.topics[1]);
        const to = topicAddress(log.topics[2]);
        if (!from || !to) continue;
        const tokenId = BigInt(log.topics[3]!).toString();
        const kind: NftKind = from === ZERO_EVM_ADDRESS ? 'mint' : to === ZERO_EVM_ADDRESS ? 'burn' : 'transfer';
        out.events.push({
          collection: log.address,
          token_id: tokenId,
          kind,
          from_owner: kind === 'mint' ? '' : owner(from),
          to_owner: kind === 'burn' ? '' : owner(to),
          uri: '',
          object_addr: '',
          event_index: i,
        });
        // First seen (by any event, so a start mid-chain still lists it): creator = that tx's signer (§7.1).
        out.collections.push({ collection: log.address, name: '', origin_name: '', creator: signer, lookup: 'evm' });
      }
    } else if (vm === 'wasm' && ev.type === 'wasm') {
      const a = attrs(ev);
      const contract = a._contract_address;
      if (!contract) return;
      let collection: string;
      try {
        collection = `0x${toHex(fromBech32(contract).data)}`;
      } catch {
        return;
      }
      // A collection event (`minter` with `creator` or `owner`, as upstream reads it) makes the collection, the
      // CW721 instantiate's included, so a collection exists from its instantiate, minted or not. Its creator is the
      // contract's (contract_info.creator, looked up by the enricher), not the minter.
      if (a.minter !== undefined && (a.creator !== undefined || a.owner !== undefined))
        out.collections.push({ collection, name: '', origin_name: '', creator: '', lookup: 'wasm' });
      const tokenId = a.token_id;
      if (tokenId === undefined) return;
      // A mint needs the token and its owner, as upstream reads it: contracts that mint without naming a `minter`
      // (CW721 forks do) still mint, and their collection is first seen here.
      if (a.action === 'mint' && (a.owner || a.creator)) {
        if (a.minter === undefined)
          out.collections.push({ collection, name: '', origin_name: '', creator: '', lookup: 'wasm' });
        out.events.push({
          collection,
          token_id: tokenId,
          kind: 'mint',
          from_owner: '',
          to_owner: owner(a.owner ?? a.creator ?? ''),
          uri: a.token_uri ?? '',
          object_addr: '',
          event_index: i,
        });
      } else if ((a.action === 'transfer_nft' || a.action === 'send_nft') && a.recipient) {
        // CW721 events name the sender, which may be an approved operator rather than the owner: the previous
        // owner is filled in by the enricher from the token's history.
        out.events.push({
          collection,
          token_id: tokenId,
          kind: 'transfer',
          from_owner: '',
          to_owner: owner(a.recipient),
          uri: '',
          object_addr: '',
          event_index: i,
        });
        out.collections.push({ collection, name: '', origin_name: '', creator: '', lookup: 'wasm' });
      } else if (a.action === 'burn') {
        out.events.push({
          collection,
          token_id: tokenId,
          kind: 'burn',
          from_owner: '',
          to_owner: '',
          uri: '',
          object_addr: '',
          event_index: i,
        });
      }
    } else if (vm === 'move' && ev.type === 'move') {
      const a = attrs(ev);
      const tag = a.type_tag ?? '';
      if (!tag.startsWith('0x1::collection::') && !tag.startsWith('0x1::object::') && !tag.startsWith('0x1::nft::'))
        return;
      const data = JSON.parse(a.data ?? '{}') as Record<string, unknown>;
      if (tag === '0x1::collection::CreateCollectionEvent') {
        out.collections.push({
          collection: moveObject(data.collection),
          name: String(data.name ?? ''),
          origin_name: '',
          creator: owner(moveHex(data.creator)),
        });
      } else if (tag === '0x1::collection::MintEvent') {
        const nft = moveObject(data.nft);
        const created = createdOwner.get(nft);
        out.events.push({
          collection: moveObject(data.collection),
          token_id: String(data.token_id ?? data.index ?? ''),
          kind: 'mint',
          from_owner: '',
          to_owner: created ? owner(moveHex(created)) : signer,
          uri: '',
          object_addr: nft,
          event_index: i,
        });
        // A collection created before the indexed range is first seen here.
        out.collections.push({
          collection: moveObject(data.collection),
          name: '',
          origin_name: '',
          creator: '',
          lookup: 'move',
        });
      } else if (tag === '0x1::collection::BurnEvent') {
        out.events.push({
          collection: moveObject(data.collection),
          token_id: String(data.token_id ?? data.index ?? ''),
          kind: 'burn',
          from_owner: '',
          to_owner: '',
          uri: '',
          object_addr: moveObject(data.nft),
          event_index: i,
        });
      } else if (tag === '0x1::object::TransferEvent') {
        out.objectEvents.push({
          object: moveObject(data.object),
          kind: 'transfer',
          from_owner: owner(moveHex(data.from)),
          to_owner: owner(moveHex(data.to)),
          uri: '',
          event_index: i,
        });
      } else if (tag === '0x1::nft::MutationEvent' && data.mutated_field_name === 'uri') {
        out.objectEvents.push({
          object: moveObject(data.nft),
          kind: 'mutate',
          from_owner: '',
          to_owner: '',
          uri: String(data.new_value ?? ''),
          event_index: i,
        });
      }
    } else if (ev.type === 'recv_packet') {
      const origin = classOrigin(vm, attrs(ev));
      if (origin) (out.origins ??= []).push(origin);
    }
  });
  return out;
}

/**
 * The ICS-721 class a `recv_packet` brings, as upstream pairs them: on Wasm the class id this chain derives is the
 * prefixed path (`port/channel/class`), elsewhere the `ibc/` hash of it (initia's GetNftTransferClassId: sha256 of
 * the full path, upper hex). Its origin name is the class data's `name`. Anything unreadable gives none.
 */
function classOrigin(vm: Vm, a: Record<string, string>): ClassOrigin | undefined {
  if (a.packet_src_port !== 'nft-transfer' || !a.packet_dst_port || !a.packet_dst_channel) return undefined;
  try {
    const raw = a.packet_data ?? (a.packet_data_hex ? Buffer.from(a.packet_data_hex, 'hex').toString('utf8') : '');
    const data = JSON.parse(raw) as {
      classId?: unknown;
      class_id?: unknown;
      classData?: unknown;
      class_data?: unknown;
    };
    const classId = data.classId ?? data.class_id;
    const classData = data.classData ?? data.class_data;
    if (typeof classId !== 'string' || !classId || typeof classData !== 'string') return undefined;
    const origin = (JSON.parse(Buffer.from(classData, 'base64').toString('utf8')) as { name?: unknown }).name;
    if (typeof origin !== 'string' || !origin) return undefined;
    const path = `${a.packet_dst_port}/${a.packet_dst_channel}/${classId}`;
    const name =
      vm === 'wasm' || !/^channel-\d+$/.test(a.packet_dst_channel)
        ? path
        : `ibc/${createHash('sha256').update(path, 'utf8').digest('hex').toUpperCase()}`;
    return { name, origin_name: origin };
  } catch {
    return undefined;
  }
}

/**
 * One tx's NFT events in chain order, with each Move mint that the same tx hands straight on folded into one mint to
 * the receiver. A Move mint creates the object owned by its creator (0x1::object::CreateEvent), and a mint to
 * someone else transfers it in the same tx (0x1::object::TransferEvent): one action, which an ERC721 or CW721 mint
 * to the receiver records as one mint. Folded, holdings, the owner and the token's txs are unchanged (the creator's
 * +1 and -1 cancel) and the collection's transfer count holds only real transfers. Only the token's next event is
 * folded, and only when it moves the token from the mint's owner.
 */
export function foldMoveMintTransfers(events: NftEventFact[]): NftEventFact[] {
  const out: NftEventFact[] = [];
  /** The mint of each token that no later event of this tx has touched yet: its index in `out`. */
  const fresh = new Map<string, number>();
  for (const e of events) {
    const key = `${e.collection}|${e.token_id}`;
    const at = fresh.get(key);
    fresh.delete(key);
    const mint = at === undefined ? undefined : out[at]!;
    if (mint && e.kind === 'transfer' && e.object_addr !== '' && e.from_owner === mint.to_owner) {
      out[at!] = { ...mint, to_owner: e.to_owner };
      continue;
    }
    if (e.kind === 'mint' && e.object_addr !== '') fresh.set(key, out.length);
    out.push(e);
  }
  return out;
}
