// The edge: how a response leaves the service. Every answer given before express runs comes from here, and every
// response of both services says which layer answered it (`X-Served-By`, `Served` below).
//
// Before express: Both services poll-heavy reads are answered here from memory
// when the answer is already known: a fresh response-cache body (indexer) and a tracked transfer's status document
// (router). Express's per-request work (router, middleware chain, validator) was most of such a request's cost
// (docs/decisions/006-the-edge.md). A lane answers exactly as the full stack would, headers and bytes (CORS
// included, computed per request by the same rules as the cors middleware); anything else, errors included, is
// handed on. test/api/http/edge.test.ts sends the same requests through both and compares them. The same lanes also
// answer on the wire, before node's HTTP parser, for plain keep-alive GETs (api/http/edge-wire.ts).
import type { Express, RequestHandler, Response } from 'express';
import type { IncomingMessage, RequestListener } from 'node:http';
import { normaliseTxHash } from '../../chain/hash.js';
import { type CorsSettings, corsHeadersFor } from './cors.js';
import { metrics } from '../../platform/metrics.js';
import type { CounterSeries, HistogramSeries } from '../../platform/tally.js';

// Which layer answered: `edge` (answered before express, or a response-cache hit), `handler` (from the request
// alone: errors, empty answers), `memo` (a keyed cache of the read model), `held:<name>` (state held at the tip:
// status, collections, tokens, richlist, transfers), `engine` (a statement ran). A request that touched several
// layers names the deepest one it reached. Counted in `http_served_total{service,layer}`.
export const SERVED_BY = 'X-Served-By';

export type Layer = 'edge' | 'handler' | 'memo' | `held:${string}` | 'engine';

const rankOf = (l: Layer): number =>
  l === 'engine' ? 4 : l.startsWith('held:') ? 3 : l === 'memo' ? 2 : l === 'handler' ? 1 : 0;

/** The deepest layer a request reached so far; read models mark it as they answer. */
export class Served {
  private current: Layer = 'handler';
  private rank = 1;

  /** `onChange` sees each new deepest layer (the request's `X-Served-By` header). */
  constructor(private readonly onChange?: (layer: Layer) => void) {}

  get layer(): Layer {
    return this.current;
  }

  mark(layer: Layer): void {
    const r = rankOf(layer);
    if (r > this.rank) {
      this.current = layer;
      this.rank = r;
      this.onChange?.(layer);
    }
  }

  /** Answered by the response cache (the edge's store), whatever ran before. */
  edge(): void {
    this.current = 'edge';
    this.rank = 5;
    this.onChange?.('edge');
  }

  memo(): void {
    this.mark('memo');
  }

  held(name: string): void {
    this.mark(`held:${name}`);
  }

  engine(): void {
    this.mark('engine');
  }
}

/** The request's tracker, created by `servedBy` (a fresh one when the middleware did not run). */
export function servedOf(res: Response): Served {
  const s = res.locals.served as Served | undefined;
  if (s) return s;
  const fresh = new Served();
  res.locals.served = fresh;
  return fresh;
}

/** The series one kind of answer counts into: its request count, its duration and its layer. */
interface AnswerTally {
  requests: CounterSeries;
  duration: HistogramSeries;
  served: CounterSeries;
}

/** The series of an answer (bounded: routes are the documented paths or `unmatched`, statuses a few dozen). */
function tallyOf(service: string, route: string, status: number, layer: Layer): AnswerTally {
  return {
    requests: metrics.httpRequests.of(service, route, String(status)),
    duration: metrics.httpDuration.of(service, route),
    served: metrics.servedBy.of(service, layer),
  };
}

function count(t: AnswerTally, start: bigint): void {
  t.requests.value++;
  t.duration.observe(Number(process.hrtime.bigint() - start) / 1e9);
  t.served.value++;
}

/**
 * The request metrics of both services, and the request's `Served` tracker: `X-Served-By` starts as `handler` and
 * follows the tracker, so it goes out with whatever sends the response (a handler, the error handler, the
 * validator's error path). Counted once the response is finished, under the express route's path.
 */
export function requestAccounting(service: string): RequestHandler {
  return (req, res, next) => {
    const start = process.hrtime.bigint();
    res.setHeader(SERVED_BY, 'handler');
    res.locals.served = new Served((layer) => {
      if (!res.headersSent) res.setHeader(SERVED_BY, layer);
    });
    res.on('finish', () => {
      const route = (req.route?.path as string | undefined) ?? 'unmatched';
      count(
        tallyOf(service, route, res.statusCode, (res.getHeader(SERVED_BY) as Layer | undefined) ?? 'handler'),
        start,
      );
    });
    next();
  };
}

/**
 * A lane's answer to a GET: always 200 JSON, its headers as one flat name/value array (node stores it as given, with
 * no header object to build or copy; the wire front writes them in the same order).
 */
export interface EdgeAnswer {
  /** The route label of the request metrics. */
  route: string;
  headers: string[];
  body: string | Buffer;
  /**
   * The lane gives this same object, unchanged, for as long as its answer holds (a kept body): whoever writes it may
   * keep what it made of it (the wire front keeps its bytes).
   */
  kept?: true;
}

/** Answers a GET from its raw URL and its `Origin` header, or hands it on (null). Never throws. */
export type EdgeLane = (url: string, origin: string | undefined) => EdgeAnswer | null;

const lanes = new WeakMap<Express, EdgeLane[]>();

/** Put a lane in front of an app; the server `listen` starts tries it before express. */
export function addEdgeLane(app: Express, lane: EdgeLane): void {
  lanes.set(app, [...(lanes.get(app) ?? []), lane]);
}

