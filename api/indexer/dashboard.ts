// The dashboard page (/dashboard/): static HTML + JS from api/indexer/dashboard/, the charting library
// (uPlot) from our own node_modules (no CDN: works offline), and the router's transfer statistics proxied
// from the same origin when a router URL is configured.
import { STATUS_CODES } from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { type Express, type RequestHandler } from 'express';
import { ApiError } from '../http/errors.js';

const here = path.join(path.dirname(fileURLToPath(import.meta.url)), 'dashboard');
const uplotDir = path.dirname(createRequire(import.meta.url).resolve('uplot/dist/uPlot.iife.min.js'));

export function registerDashboard(app: Express, opts: { routerUrl?: string; vm?: string }): void {
  app.get(/^\/dashboard$/, (_req, res) => res.redirect(301, '/dashboard/'));
  // What the page should ask for: the rich list exists on EVM rollups only, transfers when a router runs.
  app.get('/dashboard/config.json', (_req, res) => {
    res.json({ vm: opts.vm ?? null, richlist: opts.vm === 'evm', router: Boolean(opts.routerUrl) });
  });
  app.use('/dashboard/vendor/uplot', staticFiles(uplotDir, { index: false }));
  app.get('/dashboard/transfers', async (req, res) => {
    if (!opts.routerUrl) {
      res.status(404).json({ code: 404, message: 'no router is configured for this indexer' });
      return;
    }
    const q = new URL(req.originalUrl, 'http://x').search;
    try {
      const r = await fetch(`${opts.routerUrl.replace(/\/+$/, '')}/v2/stats/transfers${q}`, {
        signal: AbortSignal.timeout(5000),
      });
      res
        .status(r.status)
        .type('application/json')
        .send(await r.text());
    } catch (e) {
      res.status(502).json({ code: 502, message: `router unreachable: ${(e as Error).message}` });
    }
  });
  app.use('/dashboard', staticFiles(here, { index: 'index.html' }));
}

/**
 * express.static over `dir`, its client errors answered without what they say: they name the file it looked for, a
 * path on this host. Only its own errors: the ones of earlier middleware (a missing Host, a bad body) pass as they are.
 */
function staticFiles(dir: string, o: { index: string | false }): RequestHandler {
  const serve = express.static(dir, { index: o.index, fallthrough: false });
  return (req, res, next) =>
    serve(req, res, (err?: { status?: number }) => {
      const status = err?.status ?? 500;
      if (!err || status < 400 || status >= 500) return next(err);
      const message = status === 404 ? `Cannot ${req.method} ${req.originalUrl}` : String(STATUS_CODES[status]);
      next(new ApiError(status, message));
    });
}
