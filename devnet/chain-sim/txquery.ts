// The subset of the CometBFT query language tx_search needs: `key op value` conditions joined by AND,
// where key is `tx.height`, `tx.hash` or `<event type>.<attribute key>`, op is =, <, <=, >, >= or
// CONTAINS, and value is a 'quoted string' or a number. Pure functions; the server does the lookup.
import type { AbciEvent } from '../../chain/events.js';

export type QueryOp = '=' | '<' | '<=' | '>' | '>=' | 'CONTAINS';

export interface QueryCondition {
  key: string;
  op: QueryOp;
  /** The literal: string for quoted values, number text for numbers. */
  value: string;
  numeric: boolean;
}

export class QueryError extends Error {}

const MAX_QUERY_LENGTH = 512;
const MAX_CONDITIONS = 8;
const CONDITION = /^\s*([A-Za-z0-9_.\-/]+)\s*(<=|>=|=|<|>|CONTAINS)\s*(?:'([^']*)'|(-?\d+(?:\.\d+)?))\s*$/;

export function parseTxQuery(query: string): QueryCondition[] {
  if (query.length > MAX_QUERY_LENGTH) throw new QueryError(`query is longer than ${MAX_QUERY_LENGTH} characters`);
  const parts = query.split(/\s+AND\s+/i);
  if (parts.length > MAX_CONDITIONS) throw new QueryError(`at most ${MAX_CONDITIONS} conditions are supported`);
  return parts.map((p) => {
    const m = CONDITION.exec(p);
    if (!m) throw new QueryError(`failed to parse query condition: ${p.trim()}`);
    const key = m[1] ?? '';
    const op = m[2] as QueryOp;
    const numeric = m[4] !== undefined;
    const value = numeric ? (m[4] ?? '') : (m[3] ?? '');
    if (op === 'CONTAINS' && numeric) throw new QueryError('CONTAINS needs a quoted string');
    if (!key.includes('.')) throw new QueryError(`condition key must be <type>.<attribute>: ${key}`);
    return { key, op, value, numeric };
  });
}

function compare(actual: string, c: QueryCondition): boolean {
  if (c.op === 'CONTAINS') return actual.includes(c.value);
  if (c.op === '=' && !c.numeric) return actual === c.value;
  const a = Number(actual);
  const v = Number(c.value);
  if (!Number.isFinite(a)) return c.op === '=' && actual === c.value;
  switch (c.op) {
    case '=':
      return a === v;
    case '<':
      return a < v;
    case '<=':
      return a <= v;
    case '>':
      return a > v;
    case '>=':
      return a >= v;
  }
  return false;
}

/** Does a tx (height, hash, events) satisfy every condition? Each condition may match a different event. */
export function txMatches(conds: QueryCondition[], height: number, hash: string, events: AbciEvent[]): boolean {
  return conds.every((c) => {
    if (c.key === 'tx.height') return compare(String(height), c);
    if (c.key === 'tx.hash') return compare(hash, { ...c, value: c.value.toUpperCase() });
    const dot = c.key.lastIndexOf('.');
    const type = c.key.slice(0, dot);
    const attr = c.key.slice(dot + 1);
    return events.some(
      (e) => e.type === type && e.attributes.some((a) => a.key === attr && a.index !== false && compare(a.value, c)),
    );
  });
}

/** Height bounds implied by tx.height conditions (used to avoid scanning the whole chain). */
export function heightBounds(conds: QueryCondition[], latest: number): { from: number; to: number } {
  let from = 1;
  let to = latest;
  for (const c of conds) {
    if (c.key !== 'tx.height' || !c.numeric) continue;
    const v = Math.trunc(Number(c.value));
    if (c.op === '=') {
      from = Math.max(from, v);
      to = Math.min(to, v);
    }
    if (c.op === '>') from = Math.max(from, v + 1);
    if (c.op === '>=') from = Math.max(from, v);
    if (c.op === '<') to = Math.min(to, v - 1);
    if (c.op === '<=') to = Math.min(to, v);
  }
  return { from, to };
}
