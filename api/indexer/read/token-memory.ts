// Every live NFT token, held in memory and brought up to the indexed tip by deltas: the token pages (by
// collection, by account) and an account's collections read it instead of asking the engine per request. The
// first use loads every token once; each later tip reads only the tokens whose state changed above the held tip
// (clickhouse/queries/tokens.ts tokensChangedAbove), so a chain that mints every block costs a key-range delta per
// tip, not a reload. Past `max` tokens nothing is held and every request reads the engine, so memory stays
// bounded (~790 bytes of heap a token, measured on the bench set:
// 98,000 tokens in 74 MB, loaded in 1.3 s). A rewound index (crash recovery, re-ingest) clears it.
//
// Ownership is the folded state's owner (the last mint or transfer), as upstream's `nft.owner` column; the engine
// path finds an account's candidates in the holdings ledger and keeps those the state agrees on, which is the
// same set whenever the ledger is consistent with the events (test/api/indexer/nft-engine.test.ts compares both).
import type { TokenOrder, TokenRow } from '../../../clickhouse/queries/tokens.js';
import type { Held as HeldState } from './held.js';

/** A token's state as read from the engine, burned ones included (a delta removes them). */
export interface TokenState extends TokenRow {
  burned: boolean;
}

/** The most tokens held by default (≈ 160 MB of heap). */
export const DEFAULT_TOKENS_HELD = 200_000;

/** How long a chain found to have more than `max` tokens is left on the engine path before the count is read again. */
const RECHECK_MS = 60_000;

/**
 * Text order of the engine (bytes of UTF-8, i.e. code points): UTF-16 code units compare the same except that
 * surrogates (code points above U+FFFF) must sort after U+E000–U+FFFF.
 */
export function compareText(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) {
      x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
      y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
    }
    return x - y;
  }
  return a.length - b.length;
}

interface HeldToken {
  row: TokenRow;
  height: number;
}

/** The position of a cursor in a list's keys: (token_id, height, collection) or (height, token_id, collection). */
export interface TokenKey {
  height: number;
  tokenId: string;
  collection: string;
}

const byTokenId = (a: TokenKey, b: TokenKey): number =>
  compareText(a.tokenId, b.tokenId) || a.height - b.height || compareText(a.collection, b.collection);
const byHeight = (a: TokenKey, b: TokenKey): number =>
  a.height - b.height || compareText(a.tokenId, b.tokenId) || compareText(a.collection, b.collection);
const comparator = (order: TokenOrder) => (order === 'token_id' ? byTokenId : byHeight);
const keyOf = (h: HeldToken): TokenKey => ({ height: h.height, tokenId: h.row.token_id, collection: h.row.collection });

