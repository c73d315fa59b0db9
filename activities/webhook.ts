// The webhook delivery activity: POST status versions of a transfer to its registered URL, signed, one request per
// event, in order, each only after the one before was answered 2xx. The workflow (workflows/transfer.ts) hands it
// the events queued since its last call, and Temporal retries it with back-off until every one is acknowledged, so
// delivery is at least once and survives a crash of this worker. A retry skips the events its attempt reported
// delivered (heartbeat details); an event whose answer was lost is sent again, as the same `webhook-id`.
//
// The target was checked at track time, but its DNS may have changed since (rebinding): the host is resolved
// here, every address is checked against the policy, and the request is pinned to a checked address. Redirects
// are not followed (a 3xx is a failed delivery), so a receiver cannot bounce the worker to another host.
import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import { ApplicationFailure, Context } from '@temporalio/activity';
import {
  addressAllowed,
  checkWebhookUrl,
  hostOf,
  signWebhook,
  webhookId,
  type Checked,
  type WebhookSettings,
} from '../workflows/webhook.js';
import type { WebhookActivities, WebhookDelivery } from '../workflows/transfer.js';
import { Gate } from '../platform/gate.js';

/** One attempt's bound: a receiver that neither answers nor fails within this is retried. */
export const WEBHOOK_ATTEMPT_MS = 10_000;
const USER_AGENT = 'chain-infra-webhooks/1';
/** How long the host's resolution may take (a delivery then fails retryably; a track request is refused). */
const LOOKUP_MS = 2_000;
/**
 * Host lookups run at once in this process. A system lookup holds one of the 4 threads of Node's pool until the
 * resolver answers, which for a name server that never answers is long after LOOKUP_MS gave up on it, and the pool
 * also runs the embedded engine's statements and file reads: a burst of track requests naming hosts under a silent
 * zone may hold at most these two. A lookup that finds no turn within LOOKUP_MS counts as unresolved (transient).
 */
const lookups = new Gate(2);

/** Where a checked webhook goes: its URL, and the allowed address the request is pinned to. */
export interface WebhookTarget {
  url: URL;
  pinned: { address: string; family: number };
}

/**
 * A webhook URL checked against the policy, its host resolved (unless a literal; bounded by LOOKUP_MS) and every
 * address it resolves to checked: the target, or why not. The track route asks it before registering a URL, and
 * each delivery again (the DNS answer may have changed since).
 */
export async function resolveWebhook(raw: string, settings: WebhookSettings): Promise<Checked<WebhookTarget>> {
  const checked = checkWebhookUrl(raw, settings);
  if (!checked.ok) return checked;
  const url = checked.value;
  const host = hostOf(url);
  const family = isIP(host);
  const found = family
    ? [{ address: host, family }]
    : await lookups.within(() => lookup(host, { all: true, verbatim: true }).catch(() => []), LOOKUP_MS, []);
  if (found.length === 0) return { ok: false, reason: `host ${host} does not resolve`, transient: true };
  const refused = found.find((a) => !addressAllowed(a.address, settings));
  if (refused) return { ok: false, reason: `host ${host} resolves to ${refused.address}, which is not public` };
  return { ok: true, value: { url, pinned: found[0]! } };
}

function post(
  url: URL,
  pinned: { address: string; family: number },
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
  signal?: AbortSignal,
) {
  const lookupPinned: LookupFunction = (_host, opts, cb) => {
    if ((opts as { all?: boolean }).all)
      (cb as (e: null, a: { address: string; family: number }[]) => void)(null, [pinned]);
    else cb(null, pinned.address, pinned.family);
  };
  const mod = url.protocol === 'https:' ? https : http;
  // One deadline for the whole exchange (connect, send, the answer's status line), not per idle phase, and the
  // request is torn down when it passes or the caller aborts: an attempt that is given up sends nothing later.
  const deadline = AbortSignal.timeout(timeoutMs);
  return new Promise<number>((resolve, reject) => {
    const req = mod.request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        lookup: lookupPinned,
        agent: false,
        signal: signal ? AbortSignal.any([deadline, signal]) : deadline,
      },
      (res) => {
        // The status is the answer; its body is not read, and the connection is closed at once.
        resolve(res.statusCode ?? 0);
        res.destroy();
      },
    );
    req.on('error', (e) => reject(deadline.aborted ? new Error(`no answer within ${timeoutMs} ms`) : e));
    req.end(body);
  });
}

/** resolveWebhook for a delivery: a refusal fails for good, a host that does not resolve fails retryably. */
export async function webhookTarget(raw: string, settings: WebhookSettings): Promise<WebhookTarget> {
  const r = await resolveWebhook(raw, settings);
  if (r.ok) return r.value;
  if (r.transient) throw new Error(`webhook URL ${r.reason}`);
  throw ApplicationFailure.nonRetryable(`webhook URL ${r.reason}`, 'WebhookRefused');
}

/** POST one event, signed; resolves on a 2xx answer within `timeoutMs`, throws otherwise. */
export async function postEvent(
  settings: WebhookSettings,
  target: WebhookTarget,
  chainId: string,
  txHash: string,
  e: { event: number; doc: unknown },
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<void> {
  const body = JSON.stringify(e.doc);
  const id = webhookId(chainId, txHash, e.event);
  const timestamp = Math.floor(Date.now() / 1000);
  const status = await post(
    target.url,
    target.pinned,
    {
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
      'webhook-id': id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signWebhook(settings.secret, id, timestamp, body),
      'x-transfer-chain-id': chainId,
      'x-transfer-tx-hash': txHash,
      'x-transfer-event': String(e.event),
    },
    body,
    timeoutMs,
    signal,
  );
  if (status < 200 || status > 299) throw new Error(`webhook answered ${status} to event ${e.event}`);
}

/** The running activity's context, or undefined when called outside an activity (tests call the function directly). */
function activityContext(): Context | undefined {
  try {
    return Context.current();
  } catch {
    return undefined;
  }
}

/**
 * `settings` undefined: this worker has no WEBHOOK_SECRET, so every delivery fails (retryably: configuring the
 * secret and restarting the worker lets queued deliveries through).
 */
export function createWebhookActivities(settings: WebhookSettings | undefined): WebhookActivities {
  return {
    async deliverWebhook(d: WebhookDelivery): Promise<{ delivered: number }> {
      if (!settings) throw new Error('this worker has no WEBHOOK_SECRET; webhooks cannot be signed');
      const target = await webhookTarget(d.url, settings);
      const ctx = activityContext();
      const done = Number(ctx?.info.heartbeatDetails ?? 0) || 0;
      for (let i = done; i < d.events.length; i++) {
        ctx?.heartbeat(i); // alive, and how many are delivered (a retry starts there)
        // A cancelled attempt (timed out, or its workflow moved on) stops here, so it never sends after its retry.
        if (ctx?.cancellationSignal.aborted) throw new Error('delivery attempt cancelled');
        await postEvent(
          settings,
          target,
          d.chainId,
          d.txHash,
          d.events[i]!,
          WEBHOOK_ATTEMPT_MS,
          ctx?.cancellationSignal,
        );
      }
      return { delivered: d.events.length };
    },
  };
}
