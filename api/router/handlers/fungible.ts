// Thin HTTP adapters over routing/: the request body is already validated by express-openapi-validator.
import type { RequestHandler } from 'express';
import { assetsHandler, chainsHandler } from '../../../routing/catalog.js';
import { msgsHandler, type MsgsRequest } from '../../../routing/msgs.js';
import { opHookHandler, type OpHookRequest } from '../../../routing/ophook.js';
import { routeHandler, type RouteDeps, type RouteRequest } from '../../../routing/route.js';

const json =
  (fn: (body: unknown) => Promise<unknown> | unknown): RequestHandler =>
  (req, res, next) => {
    Promise.resolve()
      .then(() => fn(req.body))
      .then((out) => res.type('application/json').send(JSON.stringify(out)))
      .catch(next);
  };

export const routeEndpoint = (deps: RouteDeps) => json((b) => routeHandler(deps, b as RouteRequest));
export const msgsEndpoint = (deps: RouteDeps) => json((b) => msgsHandler(deps, b as MsgsRequest));
export const opHookEndpoint = (deps: RouteDeps) => json((b) => opHookHandler(deps.registry, b as OpHookRequest));

export const chainsEndpoint =
  (deps: RouteDeps): RequestHandler =>
  (req, res) => {
    res
      .type('application/json')
      .send(JSON.stringify(chainsHandler(deps.registry, req.query as Record<string, unknown>)));
  };
export const assetsEndpoint =
  (deps: RouteDeps): RequestHandler =>
  (req, res) => {
    res
      .type('application/json')
      .send(JSON.stringify(assetsHandler(deps.registry, req.query as Record<string, unknown>)));
  };
