// Event streams' settings, and how many streams may be open: per process and per client address. Streams are unauthenticated long-lived
// reads, so every service that serves them counts them here before the first byte (a JSON 429 otherwise).
import type { Request, Response } from 'express';
import { metrics } from '../../platform/metrics.js';
import { ApiError, Grpc } from './errors.js';
import { clientOf } from './client-limit.js';

/** The settings of a service's event streams (STREAM* in platform/config.ts). */
export interface StreamSettings {
  /** Streams open at once in this process, and per client address. */
  maxStreams: number;
  maxPerClient: number;
  /** Bytes a client may leave unread before it is cut off (with a resumable last event). */
  bufferBytes: number;
  heartbeatMs: number;
  /** A stream is ended (resumable) after this long. */
  lifetimeMs: number;
  /** The reconnection delay sent to clients (`retry:`). */
  retryMs: number;
}

export const DEFAULT_STREAM_SETTINGS: StreamSettings = {
  maxStreams: 2000,
  maxPerClient: 20,
  bufferBytes: 1 << 20,
  heartbeatMs: 15_000,
  lifetimeMs: 30 * 60_000,
  retryMs: 1000,
};

/** Why a stream was not admitted (the handler answers 429 with it). */
export type Refusal = { limit: 'process' | 'client'; max: number };

export class StreamAdmission {
  private readonly perClient = new Map<string, number>();
  private admitted = 0;

  constructor(
    private readonly maxStreams: number,
    private readonly maxPerClient: number,
    /** The `service` label of `streams_open`. */
    private readonly service: string,
  ) {}

  /** Streams admitted and not yet released. */
  get size(): number {
    return this.admitted;
  }

  /**
   * Count a stream before it opens: a release function (idempotent), or why it is refused. Synchronous, so
   * concurrent opens cannot all pass one check.
   */
  admit(client: string): (() => void) | Refusal {
    if (this.admitted >= this.maxStreams) return { limit: 'process', max: this.maxStreams };
    const mine = this.perClient.get(client) ?? 0;
    if (mine >= this.maxPerClient) return { limit: 'client', max: this.maxPerClient };
    this.perClient.set(client, mine + 1);
    this.admitted++;
    metrics.streamsOpen.inc({ service: this.service });
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.admitted--;
      metrics.streamsOpen.dec({ service: this.service });
      const n = (this.perClient.get(client) ?? 1) - 1;
      if (n <= 0) this.perClient.delete(client);
      else this.perClient.set(client, n);
    };
  }
}

/** The JSON 429 of a refused stream, with `Retry-After` set on the response. */
function tooManyStreams(refusal: Refusal, setHeader: (name: string, value: string) => void): ApiError {
  setHeader('Retry-After', '5');
  return new ApiError(
    429,
    refusal.limit === 'client'
      ? `too many open streams from this client (at most ${refusal.max}); close one or retry later`
      : `too many open streams on this server (at most ${refusal.max}); retry later`,
    Grpc.RESOURCE_EXHAUSTED,
  );
}

/**
 * Admit the request's client (by its address) to one more stream: the release to call once its connection is done,
 * or the JSON 429 (with Retry-After) to throw; null when the request was a HEAD, answered here (nothing to stream).
 */
export function admitClient(
  admission: { admit(client: string): (() => void) | Refusal },
  req: Request,
  res: Response,
): (() => void) | null {
  // HEAD (which express routes to the GET handler) asks for the stream's headers, not the stream: answered at once,
  // without a slot. An open HEAD response would hold the slot and block its keep-alive connection for the stream's
  // whole lifetime.
  if (req.method === 'HEAD') {
    res.status(200).type('text/event-stream; charset=utf-8').setHeader('Cache-Control', 'no-cache, no-transform');
    res.end();
    return null;
  }
  const release = admission.admit(clientOf(req));
  if (typeof release !== 'function') throw tooManyStreams(release, (k, v) => res.setHeader(k, v));
  return release;
}
