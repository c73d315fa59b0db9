// Seam between the router app (issue 4) and durable transfer tracking (issue 5).
// The tracking module fills these in; the router app merges the OpenAPI paths and mounts the routes.
import type { Router } from 'express';
import { mountTrackingHandlers, type TrackingHandlerDeps } from './handlers.js';
import { trackingPaths, trackingSchemas } from './openapi.js';

export interface TrackingRoutes {
  /** OpenAPI 3 `paths` entries for POST /v2/tx/track and GET /v2/tx/status (and any others). */
  openapiPaths: Record<string, unknown>;
  /** OpenAPI 3 `components.schemas` entries those paths reference. */
  openapiSchemas: Record<string, unknown>;
  /** Mount the handlers on the router app's express Router (after validation middleware). */
  mount(router: Router): void;
}

export function createTrackingRoutes(deps: TrackingHandlerDeps): TrackingRoutes {
  return {
    openapiPaths: trackingPaths,
    openapiSchemas: trackingSchemas,
    mount: (router) => mountTrackingHandlers(router, deps),
  };
}

export type { Registrar, TrackingHandlerDeps } from './handlers.js';
