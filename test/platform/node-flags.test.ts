// The main job's launchers spell out its Node flags (a shell line cannot import them): each must carry exactly
// MAIN_JOB_NODE_FLAGS (platform/node-flags.ts, decision 010), so a deployment runs what the benchmarks measured.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MAIN_JOB_NODE_FLAGS } from '../../platform/node-flags.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const read = (f: string) => readFileSync(path.join(root, f), 'utf8');

/** The flags between `node` and `--import tsx` of a launch line. */
function flagsOf(line: string): string[] {
  const m = /\bnode((?:\s+--[\w-]+=\S+)*)\s+--import\s+tsx\s+scripts\/main\.ts/.exec(line);
  if (!m) throw new Error(`no main-job launch in: ${line}`);
  return m[1]!.trim().split(/\s+/).filter(Boolean);
}

describe('main job launchers', () => {
  it('scripts/start.sh, npm start and the Dockerfile start Node with exactly the main job flags', () => {
    const startSh = read('scripts/start.sh')
      .split('\n')
      .find((l) => l.startsWith('exec node'));
    const npmStart = (JSON.parse(read('package.json')) as { scripts: { start: string } }).scripts.start;
    const cmd = read('Dockerfile')
      .split('\n')
      .find((l) => l.startsWith('CMD '));
    const dockerLine = (JSON.parse(cmd!.slice(4)) as string[]).join(' ');
    for (const line of [startSh!, npmStart, dockerLine]) expect(flagsOf(line), line).toEqual([...MAIN_JOB_NODE_FLAGS]);
  });
});
