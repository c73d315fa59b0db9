// The no-shim rule of the import checker (scripts/re-exports.mjs, run by scripts/check-imports.mjs): it finds
// every kind of re-export in a throwaway tree, allows only the workflow bundle's entry, and the repository has none.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without type declarations
import { findReExports } from '../../scripts/re-exports.mjs';

const find = findReExports as (root: string, folders: string[]) => string[];
const dir = mkdtempSync(path.join(tmpdir(), 're-exports-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('no re-exports', () => {
  it('finds each re-export form in a throwaway tree, and allows the workflow bundle entry only', () => {
    mkdirSync(path.join(dir, 'api/x'), { recursive: true });
    mkdirSync(path.join(dir, 'workflows'), { recursive: true });
    writeFileSync(
      path.join(dir, 'api/x/shim.ts'),
      [
        "import { a } from './a.js';",
        "export { b } from './b.js';",
        "export type { C } from './c.js';",
        "export * from './d.js';",
        "export * as e from './e.js';",
        'export {',
        '  f,',
        '  g,',
        "} from './fg.js';",
        'export const own = a;',
      ].join('\n'),
    );
    writeFileSync(path.join(dir, 'api/clean.ts'), "import { a } from './a.js';\nexport { a };\n");
    writeFileSync(path.join(dir, 'workflows/index.ts'), "export { trackTransfer } from './transfer.js';\n");
    expect(find(dir, ['api', 'workflows'])).toEqual([
      "api/x/shim.ts:2: export { b } from './b.js'",
      "api/x/shim.ts:3: export type { C } from './c.js'",
      "api/x/shim.ts:4: export * from './d.js'",
      "api/x/shim.ts:5: export * as e from './e.js'",
      "api/x/shim.ts:6: export { f, g, } from './fg.js'",
    ]);
  });

  it('the repository has none', () => {
    const root = path.resolve(import.meta.dirname, '../..');
    const folders = ['api', 'ingest', 'clickhouse', 'chain', 'routing', 'workflows', 'activities', 'tracking'];
    expect(find(root, [...folders, 'platform', 'scripts', 'devnet', 'bench', 'test'])).toEqual([]);
  });
});
