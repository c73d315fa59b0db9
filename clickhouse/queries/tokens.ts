// NFT tokens, read from the maintained per-token state (clickhouse/migrations/300_nft_state.sql): owner of the last
// mint/transfer, burned when the last ownership event is a burn (then it is gone), last non-empty uri, height/time
// of the latest event. Ownership by account comes from the nft_holdings ledger (sum(delta) > 0). A page, its total
// and its cursor's position come in one statement.
import type { Store } from '../client.js';
import { after, dir, type ListWindow } from './keyset.js';

export interface TokenRow {
  collection: string;
  token_id: string;
  owner: string;
  uri: string;
  object_addr: string;
  height: string;
  time: string;
}
export type TokenOrder = 'token_id' | 'height';

export type TokenScope =
  | { kind: 'collection'; collection: string; tokenId: string | null }
  | { kind: 'owner'; owner: string; collection: string | null; tokenId: string | null };

export interface TokenCursor {
  height: number;
  tokenId: string;
  collection: string | null;
}

type Params = Record<string, unknown>;

/** A token's folded state, one row per (collection, token_id) after GROUP BY. */
const FOLD = `collection, token_id, max(owner_v).3 AS owner, max(uri_v).3 AS uri, max(object_v).3 AS object_addr,
       max(last_height) AS height, max(time_v).3 AS time`;

const STATE = (where: string, having: string) => `
SELECT ${FOLD}
FROM nft_token_state WHERE ${where}
GROUP BY collection, token_id
HAVING max(burned_v).3 = 0 ${having}`;

function scopeSql(s: TokenScope, params: Params): { where: string; having: string } {
  if (s.kind === 'collection') {
    params.collection = s.collection;
    let where = 'collection = {collection:String}';
    if (s.tokenId !== null) {
      params.tokenId = s.tokenId;
      where += ' AND token_id = {tokenId:String}';
    }
    return { where, having: '' };
  }
  params.owner = s.owner;
  let held = 'owner = {owner:String}';
  if (s.collection !== null) {
    params.collection = s.collection;
    held += ' AND collection = {collection:String}';
  }
  if (s.tokenId !== null) {
    params.tokenId = s.tokenId;
    held += ' AND token_id = {tokenId:String}';
  }
  const where = `(collection, token_id) IN (SELECT collection, token_id FROM nft_holdings WHERE ${held}
                 GROUP BY collection, token_id HAVING sum(delta) > 0)`;
  // The ledger and the folded state must agree on the owner.
  return { where, having: 'AND owner = {owner:String}' };
}

export interface TokenPage {
  rows: TokenRow[];
  /** The list's total, when asked (null when the page is empty: see countTokens). */
  total: string | null;
  /** With a cursor: rows up to and including the cursor in the list's order (null when the page is empty). */
  through: number | null;
}

