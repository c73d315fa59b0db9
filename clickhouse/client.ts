// The one place that knows whether ClickHouse is embedded (chDB, in-process, on-disk directory)
// or a real server. Everything else receives a `Store` and speaks plain ClickHouse SQL.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { createClient, type ClickHouseClient } from '@clickhouse/client';
import { Session } from 'chdb';
import { createChdbConnection } from 'chdb/connection';
import { JSON_TEXT_SETTINGS, rowLines } from './row-lines.js';
import { paramAssignments, setStatement } from './session-params.js';

export interface StoreOptions {
  /** Server URL; when absent the embedded chDB engine is used at `dataDir`. */
  url?: string;
  user?: string;
  password?: string;
  database?: string;
  /** Directory holding the embedded engine's data (DATA_DIR/clickhouse by default). */
  dataDir?: string;
  /** Embedded engine: native sessions that serve reads in parallel (CHDB_READ_SESSIONS; 6 by default). */
  readSessions?: number;
  /**
   * Embedded engine: the nice value of the engine threads that run this store's statements (reads, inserts and the
   * materialized views they feed), while they run them; 0 after (not the process's own value: see scripts/main.ts).
   * The ingest thread's store sets it so that the engine's work for a backfill, not only the ingest's own thread,
   * yields to the APIs' thread (decision 013).
   */
  queryNice?: number;
  /**
   * Embedded engine: the nice value of the engine's background merges. A server setting: it takes effect only in the
   * store that starts the engine, the first one opened in the process.
   */
  mergeNice?: number;
}

export type QueryParams = Record<string, unknown>;

export interface ReadOptions {
  /**
   * A later statement of a request the engine has already served once (the documents after the page's picker, a
   * count after the page). On the embedded engine it waits for a session before every first statement, so a request
   * queues once however many statements it needs (a second wait was the latency tail under load: decision 007). A
   * ClickHouse server schedules its own queries; there it changes nothing.
   */
  followUp?: boolean;
}

export interface Store {
  readonly kind: 'chdb' | 'server';
  readonly client: ClickHouseClient;
  /** Run a SELECT with `{name:Type}` parameters and return its rows. */
  rows<T>(query: string, params?: QueryParams, opts?: ReadOptions): Promise<T[]>;
  /** Run a statement that returns nothing (DDL, DELETE, INSERT … SELECT). */
  exec(query: string, params?: QueryParams): Promise<void>;
  /**
   * Insert JS objects into a table as JSONEachRow. `jsonText`: columns whose values are JSON.stringify's text of an
   * object; the embedded engine is handed them as objects, not as escaped strings (clickhouse/row-lines.ts). The
   * stored text is the same either way.
   */
  insert(
    table: string,
    values: readonly object[],
    settings?: Record<string, string | number>,
    jsonText?: readonly string[],
  ): Promise<void>;
  close(): Promise<void>;
}

