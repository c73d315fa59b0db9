// The dashboard (/dashboard/) in a real browser (issue 15): Debian's Chromium, headless, driven by
// playwright-core, over the indexer of the recorded EVM sample chain plus a router app over the same store
// (one tracked transfer). Each chart must hold the number of points the raw facts imply, every request must
// stay on our own origin (no CDN), no console error may occur, and the page must refresh itself.
// A screenshot is saved as .tmp/dashboard-evm.png.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TrackingProjection } from '../../activities/projection.js';
import { closeServer, listen } from '../../api/http/app.js';
import { createRouterApp } from '../../api/router/app.js';
import { loadRouterRegistry } from '../../routing/registry.js';
import { startIndexer, type Running } from '../api/indexer/helpers.js';
import { ingestSampleChain, type IngestedSample } from '../support/sample.js';
import { CHROMIUM, CHROMIUM_FLAGS, requireChromium } from '../support/browser.js';
import { indexerConfig } from '../support/indexer-config.js';

let s: IngestedSample;
let api: Running;
let router: Server;
let tmp: string;
let browser: BrowserContext | undefined;
let page: Page;
const consoleErrors: string[] = [];
const foreignRequests: string[] = [];

beforeAll(async () => {
  requireChromium();
  s = await ingestSampleChain('evm');
  // A router over the same store with one registered transfer, so the dashboard shows transfer statistics.
  await new TrackingProjection(s.store, { ttlMs: 0 }).register('minievm-1', 'AB'.repeat(32), Date.now());
  router = await listen(
    createRouterApp({ registry: loadRouterRegistry({ ROUTER_NETWORK: 'mainnet' }), store: s.store }),
    0,
  );
  api = await startIndexer({
    store: s.store,
    config: indexerConfig('evm', s.sample.manifest.chainId),
    chain: { restUrl: s.sample.restUrl },
    routerUrl: `http://127.0.0.1:${(router.address() as AddressInfo).port}`,
  });
  tmp = mkdtempSync(path.join(os.tmpdir(), 'browser-dashboard-'));
  browser = await chromium.launchPersistentContext(path.join(tmp, 'chromium-profile'), {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_FLAGS,
    viewport: { width: 1280, height: 1400 },
  });
  page = browser.pages()[0] ?? (await browser.newPage());
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text());
  });
  page.on('pageerror', (e) => consoleErrors.push(`pageerror: ${e.message}`));
  page.on('request', (r) => {
    if (!r.url().startsWith(api.base) && !r.url().startsWith('data:')) foreignRequests.push(r.url());
  });
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await api?.close();
  if (router) await closeServer(router);
  await s?.cleanup();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

type ChartInfo = Record<string, { points: number; series: number; width: number }>;

