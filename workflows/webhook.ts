// Webhooks of tracked transfers (docs/tracking.md "Webhooks"): which targets a deployment lets its workers call, and
// how each delivery is signed. Pure: activities/webhook.ts resolves the host and calls it; this only decides.
//
// Signatures follow the Standard Webhooks scheme, so its libraries verify them: the secret is `whsec_` + base64 key
// bytes; `webhook-signature` is `v1,` + base64 HMAC-SHA256(key, `${webhook-id}.${webhook-timestamp}.${body}`).
import { createHmac, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import { v4Number, v6Groups } from '../platform/ip.js';

/** Longest webhook URL a track request may carry. */
export const MAX_WEBHOOK_URL = 2048;

export interface WebhookPolicy {
  /**
   * Host patterns a target must match: `*` any host, `example.com` that host, `*.example.com` its subdomains (not
   * itself); IP literals as written (IPv6 without brackets). Matched case-insensitively.
   */
  hosts: readonly string[];
  /** Targets may be (or resolve to) private, loopback, link-local or other non-public addresses. */
  privateAddresses: boolean;
}

export interface WebhookSettings extends WebhookPolicy {
  /** `whsec_` + base64 of the HMAC key (at least 24 bytes). */
  secret: string;
}

/** A check's outcome; `transient` marks a refusal that may pass later (the host did not resolve in time). */
export type Checked<T> = { ok: true; value: T } | { ok: false; reason: string; transient?: boolean };

/** The URL's host without IPv6 brackets, lower case. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
}

function hostMatches(host: string, pattern: string): boolean {
  const p = pattern.trim().toLowerCase();
  if (p === '*') return true;
  if (p.startsWith('*.')) return host.endsWith(p.slice(1)) && host.length > p.length - 1;
  return host === p;
}

/** A track request's webhook URL checked against the policy (syntax, scheme, host pattern, literal address). */
export function checkWebhookUrl(raw: string, policy: WebhookPolicy): Checked<URL> {
  if (raw.length > MAX_WEBHOOK_URL) return { ok: false, reason: `must be at most ${MAX_WEBHOOK_URL} characters` };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'is not an absolute URL' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { ok: false, reason: 'must be http or https' };
  if (url.username || url.password) return { ok: false, reason: 'must not carry credentials' };
  const host = hostOf(url);
  if (!policy.hosts.some((p) => hostMatches(host, p)))
    return { ok: false, reason: `host ${host} is not in this deployment's webhook allow-list` };
  if (isIP(host) && !addressAllowed(host, policy)) return { ok: false, reason: `${host} is not a public address` };
  // The well-known ports below 1024 serve other protocols (mail, DNS, file shares): a POST there is never a
  // receiver, and could be used against another host's service. `url.port` is '' for the scheme's default.
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  if (port < 1024 && port !== 80 && port !== 443)
    return { ok: false, reason: `port ${port} is refused (80, 443 or 1024 and above)` };
  return { ok: true, value: url };
}

/** Whether a resolved address may be called under the policy. */
export function addressAllowed(address: string, policy: WebhookPolicy): boolean {
  return policy.privateAddresses || isPublicAddress(address);
}

const V4_NOT_PUBLIC: readonly [string, number][] = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
];

function v4Public(a: string): boolean {
  const n = v4Number(a);
  return !V4_NOT_PUBLIC.some(
    ([base, bits]) => Math.floor(n / 2 ** (32 - bits)) === Math.floor(v4Number(base) / 2 ** (32 - bits)),
  );
}

/**
 * Whether an address is globally reachable: for IPv4, not unspecified, loopback, private, shared, link-local,
 * multicast, documentation or reserved; for IPv6, inside global unicast (2000::/3) but not documentation (2001:db8::/32,
 * 3fff::/20) or the IETF protocol block (2001::/23, Teredo included), with the forms that embed an IPv4 address (mapped, NAT64, 6to4)
 * judged by that address.
 */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return v4Public(address);
  if (family !== 6) return false;
  const g = v6Groups(address);
  const v4At = (i: number) => `${g[i]! >> 8}.${g[i]! & 255}.${g[i + 1]! >> 8}.${g[i + 1]! & 255}`;
  if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff) return v4Public(v4At(6)); // ::ffff:a.b.c.d
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return v4Public(v4At(6)); // NAT64
  const first = g[0]!;
  if (first === 0x2002) return v4Public(v4At(1)); // 6to4
  if ((first & 0xe000) !== 0x2000) return false; // outside global unicast: ::, ::1, ::a.b.c.d, fc00::/7, fe80::/10, …
  if (first === 0x2001 && (g[1]! < 0x0200 || g[1] === 0x0db8)) return false; // 2001::/23, 2001:db8::/32
  if (first === 0x3fff && g[1]! < 0x1000) return false; // 3fff::/20, documentation (RFC 9637)
  return true;
}

/** Whether a configured secret has the `whsec_` + base64 form and a key of at least 24 bytes. */
export function secretIsWellFormed(secret: string): boolean {
  const m = /^whsec_([A-Za-z0-9+/]+={0,2})$/.exec(secret);
  return !!m && Buffer.from(m[1]!, 'base64').length >= 24;
}

/** The `webhook-signature` value of one delivery. */
export function signWebhook(secret: string, id: string, timestampS: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestampS}.${body}`).digest('base64')}`;
}

/**
 * A receiver's check: one of the (space-separated) signatures matches and the timestamp is within `toleranceS` of
 * `nowS` (replay protection).
 */
export function verifyWebhook(
  secret: string,
  h: { id: string; timestamp: string; signature: string },
  body: string,
  nowS: number,
  toleranceS = 300,
): boolean {
  const ts = Number(h.timestamp);
  if (!Number.isInteger(ts) || Math.abs(nowS - ts) > toleranceS) return false;
  const want = Buffer.from(signWebhook(secret, h.id, ts, body));
  return h.signature.split(' ').some((s) => {
    const got = Buffer.from(s);
    return got.length === want.length && timingSafeEqual(got, want);
  });
}

/** `webhook-id` of a transfer's event: stable across retries, so a receiver drops repeats by it. */
export const webhookId = (chainId: string, txHash: string, event: number) => `${chainId}:${txHash}:${event}`;
