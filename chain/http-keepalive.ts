// A lean HTTP client for the ingest's bulk reads: a pool of kept-alive connections per origin (undici's Pool, the
// engine under the platform's fetch, called without fetch's per-request machinery). A backfill makes thousands of
// small requests a second to one node: the platform's fetch spent about a fifth of the ingest's CPU on streams,
// abort signals and header objects, node:http's ClientRequest still 80–120 µs of CPU a request, this one 27–35
// (docs/decisions/022-chain-sim-and-the-read-client.md).
// Every request is bounded: its headers must come within the timeout, and no pause in its body may last longer.
// The origins are the configured node's (never a user's), so the pools are few and live as long as the process; an
// idle pool holds no timer and its sockets do not keep the process alive.
import { Pool } from 'undici';

const pools = new Map<string, Pool>();

function poolOf(origin: string): Pool {
  let pool = pools.get(origin);
  if (pool === undefined) {
    // 64 connections, as the node:http agent before it: the ingest keeps at most its fetch concurrency in flight.
    pool = new Pool(origin, { connections: 64, keepAliveTimeout: 10_000 });
    pools.set(origin, pool);
  }
  return pool;
}

export interface TextResponse {
  status: number;
  text: string;
}

/** One request; resolves with the status and the body as text, rejects on a network error or the timeout. */
export async function requestText(
  url: string,
  o: { method?: 'GET' | 'POST'; body?: string; headers?: Record<string, string>; timeoutMs: number },
): Promise<TextResponse> {
  const u = new URL(url);
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error(`unsupported protocol ${u.protocol}`);
  const headers: Record<string, string> = { ...o.headers };
  if (o.body !== undefined) headers['content-type'] ??= 'application/json';
  const res = await poolOf(u.origin).request({
    path: `${u.pathname}${u.search}`,
    method: o.method ?? 'GET',
    headers,
    ...(o.body !== undefined ? { body: o.body } : {}),
    headersTimeout: o.timeoutMs,
    bodyTimeout: o.timeoutMs,
  });
  return { status: res.statusCode, text: await res.body.text() };
}