describe('dashboard in headless Chromium', () => {
  it('is linked from the Swagger document and draws every chart with the expected points', async () => {
    const doc = (await api.get('/swagger/doc.json')).body;
    expect(doc.info.description).toContain('(/dashboard/)');

    await page.goto(`${api.base}/dashboard`, { waitUntil: 'load' });
    expect(page.url()).toBe(`${api.base}/dashboard/`);
    await page.waitForFunction(
      () => ((globalThis as unknown as { dashboard?: { refreshes: number } }).dashboard?.refreshes ?? 0) >= 1,
      undefined,
      { timeout: 30_000 },
    );
    const errors = await page.evaluate(
      () => (globalThis as unknown as { dashboard: { errors: string[] } }).dashboard.errors,
    );
    expect(errors).toEqual([]);

    // Expected points from the raw facts: one per minute bucket between the first and the last block.
    const [span] = await s.store.rows<{ first: number; last: number }>(
      'SELECT toUInt32(min(time)) AS first, toUInt32(max(time)) AS last FROM blocks',
    );
    const minutes = Math.floor(span!.last / 60) - Math.floor(span!.first / 60) + 1;
    const msgTypes = await s.store.rows<{ m: string }>('SELECT DISTINCT arrayJoin(msg_types) AS m FROM txs');
    const top = await s.store.rows<{ token: string; n: string }>(
      `SELECT token, count() AS n FROM richlist WHERE snapshot_height = (SELECT max(snapshot_height) FROM richlist)
       GROUP BY token ORDER BY n DESC, token LIMIT 1`,
    );
    const classes = await s.store.rows<{ k: number }>(
      `SELECT DISTINCT length(toString(amount)) AS k FROM richlist
       WHERE token = {t:String} AND snapshot_height = (SELECT max(snapshot_height) FROM richlist)`,
      { t: top[0]!.token },
    );

    const charts = await page.evaluate(() => {
      const d = (
        globalThis as unknown as { dashboard: { charts: Record<string, { data: unknown[][]; width: number }> } }
      ).dashboard;
      const out: Record<string, { points: number; series: number; width: number }> = {};
      for (const [k, c] of Object.entries(d.charts))
        out[k] = { points: c.data[0]!.length, series: c.data.length - 1, width: c.width };
      return out;
    });
    expect(Object.keys(charts).sort()).toEqual(['accounts', 'histogram', 'msgs', 'txs']);
    const want: ChartInfo = {
      txs: { points: minutes, series: 2, width: charts.txs!.width },
      accounts: { points: minutes, series: 2, width: charts.accounts!.width },
      msgs: { points: Math.min(12, msgTypes.length), series: 1, width: charts.msgs!.width },
      histogram: { points: classes.length, series: 1, width: charts.histogram!.width },
    };
    expect(charts).toEqual(want);
    for (const c of Object.values(charts)) expect(c.width).toBeGreaterThan(200);
    // Each chart's canvas is in the page and has a size.
    expect(await page.locator('.chart canvas').count()).toBe(4);

    // Tables: the recent blocks and txs, the message mix, and the router's transfer statistics.
    expect(await page.locator('#blocks tr').count()).toBe(11);
    expect(await page.locator('#txs tr').count()).toBe(11);
    expect(await page.locator('#msgs tr').count()).toBe(Math.min(12, msgTypes.length) + 1);
    expect(await page.locator('#transfers-panel').isVisible()).toBe(true);
    expect(await page.locator('#transfers tr').count()).toBe(2);
    const progress = await page.locator('#progress').textContent();
    expect(progress).toContain(`indexed ${s.sample.manifest.latestHeight} / chain ${s.sample.manifest.latestHeight}`);
    expect(await page.locator('#concentration').textContent()).toMatch(
      new RegExp(`^${Number(top[0]!.n)} holders at height \\d+ · top 1`),
    );

    mkdirSync('.tmp', { recursive: true });
    await page.screenshot({ path: '.tmp/dashboard-evm.png', fullPage: true });
  });

  it('refreshes itself without errors, everything from our own origin', async () => {
    const before = await page.evaluate(
      () => (globalThis as unknown as { dashboard: { refreshes: number } }).dashboard.refreshes,
    );
    await page.waitForFunction(
      (n) => (globalThis as unknown as { dashboard: { refreshes: number } }).dashboard.refreshes > n,
      before,
      { timeout: 25_000 },
    );
    const charts = await page.evaluate(() =>
      Object.keys((globalThis as unknown as { dashboard: { charts: object } }).dashboard.charts),
    );
    expect(charts).toHaveLength(4); // updated in place, not duplicated
    // it follows the block stream (a refresh per new block is checked over a running ingest: stream-page.test.ts)
    expect(await page.evaluate(() => (globalThis as unknown as { dashboard: { live: boolean } }).dashboard.live)).toBe(
      true,
    );
    expect(await page.textContent('#mode')).toBe('live (new blocks)');
    expect(await page.locator('.chart canvas').count()).toBe(4);
    expect(foreignRequests).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });
});
