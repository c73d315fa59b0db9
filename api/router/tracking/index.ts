// The tracking HTTP routes (POST /v2/tx/track, GET /v2/tx/status), built over the TrackingService interface
// that tracking/ implements. The router app merges the OpenAPI paths and mounts the routes.
import type { Router } from 'express';
import type { FastLane } from '../../http/app.js';
import { mountTrackingHandlers, statusFastLane, statusFastPath } from './handlers.js';
import type { TrackingService } from './service.js';
import { trackingPaths, trackingSchemas } from './openapi.js';

export interface TrackingRoutes {
  /** OpenAPI 3 `paths` entries for POST /v2/tx/track and GET /v2/tx/status (and any others). */
  openapiPaths: Record<string, unknown>;
  /** OpenAPI 3 `components.schemas` entries those paths reference. */
  openapiSchemas: Record<string, unknown>;
  /** Mount the handlers on the router app's express Router (after validation middleware). */
  mount(router: Router): void;
  /** Mount what answers before validation (the in-memory status fast path); errors still go through it. */
  mountBeforeValidation?(router: Router): void;
  /** What answers before express (the in-memory status, api/http/app.ts), given the app's static CORS headers. */
  fastLane?(corsHeaders: Record<string, string> | null): FastLane | undefined;
}

export function createTrackingRoutes(service: TrackingService): TrackingRoutes {
  return {
    openapiPaths: trackingPaths,
    openapiSchemas: trackingSchemas,
    mount: (router) => mountTrackingHandlers(router, service),
    mountBeforeValidation: (router) => {
      router.get('/v2/tx/status', statusFastPath(service));
    },
    fastLane: (corsHeaders) => statusFastLane(service, corsHeaders),
  };
}
