// Checks the import rules of .dependency-cruiser.cjs (docs/architecture.md) over the source folders.
// dependency-cruiser's CLI refuses Node 20, so this runs the same checker through its API.
// Also the no-shim rule (scripts/re-exports.mjs). Exits 1 and lists each violation when a rule is broken.
import { existsSync } from 'node:fs';
import { cruise } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import { findReExports } from './re-exports.mjs';

const FOLDERS = [
  'api',
  'ingest',
  'clickhouse',
  'chain',
  'routing',
  'workflows',
  'activities',
  'tracking',
  'platform',
  'scripts',
  'devnet',
  'bench',
  'test',
];
const options = await extractDepcruiseOptions('./.dependency-cruiser.cjs');
const tsConfig = extractTSConfig('tsconfig.json');
const result = await cruise(
  FOLDERS.filter((f) => existsSync(f)),
  { ...options, outputType: 'err-long' },
  { extensions: ['.ts', '.js', '.mjs', '.cjs', '.json'] },
  { tsConfig },
);
process.stdout.write(String(result.output));
// The no-shim rule (scripts/re-exports.mjs): every import names the module that defines what it imports.
const shims = findReExports(process.cwd(), FOLDERS);
for (const s of shims) process.stdout.write(`no-re-export: ${s}\n`);
if (shims.length) process.stdout.write(`✘ ${shims.length} re-export(s): import from the defining module instead\n`);
if (result.exitCode !== 0 || shims.length) process.exit(1);
