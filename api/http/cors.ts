// CORS for both services (issue 12): browser explorers on another origin read the indexer's GETs and post
// to the router. Built on the maintained `cors` middleware; the settings mirror upstream's CORS_* variables.
import cors from 'cors';
import type { RequestHandler } from 'express';
import type { AppConfig } from '../../platform/config.js';

export interface CorsSettings {
  /** false: no CORS headers at all (same-origin only). */
  enabled: boolean;
  /** `*` (any origin), exact origins (`https://scan.example.com`) or wildcard hosts (`https://*.example.com`). */
  origins: readonly string[];
  methods: readonly string[];
  /** Request headers a preflight may ask for; `*` reflects whatever the browser asks. */
  headers: readonly string[];
  /** Seconds a browser may cache a preflight answer; 0 leaves the header out. */
  maxAge: number;
}

export const defaultCors: CorsSettings = {
  enabled: true,
  origins: ['*'],
  methods: ['GET', 'HEAD', 'POST', 'OPTIONS'],
  headers: ['*'],
  maxAge: 600,
};

/** A comma-separated env value → trimmed non-empty items. */
export const csv = (v: string): string[] =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');

function originMatcher(patterns: readonly string[]): (origin: string) => boolean {
  const exact = new Set(patterns.filter((p) => !p.includes('*')).map((p) => p.toLowerCase()));
  const wild = patterns
    .filter((p) => p.includes('*'))
    .map(
      (p) =>
        new RegExp(
          `^${p
            .toLowerCase()
            .replace(/[.+?^${}()|[\]\\]/g, '\\$&')
            .replace(/\*/g, '[^/]*')}$`,
        ),
    );
  return (origin) => {
    const o = origin.toLowerCase();
    return exact.has(o) || wild.some((re) => re.test(o));
  };
}

export function corsMiddleware(s: CorsSettings = defaultCors): RequestHandler {
  if (!s.enabled) return (_req, _res, next) => next();
  const anyOrigin = s.origins.includes('*');
  const matches = originMatcher(s.origins);
  return cors({
    // Any origin: a literal `*` (no credentials are involved, responses stay cacheable by every origin).
    origin: anyOrigin ? '*' : (origin, cb) => cb(null, origin !== undefined && matches(origin)),
    methods: [...s.methods],
    // undefined makes the middleware reflect Access-Control-Request-Headers.
    allowedHeaders: s.headers.includes('*') ? undefined : [...s.headers],
    maxAge: s.maxAge > 0 ? s.maxAge : undefined,
    optionsSuccessStatus: 204,
    preflightContinue: false,
  });
}

/**
 * The CORS headers the middleware puts on a simple (non-preflight) response to a request from `origin`: none when
 * CORS is off; `Access-Control-Allow-Origin: *` for any origin; else, for an allowed origin, that origin and
 * `Vary: Origin`, and nothing for any other. For answers given before express (api/http/edge.ts); test/api/http/edge.test.ts compares them.
 */
export function corsHeadersFor(s: CorsSettings = defaultCors): (origin: string | undefined) => Record<string, string> {
  // The same object for the same answer, so an edge lane can keep what it built from it (api/http/edge.ts).
  const none: Record<string, string> = Object.freeze({}) as Record<string, string>;
  if (!s.enabled) return () => none;
  if (s.origins.includes('*')) {
    const any = Object.freeze({ 'Access-Control-Allow-Origin': '*' });
    return () => any;
  }
  const matches = originMatcher(s.origins);
  // Allowed origins seen lately; bounded, since wildcard patterns allow any number of hosts.
  const allowed = new Map<string, Record<string, string>>();
  // The middleware's origin callback says no to a missing or unlisted origin, and `cors` then adds no header.
  return (origin): Record<string, string> => {
    if (origin === undefined) return none;
    let h = allowed.get(origin);
    if (h === undefined) {
      if (!matches(origin)) return none;
      if (allowed.size >= ALLOWED_ORIGINS_KEPT) allowed.clear();
      h = Object.freeze({ 'Access-Control-Allow-Origin': origin, Vary: 'Origin' });
      allowed.set(origin, h);
    }
    return h;
  };
}

/** Allowed origins whose CORS headers are kept; past it they are made again (an explorer has one or a few). */
const ALLOWED_ORIGINS_KEPT = 256;

/** The settings from the validated configuration (platform/config.ts CORS_*). */
export function corsFromConfig(
  c: Pick<
    AppConfig,
    'CORS_ENABLED' | 'CORS_ALLOW_ORIGINS' | 'CORS_ALLOW_METHODS' | 'CORS_ALLOW_HEADERS' | 'CORS_MAX_AGE'
  >,
): CorsSettings {
  return {
    enabled: c.CORS_ENABLED,
    origins: csv(c.CORS_ALLOW_ORIGINS),
    methods: csv(c.CORS_ALLOW_METHODS).map((m) => m.toUpperCase()),
    headers: csv(c.CORS_ALLOW_HEADERS),
    maxAge: c.CORS_MAX_AGE,
  };
}
