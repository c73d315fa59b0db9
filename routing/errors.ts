// Typed errors of route computation. routing/ knows nothing of HTTP: it throws these, and
// api/http/errors.ts maps them to a status and an error body (invalid → 400, unsupported → 404,
// unavailable → 503).
export type RouteErrorKind = 'invalid' | 'unsupported' | 'unavailable';

export class RouteError extends Error {
  override name = 'RouteError';
  constructor(
    readonly kind: RouteErrorKind,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** The request is malformed or asks for something no route can do. */
export const invalidRequest = (message: string, extra?: Record<string, unknown>) =>
  new RouteError('invalid', message, extra);
/** The request names a chain (or other resource) this router does not serve. */
export const unsupported = (message: string) => new RouteError('unsupported', message);
/** A dependency the route needs (e.g. a LayerZero quote) cannot be reached now; `reason` is machine-readable. */
export const unavailableNow = (message: string, reason?: string) =>
  new RouteError('unavailable', message, reason ? { reason } : {});
