// The page protocol of every indexer list (docs/indexer.md), written once: the `pagination.*` query parameters,
// the `pagination.key` cursor codec, the `{previous_key, next_key, total}` object, and `readCounted`, how a counted
// list is read. A page is read with one look-ahead row (`limit + 1`); its total is counted at most once per list
// and tip (a final list's total for good) and reused by every later page at that tip; a page that cannot carry its
// own total (a cursor or offset past the end) has it counted apart; a cursor page of an offset-keyed list also
// learns how many rows come up to its cursor (`through`, for `previous_key`). No I/O of its own: unit-tested in
// test/api/indexer/pagination.test.ts, the reads through the read model's tests.
import { badRequest } from '../../http/errors.js';
import type { Served } from '../../http/edge.js';
import { parseGoBool } from '../params.js';
import { type KeyedCache, keys } from './cache.js';

/** A decoded JSON cursor. Which kinds a list accepts is decided by the list (see `cursorFor`). */
export type Cursor =
  | { kind: 'sequence'; sequence: number }
  | { kind: 'height'; height: number }
  /** NFT tokens: (token_id, height) plus the collection when a list spans several collections. */
  | { kind: 'token'; height: number; tokenId: string; collection: string | null }
  /** NFT collections: (height, object_addr). */
  | { kind: 'collection'; height: number; collection: string };

export interface PageRequest {
  limit: number;
  /** Rows to skip; only used when no JSON cursor was sent (a cursor replaces the offset, §3.2). */
  offset: number;
  countTotal: boolean;
  /** true = descending (the default everywhere). */
  reverse: boolean;
  cursor: Cursor | null;
}

export interface PaginationObject {
  previous_key: string | null;
  next_key: string | null;
  total: string;
}

export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 1000;
/** Largest offset we accept: beyond it the client must page with `next_key` (keyset, no deep OFFSET scan). */
export const MAX_OFFSET = 1_000_000;
const MAX_KEY_LENGTH = 1024;

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

const msg = {
  base64: 'pagination.key must be a valid base64 encoded string',
  nonneg: 'pagination.key must decode to a nonnegative integer',
  format: 'invalid pagination.key format',
  limit: `pagination.limit must be between 1 and ${MAX_LIMIT}`,
  offset: 'pagination.offset cannot be negative',
} as const;

/**
 * The validator's errors on the pagination range and on order_by, in upstream's wording (docs/indexer.md); the
 * indexer's `ValidatorWording` (api/http/errors.ts).
 */
export function validatorWording(path: string, message: string, query: Record<string, unknown>): string | undefined {
  if (/order_by$/.test(path))
    return `invalid order_by value '${String(query.order_by)}', must be one of: token_id, height`;
  if (/pagination\.limit$/.test(path)) return msg.limit;
  if (/pagination\.offset$/.test(path) && /minimum|>=/.test(message)) return msg.offset;
  return undefined;
}

type Decoded = { cursor: Cursor | null; offset: number | null };

const isIndex = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/** Decode `pagination.key` as rollytics does (§3.2): base64 of a JSON cursor or of a decimal offset. */
export function decodeKey(key: string): Decoded {
  if (key.length > MAX_KEY_LENGTH || key.length % 4 !== 0 || !BASE64.test(key)) throw badRequest(msg.base64);
  const text = Buffer.from(key, 'base64').toString('utf8');
  if (text.startsWith('{')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw badRequest(msg.format);
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw badRequest(msg.format);
    return { cursor: cursorOf(parsed as Record<string, unknown>), offset: null };
  }
  if (!/^\d{1,16}$/.test(text)) throw badRequest(msg.nonneg);
  const offset = Number(text);
  if (offset > MAX_OFFSET)
    throw badRequest(`pagination.key offset must be at most ${MAX_OFFSET}; page with next_key instead`);
  return { cursor: null, offset };
}

