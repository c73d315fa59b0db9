// The HTTP transport of the three chain protocols: Cosmos REST and other JSON GETs, and JSON-RPC 2.0 over
// POST (CometBFT RPC, EVM JSON-RPC). Every call is bounded by a timeout. The tracking activities
// (activities/rpc.ts) and the devnet tools (devnet/minievm/node-client.ts) call these. The ingest's bulk reads
// (ingest/source.ts) go over chain/http-keepalive.ts instead, in batches (chain/rpc-batch.ts), with the retry
// policy of chain/retry.ts.

const DEFAULT_TIMEOUT_MS = 5_000;

export interface HttpOptions {
  timeoutMs?: number;
  headers?: Record<string, string>;
}

/** A non-2xx answer; the body is kept (trimmed) for error messages. */
export class HttpStatusError extends Error {
  override name = 'HttpStatusError';
  constructor(
    readonly status: number,
    readonly url: string,
    readonly body = '',
  ) {
    super(`HTTP ${status} from ${url}${body ? `: ${body.slice(0, 300)}` : ''}`);
  }
}

/** A JSON-RPC error envelope (`{"error": {code, message, data}}`). */
export class RpcError extends Error {
  override name = 'RpcError';
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** GET a JSON document; throws HttpStatusError on a non-2xx answer, SyntaxError on a body that is not JSON. */
export async function getJson<T = unknown>(url: string, o: HttpOptions = {}): Promise<T> {
  const res = await fetch(url, {
    signal: AbortSignal.timeout(o.timeoutMs ?? DEFAULT_TIMEOUT_MS),
    ...(o.headers ? { headers: o.headers } : {}),
  });
  const text = await res.text();
  if (!res.ok) throw new HttpStatusError(res.status, url, text);
  return JSON.parse(text) as T;
}

/** One JSON-RPC 2.0 call; throws HttpStatusError on a non-2xx answer and RpcError on an error envelope. */
export async function jsonRpc<T = unknown>(
  url: string,
  method: string,
  params: unknown,
  o: HttpOptions = {},
): Promise<T> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...o.headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    signal: AbortSignal.timeout(o.timeoutMs ?? DEFAULT_TIMEOUT_MS),
  });
  if (!res.ok) {
    const text = await res.text().catch(() => '');
    throw new HttpStatusError(res.status, url, text);
  }
  const body = (await res.json()) as { result?: T; error?: { code: number; message: string; data?: string } };
  if (body.error)
    throw new RpcError(
      body.error.code,
      `${method}: ${body.error.message}${body.error.data ? ` (${body.error.data})` : ''}`,
    );
  return body.result as T;
}

/** `base` + relative `path`, with query parameters (a base without a trailing slash is a folder). */
export function endpointUrl(base: string, path: string, query: Record<string, string> = {}): string {
  const u = new URL(path.replace(/^\//, ''), base.endsWith('/') ? base : `${base}/`);
  for (const [k, v] of Object.entries(query)) u.searchParams.set(k, v);
  return u.toString();
}
