// Shared pieces of the indexer's list queries: direction-dependent SQL fragments. Only fixed SQL text is
// chosen here; every value is bound as a `{name:Type}` parameter.

export type Direction = 'DESC' | 'ASC';

export interface ListWindow {
  /** Descending (the API default) or ascending. */
  desc: boolean;
  /** Rows to return, already including the one look-ahead row. */
  limit: number;
  /** Rows to skip when no cursor is given. */
  offset: number;
}

export const dir = (w: ListWindow): Direction => (w.desc ? 'DESC' : 'ASC');
/** The keyset comparison that continues after a cursor in the list's direction. */
export const after = (w: ListWindow): '<' | '>' => (w.desc ? '<' : '>');
