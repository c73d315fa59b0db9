// Request-time lookups against the chain's Cosmos REST endpoint, each cached:
//  - block proposer moniker: GET /opinit/opchild/v1/validator/{valoper}. Cached under the STORED proposer key
//    (upstream caches under the REST operator address and so misses forever). A failing lookup never fails
//    the block request: the block is returned with the fields we know (docs/indexer.md).
//  - rich-list denom → ERC20 address: GET /minievm/evm/v1/contracts/by_denom?denom=. A failure is a 400 with
//    the error text (§8); failures are remembered briefly so a down endpoint is not hammered.
import { badRequest } from '../../http/errors.js';
import { log } from '../../../platform/log.js';
import type { Served } from '../../http/edge.js';
import { type CacheFactory, type CacheKey, KeyedCache, keys } from './cache.js';

export interface Proposer {
  moniker: string;
  identity: string;
  operator_address: string;
}

export interface ChainLookups {
  proposer(valoper: string, served?: Served): Promise<Proposer>;
  erc20ForDenom(denom: string, served?: Served): Promise<string>;
}

/** A kept answer older than this is asked again, in the background, while it is still served. */
const FRESH_MS = 10 * 60_000;
/** A kept answer is served at most this long after it was fetched (a refresh that keeps failing ends it). */
const KEEP_MS = 60 * 60_000;
const FAIL_TTL_MS = 15_000;
const TIMEOUT_MS = 2_000;
const MAX_ENTRIES = 10_000;

/**
 * A lookup's outcome: a failure is kept too (briefly), so a down endpoint is not asked again at once. `at`: when an
 * answer was fetched, or when its last refresh failed less FRESH_MS plus FAIL_TTL_MS (the next try comes after
 * FAIL_TTL_MS).
 */
type Outcome<T> = { ok: true; value: T; at: number } | { ok: false; error: Error };

/**
 * A cache of lookups by key (bounded: keys come from client input); 100 blocks by one proposer cost one call. An
 * answer past FRESH_MS is served as is while one refresh runs behind it: a block (and a stream's tip advance) never
 * waits for the chain's REST endpoint for a key it has looked up before, and a refresh that fails keeps the answer.
 */
function lookupCache<T>(
  name: string,
  cache: CacheFactory,
): (key: CacheKey, load: () => Promise<T>, served?: Served) => Promise<T> {
  const outcomes = cache<Outcome<T>>({
    name,
    maxEntries: MAX_ENTRIES,
    ttlMs: (o) => (o.ok ? KEEP_MS : FAIL_TTL_MS),
  });
  const refreshing = new Set<CacheKey>();
  const refresh = (key: CacheKey, kept: Outcome<T> & { ok: true }, load: () => Promise<T>) => {
    refreshing.add(key);
    load()
      .then(
        (value) => outcomes.set(key, { ok: true, value, at: Date.now() }),
        () => {
          // Kept as it is (its KEEP_MS runs on from its fetch); tried again after FAIL_TTL_MS.
          kept.at = Date.now() - FRESH_MS + FAIL_TTL_MS;
        },
      )
      .finally(() => refreshing.delete(key));
  };
  return async (key, load, served) => {
    const got = await outcomes.through(
      key,
      () =>
        load().then(
          (value): Outcome<T> => ({ ok: true, value, at: Date.now() }),
          (error: unknown): Outcome<T> => ({ ok: false, error: error as Error }),
        ),
      served,
    );
    if (!got) throw new Error('lookup returned nothing');
    if (!got.ok) throw got.error;
    if (Date.now() - got.at > FRESH_MS && !refreshing.has(key)) refresh(key, got, load);
    return got.value;
  };
}

async function getJson(url: string): Promise<unknown> {
  const res = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS), headers: { accept: 'application/json' } });
  const text = await res.text();
  if (!res.ok) {
    let message = text.slice(0, 200);
    try {
      message = String((JSON.parse(text) as { message?: unknown }).message ?? message);
    } catch {
      /* plain-text error body: keep it as is */
    }
    throw new Error(`HTTP ${res.status}: ${message}`);
  }
  return JSON.parse(text) as unknown;
}

/** `cache` makes the lookup caches (the read model's factory; standalone caches by default). */
export function createChainLookups(
  restUrl: string | undefined,
  cache: CacheFactory = (opts) => new KeyedCache(opts),
): ChainLookups {
  const base = restUrl?.replace(/\/+$/, '');
  const proposers = lookupCache<Proposer>('proposers', cache);
  const denoms = lookupCache<string>('denoms', cache);
  return {
    async proposer(valoper, served) {
      const known: Proposer = { moniker: '', identity: '', operator_address: valoper };
      if (!base || valoper === '') return known;
      try {
        return await proposers(
          keys.proposer(valoper),
          async () => {
            const body = (await getJson(`${base}/opinit/opchild/v1/validator/${encodeURIComponent(valoper)}`)) as {
              validator?: { moniker?: unknown; operator_address?: unknown };
            };
            const v = body.validator ?? {};
            return {
              moniker: typeof v.moniker === 'string' ? v.moniker : '',
              identity: '', // never filled upstream
              operator_address: typeof v.operator_address === 'string' ? v.operator_address : valoper,
            };
          },
          served,
        );
      } catch (e) {
        log.warn('indexer.proposer_lookup_failed', { valoper, error: (e as Error).message });
        return known;
      }
    },
    async erc20ForDenom(denom, served) {
      if (!base)
        throw badRequest(
          `cannot resolve denom ${denom}: no Cosmos REST endpoint is configured; pass the ERC20 address (0x…) instead`,
        );
      try {
        return await denoms(
          keys.erc20(denom),
          async () => {
            const body = (await getJson(
              `${base}/minievm/evm/v1/contracts/by_denom?denom=${encodeURIComponent(denom)}`,
            )) as { address?: unknown };
            if (typeof body.address !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(body.address))
              throw new Error('no ERC20 contract for this denom');
            return body.address.toLowerCase();
          },
          served,
        );
      } catch (e) {
        throw badRequest(`cannot resolve denom ${denom}: ${(e as Error).message}`);
      }
    },
  };
}
