// Shared express scaffolding for both services: JSON body bound, request metrics, /health, /metrics,
// Swagger UI at /swagger/ and the OpenAPI document at /swagger/doc.json.
import express, { type Express, type RequestHandler } from 'express';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { metrics, registry } from '../../platform/metrics.js';
import { installJsonClientErrors } from './client-errors.js';
import { type CorsSettings, corsMiddleware } from './cors.js';
import { memoiseValidatorRoutes } from './route-regexps.js';

export interface ServiceAppOptions {
  service: 'indexer' | 'router';
  openapi: object;
  /** Maximum accepted JSON body (router); the indexer takes none. */
  bodyLimit?: string;
  health?: () => Promise<Record<string, unknown>>;
  /** Cross-origin access; default: any origin, preflight answered (api/http/cors.ts). */
  cors?: CorsSettings;
}

const swaggerHtml = (title: string) => `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title>
<link rel="stylesheet" href="./ui/swagger-ui.css"></head><body><div id="ui"></div>
<script src="./ui/swagger-ui-bundle.js"></script>
<script>window.ui = SwaggerUIBundle({ url: './doc.json', dom_id: '#ui' });</script></body></html>`;

export function createServiceApp(opts: ServiceAppOptions): Express {
  memoiseValidatorRoutes();
  const app = express();
  app.set('service', opts.service);
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'extended');
  app.use(requestMetrics(opts.service));
  // Before everything else, so preflights and error answers carry the CORS headers too.
  app.use(corsMiddleware(opts.cors));
  app.use(express.json({ limit: opts.bodyLimit ?? '64kb', strict: true }));

  app.get('/health', async (_req, res) => {
    const extra = opts.health ? await opts.health().catch((e: Error) => ({ ok: false, error: e.message })) : {};
    res.json({ status: 'ok', service: opts.service, ...extra });
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

/** One answered request in the metrics (express routes and fast lanes alike). */
function recordRequest(service: string, route: string, status: number, start: bigint): void {
  metrics.httpRequests.inc({ service, route, status: String(status) });
  metrics.httpDuration.observe({ service, route }, Number(process.hrtime.bigint() - start) / 1e9);
}

function requestMetrics(service: string): RequestHandler {
  return (req, res, next) => {
    const start = process.hrtime.bigint();
    res.on('finish', () =>
      recordRequest(service, (req.route?.path as string | undefined) ?? 'unmatched', res.statusCode, start),
    );
    next();
  };
}

/**
 * A handler that may answer a request before express sees it: the route label (for the request metrics) when it
 * answered, null to hand the request on. Only for the hottest read whose answer is already in memory; it must
 * answer exactly as the express route would, and hand on everything else (errors included).
 */
export type FastLane = (req: IncomingMessage, res: ServerResponse) => string | null;
const fastLanes = new WeakMap<Express, FastLane>();

/** Put a fast lane in front of an app; `listen` serves it first. */
export function addFastLane(app: Express, lane: FastLane): void {
  fastLanes.set(app, lane);
}

/** Listen and resolve once bound; port 0 picks a free port (tests). */
export function listen(app: Express, port: number, host = '127.0.0.1'): Promise<Server> {
  const lane = fastLanes.get(app);
  const service = app.get('service') as string;
  const handler = lane
    ? (req: IncomingMessage, res: ServerResponse) => {
        const start = process.hrtime.bigint();
        const route = lane(req, res);
        if (route === null) app(req, res);
        else recordRequest(service, route, res.statusCode, start);
      }
    : app;
  return new Promise((resolve, reject) => {
    const server = createServer(handler).listen(port, host);
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