/** A page of tokens. Sort keys: (token_id, height) or (height, token_id), then collection across collections. */
export async function listTokens(
  store: Store,
  scope: TokenScope,
  order: TokenOrder,
  w: ListWindow,
  cursor: TokenCursor | null,
  withTotal = false,
): Promise<TokenPage> {
  const params: Params = { limit: w.limit };
  const { where, having } = scopeSql(scope, params);
  const multi = scope.kind === 'owner';
  const keys = order === 'token_id' ? ['token_id', 'height'] : ['height', 'token_id'];
  if (multi) keys.push('collection');
  const extra: string[] = [];
  if (withTotal) extra.push('toString(count() OVER ()) AS total');
  let keyset = '';
  if (cursor) {
    Object.assign(params, { ct: cursor.tokenId, ch: cursor.height, cc: cursor.collection ?? '' });
    const vals = keys.map((k) => (k === 'token_id' ? '{ct:String}' : k === 'height' ? '{ch:UInt64}' : '{cc:String}'));
    keyset = `WHERE (${keys.join(', ')}) ${after(w)} (${vals.join(', ')})`;
    // The cursor's position (for previous_key) counts over the whole list, so no key range is pruned here.
    extra.push(`countIf((${keys.join(', ')}) ${w.desc ? '>=' : '<='} (${vals.join(', ')})) OVER () AS through`);
  } else params.offset = w.offset;
  const d = dir(w);
  const state = STATE(where, having);
  const tail = `ORDER BY ${keys.map((k) => `${k} ${d}`).join(', ')} LIMIT {limit:UInt32} ${cursor ? '' : 'OFFSET {offset:UInt32}'}`;
  // A first page without its total is the fold itself, ordered (one level less to plan); window counts need the
  // whole list under them, so the keyset then filters the level above.
  const rows = await store.rows<TokenRow & { total?: string; through?: string }>(
    extra.length === 0
      ? `${state} ${tail}`
      : `SELECT collection, token_id, owner, uri, object_addr, height, time${withTotal ? ', total' : ''}${cursor ? ', through' : ''}
         FROM (SELECT *, ${extra.join(', ')} FROM (${state})) ${keyset} ${tail}`,
    params,
  );
  const first = rows[0];
  return {
    rows: rows.map(({ total: _t, through: _th, ...r }) => r),
    total: withTotal && first ? (first.total ?? null) : null,
    through: cursor && first ? Number(first.through ?? 0) : null,
  };
}

/** How many tokens of the list come up to and including the cursor in its order (see countCollectionsThrough). */
export async function countTokensThrough(
  store: Store,
  scope: TokenScope,
  order: TokenOrder,
  desc: boolean,
  cursor: TokenCursor,
): Promise<number> {
  const params: Params = { ct: cursor.tokenId, ch: cursor.height, cc: cursor.collection ?? '' };
  const { where, having } = scopeSql(scope, params);
  const keys = order === 'token_id' ? ['token_id', 'height'] : ['height', 'token_id'];
  if (scope.kind === 'owner') keys.push('collection');
  const vals = keys.map((k) => (k === 'token_id' ? '{ct:String}' : k === 'height' ? '{ch:UInt64}' : '{cc:String}'));
  const [r] = await store.rows<{ n: string }>(
    `SELECT count() AS n FROM (${STATE(where, having)}) WHERE (${keys.join(', ')}) ${desc ? '>=' : '<='} (${vals.join(', ')})`,
    params,
  );
  return Number(r?.n ?? 0);
}

export async function countTokens(store: Store, scope: TokenScope): Promise<string> {
  const params: Params = {};
  const { where, having } = scopeSql(scope, params);
  const [r] = await store.rows<{ n: string }>(`SELECT toString(count()) AS n FROM (${STATE(where, having)})`, params);
  return r?.n ?? '0';
}

/** A token's state with its burned flag (what api/indexer/token-memory.ts holds and updates). */
export interface TokenStateRow extends TokenRow {
  burned: number;
}

const STATE_WITH_BURNED = (where: string) => `
SELECT ${FOLD}, max(burned_v).3 AS burned
FROM nft_token_state ${where}
GROUP BY collection, token_id`;

/** State rows before merges: an upper bound of the tokens (read from the parts' row counts). */
export async function tokenStateRows(store: Store): Promise<number> {
  const [r] = await store.rows<{ n: string }>('SELECT count() AS n FROM nft_token_state');
  return Number(r?.n ?? 0);
}

/** Every live token, or null when there are more than `max`. */
export async function allTokens(store: Store, max: number): Promise<TokenStateRow[] | null> {
  const rows = await store.rows<TokenStateRow>(`${STATE_WITH_BURNED('')} HAVING burned = 0 LIMIT {max:UInt32}`, {
    max: max + 1,
  });
  return rows.length > max ? null : rows;
}

/** Every token with an event above this height, folded whole (burned ones included). */
export async function tokensChangedAbove(store: Store, height: number): Promise<TokenStateRow[]> {
  return store.rows<TokenStateRow>(
    STATE_WITH_BURNED(
      'WHERE (collection, token_id) IN (SELECT collection, token_id FROM nft_token_state WHERE last_height > {h:UInt64})',
    ),
    { h: height },
  );
}
