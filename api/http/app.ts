// Shared express scaffolding for both services: JSON body bound, request metrics, /health, /metrics,
// Swagger UI at /swagger/ and the OpenAPI document at /swagger/doc.json.
import express, { type Express, type RequestHandler } from 'express';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import { registry } from '../../platform/metrics.js';
import { installJsonClientErrors } from './client-errors.js';
import { ApiError, badRequest } from './errors.js';
import { type CorsSettings, corsMiddleware } from './cors.js';
import { carriesBody, edgeAnswerCounter, edgeHandler, edgeLanesOf, requestAccounting } from './edge.js';
import { installWireFront } from './edge-wire.js';

export interface ServiceAppOptions {
  service: 'indexer' | 'router';
  openapi: object;
  /** Maximum accepted JSON body (router); the indexer takes none. */
  bodyLimit?: string;
  health?: () => Promise<Record<string, unknown>>;
  /** Cross-origin access; default: any origin, preflight answered (api/http/cors.ts). */
  cors?: CorsSettings;
  /** Proxies whose X-Forwarded-For names the client (TRUST_PROXY_HOPS); 0 or absent: the connection's peer. */
  trustProxyHops?: number;
}

const swaggerHtml = (title: string) => `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title>
<link rel="stylesheet" href="./ui/swagger-ui.css"></head><body><div id="ui"></div>
<script src="./ui/swagger-ui-bundle.js"></script>
<script>window.ui = SwaggerUIBundle({ url: './doc.json', dom_id: '#ui' });</script></body></html>`;

/**
 * Every documented query parameter is a value or a list of values. The 'extended' parser also makes objects of
 * `a[b]=c` (and of lists past its index limit), on which the validator's own parsing throws: such a request is a
 * JSON 400 naming the parameter, never a 500.
 */
const flatQuery: RequestHandler = (req, _res, next) => {
  for (const [name, v] of Object.entries(req.query as Record<string, unknown>))
    if (typeof v !== 'string' && !(Array.isArray(v) && v.every((x) => typeof x === 'string')))
      return next(badRequest(`${name}: must be a value or a list of values`));
  next();
};

/**
 * HTTP/1.1 requires a Host header (RFC 9112 §3.2: a server answers 400 without one). Node's own check answers
 * with an empty body, so the servers turn it off (`listen`) and this answers in the service's JSON error shape.
 */
const requireHost: RequestHandler = (req, _res, next) =>
  next(req.headers.host === undefined && req.httpVersion === '1.1' ? badRequest('Host header is required') : undefined);

/** Deepest JSON body accepted: our request bodies nest a few levels; a deeper one would only cost stack. */
export const MAX_BODY_DEPTH = 32;

function depthOf(value: unknown): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (d > deepest) deepest = d;
    if (deepest > MAX_BODY_DEPTH) return deepest;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, d + 1]);
  }
  return deepest;
}

/**
 * After the JSON parser: a body it did not read (its Content-Type named JSON but did not parse as a media type, as
 * `application/json;`) would reach the validator as `{}` and be refused for a missing field; and a parsed body
 * nests at most MAX_BODY_DEPTH levels, so no handler recurses into an unbounded one.
 */
const jsonBodyRead: RequestHandler = (req, _res, next) => {
  const read = (req as { _body?: boolean })._body === true;
  if (carriesBody(req) && !read && req.method !== 'GET' && /json/i.test(req.headers['content-type'] ?? ''))
    return next(
      new ApiError(
        415,
        `Content-Type "${String(req.headers['content-type']).slice(0, 100)}" is not a valid media type: send application/json`,
      ),
    );
  if (read && depthOf(req.body) > MAX_BODY_DEPTH)
    return next(badRequest(`request body nests more than ${MAX_BODY_DEPTH} levels`));
  next();
};

