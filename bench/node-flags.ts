// The benchmarks that run the ingest in their own process run it with the V8 flag the launchers give the main job
// (scripts/start.sh, the Dockerfile, `npm start`: decision 010), so they measure what a deployment runs. A V8 heap
// flag takes effect only at start-up, so the script starts itself again with it when it was not given.
import { spawnSync } from 'node:child_process';

export const MAIN_JOB_NODE_FLAGS = ['--max-semi-space-size=64'];

/** Re-run this script under the main job's node flags unless it already has them; returns only when it has. */
export function withMainJobFlags(): void {
  const given = `${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`;
  if (MAIN_JOB_NODE_FLAGS.every((f) => given.includes(f.split('=')[0]!))) return;
  const r = spawnSync(process.execPath, [...MAIN_JOB_NODE_FLAGS, ...process.execArgv, ...process.argv.slice(1)], {
    stdio: 'inherit',
  });
  process.exit(r.status ?? 1);
}
