// Typed API errors and their one mapping to HTTP. Handlers throw; nothing else writes error bodies.
//   indexer style: {"code": <HTTP status>, "message": "..."}               (docs/indexer.md)
//   router style:  {"code": <gRPC status>, "message": "...", "details": []} (docs/router.md)
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { log } from '../../platform/log.js';
import { RouteError } from '../../routing/errors.js';

export type ErrorStyle = 'indexer' | 'router';

/** gRPC status codes used by the router's error bodies. */
export const Grpc = {
  UNKNOWN: 2,
  INVALID_ARGUMENT: 3,
  NOT_FOUND: 5,
  FAILED_PRECONDITION: 9,
  RESOURCE_EXHAUSTED: 8,
  UNIMPLEMENTED: 12,
  UNAVAILABLE: 14,
  INTERNAL: 13,
} as const;

export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    readonly status: number,
    message: string,
    readonly grpcCode: number = status === 404 ? Grpc.NOT_FOUND : status < 500 ? Grpc.INVALID_ARGUMENT : Grpc.UNKNOWN,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export const badRequest = (message: string, extra?: Record<string, unknown>) =>
  new ApiError(400, message, Grpc.INVALID_ARGUMENT, extra);
export const notFound = (message: string) => new ApiError(404, message, Grpc.NOT_FOUND);
/** The request contradicts the resource's state (409). */
export const conflict = (message: string, extra?: Record<string, unknown>) =>
  new ApiError(409, message, Grpc.FAILED_PRECONDITION, extra);
export const unavailable = (message: string) => new ApiError(503, message, Grpc.UNAVAILABLE);

const ROUTE_ERROR_STATUS = { invalid: 400, unsupported: 404, unavailable: 503 } as const;

/** The one mapping of domain errors to HTTP: an ApiError as is, a routing/ RouteError by its kind; else null. */
export function toApiError(err: unknown): ApiError | null {
  if (err instanceof ApiError) return err;
  if (err instanceof RouteError) {
    const status = ROUTE_ERROR_STATUS[err.kind];
    const grpc = status === 404 ? Grpc.NOT_FOUND : status === 503 ? Grpc.UNAVAILABLE : Grpc.INVALID_ARGUMENT;
    return new ApiError(status, err.message, grpc, err.extra);
  }
  return null;
}

interface ValidatorError {
  status?: number;
  statusCode?: number;
  type?: string;
  message?: string;
  errors?: { path?: string; message?: string; errorCode?: string }[];
}

/**
 * A service's own wording for a validator error, given the error's first path, its message and the request's
 * query; undefined keeps the generic `<param>: <message>` form. The one place validator errors are rewritten.
 */
export type ValidatorWording = (path: string, message: string, query: Record<string, unknown>) => string | undefined;

function describe(
  err: unknown,
  wording?: ValidatorWording,
  query: Record<string, unknown> = {},
): { status: number; message: string; grpc: number; extra: Record<string, unknown> } {
  const api = toApiError(err);
  if (api) return { status: api.status, message: api.message, grpc: api.grpcCode, extra: api.extra };
  const e = err as ValidatorError;
  const status = e?.status ?? e?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    // body-parser / express-openapi-validator errors: say which parameter is wrong.
    let message = e.message ?? 'bad request';
    if (e.type === 'entity.too.large') message = 'request body too large';
    else if (e.type === 'entity.parse.failed') message = 'request body is not valid JSON';
    const first = e.errors?.[0];
    const own = status === 400 && wording ? wording(first?.path ?? '', String(e.message), query) : undefined;
    if (own !== undefined) return { status: 400, message: own, grpc: Grpc.INVALID_ARGUMENT, extra: {} };
    if (first?.path && first.message) {
      const where = first.path.replace(/^\/(query|params|body|path)\//, '').replace(/^\.(query|params|body)\./, '');
      message = `${where}: ${first.message}`;
    }
    const grpc = status === 404 ? Grpc.NOT_FOUND : Grpc.INVALID_ARGUMENT;
    // Statuses that say something precise pass through; every other client error is a 400.
    const out = [404, 405, 413, 415].includes(status) ? status : 400;
    return {
      status: out,
      message,
      grpc,
      extra: e.errors ? { errors: e.errors.map((x) => ({ path: x.path, message: x.message })) } : {},
    };
  }
  return { status: 500, message: 'internal server error', grpc: Grpc.UNKNOWN, extra: {} };
}

export function errorBody(
  style: ErrorStyle,
  err: unknown,
  wording?: ValidatorWording,
  query?: Record<string, unknown>,
): { status: number; body: Record<string, unknown> } {
  const d = describe(err, wording, query);
  if (style === 'router')
    return { status: d.status, body: { code: d.grpc, message: d.message, details: [], ...d.extra } };
  return { status: d.status, body: { code: d.status, message: d.message, ...d.extra } };
}

export function errorHandler(style: ErrorStyle, wording?: ValidatorWording): ErrorRequestHandler {
  return (err, req, res, _next) => {
    const { status, body } = errorBody(style, err, wording, req.query as Record<string, unknown>);
    if (status >= 500)
      log.error('http.error', {
        path: req.path,
        error: err instanceof Error ? (err.stack ?? err.message) : String(err),
      });
    // A response already under way (an event stream) cannot carry an error body: cut it, so the client sees the
    // failure (and an EventSource reconnects) instead of waiting on a silent connection.
    if (res.headersSent) {
      res.destroy();
      return;
    }
    res.status(status).type('application/json').send(JSON.stringify(body));
  };
}

export function notFoundHandler(): RequestHandler {
  return (req, _res, next) => next(notFound(`Cannot ${req.method} ${req.path}`));
}
