// The retry policy of chain reads: which errors are worth retrying, and exponential backoff.

/** Errors worth retrying (network, timeouts, 5xx, a height the node has not produced yet). */
export class TransientSourceError extends Error {
  override name = 'TransientSourceError';
}

/** A request that got no HTTP answer at all (refused, reset, timed out): the node or the path to it, not the call. */
export class UnansweredError extends TransientSourceError {
  override name = 'UnansweredError';
}

/** A definite refusal (an HTTP 4xx other than 408 and 429): not retried; its status says what the node meant. */
export class RefusedError extends Error {
  override name = 'RefusedError';
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/** An answer that is not valid JSON: retried a bounded number of times (a proxy hiccup), then fatal. */
export class MalformedResponseError extends TransientSourceError {
  override name = 'MalformedResponseError';
}

/**
 * Retry a transient operation with exponential backoff (capped): forever for network/5xx/timeouts (the node may
 * be down for a while), at most `malformedAttempts` times in a row for answers that are not valid JSON.
 */
export async function withRetry<T>(
  fn: () => Promise<T>,
  opts: {
    baseMs?: number;
    maxMs?: number;
    attempts?: number;
    malformedAttempts?: number;
    onRetry?: (err: Error, attempt: number) => void;
    isStopped?: () => boolean;
  } = {},
): Promise<T> {
  const base = opts.baseMs ?? 200;
  const max = opts.maxMs ?? 10_000;
  let malformed = 0;
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (e) {
      const err = e as Error;
      if (err instanceof MalformedResponseError && ++malformed >= (opts.malformedAttempts ?? 8)) throw err;
      if (
        !(err instanceof TransientSourceError) ||
        (opts.attempts !== undefined && attempt >= opts.attempts) ||
        opts.isStopped?.()
      )
        throw err;
      opts.onRetry?.(err, attempt);
      await new Promise((r) => setTimeout(r, Math.min(max, base * 2 ** (attempt - 1))));
    }
  }
}