function cursorOf(o: Record<string, unknown>): Cursor | null {
  if ('sequence' in o) {
    if (!isIndex(o.sequence)) throw badRequest(msg.format);
    return { kind: 'sequence', sequence: o.sequence };
  }
  if (!('height' in o)) return null; // another JSON object: offset mode, as upstream
  if (!isIndex(o.height)) throw badRequest(msg.format);
  if ('token_id' in o) {
    if (typeof o.token_id !== 'string' || o.token_id.length > 256) throw badRequest(msg.format);
    const c = o.collection_addr;
    if (c !== undefined && (typeof c !== 'string' || !/^0x[0-9a-f]{1,64}$/.test(c))) throw badRequest(msg.format);
    return { kind: 'token', height: o.height, tokenId: o.token_id, collection: c ?? null };
  }
  if ('object_addr' in o) {
    if (typeof o.object_addr !== 'string' || !/^0x[0-9a-f]{1,64}$/.test(o.object_addr)) throw badRequest(msg.format);
    return { kind: 'collection', height: o.height, collection: o.object_addr };
  }
  return { kind: 'height', height: o.height };
}

/** Encode a cursor as compact JSON with sorted keys, base64 (what `next_key` carries). */
export function encodeCursor(c: Cursor): string {
  let obj: Record<string, unknown>;
  switch (c.kind) {
    case 'sequence':
      obj = { sequence: c.sequence };
      break;
    case 'height':
      obj = { height: c.height };
      break;
    case 'token':
      obj =
        c.collection === null
          ? { height: c.height, token_id: c.tokenId }
          : { collection_addr: c.collection, height: c.height, token_id: c.tokenId };
      break;
    case 'collection':
      obj = { height: c.height, object_addr: c.collection };
      break;
  }
  return Buffer.from(JSON.stringify(obj)).toString('base64');
}

export const encodeOffset = (offset: number): string => Buffer.from(String(offset)).toString('base64');

/** Raw query values after express-openapi-validator (types coerced, defaults applied). */
export interface RawPageQuery {
  'pagination.key'?: unknown;
  'pagination.offset'?: unknown;
  'pagination.limit'?: unknown;
  'pagination.count_total'?: unknown;
  'pagination.reverse'?: unknown;
}

/** The cursor this list understands from a decoded one, or null (offset mode). */
function adopt(c: Cursor, accepts: readonly Cursor['kind'][], reverse: boolean): Cursor | null {
  if (accepts.includes(c.kind)) return c;
  // Collections upstream take {"height":N}: height < N (DESC) / > N (ASC). As a (height, object_addr) cursor
  // that is the position before/after every address at that height.
  if (c.kind === 'height' && accepts.includes('collection'))
    return { kind: 'collection', height: c.height, collection: reverse ? '' : '0xg' };
  return null;
}

/**
 * Parse the pagination set. `accepts` lists the cursor kinds this list understands; a JSON cursor of any
 * other kind is ignored and the list pages by `pagination.offset`, as upstream does.
 */
export function parsePage(q: RawPageQuery, accepts: readonly Cursor['kind'][]): PageRequest {
  const limit = q['pagination.limit'] === undefined ? DEFAULT_LIMIT : Number(q['pagination.limit']);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) throw badRequest(msg.limit);
  let offset = q['pagination.offset'] === undefined ? 0 : Number(q['pagination.offset']);
  if (!Number.isInteger(offset)) throw badRequest('pagination.offset must be an integer');
  if (offset < 0) throw badRequest(msg.offset);
  if (offset > MAX_OFFSET)
    throw badRequest(`pagination.offset must be at most ${MAX_OFFSET}; page with next_key instead`);
  const countTotal = boolOf(q['pagination.count_total'], true, 'pagination.count_total');
  const reverse = boolOf(q['pagination.reverse'], true, 'pagination.reverse');
  let cursor: Cursor | null = null;
  const key = q['pagination.key'];
  if (typeof key === 'string' && key !== '') {
    const d = decodeKey(key);
    if (d.offset !== null) offset = d.offset;
    // A cursor of another list's shape falls back to offset paging (pagination.offset), as upstream's
    // default branch does (docs/indexer.md); a bare {"height":N} on collections is upstream's
    // height cursor and is kept as one.
    if (d.cursor) cursor = adopt(d.cursor, accepts, reverse);
  }
  if (cursor) offset = 0; // a cursor replaces the offset (§3.2)
  return { limit, offset, countTotal, reverse, cursor };
}

