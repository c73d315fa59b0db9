// The standalone tracking worker (tracking/worker-main.ts) in a child process, for tests that kill and restart it.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const repo = path.resolve(__dirname, '../..');

/** Start the worker with the test's environment plus `env`; resolves once it reports ready, rejects if it exits. */
export function spawnTrackingWorker(env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(repo, 'tracking/worker-main.ts')], {
    cwd: repo,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('tracking.worker.ready')) resolve(child);
    });
    child.once('exit', (code) => reject(new Error(`tracking worker exited early with ${code}`)));
  });
}

/** SIGKILL a child process and wait for its exit. */
export function killProcess(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}
