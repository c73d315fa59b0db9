// JSONEachRow bodies with JSON-text columns (clickhouse/row-lines.ts): the pure encoding, then the embedded engine
// storing a recorded minievm node's tx documents and receipts byte for byte when handed them as objects.
import { readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createStore } from '../../clickhouse/client.js';
import { rowLines } from '../../clickhouse/row-lines.js';

// Recorded from a minievm devnet node (test/fixtures/SOURCES.md): REST txs and EVM receipts as the node sent them.
const recorded = ['evm-call', 'evm-create', 'bank-send', 'failed'].map(
  (name) =>
    JSON.parse(readFileSync(new URL(`../fixtures/minievm-devnet/${name}.json`, import.meta.url), 'utf8')) as {
      rest_tx: object;
      receipts: object[];
    },
);
const documents = recorded.map((r) => JSON.stringify(r.rest_tx));
const receipts = recorded.flatMap((r) => r.receipts.map((x) => JSON.stringify(x)));
// Text the engine must keep as written: escapes, non-ASCII, U+2028, a lone surrogate, nested empties.
const hostile = JSON.stringify({
  memo: 'q"uote \\ back\tslash\nline \u2028 é 😀 \ud800 <tag>&',
  empty: {},
  list: [[], {}, null, true, 1e21, -0.5],
  '@type': '/a.b',
});

describe('rowLines', () => {
  it('is JSON.stringify line by line when no column holds JSON text', () => {
    const rows = [{ a: 1, b: 'x"y' }, { a: 2, b: undefined }, {}];
    expect(rowLines(rows)).toBe(`${rows.map((r) => JSON.stringify(r)).join('\n')}\n`);
    expect(rowLines([])).toBe('');
  });

  it('writes a JSON-text column as the object itself, every other column as JSON.stringify does', () => {
    const rows = documents.map((json, i) => ({ sequence: i, height: 93, json, note: 'n"', skipped: undefined }));
    const lines = rowLines(rows, ['json']).split('\n');
    expect(lines.pop()).toBe('');
    lines.forEach((line, i) => {
      expect(line).toBe(`{"sequence":${i},"height":93,"json":${documents[i]},"note":"n\\""}`);
      expect(JSON.parse(line).json).toEqual(JSON.parse(documents[i]!));
    });
  });

  it('writes a value that is not an object text as a string', () => {
    for (const v of ['[1,2]', '{"open":1', 'plain', '', '1']) {
      expect(rowLines([{ json: v }], ['json'])).toBe(`${JSON.stringify({ json: v })}\n`);
    }
    expect(rowLines([{ json: 7 }], ['json'])).toBe('{"json":7}\n');
  });
});

describe('the embedded engine stores JSON-text columns byte for byte', () => {
  const dir = path.join(os.tmpdir(), `row-lines-${process.pid}`);
  const store = createStore({ dataDir: dir, readSessions: 1 });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps recorded tx documents and receipts, and hostile text, as the strings were', async () => {
    await store.exec(
      'CREATE TABLE docs (sequence UInt64, json String, other String) ENGINE = MergeTree ORDER BY sequence',
    );
    const texts = [...documents, ...receipts, hostile, '[1,2]', 'plain', '{}'];
    // A second column with object text that is not marked: stored as the escaped string it is.
    await store.insert(
      'docs',
      texts.map((json, sequence) => ({ sequence, json, other: json })),
      undefined,
      ['json'],
    );
    const back = await store.rows<{ sequence: string; json: string; other: string }>(
      'SELECT sequence, json, other FROM docs ORDER BY sequence',
    );
    expect(back.map((r) => r.json)).toEqual(texts);
    expect(back.map((r) => r.other)).toEqual(texts);
  });
});
