// express-openapi-validator 5.6 finds a request's documented route by compiling every route with path-to-regexp,
// in order, on every request, until one matches (middlewares/openapi.metadata.js, lookupRoute). Under load that
// was ~7 % of the indexer's main thread (CPU profile at 350 req/s, bench/reports/2026-11-24-indexer.md, sixth round). A compiled
// route depends only on its pattern and options, and the validator only reads it (`regexp.exec`, `keys`), so the
// copy of path-to-regexp the validator loads is given a memo here, once per process. Bounded: patterns come from
// the OpenAPI documents; past MAX_PATTERNS (never reached by our two services) compilation is not kept.
import { createRequire } from 'node:module';
import path from 'node:path';

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