export function createServiceApp(opts: ServiceAppOptions): Express {
  memoiseValidatorRoutes();
  const app = express();
  app.set('service', opts.service);
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'extended');
  // `req.ip`, which the per-client limits count by (api/http/client-limit.ts), is then the address that many hops back.
  if (opts.trustProxyHops) app.set('trust proxy', opts.trustProxyHops);
  app.use(requestAccounting(opts.service));
  // Before everything else, so preflights and error answers carry the CORS headers too.
  app.use(corsMiddleware(opts.cors));
  app.use(requireHost);
  app.use(flatQuery);
  app.use(express.json({ limit: opts.bodyLimit ?? '64kb', strict: true }));
  app.use(jsonBodyRead);

  // A failing check (the store not answering) is a 503, so a load balancer or an orchestrator's probe takes the
  // instance out: a 200 with `ok: false` in the body passed every probe that reads the status code only.
  app.get('/health', async (_req, res) => {
    try {
      const extra = opts.health ? await opts.health() : {};
      res.json({ status: 'ok', service: opts.service, ...extra });
    } catch (e) {
      res.status(503).json({ status: 'unavailable', service: opts.service, error: String((e as Error)?.message ?? e) });
    }
  });
  app.get('/metrics', async (_req, res) => {
    res.type(registry.contentType).send(await registry.metrics());
  });
  const doc = JSON.stringify(opts.openapi);
  app.get('/swagger/doc.json', (_req, res) => res.type('application/json').send(doc));
  const uiDir = createRequire(import.meta.url)('swagger-ui-dist').getAbsoluteFSPath() as string;
  app.use('/swagger/ui', express.static(uiDir, { index: false }));
  app.get(['/swagger', '/swagger/', '/swagger/index.html'], (req, res) => {
    if (req.path === '/swagger') return res.redirect(301, '/swagger/');
    res.type('text/html').send(swaggerHtml(`${opts.service} API`));
  });
  return app;
}

/**
 * Listen and resolve once bound; port 0 picks a free port (tests). The edge runs first: the app's lanes answer on the
 * wire (api/http/edge-wire.ts), then in node's request handler (api/http/edge.ts), then express.
 */
export function listen(app: Express, port: number, host = '127.0.0.1'): Promise<Server> {
  return new Promise((resolve, reject) => {
    // Without Node's Host check, which answers with an empty body: `requireHost` answers in JSON.
    const server = createServer({ requireHostHeader: false }, edgeHandler(app));
    const lane = edgeLanesOf(app);
    if (lane) installWireFront(server, lane, edgeAnswerCounter(app.get('service') as string));
    server.listen(port, host);
    installJsonClientErrors(server);
    server.once('listening', () => resolve(server));
    server.once('error', reject);
  });
}

export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections?.();
  });
}

// The validator's route lookup, memoised. express-openapi-validator 5.6 finds a request's documented route by
// compiling every route with path-to-regexp, in order, on every request, until one matches (lookupRoute in
// middlewares/openapi.metadata.js): a visible share of the indexer's main thread under load (decision 006). A
// compiled route depends only on its pattern and options, and the validator only reads it (`regexp.exec`, `keys`),
// so the copy of path-to-regexp the validator loads is given a memo here, once per process. Bounded: patterns come
// from the OpenAPI documents; past MAX_PATTERNS (never reached by our two services) compilation is not kept.
const MAX_PATTERNS = 2000;

interface PathToRegexpModule {
  pathToRegexp: (route: unknown, options?: Record<string, unknown>) => { regexp: RegExp; keys: unknown[] };
}

type Compiled = ReturnType<PathToRegexpModule['pathToRegexp']>;
const MEMO = Symbol.for('chain-infra.route-regexps');

/** Memoise the validator's route compilation (idempotent). Returns the kept compilations (pattern + options). */
export function memoiseValidatorRoutes(): ReadonlyMap<string, Compiled> {
  const require = createRequire(import.meta.url);
  const validatorDir = path.dirname(require.resolve('express-openapi-validator'));
  const mod = require(require.resolve('path-to-regexp', { paths: [validatorDir] })) as PathToRegexpModule & {
    [MEMO]?: Map<string, Compiled>;
  };
  const installed = mod[MEMO];
  if (installed) return installed;
  const kept = new Map<string, Compiled>();
  const compile = mod.pathToRegexp;
  mod.pathToRegexp = (route, options = {}) => {
    if (typeof route !== 'string') return compile(route, options);
    let key = route; // the options are a few flags ({ sensitive, strict }): cheaper than JSON.stringify per route
    for (const name in options) key += `\u0000${name}=${String(options[name])}`;
    let hit = kept.get(key);
    if (hit === undefined) {
      hit = compile(route, options);
      if (kept.size < MAX_PATTERNS) kept.set(key, hit);
    }
    return hit;
  };
  mod[MEMO] = kept;
  return kept;
}
