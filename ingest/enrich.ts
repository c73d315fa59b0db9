// Lookups the decoders cannot do alone (indexer.md §11.3): collection names (ERC721 name(), CW721
// contract_info), token URIs (ERC721 tokenURI(id), Move 0x1::nft::Nft resource), and Move object events
// attributed to the NFT they move. Names/URIs are best effort: a failed lookup leaves the field empty and
// never stops the ingest; a reverting ERC721 collection is not asked again (as upstream does).
import { fromHex, toBase64, toBech32 } from '@cosmjs/encoding';
import { Interface } from 'ethers';
import type { Store } from '../clickhouse/client.js';
import type { Logger } from '../platform/log.js';
import type { BlockFacts } from './decode/block.js';
import { moveObject, type Vm } from './decode/nft.js';
import type { ChainSource } from './source.js';

const erc721 = new Interface(['function name() view returns (string)', 'function tokenURI(uint256) view returns (string)']);

const URI_LOOKUP_CONCURRENCY = 8;

export interface Enricher {
  enrich(blocks: BlockFacts[]): Promise<void>;
}

export function createEnricher(vm: Vm, store: Store, source: ChainSource, log: Logger, prefix = 'init'): Enricher {
  const knownCollections = new Set<string>();
  const names = new Map<string, string>();
  const reverted = new Set<string>();
  const objects = new Map<string, { collection: string; token_id: string }>();

  async function best<T>(what: string, fn: () => Promise<T>, fallback: T): Promise<T> {
    try {
      return await fn();
    } catch (e) {
      log.debug('ingest.enrich_failed', { what, error: (e as Error).message.slice(0, 200) });
      return fallback;
    }
  }

  async function collectionName(collection: string, lookup: 'evm' | 'wasm' | undefined, height: number): Promise<string> {
    if (names.has(collection)) return names.get(collection)!;
    let name = '';
    if (lookup === 'evm' && !reverted.has(collection)) {
      name = await best('name()', async () => {
        try {
          return erc721.decodeFunctionResult('name', await source.evmCall(collection, erc721.encodeFunctionData('name'), height))[0] as string;
        } catch (e) {
          reverted.add(collection);
          throw e;
        }
      }, '');
    } else if (lookup === 'wasm') {
      const addr = toBech32(prefix, fromHex(collection.slice(2)));
      const q = toBase64(new TextEncoder().encode('{"contract_info":{}}'));
      name = await best('contract_info', async () => (await source.restGet<{ data?: { name?: string } }>(`/cosmwasm/wasm/v1/contract/${addr}/smart/${encodeURIComponent(q)}`)).data?.name ?? '', '');
    }
    names.set(collection, name);
    return name;
  }

  async function tokenUri(collection: string, tokenId: string, objectAddr: string, height: number): Promise<string> {
    if (vm === 'evm' && !reverted.has(collection)) {
      return best('tokenURI', async () => {
        const data = erc721.encodeFunctionData('tokenURI', [BigInt(tokenId)]);
        return erc721.decodeFunctionResult('tokenURI', await source.evmCall(collection, data, height))[0] as string;
      }, '');
    }
    if (vm === 'move' && objectAddr) {
      return best('0x1::nft::Nft', async () => {
        const r = await source.restGet<{ resource?: { move_resource?: string } }>(
          `/initia/move/v1/accounts/${objectAddr}/resources/by_struct_tag?struct_tag=${encodeURIComponent('0x1::nft::Nft')}`,
        );
        return (JSON.parse(r.resource?.move_resource ?? '{}') as { data?: { uri?: string } }).data?.uri ?? '';
      }, '');
    }
    return '';
  }

  const notNfts = new Set<string>();

  /** Move object → NFT: first our own mints, then the chain's `0x1::nft::Nft` resource (NFTs minted before the indexed range). */
  async function lookupObjects(addrs: string[]) {
    let missing = addrs.filter((a) => !objects.has(a) && !notNfts.has(a));
    if (missing.length === 0) return;
    const rows = await store.rows<{ object_addr: string; collection: string; token_id: string }>(
      'SELECT object_addr, any(collection) AS collection, any(token_id) AS token_id FROM nft_objects WHERE object_addr IN {a:Array(String)} GROUP BY object_addr',
      { a: missing },
    );
    for (const r of rows) objects.set(r.object_addr, { collection: r.collection, token_id: r.token_id });
    missing = missing.filter((a) => !objects.has(a));
    await Promise.all(missing.map(async (addr) => {
      const nft = await best('0x1::nft::Nft', async () => {
        const r = await source.restGet<{ resource?: { move_resource?: string } }>(
          `/initia/move/v1/accounts/${addr}/resources/by_struct_tag?struct_tag=${encodeURIComponent('0x1::nft::Nft')}`,
        );
        const data = (JSON.parse(r.resource?.move_resource ?? '{}') as { data?: { collection?: { inner?: string }; token_id?: string } }).data;
        return data?.collection?.inner && data.token_id !== undefined ? { collection: moveObject(data.collection.inner), token_id: String(data.token_id) } : null;
      }, null);
      if (nft) objects.set(addr, nft);
      else notNfts.add(addr);
    }));
  }

  async function unknownCollections(cols: string[]): Promise<Set<string>> {
    const fresh = cols.filter((c) => !knownCollections.has(c));
    if (fresh.length === 0) return new Set();
    const rows = await store.rows<{ collection: string }>('SELECT DISTINCT collection FROM nft_collection_events WHERE collection IN {c:Array(String)}', { c: fresh });
    for (const r of rows) knownCollections.add(r.collection);
    return new Set(fresh.filter((c) => !knownCollections.has(c)));
  }

  return {
    async enrich(blocks) {
      // Move object events → NFT transfers/mutations, in chain order so a mint earlier in the batch is known.
      const objectAddrs = blocks.flatMap((b) => b.txs.flatMap((t) => t.nft.objectEvents.map((o) => o.object)));
      if (objectAddrs.length) await lookupObjects([...new Set(objectAddrs)]);
      const candidates = [...new Set(blocks.flatMap((b) => b.txs.flatMap((t) => t.nft.collections.map((c) => c.collection))))];
      const fresh = await unknownCollections(candidates);
      const uriJobs: (() => Promise<void>)[] = [];
      for (const b of blocks) {
        for (const t of b.txs) {
          for (const e of t.nft.events) {
            if (e.kind === 'mint' && e.object_addr) objects.set(e.object_addr, { collection: e.collection, token_id: e.token_id });
            if (e.kind === 'mint' && !e.uri) uriJobs.push(async () => void (e.uri = await tokenUri(e.collection, e.token_id, e.object_addr, b.height)));
          }
          for (const o of t.nft.objectEvents) {
            const nft = objects.get(o.object);
            if (!nft) continue; // an object that is not a known NFT (fungible store, module object, …)
            t.nft.events.push({ collection: nft.collection, token_id: nft.token_id, kind: o.kind, from_owner: o.from_owner, to_owner: o.to_owner, uri: o.uri, object_addr: o.object, event_index: o.event_index });
          }
          t.nft.objectEvents = [];
          // Keep one creation row per collection: the first time it is seen.
          const keep = [];
          for (const c of t.nft.collections) {
            if (!fresh.has(c.collection)) continue;
            fresh.delete(c.collection);
            knownCollections.add(c.collection);
            if (!c.name) c.name = await collectionName(c.collection, c.lookup, b.height);
            keep.push(c);
          }
          t.nft.collections = keep;
        }
      }
      // At most URI_LOOKUP_CONCURRENCY lookups in flight, so a backfill full of mints does not flood the node.
      let next = 0;
      await Promise.all(Array.from({ length: Math.min(URI_LOOKUP_CONCURRENCY, uriJobs.length) }, async () => {
        while (next < uriJobs.length) await uriJobs[next++]!();
      }));
    },
  };
}