/** With `upper`, the first index whose entry is > key; else the first whose entry is ≥ key. */
function bound(list: readonly HeldToken[], key: TokenKey, cmp: (a: TokenKey, b: TokenKey) => number, upper: boolean) {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const c = cmp(keyOf(list[mid]!), key);
    if (c < 0 || (upper && c === 0)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** One list (a collection's tokens, an account's tokens) kept sorted in both orders. */
class TokenList {
  constructor(readonly key: string) {}

  readonly token_id: HeldToken[] = [];
  readonly height: HeldToken[] = [];

  get size(): number {
    return this.token_id.length;
  }

  add(h: HeldToken): void {
    for (const order of ['token_id', 'height'] as const) {
      const list = this[order];
      list.splice(bound(list, keyOf(h), comparator(order), false), 0, h);
    }
  }

  remove(h: HeldToken): void {
    for (const order of ['token_id', 'height'] as const) {
      const list = this[order];
      const i = bound(list, keyOf(h), comparator(order), false);
      if (list[i] === h) list.splice(i, 1);
    }
  }
}

/** A collection's tokens, also by token id. */
class CollectionTokens extends TokenList {
  readonly ids = new Map<string, HeldToken>();

  override add(h: HeldToken): void {
    super.add(h);
    this.ids.set(h.row.token_id, h);
  }

  override remove(h: HeldToken): void {
    super.remove(h);
    if (this.ids.get(h.row.token_id) === h) this.ids.delete(h.row.token_id);
  }
}

/** A page of a held list, as listTokens gives it from the engine. */
export interface HeldPage {
  rows: TokenRow[];
  total: number;
  /** With a cursor: entries up to and including the cursor in the list's order. */
  through: number | undefined;
}

/** Which list, in which order, from where. */
export interface HeldPageQuery {
  order: TokenOrder;
  desc: boolean;
  cursor: TokenKey | null;
  offset: number;
  limit: number;
}

/** Every live token, indexed by collection and by owner. Pure: no I/O. */
export class TokenIndex {
  private readonly byCollection = new Map<string, CollectionTokens>();
  private readonly byOwner = new Map<string, TokenList>();
  private count = 0;

  get size(): number {
    return this.count;
  }

  /**
   * Replace each token's state by the one given; burned tokens leave every list. A held row shares its collection
   * and owner strings with its lists' keys (one copy per collection and per owner, not per token).
   */
  apply(states: Iterable<TokenState>): void {
    for (const s of states) {
      const old = this.byCollection.get(s.collection)?.ids.get(s.token_id);
      if (old) {
        this.detach(this.byCollection, old.row.collection, old);
        this.detach(this.byOwner, old.row.owner, old);
        this.count--;
      }
      if (s.burned) continue;
      const col = this.listOf(this.byCollection, s.collection, () => new CollectionTokens(s.collection));
      const own = this.listOf(this.byOwner, s.owner, () => new TokenList(s.owner));
      const row: TokenRow = {
        collection: col.key,
        token_id: s.token_id,
        owner: own.key,
        uri: s.uri,
        object_addr: s.object_addr,
        height: s.height,
        time: s.time,
      };
      const h: HeldToken = { row, height: Number(row.height) };
      col.add(h);
      own.add(h);
      this.count++;
    }
  }

  private listOf<L extends TokenList>(map: Map<string, L>, k: string, make: () => L): L {
    let list = map.get(k);
    if (!list) map.set(k, (list = make()));
    return list;
  }

  private detach(map: Map<string, TokenList>, k: string, h: HeldToken): void {
    const list = map.get(k);
    if (!list) return;
    list.remove(h);
    if (list.size === 0) map.delete(k);
  }

  /** A live token's state. */
  get(collection: string, tokenId: string): TokenRow | undefined {
    return this.byCollection.get(collection)?.ids.get(tokenId)?.row;
  }

  /** The collections an account holds a token of, in text order. */
  collectionsOf(owner: string): string[] {
    const list = this.byOwner.get(owner);
    return list ? [...new Set(list.token_id.map((h) => h.row.collection))].sort(compareText) : [];
  }

  /** A page of a collection's tokens, optionally only the one token id. */
  collectionPage(collection: string, tokenId: string | null, q: HeldPageQuery): HeldPage {
    if (tokenId !== null) {
      const h = this.byCollection.get(collection)?.ids.get(tokenId);
      return tokenPage(h ? [h] : [], q);
    }
    const list = this.byCollection.get(collection);
    // Within one collection the third key is constant: a cursor compares on the first two, as the engine's.
    const cursor = q.cursor && { ...q.cursor, collection };
    return tokenPage(list ? list[q.order] : [], { ...q, cursor });
  }

  /** A page of an account's tokens, optionally of one collection and/or one token id. */
  ownerPage(owner: string, collection: string | null, tokenId: string | null, q: HeldPageQuery): HeldPage {
    let list: readonly HeldToken[] = this.byOwner.get(owner)?.[q.order] ?? [];
    if (collection !== null || tokenId !== null)
      list = list.filter(
        (h) =>
          (collection === null || h.row.collection === collection) && (tokenId === null || h.row.token_id === tokenId),
      );
    return tokenPage(list, q);
  }
}

/** Rows strictly after the cursor in the direction, or from the offset; `limit` rows at most. */
function tokenPage(list: readonly HeldToken[], q: HeldPageQuery): HeldPage {
  const n = list.length;
  const cmp = comparator(q.order);
  let start: number;
  let through: number | undefined;
  if (q.cursor) {
    // ascending: the entries ≤ cursor come before; descending: the entries ≥ cursor
    through = q.desc ? n - bound(list, q.cursor, cmp, false) : bound(list, q.cursor, cmp, true);
    start = through;
  } else start = q.offset;
  const rows: TokenRow[] = [];
  for (let i = start; i < n && rows.length < q.limit; i++) rows.push(list[q.desc ? n - 1 - i : i]!.row);
  return { rows, total: n, through };
}

/** What the memory reads from the engine (clickhouse/queries/tokens.ts). */
export interface TokenSource {
  /** How many state rows there are (an upper bound of the live tokens: unmerged rows and burned tokens count). */
  stateRows(): Promise<number>;
  /** Every live token, or null when there are more than `max`. */
  all(max: number): Promise<TokenState[] | null>;
  /** Every token whose state changed above this height, burned ones included. */
  changedAbove(height: number): Promise<TokenState[]>;
}

export class TokenMemory implements HeldState<TokenIndex> {
  readonly name = 'tokens';
  private index: TokenIndex | null = null;
  private heldTip = -1;
  private pending: { tip: number; value: Promise<TokenIndex | null> } | null = null;
  private generation = 0;
  private refusedUntil = 0;

  /** `max` is DEFAULT_TOKENS_HELD unless given; 0 holds nothing (tests: the engine path). */
  constructor(
    private readonly source: TokenSource,
    private readonly max = DEFAULT_TOKENS_HELD,
    private readonly now: () => number = Date.now,
  ) {}

  /** The tokens at this tip or later, or null when they are not held (too many, or holding is off). */
  at(tip: number): Promise<TokenIndex | null> {
    if (this.max <= 0 || this.now() < this.refusedUntil) return Promise.resolve(null);
    if (this.index && tip <= this.heldTip) return Promise.resolve(this.index);
    const pending = this.pending;
    if (pending && pending.tip >= tip) return pending.value;
    if (pending) return pending.value.then(() => this.at(tip));
    const gen = this.generation;
    const value = this.advance(tip).then(
      (index) => {
        if (this.generation === gen) this.pending = null;
        return index;
      },
      (err: unknown) => {
        if (this.generation === gen) this.pending = null;
        throw err;
      },
    );
    this.pending = { tip, value };
    return value;
  }

  private async advance(tip: number): Promise<TokenIndex | null> {
    const gen = this.generation;
    if (this.index) {
      const changed = await this.source.changedAbove(this.heldTip);
      if (this.generation !== gen || !this.index) return null;
      this.index.apply(changed);
      if (this.index.size > this.max) return this.refuse();
      this.heldTip = Math.max(this.heldTip, tip);
      return this.index;
    }
    // An upper bound first: a chain far past the limit is not folded whole just to learn it.
    if ((await this.source.stateRows()) > 2 * this.max) return this.refuse();
    const all = await this.source.all(this.max);
    if (this.generation !== gen) return null;
    if (all === null) return this.refuse();
    const index = new TokenIndex();
    index.apply(all);
    this.index = index;
    this.heldTip = tip;
    return index;
  }

  private refuse(): null {
    this.index = null;
    this.heldTip = -1;
    this.refusedUntil = this.now() + RECHECK_MS;
    return null;
  }

  /** About 400 bytes a held token (its state row and its places in the collection and owner orders). */
  bytes(): number {
    return (this.index?.size ?? 0) * 400;
  }

  /** Forget what is held (the index was rewound). */
  clear(): void {
    this.generation++;
    this.index = null;
    this.heldTip = -1;
    this.pending = null;
    this.refusedUntil = 0;
  }
}
