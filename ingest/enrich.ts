// Lookups the decoders cannot do alone (docs/indexer.md), at the block's height (`x-cosmos-block-height`):
// - collection names (ERC721 name(), CW721 contract_info) and token URIs (ERC721 tokenURI(id), Move
//   0x1::nft::Nft): cosmetic, best effort after a few tries; a revert or a failed lookup leaves the field empty.
//   ERC721 calls go in EVM batches (a batch's mints in a few POSTs, not one request each);
// - Move object → NFT and the previous owner of CW721/Move transfers and burns: these decide which rows exist,
//   so they are retried like block fetches and only definite answers are cached.
import { fromHex, toBase64, toBech32 } from '@cosmjs/encoding';
import { Interface } from 'ethers';
import type { Store } from '../clickhouse/client.js';
import { collectionsNamed, lastNftOwners, nftObjects, storedCollections } from '../clickhouse/queries/nft-lookups.js';
import type { Logger } from '../platform/log.js';
import type { BlockFacts } from './decode/block.js';
import { type CollectionFact, foldMoveMintTransfers, moveObject, type NftEventFact, type Vm } from './decode/nft.js';
import type { ChainSource, EthCall, EthCallOutcome } from './source.js';
import { TransientSourceError, withRetry } from '../chain/retry.js';
import { accountHex, normalizeAccount } from '../chain/address.js';

const erc721 = new Interface([
  'function name() view returns (string)',
  'function tokenURI(uint256) view returns (string)',
]);
const LOOKUP_CONCURRENCY = 8;
/** eth_calls handed to the source at once (it posts them 50 a POST, the POSTs at once). */
const EVM_LOOKUP_GROUP = 400;
/** Tries of a cosmetic lookup, and the pause before the second (doubled before each later one). */
const COSMETIC_ATTEMPTS = 3;
const COSMETIC_BASE_MS = 100;
const CACHE_LIMIT = 100_000;
/** Object addresses asked of nft_objects in one query (each ~70 bytes of a server's URL). */
const OBJECT_LOOKUP_CHUNK = 1_000;
const MOVE_OBJECT_RE = /^0x[0-9a-f]{64}$/;
/** wasmd's answer to a smart query the contract's message type does not have. */
const UNKNOWN_VARIANT_RE = /unknown variant/i;

export interface Enricher {
  enrich(blocks: BlockFacts[]): Promise<void>;
}

/** Run jobs with at most `n` in flight. */
async function pool(jobs: (() => Promise<void>)[], n: number): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, jobs.length) }, async () => {
      while (next < jobs.length) await jobs[next++]!();
    }),
  );
}

function remember<K, V>(map: Map<K, V>, k: K, v: V) {
  if (map.size >= CACHE_LIMIT) map.clear();
  map.set(k, v);
}

/** Move REST takes addresses without leading zeros as well as padded; the short form is what nodes print. */
const shortHex = (addr: string) => `0x${addr.slice(2).replace(/^0+/, '') || '0'}`;

const isNotFound = (e: unknown) => /HTTP 404|not found/i.test((e as Error)?.message ?? '');

