// Test helpers: the indexer app on a loopback port with response validation switched on, and a GET that
// checks the content type of every answer.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeServer, listen } from '../../../api/http/app.js';
import { createIndexerApp, type IndexerAppOptions } from '../../../api/indexer/app.js';
import { installJsonClientErrors } from '../../../api/http/client-errors.js';

export interface Running {
  base: string;
  server: Server;
  get<T = any>(path: string): Promise<{ status: number; body: T }>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON
  close(): Promise<void>;
}

export async function startIndexer(opts: Omit<IndexerAppOptions, 'validateResponses'>): Promise<Running> {
  const app = createIndexerApp({ ...opts, validateResponses: true });
  const server = await listen(app, 0);
  installJsonClientErrors(server);
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    server,
    async get<T>(path: string) {
      const res = await fetch(base + path);
      const type = res.headers.get('content-type') ?? '';
      if (!type.startsWith('application/json')) throw new Error(`${path}: content-type ${type}`);
      const body: unknown = await res.json();
      // A 500 here is either a server bug or a response that does not match the OpenAPI document.
      if (res.status >= 500) throw new Error(`${path} → ${res.status} ${JSON.stringify(body)}`);
      return { status: res.status, body: body as T };
    },
    close: () => closeServer(server),
  };
}

/** Follow next_key from the first page to the end; returns every item in order. */
export async function walk<T>(
  r: Running,
  path: string,
  key: string,
  maxPages = 10_000,
): Promise<{ items: T[]; pages: number }> {
  const items: T[] = [];
  let next: string | null = null;
  let pages = 0;
  do {
    const sep = path.includes('?') ? '&' : '?';
    const url: string = next === null ? path : `${path}${sep}pagination.key=${encodeURIComponent(next)}`;
    const { status, body } = await r.get(url);
    if (status !== 200) throw new Error(`${url} → ${status} ${JSON.stringify(body)}`);
    items.push(...(body[key] as T[]));
    next = body.pagination.next_key as string | null;
    pages++;
  } while (next !== null && pages < maxPages);
  return { items, pages };
}
