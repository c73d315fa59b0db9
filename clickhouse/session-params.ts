// Query parameters as session settings, for the embedded engine's parallel readers (clickhouse/client.ts).
//
// Why: chdb-node binds `{name:Type}` parameters through one process-wide lock, because libchdb's native binding
// is not isolated between concurrent queries. A `SET param_name = '…'` on a session is isolated (measured:
// several sessions setting and reading their own values concurrently, beside native bound queries, never mixed),
// so a pool of sessions can run parameterised reads in parallel on every core.
//
// The query text keeps its `{name:Type}` placeholders and the engine still binds and type-checks each value by
// name; only the transport differs. A value travels as ClickHouse's parameter text (the same text the HTTP
// interface's `param_name=` and chdb's native binding take: strings in the escaped format, arrays and tuples as
// literals), wrapped in one single-quoted SQL literal in which the only two characters that could end it, `\` and
// `'`, are escaped. Pure code; unit-tested (test/clickhouse/session-params.test.ts), including a differential
// against the native binding.

const NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
/** `{name:Type}` placeholders of a query (a `{` in a string literal is never followed by `identifier:`). */
const PLACEHOLDER = /\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*:/g;

/** Thrown for a value that has no parameter text (a function, a symbol, a non-finite number, an object). */
export class ParamValueError extends Error {}

/** Replace each character that has an entry in `table`; keep the others. */
function escapeWith(s: string, table: Readonly<Record<string, string>>): string {
  let out = '';
  for (const ch of s) out += table[ch] ?? ch;
  return out;
}

/** Inside a single-quoted ClickHouse literal: `\` and `'` end or alter it; the rest is escaped for readability. */
const LITERAL_ESCAPES: Readonly<Record<string, string>> = {
  '\\': '\\\\',
  "'": "\\'",
  '\0': '\\0',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
};
const quoteLiteral = (s: string): string => `'${escapeWith(s, LITERAL_ESCAPES)}'`;

/** ClickHouse's escaped (TSV) text format, as a top-level String parameter is parsed. */
const TEXT_ESCAPES: Readonly<Record<string, string>> = {
  '\\': '\\\\',
  '\t': '\\t',
  '\n': '\\n',
  '\r': '\\r',
  '\0': '\\0',
  '\b': '\\b',
  '\f': '\\f',
};
const escapedText = (s: string): string => escapeWith(s, TEXT_ESCAPES);

function number(v: number): string {
  if (!Number.isFinite(v)) throw new ParamValueError(`parameter value ${v} is not a finite number`);
  return String(v);
}

/** A value nested in an array or tuple: a SQL literal. */
function nested(v: unknown): string {
  if (v === null || v === undefined) return 'NULL';
  switch (typeof v) {
    case 'string':
      return quoteLiteral(v);
    case 'number':
      return number(v);
    case 'bigint':
      return v.toString();
    case 'boolean':
      return v ? 'true' : 'false';
  }
  if (Array.isArray(v)) return `[${v.map(nested).join(',')}]`;
  throw new ParamValueError(`unsupported parameter value of type ${typeof v}`);
}

/** The parameter text of a top-level value (what `param_name=` would carry). */
export function paramText(v: unknown): string {
  if (v === null || v === undefined) return '\\N';
  if (typeof v === 'string') return escapedText(v);
  return nested(v);
}

/**
 * Each parameter's assignment (`param_name = '…'`) for one query, by name. Every `{name:Type}` placeholder of
 * `query` must have a value: a session keeps earlier values, so a missing one would silently reuse another query's
 * value instead of failing as the native binding does.
 */
export function paramAssignments(query: string, params: Record<string, unknown> | undefined): [string, string][] {
  const given = params ?? {};
  for (const m of query.matchAll(PLACEHOLDER)) {
    const name = m[1] as string;
    if (!Object.hasOwn(given, name)) throw new ParamValueError(`query parameter ${name} has no value`);
  }
  return Object.keys(given).map((name) => {
    if (!NAME.test(name)) throw new ParamValueError(`invalid query parameter name ${JSON.stringify(name)}`);
    return [name, `param_${name} = ${quoteLiteral(paramText(given[name]))}`];
  });
}

/** The statement that gives a session these assignments, or null when there are none. */
export const setStatement = (assignments: readonly (readonly [string, string])[]): string | null =>
  assignments.length === 0 ? null : `SET ${assignments.map(([, a]) => a).join(', ')}`;

/** The statement that gives a session the values of one query's parameters, or null when it has none. */
export function setParamsStatement(query: string, params: Record<string, unknown> | undefined): string | null {
  return setStatement(paramAssignments(query, params));
}
