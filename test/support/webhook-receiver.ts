// A webhook receiver for tests: loopback HTTP on a fixed port once up (so it can go down and come back on the same
// URL), answering 503 to its first `failFirst` requests and 204 after, keeping every accepted event with whether
// its signature verifies.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeServer } from '../../api/http/app.js';
import type { SentTx } from '../../devnet/simnet/index.js';
import { verifyWebhook } from '../../workflows/webhook.js';

export interface Received {
  id: string;
  event: number;
  chainId: string;
  txHash: string;
  body: string;
  signed: boolean;
}

/** A webhook receiver on a fixed loopback port: answers 503 to its first `failFirst` requests, 200 after. */
export class Receiver {
  readonly accepted: Received[] = [];
  requests = 0;
  private server: http.Server | undefined;
  port = 0;
  constructor(
    private readonly secret: string,
    private failFirst = 0,
  ) {}

  async up(): Promise<void> {
    const server = http.createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (c: string) => (body += c));
      req.on('end', () => {
        this.requests++;
        if (this.failFirst > 0) {
          this.failFirst--;
          res.writeHead(503).end();
          return;
        }
        const h = (n: string) => String(req.headers[n] ?? '');
        this.accepted.push({
          id: h('webhook-id'),
          event: Number(h('x-transfer-event')),
          chainId: h('x-transfer-chain-id'),
          txHash: h('x-transfer-tx-hash'),
          body,
          signed: verifyWebhook(
            this.secret,
            { id: h('webhook-id'), timestamp: h('webhook-timestamp'), signature: h('webhook-signature') },
            body,
            Math.floor(Date.now() / 1000),
          ),
        });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  async down(): Promise<void> {
    const s = this.server;
    this.server = undefined;
    if (s) await closeServer(s);
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/hooks/transfers`;
  }

  of(tx: SentTx): Received[] {
    return this.accepted.filter((r) => r.chainId === tx.chainId && r.txHash === tx.txHash);
  }
}