type Writer = Store['insert'];

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
  // The engine (one per process) starts with the arguments of the first session opened on it: the writer, opened
  // first for that reason. Its server settings are the nice value of merges.
  const writer = opts.mergeNice
    ? new Session(dir, { connectionArgs: [`--os_threads_nice_value_merge_mutate=${opts.mergeNice}`] })
    : new Session(dir);
  // Settings of every statement of this store. The engine sets the nice value of each thread it attaches to a
  // statement, and sets it to 0 after; where the process lacks CAP_SYS_NICE (needed for the way back), it leaves
  // them alone. A pool thread the engine creates while working niced inherits the value until its first niced
  // statement ends; meanwhile a read of the APIs it runs is niced too (as before, level with the backfill).
  const nice: Record<string, number> = opts.queryNice
    ? { os_threads_nice_value_query: opts.queryNice, os_threads_nice_value_materialized_view: opts.queryNice }
    : {};
  const storeSettings: Record<string, string | number> = { ...settings, ...nice };
  const client = createClient({
    // The `connection` option is how @clickhouse/client plugs in chDB (the chdb package documents this).
    connection: createChdbConnection({ path: dir }),
    clickhouse_settings: storeSettings,
  } as Parameters<typeof createClient>[0]);
  // Reads go straight to a pool of native sessions on the same directory (chDB allows several per directory): the
  // same engine as the @clickhouse/client connection, without its stream framing and without the `SET` statements
  // it prefixes to every query (set once per session here). Each session runs one query at a time; different
  // sessions run in parallel. Parameters are given to the session as settings (clickhouse/session-params.ts),
  // because chdb-node's native binding takes one process-wide lock (bench/reports/2026-11-24-indexer.md).
  const readers = Array.from({ length: Math.max(1, opts.readSessions ?? 6) }, () => {
    const session = new Session(dir);
    const ready = (async () => {
      for (const [k, v] of Object.entries(storeSettings))
        await session.queryAsync(`SET ${k} = ${typeof v === 'number' ? v : `'${v}'`}`);
    })();
    ready.catch(() => undefined); // surfaced by the first read
    // The parameter values this session holds (name → its assignment): a statement whose values it already holds
    // skips its `SET` (a page's count after the page, on the session the page just released).
    return { session, ready, held: new Map<string, string>() };
  });
  type Reader = (typeof readers)[number];
  const idle = [...readers];
  // Two FIFO queues for a session: follow-up statements (ReadOptions) go before first statements.
  const followUps: ((r: Reader) => void)[] = [];
  const firsts: ((r: Reader) => void)[] = [];
  const acquire = (followUp: boolean) =>
    new Promise<Reader>((resolve) => {
      const r = idle.pop();
      if (r) resolve(r);
      else (followUp ? followUps : firsts).push(resolve);
    });
  const release = (r: Reader) => {
    const next = followUps.shift() ?? firsts.shift();
    if (next) next(r);
    else idle.push(r);
  };
  const read = async (query: string, params?: QueryParams, opts?: ReadOptions): Promise<unknown[]> => {
    const assignments = paramAssignments(query, params); // before taking a session: a bad value fails alone
    const r = await acquire(opts?.followUp === true);
    let text: string;
    try {
      await r.ready;
      const stale = assignments.filter(([name, a]) => r.held.get(name) !== a);
      const set = setStatement(stale);
      if (set) {
        try {
          await r.session.queryAsync(set);
        } catch (e) {
          r.held.clear(); // which values it took is unknown: set them all again next time
          throw e;
        }
        for (const [name, a] of stale) r.held.set(name, a);
      }
      text = (await r.session.queryAsync(query, { format: 'JSONEachRow' })).text().trim();
    } finally {
      release(r);
    }
    return text === '' ? [] : (JSON.parse(`[${text.split('\n').join(',')}]`) as unknown[]);
  };
  // Inserts go to the writer's native session (opened above) as bytes (chdb-node's raw insert): the rows are
  // encoded once, as JSONEachRow lines, and handed over without the client's row encoder, its stream, or a copy into
  // an inline SQL statement. Writes stay in the caller's order (the facts store awaits each). Decision 010 has the
  // measurement; JSON-text columns, decision 023.
  const write: Writer = async (table, values, settings, jsonText) => {
    const body = rowLines(values, jsonText);
    const all = { ...nice, ...settings, ...(jsonText?.length ? JSON_TEXT_SETTINGS : {}) };
    await writer.insert({
      table,
      values: Buffer.from(body),
      format: 'JSONEachRow',
      ...(Object.keys(all).length > 0 ? { settings: all } : {}),
    });
  };
  const store = wrap(
    'chdb',
    client,
    async () => {
      embedded.delete(dir);
      for (const r of readers) r.session.close();
      writer.close();
      await client.close();
    },
    read,
    write,
  );
  embedded.set(dir, store);
  return store;
}

function wrap(
  kind: Store['kind'],
  client: ClickHouseClient,
  close: () => Promise<void>,
  read?: (query: string, params?: QueryParams, opts?: ReadOptions) => Promise<unknown[]>,
  write?: Writer,
): Store {
  // Reads in flight, so close() lets them land first: a background reader (the API's status feed) must never
  // leave an embedded session closing under a running query (chDB then refuses to open another directory).
  const reading = new Set<Promise<unknown>>();
  let closed = false;
  return {
    kind,
    client,
    async rows<T>(query: string, params?: QueryParams, opts?: ReadOptions) {
      if (closed) throw new Error('store closed');
      const p = read
        ? read(query, params, opts)
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
    async insert(table, values, settings, jsonText) {
      if (values.length === 0) return;
      if (write) return write(table, values, settings, jsonText);
      // A server is sent JSON-text columns as ordinary strings (the client encodes every row itself).
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
