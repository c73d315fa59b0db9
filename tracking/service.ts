// The tracking service the router's HTTP routes call (api/router/tracking/service.ts declares the interface;
// this object satisfies it structurally, so tracking/ imports nothing from api/).
import { explorerLink, type ChainDirectory } from '../activities/chains.js';
import type { TrackingProjection } from '../activities/projection.js';
import { executorGet, outputProposal } from '../activities/rpc.js';
import { claimMessages, parseWithdrawalProof, type ClaimTarget } from '../routing/claim.js';
import { invalidRequest, unavailableNow, unsupported } from '../routing/errors.js';
import type { RegistrationStarter, StartOutcome } from './starter.js';
import { resolveWebhook } from '../activities/webhook.js';
import type { Checked, WebhookSettings } from '../workflows/webhook.js';

/** Whether a webhook URL may be registered: the policy, and (for a host name) every address it resolves to now. */
async function admissibleWebhook(raw: string, settings: WebhookSettings | undefined): Promise<Checked<string>> {
  if (!settings) return { ok: false, reason: 'is not accepted: this deployment has no WEBHOOK_SECRET' };
  const r = await resolveWebhook(raw, settings);
  return r.ok ? { ok: true, value: r.value.url.href } : { ok: false, reason: r.reason };
}

export function createTrackingService(
  chains: ChainDirectory,
  projection: TrackingProjection,
  starter: RegistrationStarter,
  webhooks?: { settings: WebhookSettings | undefined },
) {
  return {
    chain(chainId: string) {
      const c = chains.chain(chainId);
      if (!c) return undefined;
      return {
        hasEvm: Boolean(c.evmRpcUrl),
        hasCosmos: Boolean(c.rpcUrl),
        explorerLink: (txHash: string) => explorerLink(c, txHash),
      };
    },
    async register(chainId: string, txHash: string, atMs: number) {
      const { doc } = await projection.register(chainId, txHash, atMs);
      return { state: doc.state, error: doc.error ?? null };
    },
    startWorkflow(chainId: string, txHash: string, registeredAtMs: number, webhook?: string): Promise<StartOutcome> {
      return starter.enqueue(chainId, txHash, registeredAtMs, webhook);
    },
    /** A track request's webhook URL, normalised, or why it is refused. */
    checkWebhook(raw: string): Promise<Checked<string>> {
      return admissibleWebhook(raw, webhooks?.settings);
    },
    /**
     * Record `url` as the transfer's webhook (durably, before the workflow hears of it). A transfer has one: naming
     * another URL than the one it has is refused (`{ conflict }`).
     */
    attachWebhook(
      chainId: string,
      txHash: string,
      url: string,
      atMs: number,
    ): Promise<{ conflict?: string; already?: boolean }> {
      if (!webhooks) throw new Error('webhooks are not wired into this tracking service');
      return projection.attachWebhook(chainId, txHash, url, atMs);
    },
    webhookOf(chainId: string, txHash: string): Promise<string | undefined> {
      return projection.webhookOf(chainId, txHash);
    },
    async latestStatusJson(chainId: string, txHash: string): Promise<string | null> {
      return (await projection.latest(chainId, txHash))?.json ?? null;
    },
    cachedStatusJson(chainId: string, txHash: string): string | undefined {
      return projection.peek(chainId, txHash)?.json;
    },
    async latestStatus(chainId: string, txHash: string) {
      const v = await projection.latest(chainId, txHash);
      return v && { version: v.version, json: v.json };
    },
    async history(address: string, limit: number, after: { atMs: number; chainId: string; txHash: string } | null) {
      return (await projection.history(address, limit, after)).map((r) => ({
        chain_id: r.chain_id,
        tx_hash: r.tx_hash,
        registeredAtMs: Number(r.at),
        roles: r.roles,
        state: r.state,
        status: r.status,
      }));
    },
    watchAccount(
      address: string,
      listener: (t: { chainId: string; txHash: string; roles: string[]; version: number; json: string }) => void,
    ) {
      return projection.watchAccount(address, (t) =>
        listener({
          chainId: t.chainId,
          txHash: t.txHash,
          roles: t.roles,
          version: t.status.version,
          json: t.status.json,
        }),
      );
    },
    followTransfer(address: string, chainId: string, txHash: string, roles: string[]): void {
      projection.follow(address, chainId, txHash, roles);
    },
    accountChangesPushed: projection.soleWriter,
    watchStatus(chainId: string, txHash: string, listener: (v: { version: number; json: string }) => void) {
      return projection.watch(chainId, txHash, (v) => listener({ version: v.version, json: v.json }));
    },
    /**
     * The unsigned claim of the transfer's claimable withdrawal (the status document's `next_action`), built from
     * the executor's proof. The executor is the one configured for the L2 (never an address from the request).
     */
    async claimMessages(chainId: string, txHash: string, signer?: string) {
      const latest = await projection.latest(chainId, txHash);
      if (!latest) throw unsupported('tx not found');
      const action = latest.doc.next_action;
      if (!action)
        throw invalidRequest(`nothing to claim: the transfer is ${latest.doc.state} with no claimable withdrawal`, {
          reason: 'NOTHING_TO_CLAIM',
        });
      const hop = latest.doc.transfer_sequence[action.transfer_sequence_index]?.op_init_transfer as
        | Record<string, string>
        | undefined;
      const target: ClaimTarget = {
        bridgeId: hop?.bridge_id ?? '',
        l2Sequence: hop?.l2_sequence ?? '',
        outputIndex: hop?.output_index ?? '',
        l1ChainId: action.chain_id,
        l2ChainId: hop?.from_chain_id ?? '',
      };
      const executor = chains.chain(target.l2ChainId)?.executorUrl;
      if (!executor)
        throw unavailableNow(`no OPinit executor is configured for ${target.l2ChainId}`, 'EXECUTOR_UNKNOWN');
      // The output's root as L1 holds it now: the proof must hash to it (an index is reused after a deletion).
      const l1Rest = chains.chain(target.l1ChainId)?.restUrl;
      if (l1Rest) {
        const out = await outputProposal(
          l1Rest,
          encodeURIComponent(target.bridgeId),
          encodeURIComponent(target.outputIndex),
        ).catch(() => undefined);
        const root = out?.output_root;
        if (!root)
          throw unavailableNow(
            `output ${target.outputIndex} of bridge ${target.bridgeId} is not on ${target.l1ChainId} now (deleted, or L1 did not answer)`,
            'PROOF_PENDING',
          );
        target.outputRoot = Buffer.from(root, 'base64').toString('hex');
      }
      const r = await executorGet(executor, `/withdrawal/${target.l2Sequence}`);
      if ('missing' in r && r.missing === 'unreachable')
        throw unavailableNow(`the OPinit executor of ${target.l2ChainId} did not answer`, 'EXECUTOR_UNREACHABLE');
      if ('missing' in r)
        throw unavailableNow(`the executor has no proof for sequence ${target.l2Sequence} yet`, 'PROOF_PENDING');
      return claimMessages(parseWithdrawalProof(r.answer), target, signer);
    },
  };
}

export type TrackingServiceImpl = ReturnType<typeof createTrackingService>;
