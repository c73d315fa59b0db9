// The in-process connection through which the wire front (edge-wire.ts) gives node's HTTP server the requests it does
// not answer, while it keeps the client's connection for the hits after them. Node's server reads the request bytes
// the front gives it, as it would read a socket, and every byte it writes goes to the client's socket at once, in
// order, with that socket's backpressure. So a response is node's own, byte for byte.
//
// What node's server and the handlers behind it read of a socket, the relay answers from the client's socket: the
// client's address (the per-client limits key on it), Nagle and keep-alive settings. Its idle timer is the front's,
// on the client's socket (node's keep-alive timer on the relay would see only the relayed requests, not the hits
// between them), so `setTimeout` here does nothing.
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { Duplex } from 'node:stream';

export class RelaySocket extends Duplex {
  /** Request heads the front gave (each one becomes a request of node's), requests node started, responses ended. */
  private headsGiven = 0;
  private responsesStarted = 0;
  private responsesClosed = 0;
  /** Set when the front takes the relay away to give node the client's socket itself: that socket stays open. */
  private detached = false;
  private finalised = false;

  constructor(private readonly client: Socket) {
    super({ allowHalfOpen: true });
  }

  /** A request node has yet to answer, or is answering, on this connection. */
  get busy(): boolean {
    return Math.max(this.headsGiven, this.responsesStarted) > this.responsesClosed;
  }

  /** One whole request head (a GET has no body) for node's server to serve. */
  give(request: Buffer): void {
    this.headsGiven++;
    this.pass(request);
  }

  /** Bytes for node's server, read as they come (the rest of a connection the front stopped reading). */
  pass(bytes: Buffer): void {
    if (bytes.length > 0 && !this.push(bytes)) this.client.pause(); // resumed when node reads again (`_read`)
  }

  /** Node's server started a response on this connection (its `request` event). */
  responding(res: ServerResponse): void {
    this.responsesStarted++;
    res.once('close', () => {
      this.responsesClosed++;
    });
  }

  /** Let node's server forget this connection without closing the client's socket (the front gives node that). */
  detach(): void {
    this.detached = true;
    this.destroy();
  }

  get remoteAddress(): string | undefined {
    return this.client.remoteAddress;
  }
  get remotePort(): number | undefined {
    return this.client.remotePort;
  }
  get remoteFamily(): string | undefined {
    return this.client.remoteFamily;
  }
  get localAddress(): string | undefined {
    return this.client.localAddress;
  }
  get localPort(): number | undefined {
    return this.client.localPort;
  }
  get bytesWritten(): number {
    return this.client.bytesWritten;
  }

  setNoDelay(noDelay?: boolean): this {
    this.client.setNoDelay(noDelay);
    return this;
  }
  setKeepAlive(enable?: boolean, initialDelay?: number): this {
    this.client.setKeepAlive(enable, initialDelay);
    return this;
  }
  setTimeout(_ms: number, _onTimeout?: () => void): this {
    return this;
  }
  /** As `net.Socket.destroySoon`: end, and close once everything written has gone to the client's socket. */
  destroySoon(): void {
    this.end();
    if (this.writableFinished) this.destroy();
    else this.once('finish', () => this.destroy());
  }

  override _read(): void {
    if (this.client.isPaused()) this.client.resume();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    if (this.client.write(chunk)) done();
    else this.client.once('drain', () => done());
  }

  override _writev(chunks: { chunk: Buffer }[], done: (error?: Error | null) => void): void {
    this.client.cork();
    let flowing = true;
    for (const c of chunks) flowing = this.client.write(c.chunk);
    this.client.uncork();
    if (flowing) done();
    else this.client.once('drain', () => done());
  }

  /** Node ended the connection (after its last response): so does the client's socket, once it has written it all. */
  override _final(done: (error?: Error | null) => void): void {
    this.finalised = true;
    this.client.end();
    done();
  }

  /**
   * Node destroyed the connection: so is the client's socket, unless the front is taking the relay away. When node
   * had ended it first (`destroySoon`), the client's socket closes once its bytes have been written, as node's own
   * `destroySoon` closes a socket.
   */
  override _destroy(error: Error | null, done: (error?: Error | null) => void): void {
    if (!this.detached) {
      if (this.finalised) this.client.destroySoon();
      else this.client.destroy();
    }
    done(error);
  }
}
