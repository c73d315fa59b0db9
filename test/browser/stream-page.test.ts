// A real browser on another origin follows the indexer's tx stream (issue 30): Debian's Chromium, headless, driven by
// playwright-core, loads a page from one loopback port that opens an EventSource on the indexer of the running main
// job (scripts/main.ts, default CORS) on another port, from the chain's start, while the recorded EVM sample chain
// is still being ingested from a slowed node, and renders each tx it receives. When the ingest is done, what the page
// rendered must equal the REST list of the same range, in order. A screenshot is saved under .tmp/.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { encodeCursor } from '../../api/indexer/read/page.js';
import { startSampleChain } from '../../devnet/sample-chains/serve.js';
import { CHROMIUM, CHROMIUM_FLAGS, requireChromium } from '../support/browser.js';
import { freePort, type MainJob, restAscending, smallBatches, startMainJob } from '../support/main-job.js';
import type { SampleChain } from '../support/sample.js';

let tmp: string | undefined;
let sample: SampleChain | undefined;
let job: MainJob | undefined;
let page: Server | undefined;
let browser: BrowserContext | undefined;

const html = (streamUrl: string) => `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,">
<title>live txs</title></head>
<body><h1>Live transactions</h1><p>received: <span id="count">0</span> <span id="state">connecting</span></p>
<ol id="txs"></ol>
<script>
const list = document.getElementById('txs');
const source = new EventSource(${JSON.stringify(streamUrl)});
source.onopen = () => { document.getElementById('state').textContent = 'open'; };
source.addEventListener('tx', (e) => {
  const tx = JSON.parse(e.data);
  const li = document.createElement('li');
  li.textContent = tx.height + ' ' + tx.txhash;
  li.dataset.id = e.lastEventId;
  list.appendChild(li);
  document.getElementById('count').textContent = String(list.children.length);
});
source.onerror = () => { document.getElementById('state').textContent = 'error ' + source.readyState; };
</script></body></html>`;

afterAll(async () => {
  await browser?.close();
  await new Promise<void>((r) => (page ? page.close(() => r()) : r()));
  await job?.kill('SIGTERM');
  await sample?.stop();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe('EventSource in a real browser on another origin', () => {
  it('renders the txs of the stream as they are indexed; they equal the REST list', async () => {
    requireChromium();
    tmp = mkdtempSync(path.join(os.tmpdir(), 'browser-stream-'));
    sample = await startSampleChain('evm');
    sample.server.faults.latencyMs = 25; // the ingest takes seconds: the page opens while it runs
    job = startMainJob(sample, path.join(tmp, 'data'), await freePort(), smallBatches(sample));
    await job.up();
    const streamUrl = `${job.base}/indexer/stream/v1/txs?pagination.key=${encodeURIComponent(encodeCursor({ kind: 'sequence', sequence: 0 }))}`;
    page = createServer((req, res) => {
      if (req.url === '/') res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html(streamUrl));
      else res.writeHead(404).end();
    });
    await new Promise<void>((r) => page!.listen(0, '127.0.0.1', r));
    const pageBase = `http://127.0.0.1:${(page.address() as AddressInfo).port}`;
    browser = await chromium.launchPersistentContext(path.join(tmp, 'chromium-profile'), {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_FLAGS,
    });
    const tab = await browser.newPage();
    // The dashboard of the same job, opened mid-ingest too: it refreshes as new blocks are indexed.
    const dash = await browser.newPage();
    await dash.goto(`${job.base}/dashboard/`);
    // /health, not /status: /status is a 500 until the first block is indexed, as upstream's
    const heightAtOpen = ((await (await fetch(`${job.base}/health`)).json()) as { indexed_height: number })
      .indexed_height;
    await tab.goto(`${pageBase}/`);
    const total = sample.manifest.txs.length;
    await tab.waitForFunction(`document.querySelectorAll('#txs li').length >= ${total}`, undefined, {
      timeout: 60_000,
    });
    await tab.waitForTimeout(300); // nothing more may come
    const rendered = await tab.$$eval('#txs li', (lis) => lis.map((li) => li.textContent ?? ''));
    mkdirSync('.tmp', { recursive: true });
    await tab.screenshot({ path: '.tmp/browser-stream.png', fullPage: true });

    expect(heightAtOpen).toBeLessThan(sample.manifest.latestHeight); // opened mid-ingest
    const rest = await restAscending<{ height: string; txhash: string }>(job.base, '/indexer/tx/v1/txs', 'txs');
    expect(rest.length).toBe(total);
    expect(rendered).toEqual(rest.map((t) => `${t.height} ${t.txhash}`));
    expect(await tab.textContent('#state')).toBe('open');

    type Dash = { dashboard: { refreshes: number; blocks: number; live: boolean } };
    const d = await dash.evaluate(() => (globalThis as unknown as Dash).dashboard);
    expect(d.live).toBe(true);
    expect(d.blocks).toBeGreaterThan(0);
    expect(d.refreshes).toBeGreaterThan(1); // more than the first load, well within the 10 s period
    // its recent blocks table ends at the indexed tip
    await dash.waitForFunction(
      `document.querySelector('#blocks tr:nth-child(2) td')?.textContent === '${sample.manifest.latestHeight}'`,
      undefined,
      { timeout: 10_000 },
    );
  }, 240_000);
});
