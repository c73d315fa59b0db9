// A real browser on another origin reads the indexer (issue 12): Debian's Chromium, headless, driven by
// playwright-core, loads a small page from one loopback port that fetches /indexer/tx/v1/txs from the
// indexer of the running main job (scripts/main.ts, ingesting the Move sample chain, default configuration,
// so default CORS) on another port, and renders the count. A control page points at an indexer with CORS
// switched off and must fail to read it. A screenshot is saved under .tmp/.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStore, type Store } from '../../clickhouse/client.js';
import { migrate } from '../../clickhouse/migrate.js';
import { startIndexer, type Running } from '../api/indexer/helpers.js';
import { CHROMIUM, CHROMIUM_FLAGS, requireChromium } from '../support/browser.js';
import { indexerConfig } from '../support/indexer-config.js';

let tmp: string;
let main: ChildProcess | undefined;
let mainOut = '';
let indexerBase: string;
let emptyStore: Store;
/** An indexer with CORS switched off (over an empty store): the control that shows the browser enforces it. */
let closed: Running;
let page: Server;
let pageBase: string;
let browser: BrowserContext | undefined;

const html = (indexer: string) => `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,">
<title>explorer</title></head>
<body><h1>Transactions</h1><p>count: <span id="count">…</span></p><p id="first"></p>
<script>
fetch(${JSON.stringify(`${indexer}/indexer/tx/v1/txs?pagination.limit=1&pagination.count_total=true&_=1700000000`)})
  .then((r) => r.json())
  .then((d) => {
    document.getElementById('count').textContent = String(Number(d.pagination.total));
    document.getElementById('first').textContent = d.txs.length ? d.txs[0].txhash : '-';
  })
  .catch((e) => { document.getElementById('count').textContent = 'error: ' + e.message; });
</script></body></html>`;

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

/** Poll the main job until its indexer answers and the indexed height has stopped moving (sample chain ingested). */
async function waitForIngest(base: string): Promise<void> {
  let last = -1;
  for (let i = 0; i < 240; i++) {
    if (main?.exitCode !== null && main?.exitCode !== undefined)
      throw new Error(`main job exited (${main.exitCode}):\n${mainOut.slice(-2000)}`);
    const h = await fetch(`${base}/health`)
      .then((r) => r.json() as Promise<{ indexed_height?: number }>)
      .then((b) => b.indexed_height ?? 0)
      .catch(() => -1);
    if (h > 0 && h === last) return;
    last = h;
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error(`main job did not finish ingesting in time:\n${mainOut.slice(-2000)}`);
}

beforeAll(async () => {
  requireChromium();
  tmp = mkdtempSync(path.join(os.tmpdir(), 'browser-cors-'));
  const port = await freePort();
  indexerBase = `http://127.0.0.1:${port}`;
  main = spawn(process.execPath, ['--import', 'tsx', 'scripts/main.ts'], {
    env: {
      ...process.env,
      DATA_DIR: path.join(tmp, 'data'),
      SAMPLE_CHAIN: 'move',
      INDEXER_PORT: String(port),
      HTTP_HOST: '127.0.0.1',
      ROUTER_ENABLED: 'false',
      TRACKING_ENABLED: 'false',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  main.stdout?.on('data', (d: Buffer) => (mainOut += d.toString()));
  main.stderr?.on('data', (d: Buffer) => (mainOut += d.toString()));
  await waitForIngest(indexerBase);

  emptyStore = createStore({ dataDir: path.join(tmp, 'empty') });
  await migrate(emptyStore);
  closed = await startIndexer({
    store: emptyStore,
    config: indexerConfig('move', 'closed-1'),
    cors: { enabled: false, origins: [], methods: [], headers: [], maxAge: 0 },
  });
  page = createServer((req, res) => {
    if (req.url === '/') res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html(indexerBase));
    else if (req.url === '/no-cors')
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html(closed.base));
    else res.writeHead(404).end();
  });
  await new Promise<void>((r) => page.listen(0, '127.0.0.1', r));
  pageBase = `http://127.0.0.1:${(page.address() as AddressInfo).port}`;
  browser = await chromium.launchPersistentContext(path.join(tmp, 'chromium-profile'), {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_FLAGS,
  });
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await new Promise<void>((r) => (page ? page.close(() => r()) : r()));
  await closed?.close();
  await emptyStore?.close();
  if (main && main.exitCode === null) {
    const exited = new Promise((r) => main!.once('exit', r));
    main.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 8000))]);
    if (main.exitCode === null) main.kill('SIGKILL');
  }
  if (tmp) rmSync(tmp, { recursive: true, force: true });
}, 30_000);

describe('headless Chromium on another origin', () => {
  it('renders the tx count fetched cross-origin from the main job, with no console error', async () => {
    expect(new URL(pageBase).port).not.toBe(new URL(indexerBase).port); // two origins
    const direct = (await (await fetch(`${indexerBase}/indexer/tx/v1/txs?pagination.limit=1`)).json()) as {
      pagination: { total: string };
      txs: { txhash: string }[];
    };
    expect(Number(direct.pagination.total)).toBeGreaterThan(0);
    const tab = await browser!.newPage();
    const problems: string[] = [];
    tab.on('console', (m) => {
      if (m.type() === 'error') problems.push(m.text());
    });
    tab.on('pageerror', (e) => problems.push(e.message));
    tab.on('requestfailed', (r) => problems.push(`${r.url()}: ${r.failure()?.errorText}`));
    await tab.goto(`${pageBase}/`);
    await tab.waitForFunction("document.getElementById('count').textContent !== '…'", undefined, {
      timeout: 20_000,
    });
    expect(await tab.textContent('#count')).toBe(direct.pagination.total);
    expect(await tab.textContent('#first')).toBe(direct.txs[0]!.txhash);
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
