// Query parameters given to a session as settings (clickhouse/session-params.ts): the pure text, then a
// differential against chdb's native binding on a real embedded engine, hostile values included, and the
// parallel readers of the embedded store keeping each query's values apart.
import { rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Session } from 'chdb';
import { afterAll, describe, expect, it } from 'vitest';
import { createStore } from '../../clickhouse/client.js';
import { ParamValueError, paramText, setParamsStatement } from '../../clickhouse/session-params.js';

const dir = path.join(os.tmpdir(), `session-params-${process.pid}`);
const store = createStore({ dataDir: dir, readSessions: 3 });
// A second handle on the same directory for the native binding (chDB allows several sessions per directory).
const native = new Session(dir);
const nativeReady = native.queryAsync('SET output_format_json_quote_64bit_integers = 1');
afterAll(async () => {
  native.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const hostile = [
  '',
  "'",
  "\\'",
  "a' OR 1=1 --",
  "x'); DROP TABLE t; --",
  '\\',
  '\\\\',
  '\\N',
  'tab\there',
  'line\nbreak\r\n',
  'nul\0byte',
  '\b\f',
  '{a:String}',
  '}{',
  'ünïcødé ✓ 𝄞',
  "''''",
  '\\x41',
  '%s %d',
];

function randomString(n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) {
    const r = Math.random();
    s += r < 0.3 ? String.fromCharCode(Math.floor(Math.random() * 128)) : r < 0.4 ? "\\'\t\n\0"[i % 5] : 'aé✓'[i % 3];
  }
  return s;
}

describe('parameter text (pure)', () => {
  it('escapes strings in the escaped format and nests literals in arrays', () => {
    expect(paramText('a\tb\\c')).toBe('a\\tb\\\\c');
    expect(paramText(42)).toBe('42');
    expect(paramText(12345678901234567890n)).toBe('12345678901234567890');
    expect(paramText([1, 2, 3])).toBe('[1,2,3]');
    expect(paramText(["a'b", 'c\\d'])).toBe("['a\\'b','c\\\\d']");
    expect(paramText(null)).toBe('\\N');
  });
  it('builds one SET with every value quoted, and none for a query without parameters', () => {
    expect(setParamsStatement('SELECT 1', undefined)).toBeNull();
    expect(setParamsStatement('SELECT {a:String}, {b: UInt64}', { a: "it's", b: 7 })).toBe(
      "SET param_a = 'it\\'s', param_b = '7'",
    );
  });
  it('refuses a placeholder without a value, a bad name and a value with no text', () => {
    expect(() => setParamsStatement('SELECT {a:String}', {})).toThrow(ParamValueError);
    expect(() => setParamsStatement('SELECT 1', { 'a b': 1 })).toThrow(ParamValueError);
    expect(() => setParamsStatement('SELECT {a:Float64}', { a: Number.NaN })).toThrow(ParamValueError);
    expect(() => setParamsStatement('SELECT {a:String}', { a: { x: 1 } })).toThrow(ParamValueError);
  });
});

describe('session parameters on the embedded engine', () => {
  const nativeValue = async (query: string, params: Record<string, unknown>) => {
    await nativeReady;
    return (await native.queryBindAsync(query, params, { format: 'JSONEachRow' })).text().trim();
  };

  it('bind every hostile and random string exactly as the native binding does', async () => {
    const values = [...hostile, ...Array.from({ length: 200 }, (_, i) => randomString(1 + (i % 40)))];
    for (const v of values) {
      const q = 'SELECT {v:String} AS v, length({v:String}) AS n';
      const [ours] = await store.rows<{ v: string; n: string }>(q, { v });
      expect(ours?.v).toBe(v);
      expect(ours).toEqual(JSON.parse(await nativeValue(q, { v })));
    }
  });

  it('bind arrays, numbers and big integers as the native binding does', async () => {
    const cases: [string, Record<string, unknown>][] = [
      ['SELECT {s:Array(UInt64)} AS s', { s: [1, 2, 18446744073709551615n] }],
      ['SELECT {s:Array(String)} AS s', { s: hostile }],
      ['SELECT {a:UInt64} + {b:Int32} AS x', { a: 9007199254740993n, b: -5 }],
      ['SELECT {f:Float64} AS f', { f: 0.1 }],
      ['SELECT {u:UInt256} AS u', { u: 10n ** 70n }],
    ];
    for (const [q, p] of cases) {
      expect((await store.rows(q, p))[0]).toEqual(JSON.parse(await nativeValue(q, p)));
    }
  });

  it('leaves an injection attempt a plain value', async () => {
    await store.exec('CREATE TABLE IF NOT EXISTS victims (x UInt8) ENGINE = MergeTree ORDER BY x');
    await store.exec('INSERT INTO victims VALUES (1)');
    const [r] = await store.rows<{ v: string }>('SELECT {v:String} AS v', { v: "x'; DROP TABLE victims; --" });
    expect(r?.v).toBe("x'; DROP TABLE victims; --");
    expect(await store.rows('SELECT x FROM victims')).toEqual([{ x: 1 }]);
  });

  it('rejects a value the declared type cannot parse, as the native binding does', async () => {
    await expect(store.rows('SELECT {h:UInt64} AS h', { h: 'abc' })).rejects.toThrow(/UInt64|parse/);
    // and a failure leaves the session usable with the next query's values
    expect(await store.rows('SELECT {h:UInt64} AS h', { h: 5 })).toEqual([{ h: '5' }]);
  });

  it('keeps concurrent queries on parallel sessions to their own values', async () => {
    const n = 300;
    const got = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        store.rows<{ v: string; i: string; s: string }>(
          'SELECT {v:String} AS v, {i:UInt64} AS i, toString(sum(number)) AS s FROM numbers({i:UInt64})',
          { v: `value-${i}`, i },
        ),
      ),
    );
    got.forEach((rows, i) => {
      expect(rows[0]?.v).toBe(`value-${i}`);
      expect(rows[0]?.i).toBe(String(i));
      expect(rows[0]?.s).toBe(String((i * (i - 1)) / 2));
    });
  });
});
