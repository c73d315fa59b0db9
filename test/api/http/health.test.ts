// GET /health's status code follows its check: a probe that reads only the code (a load balancer, an orchestrator)
// must see a store that does not answer. It was a 200 with `ok: false` in the body. HTTP on loopback.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Server } from 'node:http';
import { closeServer, createServiceApp, listen } from '../../../api/http/app.js';

let up = true;
let server: Server;
let base: string;
beforeAll(async () => {
  const app = createServiceApp({
    service: 'indexer',
    openapi: {},
    health: async () => {
      if (!up) throw new Error('the store does not answer');
      return { indexed_height: 7 };
    },
  });
  server = await listen(app, 0);
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(async () => {
  await closeServer(server);
});

it('answers 200 with the check while it passes, 503 JSON naming the failure while it fails', async () => {
  const ok = await fetch(`${base}/health`);
  expect([ok.status, await ok.json()]).toEqual([200, { status: 'ok', service: 'indexer', indexed_height: 7 }]);
  up = false;
  const down = await fetch(`${base}/health`);
  expect([down.status, await down.json()]).toEqual([
    503,
    { status: 'unavailable', service: 'indexer', error: 'the store does not answer' },
  ]);
});
