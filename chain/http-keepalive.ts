// A lean HTTP client for the ingest's bulk reads: node:http(s) over kept-alive sockets. A backfill makes thousands of
// small requests a second to one node, and the platform's fetch spent about a fifth of the ingest's CPU on its own
// per-request machinery (streams, abort signals, header objects) against this client's one request and one buffer.
// Every request is bounded by a timeout, as in chain/rpc.ts.
import http from 'node:http';
import https from 'node:https';

const agents = {
  'http:': new http.Agent({ keepAlive: true, maxSockets: 64, keepAliveMsecs: 10_000 }),
  'https:': new https.Agent({ keepAlive: true, maxSockets: 64, keepAliveMsecs: 10_000 }),
};

export interface TextResponse {
  status: number;
  text: string;
}

/** One request; resolves with the status and the body as text, rejects on a network error or the timeout. */
export function requestText(
  url: string,
  o: { method?: 'GET' | 'POST'; body?: string; headers?: Record<string, string>; timeoutMs: number },
): Promise<TextResponse> {
  const u = new URL(url);
  const mod = u.protocol === 'https:' ? https : http;
  const agent = agents[u.protocol as keyof typeof agents];
  if (!agent) return Promise.reject(new Error(`unsupported protocol ${u.protocol}`));
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { ...o.headers };
    if (o.body !== undefined) {
      headers['content-type'] ??= 'application/json';
      headers['content-length'] = Buffer.byteLength(o.body);
    }
    const req = mod.request(u, { method: o.method ?? 'GET', agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') });
      });
      res.on('error', (e) => {
        clearTimeout(timer);
        reject(e);
      });
    });
    const timer = setTimeout(() => req.destroy(new Error(`timed out after ${o.timeoutMs} ms`)), o.timeoutMs);
    req.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    req.end(o.body);
  });
}
