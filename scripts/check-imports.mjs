// Checks the import rules of .dependency-cruiser.cjs (docs/architecture.md) over the source folders.
// dependency-cruiser's CLI refuses Node 20, so this runs the same checker through its API.
// Exits 1 and lists each violation when a rule is broken.
import { existsSync } from 'node:fs';
import { cruise } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';

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
if (result.exitCode !== 0) process.exit(1);
