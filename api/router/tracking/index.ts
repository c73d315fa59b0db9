// The tracking HTTP routes (POST /v2/tx/track, GET /v2/tx/status, GET /v2/tx/status_stream, GET /v2/tx/history,
// GET /v2/tx/history_stream, GET /v2/tx/claim_msgs), built over the TrackingService interface that tracking/
// implements. The router app merges the OpenAPI paths and mounts the routes.
import type { Router } from 'express';
import { mountTrackingHandlers } from './handlers.js';
import type { TrackingService } from './service.js';
import { trackingPaths, trackingSchemas } from './openapi.js';
import { DEFAULT_STREAM_SETTINGS, StreamAdmission } from '../../http/stream-admission.js';
import { mountStatusStream, type StatusStreamSettings } from './status-stream.js';
import { mountHistory } from './history.js';
import { mountHistoryStream } from './history-stream.js';

export interface TrackingRoutes {
  /** OpenAPI 3 `paths` entries for POST /v2/tx/track and GET /v2/tx/status (and any others). */
  openapiPaths: Record<string, unknown>;
  /** OpenAPI 3 `components.schemas` entries those paths reference. */
  openapiSchemas: Record<string, unknown>;
  /** Mount the handlers on the router app's express Router (after validation middleware). */
  mount(router: Router): void;
  /** A status document held in memory, for the edge (api/http/edge.ts `transferStatusLane`). */
  cachedStatus?(chainId: string, txHash: string): string | undefined;
}

export function createTrackingRoutes(
  service: TrackingService,
  streams: Partial<StatusStreamSettings> = {},
): TrackingRoutes {
  const settings: StatusStreamSettings = { ...DEFAULT_STREAM_SETTINGS, checkMs: 1000, ...streams };
  return {
    openapiPaths: trackingPaths,
    openapiSchemas: trackingSchemas,
    mount: (router) => {
      mountTrackingHandlers(router, service);
      // One bound on open streams for both kinds (STREAMS_MAX, STREAMS_PER_CLIENT).
      const admission = new StreamAdmission(settings.maxStreams, settings.maxPerClient, 'router');
      mountStatusStream(router, service, settings, admission);
      mountHistory(router, service);
      mountHistoryStream(router, service, settings, admission);
    },
    cachedStatus: service.cachedStatusJson?.bind(service),
  };
}
