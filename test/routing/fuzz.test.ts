// In-suite fuzzing of the router over loopback HTTP (scripts/fuzz-router.sh runs schemathesis from the
// OpenAPI document; this runs inside vitest): valid bodies with fields replaced by arbitrary JSON, and
// arbitrary strings in every string field. Property: never a 5xx, always a JSON {code, message, details}.
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeServer, listen } from '../../api/http/app.js';
import { createRouterApp } from '../../api/router/app.js';
import { loadRouterRegistry } from '../../routing/registry.js';
import { routerOpenapi } from '../../api/router/openapi.js';

type Doc = {
  paths: Record<
    string,
    {
      post?: {
        requestBody: { content: { 'application/json': { example: Record<string, unknown> } } };
        responses: Record<string, unknown>;
      };
    }
  >;
};
const doc = routerOpenapi() as unknown as Doc;
let server: Server;
let base: string;
beforeAll(async () => {
  // No quote provider calls leave the process: the shipped registry has no JSON-RPC for LayerZero chains.
  server = await listen(createRouterApp({ registry: loadRouterRegistry({ ROUTER_NETWORK: 'mainnet' }) }), 0);
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => closeServer(server));

const valueArb = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.string({ maxLength: 80 }),
  fc.bigInt({ min: -(1n << 260n), max: 1n << 260n }).map(String),
  fc.constantFrom(
    '',
    '0',
    '-1',
    '1.5',
    'ibc/',
    'l2/',
    'evm/',
    'interwoven-1',
    'echelon-1',
    'noble-1',
    '1',
    'uinit',
    'transfer/channel-0/uinit',
  ),
);

for (const path of Object.keys(doc.paths)) {
  const post = doc.paths[path]!.post;
  if (!post) continue; // GET lists take no body; schemathesis covers their query parameters
  const example = post.requestBody.content['application/json'].example;
  describe(`POST ${path}`, () => {
    // Every operation documents a 200, except /v2/tx/submit, which is always refused with a 400 (never broadcasts).
    const expected = '200' in post.responses ? 200 : 400;
    it(`the documented example gets its documented ${expected}`, async () => {
      const r = await fetch(base + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(example),
      });
      expect(r.status).toBe(expected);
    });
    it('mutated bodies never produce a 5xx', async () => {
      const keys = Object.keys(example);
      await fc.assert(
        fc.asyncProperty(
          fc.dictionary(
            fc.constantFrom(
              ...keys,
              'extra',
              'operations',
              'address_list',
              'signed_op_hook',
              'is_op_withdraw',
              'bridges',
            ),
            valueArb,
            { maxKeys: 4 },
          ),
          fc.boolean(),
          async (patch, drop) => {
            const body: Record<string, unknown> = { ...example, ...patch };
            if (drop) delete body[keys[0]!];
            const r = await fetch(base + path, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify(body),
            });
            const json = (await r.json()) as { code?: unknown; message?: unknown; details?: unknown };
            expect(r.status, JSON.stringify(body).slice(0, 300)).toBeLessThan(500);
            if (r.status !== 200)
              expect(json).toMatchObject({ code: expect.any(Number), message: expect.any(String), details: [] });
          },
        ),
        { numRuns: 300, seed: 42 },
      );
    });
  });
}