/** The app's lanes as one: the first answer of any of them (null when the app has none). */
export function edgeLanesOf(app: Express): EdgeLane | null {
  const mine = lanes.get(app);
  if (!mine) return null;
  return (url, origin) => {
    for (const lane of mine) {
      const a = lane(url, origin);
      if (a !== null) return a;
    }
    return null;
  };
}

/** Counts one lane answer by its route, from its start (node's server and the wire front alike). */
export type EdgeAnswerCount = (route: string, start: bigint) => void;

/**
 * The request metrics of a service's edge answers. A lane's routes are a few constants, so each one's series are
 * found by the route alone: a hit counts with no key to build.
 */
export function edgeAnswerCounter(service: string): EdgeAnswerCount {
  const byRoute = new Map<string, AnswerTally>();
  return (route, start) => {
    let t = byRoute.get(route);
    if (!t) {
      t = tallyOf(service, route, 200, 'edge');
      byRoute.set(route, t);
    }
    count(t, start);
  };
}

/** The server's request handler: the app's lanes first, then express. */
/** Whether a request announces a body (chunked, or a length other than 0). */
export const carriesBody = (req: IncomingMessage): boolean =>
  req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] ?? '0') !== '0';

export function edgeHandler(app: Express): RequestListener {
  const lane = edgeLanesOf(app);
  if (!lane) return app;
  const counted = edgeAnswerCounter(app.get('service') as string);
  return (req, res) => {
    const start = process.hrtime.bigint();
    // A GET with a body is express's to read (its JSON parser refuses a broken one): no lane answers it. Nor one
    // without a Host header: express refuses it (api/http/app.ts requireHost).
    const plain = req.method === 'GET' && !carriesBody(req) && req.url !== undefined && req.headers.host !== undefined;
    const a = plain ? lane(req.url!, req.headers.origin) : null;
    if (a === null) {
      app(req, res);
      return;
    }
    res.writeHead(200, a.headers);
    res.end(a.body);
    counted(a.route, start);
  };
}

/** A 200 JSON answer with the headers express sends for it (a Buffer body is the UTF-8 bytes, sent as they are). */
function answerJson(
  route: string,
  cors: Record<string, string>,
  extra: Record<string, string>,
  body: string | Buffer,
): EdgeAnswer {
  const headers: string[] = [];
  for (const k in cors) headers.push(k, cors[k]!);
  for (const k in extra) headers.push(k, extra[k]!);
  const length = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
  headers.push('Content-Type', 'application/json; charset=utf-8', 'Content-Length', String(length), SERVED_BY, 'edge');
  return { route, headers, body };
}

/** Route label of the request metrics for a response-cache hit answered here. */
export const CACHE_HIT_ROUTE = 'response_cache_hit';

const HIT = { 'X-Cache': 'hit' } as const;

/** A GET whose raw URL has a fresh body in the response cache (api/indexer/response-cache.ts). */
export function responseCacheLane(fresh: (url: string) => Buffer | undefined, cors?: CorsSettings): EdgeLane {
  const corsOf = corsHeadersFor(cors);
  // A kept body's answer, made once for the CORS headers it went out with last (the same object for the same
  // headers: one with `*`, one per allowed origin); it goes with the body when the cache drops it.
  const answers = new WeakMap<Buffer, EdgeAnswer & { cors: Record<string, string> }>();
  return (url, origin) => {
    const body = fresh(url);
    if (body === undefined) return null;
    const headers = corsOf(origin);
    const kept = answers.get(body);
    if (kept !== undefined && kept.cors === headers) return kept;
    const a = { ...answerJson(CACHE_HIT_ROUTE, headers, HIT, body), kept: true as const, cors: headers };
    answers.set(body, a);
    return a;
  };
}

const STATUS_PREFIX = '/v2/tx/status?';
const PLAIN_QUERY = /^[A-Za-z0-9._=&-]*$/;
const CHAIN_ID = /^[A-Za-z0-9._-]{1,64}$/;
const NONE = {} as const;

/**
 * GET /v2/tx/status with exactly `chain_id` and `tx_hash`, once each, both within the documented lengths and a
 * well-formed hash, whose status document is in memory (`cached`, the tracking service's). Every client polls this
 * route; anything else (errors, unknown txs, misses, HEAD) goes to the validated route.
 */
export function transferStatusLane(
  cached: (chainId: string, txHash: string) => string | undefined,
  cors?: CorsSettings,
): EdgeLane {
  const corsOf = corsHeadersFor(cors);
  return (url, origin) => {
    if (!url.startsWith(STATUS_PREFIX)) return null;
    // Only plain values: a `+`, a percent-escape or any other character is the validator's to judge (it refuses
    // reserved characters that URLSearchParams would read as a space, and a trimmed space would pass here).
    const query = url.slice(STATUS_PREFIX.length);
    if (!PLAIN_QUERY.test(query)) return null;
    const q = new URLSearchParams(query);
    let n = 0;
    for (const _ of q.keys()) n++;
    const chainId = q.getAll('chain_id');
    const rawHash = q.getAll('tx_hash');
    if (n !== 2 || chainId.length !== 1 || rawHash.length !== 1) return null;
    const [c, h] = [chainId[0]!, rawHash[0]!];
    if (h.length === 0 || h.length > 130 || !CHAIN_ID.test(c)) return null;
    const txHash = normaliseTxHash(h);
    const json = txHash ? cached(c, txHash) : undefined;
    return json === undefined ? null : answerJson('/v2/tx/status', corsOf(origin), NONE, json);
  };
}
