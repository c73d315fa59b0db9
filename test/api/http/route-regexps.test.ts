// The memo on the validator's path-to-regexp (api/http/app.ts): the validator's copy of the module is the
// one patched, a kept compilation is the one the original would give, it is kept once per (pattern, options), and
// an app built on it still routes and validates every documented path (real express + express-openapi-validator).
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import express from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import { closeServer, listen } from '../../../api/http/app.js';
import { memoiseValidatorRoutes } from '../../../api/http/app.js';

const require = createRequire(import.meta.url);
const validatorDir = path.dirname(require.resolve('express-openapi-validator'));
const ptr = require(require.resolve('path-to-regexp', { paths: [validatorDir] })) as {
  pathToRegexp: (route: string, options?: object) => { regexp: RegExp; keys: { name: string }[] };
};

describe("the validator's route compilation, memoised", () => {
  it('patches the copy the validator loads, once, and keeps one compilation per pattern and options', () => {
    const kept = memoiseValidatorRoutes();
    expect(memoiseValidatorRoutes()).toBe(kept); // idempotent
    const before = kept.size;
    const a = ptr.pathToRegexp('/memo-test/:x/y/:z', { sensitive: false, strict: false });
    const b = ptr.pathToRegexp('/memo-test/:x/y/:z', { sensitive: false, strict: false });
    const c = ptr.pathToRegexp('/memo-test/:x/y/:z', { sensitive: true, strict: false });
    expect(b).toBe(a);
    expect(c).not.toBe(a);
    expect(kept.size).toBe(before + 2);
    expect(a.keys.map((k) => k.name)).toEqual(['x', 'z']);
    expect(a.regexp.exec('/memo-test/1/y/2')?.slice(1)).toEqual(['1', '2']);
    expect(a.regexp.exec('/MEMO-TEST/1/y/2')).not.toBeNull();
    expect(c.regexp.exec('/MEMO-TEST/1/y/2')).toBeNull();
    // the same answers as a fresh compilation, run after run (no state kept in the regexp between calls)
    for (let i = 0; i < 3; i++) expect(a.regexp.exec('/memo-test/a/y/b')?.slice(1)).toEqual(['a', 'b']);
  });

  it('still routes and validates every documented path of an app (real HTTP), from the memo', async () => {
    const kept = memoiseValidatorRoutes();
    const paths: Record<string, object> = {};
    for (const p of ['/a/{id}', '/b/{id}/c', '/d/{x}/{y}'])
      paths[p] = {
        get: {
          parameters: p
            .match(/\{(\w+)\}/g)!
            .map((m) => ({ name: m.slice(1, -1), in: 'path', required: true, schema: { type: 'integer' } })),
          responses: { 200: { description: 'ok' } },
        },
      };
    const app = express();
    app.use(
      OpenApiValidator.middleware({
        apiSpec: { openapi: '3.0.3', info: { title: 't', version: '1' }, paths } as never,
        validateRequests: true,
        ignoreUndocumented: true,
      }),
    );
    app.get('/a/:id', (req, res) => res.json({ route: 'a', id: req.params.id }));
    app.get('/b/:id/c', (req, res) => res.json({ route: 'b', id: req.params.id }));
    app.get('/d/:x/:y', (req, res) => res.json({ route: 'd', x: req.params.x, y: req.params.y }));
    app.use((err: { status?: number }, _req: express.Request, res: express.Response, _next: express.NextFunction) =>
      res.status(err.status ?? 500).json({ status: err.status }),
    );
    const server = await listen(app, 0, '127.0.0.1');
    const { port } = server.address() as { port: number };
    const get = async (p: string) => {
      const r = await fetch(`http://127.0.0.1:${port}${p}`);
      return { status: r.status, body: (await r.json()) as Record<string, unknown> };
    };
    try {
      for (let i = 0; i < 3; i++) {
        expect(await get('/a/7')).toEqual({ status: 200, body: { route: 'a', id: 7 } });
        expect(await get('/b/8/c')).toEqual({ status: 200, body: { route: 'b', id: 8 } });
        expect(await get('/d/1/2')).toEqual({ status: 200, body: { route: 'd', x: 1, y: 2 } });
        expect((await get('/a/x')).status).toBe(400);
        expect((await get('/d/1/y')).status).toBe(400);
      }
      // the validator's own lookups went through the memo: its routes (express syntax) are kept
      const routes = [...kept.keys()].map((k) => k.split('\u0000')[0]);
      expect(routes).toEqual(expect.arrayContaining(['/a/:id', '/b/:id/c', '/d/:x/:y']));
    } finally {
      await closeServer(server);
    }
  });
});
