// Wait for a condition in a test: polls `cond` every `everyMs` until it holds, or fails after `ms` naming what it
// waited for (`what` may be a function, for context known only then, such as a child process's output).

export async function until(
  cond: () => boolean | Promise<boolean>,
  ms: number,
  what: string | (() => string),
  everyMs = 10,
): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${typeof what === 'function' ? what() : what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