export function createEnricher(vm: Vm, store: Store, source: ChainSource, log: Logger, prefix = 'init'): Enricher {
  const knownCollections = new Set<string>();
  const names = new Map<string, string>();
  const objects = new Map<string, { collection: string; token_id: string } | null>();
  /** 32-byte accounts of Move txs found in no stored NFT (fungible stores, modules): not asked again. */
  const notStoredNfts = new Set<string>();

  async function cosmetic<T>(what: string, fn: () => Promise<T>, fallback: T): Promise<T> {
    try {
      return await withRetry(fn, { attempts: COSMETIC_ATTEMPTS, baseMs: COSMETIC_BASE_MS });
    } catch (e) {
      log.debug('ingest.enrich_failed', { what, error: (e as Error).message.slice(0, 200) });
      return fallback;
    }
  }

  /**
   * Cosmetic eth_calls, as `cosmetic` for each call but asked in EVM batches: an answer is decoded by `decode`; a
   * revert, an answer that does not decode or a call still failing after COSMETIC_ATTEMPTS tries gives ''.
   */
  async function cosmeticCalls(what: string, calls: readonly EthCall[], decode: (data: string) => string) {
    const out = calls.map(() => '');
    const failed = (error: string) => log.debug('ingest.enrich_failed', { what, error: error.slice(0, 200) });
    for (let start = 0; start < calls.length; start += EVM_LOOKUP_GROUP) {
      let pending = calls.slice(start, start + EVM_LOOKUP_GROUP).map((_, k) => start + k);
      for (let attempt = 1; pending.length > 0; attempt++) {
        let outcomes: EthCallOutcome[];
        try {
          outcomes = await source.evmCalls(pending.map((i) => calls[i]!));
        } catch (e) {
          const err = e instanceof TransientSourceError ? e : new TransientSourceError((e as Error).message);
          outcomes = pending.map(() => ({ failed: err }));
        }
        const again: number[] = [];
        pending.forEach((i, k) => {
          const o = outcomes[k]!;
          if ('data' in o) {
            try {
              out[i] = decode(o.data);
            } catch (e) {
              failed((e as Error).message);
            }
          } else if ('reverted' in o) failed(o.reverted);
          else if (attempt < COSMETIC_ATTEMPTS) again.push(i);
          else failed(o.failed.message);
        });
        pending = again;
        if (pending.length) await new Promise((r) => setTimeout(r, COSMETIC_BASE_MS * 2 ** (attempt - 1)));
      }
    }
    return out;
  }

  async function moveCollection(collection: string, height: number): Promise<{ name: string; creator: string }> {
    return cosmetic(
      '0x1::collection::Collection',
      async () => {
        const r = await source.restGet<{ resource?: { move_resource?: string } }>(
          `/initia/move/v1/accounts/${shortHex(collection)}/resources/by_struct_tag?struct_tag=${encodeURIComponent('0x1::collection::Collection')}`,
          height,
        );
        const d = (JSON.parse(r.resource?.move_resource ?? '{}') as { data?: { name?: string; creator?: string } })
          .data;
        return { name: d?.name ?? '', creator: d?.creator ? (normalizeAccount(d.creator, prefix) ?? '') : '' };
      },
      { name: '', creator: '' },
    );
  }

  /** A Wasm collection (0x + the contract's 32 bytes, as stored) as the bech32 contract address REST takes. */
  const contractAddress = (collection: string) => toBech32(prefix, fromHex(collection.slice(2)));

  /** A CW721 collection's creator: the contract's `contract_info.creator` (who instantiated it), as upstream. */
  async function wasmCreator(collection: string, height: number): Promise<string> {
    const addr = contractAddress(collection);
    return cosmetic(
      'contract creator',
      async () => {
        const r = await source.restGet<{ contract_info?: { creator?: string } }>(
          `/cosmwasm/wasm/v1/contract/${addr}`,
          height,
        );
        const creator = r.contract_info?.creator;
        return creator ? (normalizeAccount(creator, prefix) ?? '') : '';
      },
      '',
    );
  }

  /** An ERC721 collection's name(); '' for the lookups that name none (Move and CW721 have their own above). */
  async function collectionName(
    collection: string,
    lookup: 'evm' | 'wasm' | 'move' | undefined,
    height: number,
  ): Promise<string> {
    if (lookup !== 'evm') return '';
    if (names.has(collection)) return names.get(collection)!;
    const [name = ''] = await cosmeticCalls(
      'name()',
      [{ to: collection, data: erc721.encodeFunctionData('name'), height }],
      (data) => erc721.decodeFunctionResult('name', data)[0] as string,
    );
    remember(names, collection, name);
    return name;
  }

  /**
   * A CW721's name from its `contract_info` query; null when the contract is no CW721 (its query message has no
   * `contract_info`: wasmd answers "unknown variant"), as upstream blacklists such contracts.
   */
  async function cw721Name(collection: string, height: number): Promise<string | null> {
    const addr = contractAddress(collection);
    const q = toBase64(new TextEncoder().encode('{"contract_info":{}}'));
    let notCw721 = false;
    const name = await cosmetic(
      'contract_info',
      async () => {
        try {
          return (
            (
              await source.restGet<{ data?: { name?: string } }>(
                `/cosmwasm/wasm/v1/contract/${addr}/smart/${encodeURIComponent(q)}`,
                height,
              )
            ).data?.name ?? ''
          );
        } catch (e) {
          if (!UNKNOWN_VARIANT_RE.test((e as Error).message)) throw e;
          notCw721 = true;
          return '';
        }
      },
      '',
    );
    return notCw721 ? null : name;
  }

  /** A Move mint's URI from its `0x1::nft::Nft` resource ('' for anything else). */
  async function moveTokenUri(e: NftEventFact, height: number): Promise<string> {
    if (!MOVE_OBJECT_RE.test(e.object_addr)) return '';
    return cosmetic('0x1::nft::Nft uri', async () => (await nftResource(e.object_addr, height))?.uri ?? '', '');
  }

  /** tokenURI(id) of EVM mints at their heights, in EVM batches. */
  async function evmTokenUris(mints: readonly { e: NftEventFact; height: number }[]): Promise<void> {
    const asked: { e: NftEventFact; call: EthCall }[] = [];
    for (const { e, height } of mints) {
      let data: string;
      try {
        data = erc721.encodeFunctionData('tokenURI', [BigInt(e.token_id)]);
      } catch {
        continue; // not a uint256: no call to make, the URI stays ''
      }
      asked.push({ e, call: { to: e.collection, data, height } });
    }
    const uris = await cosmeticCalls(
      'tokenURI',
      asked.map((a) => a.call),
      (data) => erc721.decodeFunctionResult('tokenURI', data)[0] as string,
    );
    asked.forEach((a, i) => {
      a.e.uri = uris[i]!;
    });
  }

  async function nftResource(
    object: string,
    height: number,
  ): Promise<{ collection: string; token_id: string; uri: string } | null> {
    try {
      const r = await source.restGet<{ resource?: { move_resource?: string } }>(
        `/initia/move/v1/accounts/${shortHex(object)}/resources/by_struct_tag?struct_tag=${encodeURIComponent('0x1::nft::Nft')}`,
        height,
      );
      const data = (
        JSON.parse(r.resource?.move_resource ?? '{}') as {
          data?: { collection?: { inner?: string }; token_id?: string; uri?: string };
        }
      ).data;
      return data?.collection?.inner && data.token_id !== undefined
        ? { collection: moveObject(data.collection.inner), token_id: String(data.token_id), uri: data.uri ?? '' }
        : null;
    } catch (e) {
      if (isNotFound(e)) return null; // definitely not an NFT
      throw e;
    }
  }

  /**
   * Remember the objects of `addrs` that nft_objects holds as NFTs (asked in bounded lists: a server takes query
   * parameters in its URL); returns those it does not hold.
   */
  async function storedObjects(addrs: readonly string[]): Promise<Set<string>> {
    const absent = new Set(addrs);
    for (let i = 0; i < addrs.length; i += OBJECT_LOOKUP_CHUNK)
      for (const r of await nftObjects(store, addrs.slice(i, i + OBJECT_LOOKUP_CHUNK))) {
        remember(objects, r.object_addr, { collection: r.collection, token_id: r.token_id });
        absent.delete(r.object_addr);
      }
    return absent;
  }

  /** Move object → NFT: our own mints first, then the chain's `0x1::nft::Nft` resource (NFTs minted before the indexed range). */
  async function lookupObjects(wanted: { object: string; height: number }[]) {
    const missing = [...new Map(wanted.filter((w) => !objects.has(w.object)).map((w) => [w.object, w])).values()];
    if (missing.length === 0) return;
    await storedObjects(missing.map((m) => m.object));
    const jobs = missing
      .filter((m) => !objects.has(m.object))
      .map((m) => async () => {
        if (!MOVE_OBJECT_RE.test(m.object)) return void remember(objects, m.object, null);
        const nft = await withRetry(() => nftResource(m.object, m.height), { baseMs: 200 });
        remember(objects, m.object, nft ? { collection: nft.collection, token_id: nft.token_id } : null);
      });
    await pool(jobs, LOOKUP_CONCURRENCY);
  }

  /**
   * Move: the NFTs whose object a tx touches (its address among the tx's accounts: a description change, a
   * marketplace listing naming it) without an NFT event of them, as upstream lists an NFT's txs (the txs whose
   * accounts include the object). Known objects only: minted here or stored in nft_objects (one lookup a batch by
   * that table's key); addresses found to be no stored NFT are remembered, so a fungible store is asked once.
   */
  async function touchedNfts(blocks: BlockFacts[]): Promise<void> {
    // Each tx's 32-byte accounts as object addresses (0x + 64 hex, as nft_objects keys them), read once.
    const txObjects = blocks.map((b) =>
      b.txs.map((t) => t.accounts.map((a) => accountHex(a, prefix)).filter((o): o is string => o?.length === 66)),
    );
    const unknown = new Set<string>();
    for (const o of txObjects.flat(2)) if (!objects.has(o) && !notStoredNfts.has(o)) unknown.add(o);
    if (unknown.size > 0) {
      const absent = await storedObjects([...unknown]);
      if (notStoredNfts.size + absent.size > CACHE_LIMIT) notStoredNfts.clear();
      for (const o of absent) notStoredNfts.add(o);
    }
    for (const [i, b] of blocks.entries())
      for (const [j, t] of b.txs.entries()) {
        const evented = new Set(t.nft.events.map((e) => `${e.collection}|${e.token_id}`));
        for (const o of txObjects[i]![j]!) {
          const nft = objects.get(o);
          if (!nft || evented.has(`${nft.collection}|${nft.token_id}`)) continue;
          evented.add(`${nft.collection}|${nft.token_id}`);
          (t.nft.touches ??= []).push({ collection: nft.collection, token_id: nft.token_id });
        }
      }
  }

  async function unknownCollections(cols: string[]): Promise<Set<string>> {
    const fresh = cols.filter((c) => !knownCollections.has(c));
    if (fresh.length === 0) return new Set();
    for (const c of await storedCollections(store, fresh)) knownCollections.add(c);
    if (knownCollections.size > CACHE_LIMIT) knownCollections.clear();
    return new Set(fresh.filter((c) => !knownCollections.has(c)));
  }

  /** Last known owner (before this batch) of every token this batch moves without minting it first; absent = no history. */
  async function priorOwners(blocks: BlockFacts[]): Promise<Map<string, string>> {
    const seen = new Set<string>();
    const need = new Set<string>();
    for (const b of blocks)
      for (const t of b.txs)
        for (const e of t.nft.events) {
          const key = `${e.collection}|${e.token_id}`;
          if ((e.kind === 'transfer' || e.kind === 'burn') && !seen.has(key)) need.add(key);
          if (e.kind !== 'mutate') seen.add(key);
        }
    const result = new Map<string, string>();
    if (need.size === 0) return result;
    const keys = [...need].map((k) => k.split('|') as [string, string]);
    const rows = await lastNftOwners(store, keys);
    for (const r of rows) result.set(`${r.collection}|${r.token_id}`, r.owner);
    return result;
  }

  return {
    async enrich(blocks) {
      // 1. Move object events → NFT transfers/mutations, in chain order so a mint earlier in the batch is known.
      const wanted = blocks.flatMap((b) =>
        b.txs.flatMap((t) => t.nft.objectEvents.map((o) => ({ object: o.object, height: b.height }))),
      );
      for (const b of blocks)
        for (const t of b.txs)
          for (const e of t.nft.events)
            if (e.kind === 'mint' && e.object_addr)
              remember(objects, e.object_addr, { collection: e.collection, token_id: e.token_id });
      if (wanted.length) await lookupObjects(wanted);
      for (const b of blocks)
        for (const t of b.txs) {
          for (const o of t.nft.objectEvents) {
            const nft = objects.get(o.object);
            if (!nft) continue; // not an NFT (fungible store, module object, …)
            t.nft.events.push({
              collection: nft.collection,
              token_id: nft.token_id,
              kind: o.kind,
              from_owner: o.from_owner,
              to_owner: o.to_owner,
              uri: o.uri,
              object_addr: o.object,
              event_index: o.event_index,
            });
            t.nft.collections.push({
              collection: nft.collection,
              name: '',
              origin_name: '',
              creator: '',
              lookup: 'move',
            });
          }
          t.nft.objectEvents = [];
          t.nft.events.sort((a, b) => a.event_index - b.event_index);
          t.nft.events = foldMoveMintTransfers(t.nft.events);
        }
      // 1b. Move: a tx touching a known NFT's object without an NFT event of it is that NFT's tx too.
      if (vm === 'move') await touchedNfts(blocks);
      // 2. Previous owners for events that do not carry them, and ledger openings for tokens minted before the
      //    indexed range (their first transfer proves the sender held them), so nft_holdings nets to the truth.
      const current = await priorOwners(blocks);
      for (const b of blocks)
        for (const t of b.txs)
          for (const e of t.nft.events) {
            const key = `${e.collection}|${e.token_id}`;
            if (e.kind === 'transfer' || e.kind === 'burn') {
              if (!current.has(key) && e.from_owner)
                (t.nft.openings ??= []).push({ collection: e.collection, token_id: e.token_id, owner: e.from_owner });
              if (!e.from_owner) e.from_owner = current.get(key) ?? '';
            }
            if (e.kind === 'mint' || e.kind === 'transfer') current.set(key, e.to_owner);
            else if (e.kind === 'burn') current.set(key, '');
          }
      // 3. One creation row per collection (the first time it is seen), with its name.
      const candidates = [
        ...new Set(blocks.flatMap((b) => b.txs.flatMap((t) => t.nft.collections.map((c) => c.collection)))),
      ];
      const fresh = await unknownCollections(candidates);
      for (const b of blocks)
        for (const t of b.txs) {
          const keep = [];
          for (const c of t.nft.collections) {
            if (!fresh.has(c.collection)) continue;
            fresh.delete(c.collection);
            knownCollections.add(c.collection);
            if (c.lookup === 'move' && !c.name) {
              const m = await moveCollection(c.collection, b.height);
              c.name = m.name;
              c.creator ||= m.creator;
            } else if (c.lookup === 'wasm' && !c.creator) {
              const name = c.name || (await cw721Name(c.collection, b.height));
              if (name === null) continue; // a collection event of a contract that is no CW721: no collection
              c.name = name;
              c.creator = await wasmCreator(c.collection, b.height);
            } else if (!c.name) c.name = await collectionName(c.collection, c.lookup, b.height);
            keep.push(c);
          }
          t.nft.collections = keep;
        }
      // 3b. Collections received over ICS-721 get the name they have on the sending chain (upstream sets it on the
      //     collection of the class id's name): one made in this batch directly, a stored one by another row.
      const origins = blocks.flatMap((b) => b.txs.flatMap((t) => (t.nft.origins ?? []).map((o) => ({ o, t }))));
      if (origins.length > 0) {
        const made = new Map<string, CollectionFact>();
        for (const b of blocks)
          for (const t of b.txs)
            for (const c of t.nft.collections) if (c.name && !made.has(c.name)) made.set(c.name, c);
        const elsewhere = [...new Set(origins.map(({ o }) => o.name).filter((n) => !made.has(n)))];
        const stored = elsewhere.length > 0 ? await collectionsNamed(store, elsewhere) : [];
        for (const { o, t } of origins) {
          const c = made.get(o.name);
          if (c) c.origin_name = o.origin_name;
          for (const s of stored)
            if (s.name === o.name)
              t.nft.collections.push({
                collection: s.collection,
                name: o.name,
                origin_name: o.origin_name,
                creator: '',
              });
        }
      }
      // 4. Token URIs of mints that did not carry one: asked for every such mint, whatever name() did, so what is
      //    stored does not depend on what this process saw before a restart (a revert is one call, never retried).
      const mints = blocks.flatMap((b) =>
        b.txs.flatMap((t) =>
          t.nft.events.filter((e) => e.kind === 'mint' && !e.uri).map((e) => ({ e, height: b.height })),
        ),
      );
      if (vm === 'evm') await evmTokenUris(mints);
      else if (vm === 'move')
        await pool(
          mints.map(
            ({ e, height }) =>
              async () =>
                void (e.uri = await moveTokenUri(e, height)),
          ),
          LOOKUP_CONCURRENCY,
        );
    },
  };
}
