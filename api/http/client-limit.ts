// Per-client limits on the router's unauthenticated write-like calls (track registrations, and calls that fan
// out to chain endpoints). One token bucket per client (its address; an IPv6 client by its /64, clientKey):
// `perMinute` tokens refill per minute, at most `burst` held. The table of clients is bounded (least recently seen
// evicted first), so a flood of addresses costs bounded memory; an evicted client simply starts again with a full
// bucket.
import type { Request, RequestHandler } from 'express';
import { isIP } from 'node:net';
import { v6Groups } from '../../platform/ip.js';
import { ApiError, Grpc } from './errors.js';

/**
 * The key a client is counted under: its address, an IPv4-mapped IPv6 address as the IPv4 one, and any other IPv6
 * address by its /64. A subscriber is given a whole /64 and may pick any of its 2^64 addresses, so counting by
 * address would give it as many buckets. Pure.
 */
export function clientKey(address: string | undefined): string {
  if (!address) return 'unknown';
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (isIP(address) !== 6) return address;
  return `${v6Groups(address)
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

/** The request's client key (clientKey of its peer address). */
export const clientOf = (req: Request): string => clientKey(req.ip ?? req.socket.remoteAddress);

export interface ClientLimitSettings {
  /** Sustained calls per minute per client; 0 turns the limit off. */
  perMinute: number;
  /** Calls a client may make at once before the sustained rate applies. */
  burst: number;
  /** Clients remembered at most. */
  maxClients?: number;
}

interface Bucket {
  tokens: number;
  atMs: number;
}

/** A token bucket per key; pure apart from the clock it is given. */
export class ClientLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly perMs: number;
  private readonly maxClients: number;

  constructor(
    private readonly settings: ClientLimitSettings,
    private readonly now: () => number = Date.now,
  ) {
    this.perMs = settings.perMinute / 60_000;
    this.maxClients = settings.maxClients ?? 100_000;
  }

  /** 0 when `key` may go on (one token is taken), else the ms until it may try again. */
  take(key: string): number {
    if (this.settings.perMinute <= 0) return 0;
    const t = this.now();
    let b = this.buckets.get(key);
    if (b) {
      this.buckets.delete(key); // re-inserted below: Map order is recency order
      b.tokens = Math.min(this.settings.burst, b.tokens + (t - b.atMs) * this.perMs);
      b.atMs = t;
    } else {
      b = { tokens: this.settings.burst, atMs: t };
      if (this.buckets.size >= this.maxClients) this.buckets.delete(this.buckets.keys().next().value as string);
    }
    this.buckets.set(key, b);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return 0;
    }
    return Math.ceil((1 - b.tokens) / this.perMs);
  }

  get clients(): number {
    return this.buckets.size;
  }
}

/** 429 RESOURCE_EXHAUSTED with Retry-After (whole seconds) once a client's bucket for `name` is empty. */
export function clientLimit(name: string, limiter: ClientLimiter): RequestHandler {
  return (req, res, next) => {
    const waitMs = limiter.take(clientOf(req));
    if (waitMs === 0) return next();
    const seconds = Math.max(1, Math.ceil(waitMs / 1000));
    res.setHeader('Retry-After', String(seconds));
    next(
      new ApiError(429, `too many ${name} calls from this client; retry after ${seconds} s`, Grpc.RESOURCE_EXHAUSTED, {
        retry_after_seconds: seconds,
      }),
    );
  };
}
