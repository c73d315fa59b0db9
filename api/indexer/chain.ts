// Request-time lookups against the chain's Cosmos REST endpoint, each cached:
//  - block proposer moniker: GET /opinit/opchild/v1/validator/{valoper}. Cached under the STORED proposer key
//    (upstream caches under the REST operator address and so misses forever). A failing lookup never fails
//    the block request: the block is returned with the fields we know (docs/indexer.md).
//  - rich-list denom → ERC20 address: GET /minievm/evm/v1/contracts/by_denom?denom=. A failure is a 400 with
//    the error text (§8); failures are remembered briefly so a down endpoint is not hammered.
import { badRequest } from '../http/errors.js';
import { log } from '../../platform/log.js';

export interface Proposer {
  moniker: string;
  identity: string;
  operator_address: string;
}

export interface ChainLookups {
  proposer(valoper: string): Promise<Proposer>;
  erc20ForDenom(denom: string): Promise<string>;
}

interface Entry<T> {
  value: Promise<T>;
  expires: number;
}

const OK_TTL_MS = 10 * 60_000;
const FAIL_TTL_MS = 15_000;
const TIMEOUT_MS = 2_000;
const MAX_ENTRIES = 10_000;

/** A small TTL cache that also shares in-flight lookups (100 blocks by one proposer cost one call). */
class LookupCache<T> {
  private readonly map = new Map<string, Entry<T>>();
  get(key: string, load: () => Promise<T>, failTtl: number): Promise<T> {
    const now = Date.now();
    const hit = this.map.get(key);
    if (hit && hit.expires > now) return hit.value;
    if (this.map.size >= MAX_ENTRIES) this.map.clear(); // bounded: keys come from client input (denoms)
    const value = load();
    const entry: Entry<T> = { value, expires: now + OK_TTL_MS };
    this.map.set(key, entry);
    value.catch(() => {
      entry.expires = Date.now() + failTtl;
    });
    return value;
  }
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

export function createChainLookups(restUrl: string | undefined): ChainLookups {
  const base = restUrl?.replace(/\/+$/, '');
  const proposers = new LookupCache<Proposer>();
  const denoms = new LookupCache<string>();
  return {
    async proposer(valoper) {
      const known: Proposer = { moniker: '', identity: '', operator_address: valoper };
      if (!base || valoper === '') return known;
      try {
        return await proposers.get(
          valoper,
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
          FAIL_TTL_MS,
        );
      } catch (e) {
        log.warn('indexer.proposer_lookup_failed', { valoper, error: (e as Error).message });
        return known;
      }
    },
    async erc20ForDenom(denom) {
      if (!base)
        throw badRequest(
          `cannot resolve denom ${denom}: no Cosmos REST endpoint is configured; pass the ERC20 address (0x…) instead`,
        );
      try {
        return await denoms.get(
          denom,
          async () => {
            const body = (await getJson(
              `${base}/minievm/evm/v1/contracts/by_denom?denom=${encodeURIComponent(denom)}`,
            )) as { address?: unknown };
            if (typeof body.address !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(body.address))
              throw new Error('no ERC20 contract for this denom');
            return body.address.toLowerCase();
          },
          FAIL_TTL_MS,
        );
      } catch (e) {
        throw badRequest(`cannot resolve denom ${denom}: ${(e as Error).message}`);
      }
    },
  };
}
