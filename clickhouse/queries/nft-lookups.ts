// The ingest enricher's reads of what is already stored (ingest/enrich.ts): which NFT a Move object is, which
// collections already have their creation recorded, and the last stored owner of a token.
import type { Store } from '../client.js';

/** Move object address → the NFT our own mints recorded for it (nft_objects). */
export function nftObjects(
  store: Store,
  objects: readonly string[],
): Promise<{ object_addr: string; collection: string; token_id: string }[]> {
  return store.rows<{ object_addr: string; collection: string; token_id: string }>(
    'SELECT object_addr, any(collection) AS collection, any(token_id) AS token_id FROM nft_objects WHERE object_addr IN {a:Array(String)} GROUP BY object_addr',
    { a: [...objects] },
  );
}

/** Which of these collections already have a stored creation/mutation event. */
export async function storedCollections(store: Store, collections: readonly string[]): Promise<string[]> {
  const rows = await store.rows<{ collection: string }>(
    'SELECT DISTINCT collection FROM nft_collection_events WHERE collection IN {c:Array(String)}',
    { c: [...collections] },
  );
  return rows.map((r) => r.collection);
}

/** Stored collections named one of `names` (a scan of the collection events: only batches with ICS-721 receipts ask). */
export function collectionsNamed(
  store: Store,
  names: readonly string[],
): Promise<{ collection: string; name: string }[]> {
  return store.rows<{ collection: string; name: string }>(
    'SELECT DISTINCT collection, name FROM nft_collection_events WHERE name IN {n:Array(String)}',
    { n: [...names] },
  );
}

/** Last stored owner of each (collection, token id) from its mint/transfer/burn events; absent = no history. */
export function lastNftOwners(
  store: Store,
  keys: readonly (readonly [collection: string, tokenId: string])[],
): Promise<{ collection: string; token_id: string; owner: string }[]> {
  return store.rows<{ collection: string; token_id: string; owner: string }>(
    `SELECT collection, token_id, argMax(to_owner, (sequence, event_index)) AS owner FROM nft_events
       WHERE collection IN {c:Array(String)} AND (collection, token_id) IN (SELECT arrayJoin(arrayZip({c:Array(String)}, {t:Array(String)})))
         AND kind IN ('mint', 'transfer', 'burn') GROUP BY collection, token_id`,
    { c: keys.map((k) => k[0]), t: keys.map((k) => k[1]) },
  );
}
