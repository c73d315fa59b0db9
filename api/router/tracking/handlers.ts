// HTTP handlers of POST /v2/tx/track, GET /v2/tx/status and GET /v2/tx/claim_msgs. Status never touches Temporal
// or the chains: it reads the latest row of the ClickHouse projection (held in memory when recent), so it answers
// while workers are down. The common status poll is answered before express by the edge (api/http/edge.ts).
import type { Request, Response, Router } from 'express';
import { ApiError, Grpc, badRequest, conflict, notFound } from '../../http/errors.js';
import { servedOf } from '../../http/edge.js';
import { normaliseTxHash } from '../../../chain/hash.js';
import { isTerminalState, type TxState } from '../../../workflows/status.js';
import { MAX_WEBHOOK_URL } from '../../../workflows/webhook.js';
import { valueWithin } from '../../../platform/deadline.js';
import type { TrackingService } from './service.js';

/** A chain id this service could track (anything else cannot name a registered transfer). */
export const CHAIN_ID = /^[A-Za-z0-9._-]{1,64}$/;
const invalidTx = (reason: string) => new ApiError(400, 'tx is invalid on chain', Grpc.INVALID_ARGUMENT, { reason });

/** A required string parameter, bounded: a JSON 400 naming it otherwise. */
export function stringParam(v: unknown, name: string, max: number): string {
  if (typeof v !== 'string' || v.length === 0) throw badRequest(`${name}: is required`);
  if (v.length > max) throw badRequest(`${name}: must be at most ${max} characters`);
  return v;
}

/**
 * How long a track request naming a webhook waits for its workflow start's first answer. Past it (Temporal slow or
 * down) the request is answered 200 and the start goes on with retries, as for a request without one.
 */
const WEBHOOK_START_WAIT_MS = 3_000;

/** The track request's `webhook_url`, admitted by the deployment's policy, else a JSON 400 saying why. */
async function admitWebhook(service: TrackingService, raw: unknown): Promise<string> {
  const url = stringParam(raw, 'webhook_url', MAX_WEBHOOK_URL);
  if (!service.checkWebhook || !service.attachWebhook) throw badRequest('webhook_url: webhooks are not served here');
  const checked = await service.checkWebhook(url);
  if (!checked.ok) throw badRequest(`webhook_url: ${checked.reason}`);
  return checked.value;
}

export function mountTrackingHandlers(router: Router, service: TrackingService): void {
  router.post('/v2/tx/track', async (req: Request, res: Response, next) => {
    try {
      const body = (req.body ?? {}) as Record<string, unknown>;
      const chainId = stringParam(body.chain_id, 'chain_id', 64);
      const rawHash = stringParam(body.tx_hash, 'tx_hash', 130);
      const txHash = normaliseTxHash(rawHash);
      if (!txHash) throw invalidTx('tx_hash must be 64 hex characters, optionally 0x-prefixed');
      const chain = CHAIN_ID.test(chainId) ? service.chain(chainId) : undefined;
      if (!chain) throw notFound('chain ID not supported');
      if (txHash.startsWith('0x') && !chain.hasEvm)
        throw invalidTx(`${chainId} has no EVM transactions; send the Cosmos tx hash`);
      // A chain whose RPC this deployment does not have would stay STATE_SUBMITTED for ever: refused up front.
      if (!txHash.startsWith('0x') && !chain.hasCosmos)
        throw invalidTx(
          `${chainId} has no CometBFT RPC configured here (TRACKING_RPC_URLS); its txs cannot be tracked`,
        );
      const named = body.webhook_url === undefined ? undefined : await admitWebhook(service, body.webhook_url);
      let webhook = named;
      const now = Date.now();
      // The registration row is the durable record (status answers STATE_SUBMITTED from it at once); the
      // workflow start follows asynchronously and is idempotent, so a retried track is harmless.
      const reg = await service.register(chainId, txHash, now);
      if (reg.error?.type === 'STATUS_ERROR_TRANSACTION_EXECUTION') throw invalidTx(reg.error.message);
      const finished = isTerminalState(reg.state as TxState);
      if (webhook !== undefined) {
        // A repeat of the request that registered this URL is a no-op even once the transfer has finished (its
        // webhook had every event); a new URL on a finished transfer would receive nothing.
        if (finished && (await service.webhookOf?.(chainId, txHash)) !== webhook)
          throw conflict(`the transfer is already ${reg.state}; its webhook would receive nothing`, {
            reason: 'TRANSFER_FINISHED',
          });
        // Stored before the workflow hears of it, so a crash in between leaves it for reconcile() to hand over.
        const attached = await service.attachWebhook!(chainId, txHash, webhook, now);
        if (attached.conflict !== undefined)
          throw conflict('the transfer already has another webhook_url (one per transfer)', {
            reason: 'WEBHOOK_CONFLICT',
          });
        // The request that stored this URL hands it to the workflow; a repeat sends no second signal, so repeated
        // requests add nothing to another client's workflow history.
        if (attached.already) webhook = undefined;
      }
      if (!finished) {
        const started = service.startWorkflow(chainId, txHash, now, webhook);
        // A webhook is answered only once its workflow has it, or is still being started: the transfer may have
        // ended between the state read above and the start, and then nothing would ever be delivered. A repeat of
        // that request gets the same answer (its URL is stored, but no workflow will deliver to it).
        if (named !== undefined && (await valueWithin(started, WEBHOOK_START_WAIT_MS, 'retrying')) === 'ended')
          throw conflict('tracking of this transfer has ended; its webhook would receive nothing', {
            reason: 'TRANSFER_FINISHED',
          });
      }
      res.json({ tx_hash: txHash, explorer_link: chain.explorerLink(txHash) });
    } catch (e) {
      next(e);
    }
  });

  router.get('/v2/tx/claim_msgs', async (req: Request, res: Response, next) => {
    try {
      const chainId = stringParam(req.query.chain_id, 'chain_id', 64);
      const txHash = normaliseTxHash(stringParam(req.query.tx_hash, 'tx_hash', 130));
      if (!txHash) throw badRequest('tx_hash: must be 64 hex characters, optionally 0x-prefixed');
      const signer =
        req.query.signer_address === undefined
          ? undefined
          : stringParam(req.query.signer_address, 'signer_address', 128);
      if (!CHAIN_ID.test(chainId) || !service.claimMessages) throw notFound('tx not found');
      res.json(await service.claimMessages(chainId, txHash, signer));
    } catch (e) {
      next(e);
    }
  });

  router.get('/v2/tx/status', async (req: Request, res: Response, next) => {
    try {
      const chainId = stringParam(req.query.chain_id, 'chain_id', 64);
      const rawHash = stringParam(req.query.tx_hash, 'tx_hash', 130);
      const txHash = normaliseTxHash(rawHash);
      if (!txHash) throw badRequest('tx_hash: must be 64 hex characters, optionally 0x-prefixed');
      if (!CHAIN_ID.test(chainId)) throw notFound('tx not found');
      const held = service.cachedStatusJson?.(chainId, txHash);
      if (held !== undefined) servedOf(res).held('transfers');
      else servedOf(res).engine();
      const latest = held ?? (await service.latestStatusJson(chainId, txHash));
      if (latest === null) throw notFound('tx not found');
      res.type('application/json').send(latest);
    } catch (e) {
      next(e);
    }
  });
}
