// The dashboard on a non-EVM rollup (the recorded Move sample chain) in Debian's headless Chromium: the three
// activity charts with the points the raw facts imply, the rich-list panel explains why it is empty (no request
// for it, so no 404 in the console), no router configured (no transfers panel), and no console error.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startIndexer, type Running } from '../api/indexer/helpers.js';
import { ingestSampleChain, type IngestedSample } from '../support/sample.js';
import { CHROMIUM, CHROMIUM_FLAGS, requireChromium } from '../support/browser.js';
import { indexerConfig } from '../support/indexer-config.js';

let s: IngestedSample;
let api: Running;
let tmp: string;
let browser: BrowserContext | undefined;

beforeAll(async () => {
  requireChromium();
  s = await ingestSampleChain('move');
  api = await startIndexer({
    store: s.store,
    config: indexerConfig('move', s.sample.manifest.chainId),
    chain: { restUrl: s.sample.restUrl },
  });
  tmp = mkdtempSync(path.join(os.tmpdir(), 'browser-dashboard-move-'));
  browser = await chromium.launchPersistentContext(path.join(tmp, 'chromium-profile'), {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_FLAGS,
    viewport: { width: 1280, height: 1200 },
  });
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await api?.close();
  await s?.cleanup();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

it('draws the activity charts of a Move rollup without errors', async () => {
  const page = browser!.pages()[0] ?? (await browser!.newPage());
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  await page.goto(`${api.base}/dashboard/`, { waitUntil: 'load' });
  await page.waitForFunction(
    () => ((globalThis as unknown as { dashboard?: { refreshes: number } }).dashboard?.refreshes ?? 0) >= 1,
    undefined,
    { timeout: 30_000 },
  );
  const [span] = await s.store.rows<{ first: number; last: number }>(
    'SELECT toUInt32(min(time)) AS first, toUInt32(max(time)) AS last FROM blocks',
  );
  const minutes = Math.floor(span!.last / 60) - Math.floor(span!.first / 60) + 1;
  const [types] = await s.store.rows<{ n: string }>('SELECT uniqExact(arrayJoin(msg_types)) AS n FROM txs');
  const charts = await page.evaluate(() => {
    const d = (
      globalThis as unknown as { dashboard: { charts: Record<string, { data: unknown[][] }>; errors: string[] } }
    ).dashboard;
    return {
      errors: d.errors,
      points: Object.fromEntries(Object.entries(d.charts).map(([k, c]) => [k, c.data[0]!.length])),
    };
  });
  expect(charts).toEqual({
    errors: [],
    points: { txs: minutes, accounts: minutes, msgs: Math.min(12, Number(types!.n)) },
  });
  expect(await page.locator('#concentration').textContent()).toMatch(/EVM rollups only \(this is a move rollup\)/);
  expect(await page.locator('#transfers-panel').isVisible()).toBe(false);
  mkdirSync('.tmp', { recursive: true });
  await page.screenshot({ path: '.tmp/dashboard-move.png', fullPage: true });
  expect(errors).toEqual([]);
});
