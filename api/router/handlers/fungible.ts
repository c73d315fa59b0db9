// Thin HTTP adapters over routing/: the request body is already validated by express-openapi-validator.
import type { RequestHandler } from 'express';
import { ApiError, Grpc } from '../../http/errors.js';
import { balancesHandler, type BalanceReader, type BalancesRequest } from '../../../routing/balances.js';
import { assetsHandler, chainsHandler } from '../../../routing/catalog.js';
import {
  assetsBetweenChainsHandler,
  assetsFromSourceHandler,
  bridgesHandler,
  ibcOriginAssetsHandler,
  recommendAssetsHandler,
  venuesHandler,
} from '../../../routing/discovery.js';
import { msgsDirectHandler, msgsHandler, type MsgsDirectRequest, type MsgsRequest } from '../../../routing/msgs.js';
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

export const msgsDirectEndpoint = (deps: RouteDeps) => json((b) => msgsDirectHandler(deps, b as MsgsDirectRequest));
export const bridgesEndpoint = (): RequestHandler => (_req, res) => {
  res.type('application/json').send(JSON.stringify(bridgesHandler()));
};
export const venuesEndpoint = (): RequestHandler => (_req, res) => {
  res.type('application/json').send(JSON.stringify(venuesHandler()));
};
export const balancesEndpoint = (deps: RouteDeps, read: BalanceReader) =>
  json((b) => balancesHandler(deps.registry, read, b as BalancesRequest));
export const assetsFromSourceEndpoint = (deps: RouteDeps) =>
  json((b) => assetsFromSourceHandler(deps.registry, b as Record<string, unknown>));
/** GET takes the query (as @skip-go/client sends it), POST the body (as Skip's OpenAPI documents it). */
export const assetsBetweenChainsEndpoint =
  (deps: RouteDeps): RequestHandler =>
  (req, res, next) => {
    const input = (req.method === 'GET' ? req.query : req.body) as Record<string, unknown>;
    Promise.resolve()
      .then(() => res.type('application/json').send(JSON.stringify(assetsBetweenChainsHandler(deps.registry, input))))
      .catch(next);
  };
export const recommendAssetsEndpoint = (deps: RouteDeps) =>
  json((b) => recommendAssetsHandler(deps.registry, b as Record<string, unknown>));
export const ibcOriginAssetsEndpoint = (deps: RouteDeps) =>
  json((b) => ibcOriginAssetsHandler(deps.registry, b as Record<string, unknown>));
/** The router never broadcasts (the spec): a clear 400 that names the supported path instead. */
export const submitEndpoint = (): RequestHandler => (_req, _res, next) => {
  next(
    new ApiError(
      400,
      'this router never broadcasts: send the signed tx to the chain’s own RPC (`rpc` in GET /v2/info/chains), ' +
        'then register its hash with POST /v2/tx/track',
      Grpc.UNIMPLEMENTED,
      { reason: 'BROADCAST_NOT_SUPPORTED' },
    ),
  );
};
