// The benchmarks that run the ingest in their own process (bench/ingest.ts, bench/minievm-floor.ts) run it under
// the main job's Node flags (platform/node-flags.ts), so they measure what a deployment runs. A V8 heap flag takes
// effect only at start-up, so the script starts itself again with them when they were not given, and forwards
// SIGINT and SIGTERM to that run.
import { spawn } from 'node:child_process';
import { MAIN_JOB_NODE_FLAGS } from '../platform/node-flags.js';

/**
 * Resolves at once when this process has the main job's flags. Otherwise runs this script again under them and
 * never resolves: this process exits with the re-run's exit code.
 */
export function withMainJobFlags(): Promise<void> {
  const given = `${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`;
  if (MAIN_JOB_NODE_FLAGS.every((f) => given.includes(f.split('=')[0]!))) return Promise.resolve();
  const child = spawn(process.execPath, [...MAIN_JOB_NODE_FLAGS, ...process.execArgv, ...process.argv.slice(1)], {
    stdio: 'inherit',
  });
  for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => child.kill(sig));
  child.on('error', (e) => {
    console.error(`could not start ${process.argv[1]} under ${MAIN_JOB_NODE_FLAGS.join(' ')}: ${e.message}`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
  return new Promise<void>(() => undefined);
}
