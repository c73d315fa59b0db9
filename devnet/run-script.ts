// Running the devnet's bash scripts (devnet/*/build.sh, start.sh, stop.sh …) from TypeScript, and reading the
// KEY=VALUE lines a start script prints. Shared by the e2e tests and the benchmarks.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface RunScriptOptions {
  /** 'capture' (default): the error carries the last 3,000 characters of stderr; 'inherit': stderr shows live. */
  stderr?: 'capture' | 'inherit';
  timeoutMs?: number;
}

/**
 * Run `bash script args…` from the repository root with `env` on top of this process's environment; its stdout.
 * A failure throws, naming `what` (default: the script's path) and the exit status.
 */
export function runScript(
  script: string,
  args: string[],
  env: Record<string, string> = {},
  what = path.relative(REPO_ROOT, script),
  o: RunScriptOptions = {},
): string {
  try {
    return execFileSync('bash', [script, ...args], {
      cwd: REPO_ROOT,
      env: { ...process.env, ...env },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', o.stderr === 'inherit' ? 'inherit' : 'pipe'],
      timeout: o.timeoutMs ?? 900_000,
    });
  } catch (e) {
    const err = e as { stderr?: string; status?: number };
    throw new Error(`${what} failed (exit ${err.status}):\n${(err.stderr ?? String(e)).slice(-3000)}`);
  }
}

/** The KEY=VALUE lines of a script's output (what devnet/minievm/start.sh and devnet/rollytics/start.sh print). */
export function scriptEnv(out: string): Record<string, string> {
  return Object.fromEntries(
    out
      .trim()
      .split('\n')
      .filter((l) => l.includes('='))
      .map((l) => {
        const i = l.indexOf('=');
        return [l.slice(0, i), l.slice(i + 1)];
      }),
  );
}
