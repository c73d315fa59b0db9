// The one place that knows whether ClickHouse is embedded (chDB, in-process, on-disk directory)
// or a real server. Everything else receives a `Store` and speaks plain ClickHouse SQL.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { createClient, type ClickHouseClient } from '@clickhouse/client';
import { Session } from 'chdb';
import { createChdbConnection } from 'chdb/connection';

export interface StoreOptions {
  /** Server URL; when absent the embedded chDB engine is used at `dataDir`. */
  url?: string;
  user?: string;
  password?: string;
  database?: string;
  /** Directory holding the embedded engine's data (DATA_DIR/clickhouse by default). */
  dataDir?: string;
}

export type QueryParams = Record<string, unknown>;

export interface Store {
  readonly kind: 'chdb' | 'server';
  readonly client: ClickHouseClient;
  /** Run a SELECT with `{name:Type}` parameters and return its rows. */
  rows<T>(query: string, params?: QueryParams): Promise<T[]>;
  /** Run a statement that returns nothing (DDL, DELETE, INSERT … SELECT). */
  exec(query: string, params?: QueryParams): Promise<void>;
  /** Insert JS objects into a table as JSONEachRow. */
  insert(table: string, values: readonly object[], settings?: Record<string, string | number>): Promise<void>;
  close(): Promise<void>;
}

// libchdb binds a single data directory per process: share one client per directory.
const embedded = new Map<string, Store>();

const settings = {
  // Keys that must never depend on the host's zone or print big ints as JSON numbers.
  output_format_json_quote_64bit_integers: 1,
  date_time_output_format: 'iso',
} as const;

export function createStore(opts: StoreOptions): Store {
  if (opts.url) {
    const client = createClient({
      url: opts.url,
      username: opts.user ?? 'default',
      password: opts.password ?? '',
      database: opts.database ?? 'default',
      clickhouse_settings: settings,
      max_open_connections: 32,
    });
    return wrap('server', client, async () => client.close());
  }
  const dir = path.resolve(opts.dataDir ?? './data/clickhouse');
  const existing = embedded.get(dir);
  if (existing) return existing;
  if (embedded.size > 0)
    throw new Error(`chDB already bound to ${[...embedded.keys()][0]} in this process; cannot open ${dir}`);
  mkdirSync(dir, { recursive: true });
  const client = createClient({
    // The `connection` option is how @clickhouse/client plugs in chDB (the chdb package documents this).
    connection: createChdbConnection({ path: dir }),
    clickhouse_settings: settings,
  } as Parameters<typeof createClient>[0]);
  // Reads go straight to a second native session on the same directory (chDB allows several per directory): the
  // same engine and parameter binding as the @clickhouse/client connection, without its stream framing and without
  // the `SET` statements it prefixes to every query (set once here). About 0.5 ms less per read
  // (docs/bench-indexer.md, "Where a request's time goes").
  const reader = new Session(dir);
  const ready = (async () => {
    for (const [k, v] of Object.entries(settings))
      await reader.queryAsync(`SET ${k} = ${typeof v === 'number' ? v : `'${v}'`}`);
  })();
  ready.catch(() => undefined); // surfaced by the first read
  const read = async (query: string, params?: QueryParams): Promise<unknown[]> => {
    await ready;
    const r =
      params && Object.keys(params).length > 0
        ? await reader.queryBindAsync(query, params, { format: 'JSONEachRow' })
        : await reader.queryAsync(query, { format: 'JSONEachRow' });
    const text = r.text().trim();
    return text === '' ? [] : (JSON.parse(`[${text.split('\n').join(',')}]`) as unknown[]);
  };
  const store = wrap(
    'chdb',
    client,
    async () => {
      embedded.delete(dir);
      reader.close();
      await client.close();
    },
    read,
  );
  embedded.set(dir, store);
  return store;
}

function wrap(
  kind: Store['kind'],
  client: ClickHouseClient,
  close: () => Promise<void>,
  read?: (query: string, params?: QueryParams) => Promise<unknown[]>,
): Store {
  // Reads in flight, so close() lets them land first: a background reader (the API's status feed) must never
  // leave an embedded session closing under a running query (chDB then refuses to open another directory).
  const reading = new Set<Promise<unknown>>();
  let closed = false;
  return {
    kind,
    client,
    async rows<T>(query: string, params?: QueryParams) {
      if (closed) throw new Error('store closed');
      const p = read
        ? read(query, params)
        : client.query({ query, query_params: params, format: 'JSONEachRow' }).then((rs) => rs.json());
      reading.add(p);
      try {
        return (await p) as T[];
      } finally {
        reading.delete(p);
      }
    },
    async exec(query: string, params?: QueryParams) {
      await client.command({ query, query_params: params });
    },
    async insert(table: string, values: readonly object[], settings?: Record<string, string | number>) {
      if (values.length === 0) return;
      await client.insert({
        table,
        values: values as object[],
        format: 'JSONEachRow',
        ...(settings ? { clickhouse_settings: settings } : {}),
      });
    },
    async close() {
      closed = true;
      await Promise.allSettled([...reading]);
      await close();
    },
  };
}
