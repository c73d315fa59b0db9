// The webhook delivery activity: POST one status version of a transfer to its registered URL, signed. The
// workflow (workflows/transfer.ts) calls it once per event, in order, and Temporal retries it with back-off until
// the receiver answers 2xx, so delivery is at least once and survives a crash of this worker.
//
// The target was checked at track time, but its DNS may have changed since (rebinding): the host is resolved
// here, every address is checked against the policy, and the request is pinned to a checked address. Redirects
// are not followed (a 3xx is a failed delivery), so a receiver cannot bounce the worker to another host.
import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import { ApplicationFailure } from '@temporalio/activity';
import {
  addressAllowed,
  checkWebhookUrl,
  hostOf,
  signWebhook,
  webhookId,
  type WebhookSettings,
} from '../workflows/webhook.js';
import type { WebhookActivities, WebhookDelivery } from '../workflows/transfer.js';

/** One attempt's bound: a receiver that neither answers nor fails within this is retried. */
export const WEBHOOK_ATTEMPT_MS = 10_000;
const USER_AGENT = 'chain-infra-webhooks/1';

/** An address the policy allows for the URL's host (resolved unless it is a literal), else a non-retryable failure. */
async function pinnedAddress(url: URL, settings: WebhookSettings): Promise<{ address: string; family: number }> {
  const host = hostOf(url);
  const family = isIP(host);
  const found = family ? [{ address: host, family }] : await lookup(host, { all: true, verbatim: true });
  const refused = found.filter((a) => !addressAllowed(a.address, settings));
  if (found.length === 0 || refused.length > 0)
    throw ApplicationFailure.nonRetryable(
      `webhook host ${host} resolves to ${refused[0]?.address ?? 'nothing'}, which this deployment may not call`,
      'WebhookRefused',
    );
  return found[0]!;
}

function post(url: URL, pinned: { address: string; family: number }, headers: Record<string, string>, body: string) {
  const lookupPinned: LookupFunction = (_host, opts, cb) => {
    if ((opts as { all?: boolean }).all)
      (cb as (e: null, a: { address: string; family: number }[]) => void)(null, [pinned]);
    else cb(null, pinned.address, pinned.family);
  };
  const mod = url.protocol === 'https:' ? https : http;
  return new Promise<number>((resolve, reject) => {
    const req = mod.request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        lookup: lookupPinned,
        timeout: WEBHOOK_ATTEMPT_MS,
        agent: false,
      },
      (res) => {
        res.resume(); // the answer's body is not read, only drained
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${WEBHOOK_ATTEMPT_MS} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * `settings` undefined: this worker has no WEBHOOK_SECRET, so every delivery fails (retryably: configuring the
 * secret and restarting the worker lets queued deliveries through).
 */
export function createWebhookActivities(settings: WebhookSettings | undefined): WebhookActivities {
  return {
    async deliverWebhook(d: WebhookDelivery): Promise<{ status: number }> {
      if (!settings) throw new Error('this worker has no WEBHOOK_SECRET; webhooks cannot be signed');
      const checked = checkWebhookUrl(d.url, settings);
      if (!checked.ok) throw ApplicationFailure.nonRetryable(`webhook URL ${checked.reason}`, 'WebhookRefused');
      const url = checked.value;
      const pinned = await pinnedAddress(url, settings);
      const body = JSON.stringify(d.doc);
      const id = webhookId(d.chainId, d.txHash, d.event);
      const timestamp = Math.floor(Date.now() / 1000);
      const status = await post(
        url,
        pinned,
        {
          'content-type': 'application/json',
          'user-agent': USER_AGENT,
          'webhook-id': id,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': signWebhook(settings.secret, id, timestamp, body),
          'x-transfer-chain-id': d.chainId,
          'x-transfer-tx-hash': d.txHash,
          'x-transfer-event': String(d.event),
        },
        body,
      );
      if (status < 200 || status > 299) throw new Error(`webhook answered ${status}`);
      return { status };
    },
  };
}