const boolOf = (v: unknown, dflt: boolean, name: string): boolean => parseGoBool(v, name, dflt);

/**
 * Build the pagination object of a page fetched with `limit + 1` rows (the extra row only says more exist).
 * Cursor lists: `next_key` = cursor of the last returned row, null when nothing follows; `previous_key` null.
 * Offset lists (`offsetKeys`): `next_key` = base64(offset+limit) and `previous_key` per §3.3.
 */
export function pageResult<T>(
  page: PageRequest,
  fetched: readonly T[],
  total: string,
  next: ((last: T) => Cursor) | 'offset',
  /** Offset-mode lists upstream (collections, tokens) also give `previous_key` when paged by offset. */
  previousByOffset = next === 'offset',
  /**
   * Page reached by cursor on such a list: how many rows come up to and including the cursor (the page's
   * offset). `previous_key` is then the decimal offset key of the page before, so clients can page back.
   */
  cursorOffset?: number,
): { rows: T[]; pagination: PaginationObject } {
  const more = fetched.length > page.limit;
  const rows = more ? fetched.slice(0, page.limit) : fetched.slice();
  let nextKey: string | null = null;
  let previousKey: string | null = null;
  const last = rows[rows.length - 1];
  // An offset key is handed out only where parseKey takes it back (at most MAX_OFFSET): past it a list paged by
  // offset ends its keys (its total still says how many rows there are), never with a key that is then refused.
  const offsetKey = (offset: number) => (offset <= MAX_OFFSET ? encodeOffset(offset) : null);
  if (next === 'offset') {
    if (more) nextKey = offsetKey(page.offset + page.limit);
  } else if (more && last !== undefined) {
    nextKey = encodeCursor(next(last));
  }
  if (previousByOffset && page.cursor === null && page.offset > 0 && page.offset >= page.limit)
    previousKey = offsetKey(page.offset - page.limit);
  if (previousByOffset && page.cursor !== null && cursorOffset !== undefined && cursorOffset > 0)
    previousKey = offsetKey(Math.max(0, cursorOffset - page.limit));
  return { rows, pagination: { previous_key: previousKey, next_key: nextKey, total } };
}

/** A list page as read: `limit + 1` rows at most, the total ('0' when not asked), rows through the cursor. */
export interface ListPage<Row> {
  rows: Row[];
  total: string;
  through?: number;
}

export interface CountedList<Row> {
  /** The list family and identity (kind and filters): with the tip, the key of its total. */
  family: string;
  list: string;
  /** The tip the page is read at; null when no new block can change the list (its total is final). */
  tip: number | null;
  page: PageRequest;
  /** One statement for the page; `withTotal`: also count the list, if it can in the same statement. */
  fetch(withTotal: boolean): Promise<{ rows: Row[]; total?: string | null; through?: number | null }>;
  /** The total alone (when the page's own statement could not carry it). */
  count(): Promise<string>;
  /** Rows up to and including the cursor (when the page's own statement could not carry them). */
  through?(): Promise<number>;
}

/** A page of a counted list, its total reused from `totals` when this list was counted at this tip. */
export async function readCounted<Row>(
  totals: KeyedCache<string>,
  served: Served,
  spec: CountedList<Row>,
): Promise<ListPage<Row>> {
  const { page } = spec;
  const totalKey = keys.total(spec.family, spec.list, spec.tip);
  let total = page.countTotal ? totals.get(totalKey, served) : '0';
  const got = await spec.fetch(total === undefined);
  // An empty page (a cursor or offset past the end) cannot carry its counts: ask for them apart.
  // An empty first page is an empty list.
  const emptyList = got.rows.length === 0 && page.cursor === null && page.offset === 0;
  if (total === undefined) {
    total = got.total ?? (emptyList ? '0' : await spec.count());
    totals.set(totalKey, total);
  }
  const through =
    page.cursor !== null && spec.through ? (got.through ?? (await spec.through())) : (got.through ?? undefined);
  return { rows: got.rows, total, through };
}

/** The window of a page: its direction, `limit + 1` rows (the look-ahead says whether more follow), its offset. */
export const windowOf = (page: PageRequest) => ({ desc: page.reverse, limit: page.limit + 1, offset: page.offset });
