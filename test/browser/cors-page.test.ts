// A real browser on another origin reads the indexer (issue 12): Debian's Chromium, headless, driven by
// playwright-core, loads a small page from one loopback port that fetches /indexer/tx/v1/txs from the
// indexer on another port (running on the ingested Move sample chain) and renders the count. Without CORS
// the fetch fails in the page. A screenshot is saved under .tmp/.
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestSampleChain, type IngestedSample } from '../support/sample.js';
import { startIndexer, type Running } from '../indexer/helpers.js';

const CHROMIUM = '/usr/bin/chromium';
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

let s: IngestedSample;
let api: Running;
/** The same indexer with CORS switched off: the control that shows the browser really enforces it. */
let closed: Running;
let page: Server;
let pageBase: string;
let profile: string;
let browser: BrowserContext | undefined;

const html = (
  indexer: string,
) => `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>explorer</title></head>
<body><h1>Transactions</h1><p>count: <span id="count">…</span></p><p id="first"></p>
<script>
fetch(${JSON.stringify(`${indexer}/indexer/tx/v1/txs?pagination.limit=1&pagination.count_total=true&_=1700000000`)})
  .then((r) => r.json())
  .then((d) => {
    document.getElementById('count').textContent = String(Number(d.pagination.total));
    document.getElementById('first').textContent = d.txs[0].txhash;
  })
  .catch((e) => { document.getElementById('count').textContent = 'error: ' + e.message; });
</script></body></html>`;

beforeAll(async () => {
  if (!existsSync(CHROMIUM))
    throw new Error(`${CHROMIUM} is missing: run scripts/install.sh (installs Debian's chromium package)`);
  s = await ingestSampleChain('move');
  api = await startIndexer({
    store: s.store,
    config: {
      CHAIN_ID: s.sample.manifest.chainId,
      VM: 'move',
      BECH32_PREFIX: 'init',
      VERSION: 'dev',
      COMMIT_HASH: 'unknown',
      EVM_INTERNAL_TXS: false,
    },
    chain: { restUrl: s.sample.restUrl },
  });
  closed = await startIndexer({
    store: s.store,
    config: {
      CHAIN_ID: s.sample.manifest.chainId,
      VM: 'move',
      BECH32_PREFIX: 'init',
      VERSION: 'dev',
      COMMIT_HASH: 'unknown',
      EVM_INTERNAL_TXS: false,
    },
    cors: { enabled: false, origins: [], methods: [], headers: [], maxAge: 0 },
  });
  page = createServer((req, res) => {
    if (req.url === '/' || req.url === '/index.html') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html(api.base));
    } else if (req.url === '/no-cors') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html(closed.base));
    } else res.writeHead(404).end();
  });
  await new Promise<void>((r) => page.listen(0, '127.0.0.1', r));
  pageBase = `http://127.0.0.1:${(page.address() as AddressInfo).port}`;
  profile = mkdtempSync(path.join(os.tmpdir(), 'chromium-profile-'));
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await new Promise<void>((r) => (page ? page.close(() => r()) : r()));
  await api?.close();
  await closed?.close();
  await s?.cleanup();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

describe('headless Chromium on another origin', () => {
  it('renders the tx count fetched cross-origin, with no console error', async () => {
    expect(new URL(pageBase).port).not.toBe(new URL(api.base).port); // two origins
    browser = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: FLAGS,
    });
    const tab = await browser.newPage();
    const problems: string[] = [];
    tab.on('console', (m) => {
      if (m.type() === 'error') problems.push(m.text());
    });
    tab.on('pageerror', (e) => problems.push(e.message));
    tab.on('requestfailed', (r) => problems.push(`${r.url()}: ${r.failure()?.errorText}`));
    await tab.goto(`${pageBase}/`);
    const expected = String(s.sample.manifest.txs.length);
    await tab.waitForFunction("document.getElementById('count').textContent !== '…'", undefined, {
      timeout: 20_000,
    });
    expect(await tab.textContent('#count')).toBe(expected);
    expect(await tab.textContent('#first')).toMatch(/^[0-9A-F]{64}$/);
    mkdirSync('.tmp', { recursive: true });
    await tab.screenshot({ path: '.tmp/browser-cors.png' });
    expect(problems).toEqual([]);
  });

  it('control: the same page against an indexer with CORS off cannot read the answer', async () => {
    const tab = await browser!.newPage();
    await tab.goto(`${pageBase}/no-cors`);
    await tab.waitForFunction("document.getElementById('count').textContent !== '…'", undefined, {
      timeout: 20_000,
    });
    expect(await tab.textContent('#count')).toMatch(/^error: /);
  });
});
