// JSON-RPC 2.0 batches (an array of calls in one POST), as CometBFT and EVM JSON-RPC servers accept them. Pure:
// building the request body and matching the answers back to the calls. The answers of a batch may come in any
// order (JSON-RPC 2.0 §6), some may be missing, and each may be an error of its own; a batch the server refuses
// whole (CometBFT's `max_request_batch_size`, 10 by default) is answered by one error, in an array or alone.

export interface RpcCall {
  method: string;
  params: unknown;
}

export interface RpcErrorBody {
  code?: number;
  message?: string;
  data?: unknown;
}

/** One call's answer: its result, its error, or nothing (the server left it out). */
export type BatchAnswer = { result: unknown } | { error: RpcErrorBody } | { missing: true };

/** The request body of `calls`, numbered from `firstId`. */
export function batchBody(calls: readonly RpcCall[], firstId: number): string {
  return JSON.stringify(calls.map((c, i) => ({ jsonrpc: '2.0', id: firstId + i, method: c.method, params: c.params })));
}

/**
 * A batch the server refused as a whole, by one error without a call's id. `limit`: the most calls it allows, when
 * it refused the batch for its size and said how many.
 */
export class BatchRefusedError extends Error {
  override name = 'BatchRefusedError';
  constructor(
    readonly limit: number | undefined,
    message: string,
  ) {
    super(message);
  }
}

const TOO_LARGE_RE = /batch (?:request )?(?:exceeds|too large|limit)[^\d]*(\d+)?/i;

/**
 * The answers to `count` calls numbered from `firstId`, in call order. Throws BatchRefusedError when the server
 * refused the batch as a whole, and TypeError when `parsed` is not a batch answer at all.
 */
export function matchBatch(parsed: unknown, firstId: number, count: number): BatchAnswer[] {
  const items = Array.isArray(parsed) ? parsed : [parsed];
  const out: BatchAnswer[] = Array.from({ length: count }, () => ({ missing: true }) as const);
  for (const item of items) {
    if (typeof item !== 'object' || item === null) throw new TypeError('a batch answer item is not an object');
    const { id, result, error } = item as { id?: unknown; result?: unknown; error?: RpcErrorBody };
    const i = typeof id === 'number' ? id - firstId : Number.NaN;
    if (!(i >= 0 && i < count)) {
      // An answer without a usable id can only be about the batch as a whole.
      const text = `${error?.message ?? ''} ${typeof error?.data === 'string' ? error.data : ''}`;
      if (error) {
        const m = TOO_LARGE_RE.exec(text);
        throw new BatchRefusedError(m?.[1] ? Number(m[1]) : undefined, text.trim().slice(0, 300));
      }
      continue;
    }
    out[i] = error ? { error } : { result };
  }
  return out;
}
