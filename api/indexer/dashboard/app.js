// Dashboard: reads the indexer's own JSON API (same origin) and draws with uPlot. Live: it follows the block stream
// (/indexer/stream/v1/blocks, docs/streams.md) and refreshes when a new block is indexed, at most once a second, and
// at least every REFRESH_S seconds (the chain head and the ETA move without new indexed blocks).
// window.dashboard exposes the charts, the refresh count and the stream's state (the browser tests read them).
/* global uPlot */

const REFRESH_S = 10;
const LIVE_MIN_GAP_MS = 1000;
const dashboard = { charts: {}, refreshes: 0, errors: [], config: null, live: false, blocks: 0 };
window.dashboard = dashboard;

const $ = (id) => document.getElementById(id);
const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
const short = (s, n = 14) => (s.length > 2 * n + 1 ? `${s.slice(0, n)}…${s.slice(-n)}` : s);

async function getJson(path) {
  const res = await fetch(path, { headers: { accept: 'application/json' } });
  const body = await res.json();
  if (!res.ok) throw new Error(`${path}: ${body.message ?? res.status}`);
  return body;
}

function table(el, head, rows) {
  el.innerHTML =
    `<tr>${head.map((h) => `<th>${esc(h)}</th>`).join('')}</tr>` +
    rows.map((r) => `<tr>${r.map((c) => `<td title="${esc(c)}">${esc(c)}</td>`).join('')}</tr>`).join('');
}

/** Create or update a uPlot chart in `el`. */
function draw(name, el, opts, data) {
  const width = Math.max(300, el.clientWidth || 520);
  const existing = dashboard.charts[name];
  if (existing) {
    existing.setData(data);
    return existing;
  }
  const chart = new uPlot({ width, height: 220, ...opts }, data, el);
  dashboard.charts[name] = chart;
  return chart;
}

const bars = () => uPlot.paths.bars({ size: [0.7, 60] });

/** Bucket size for the indexed span: at most 2,000 buckets, as fine as that allows. */
function pickInterval(first, last) {
  const span = last - first;
  if (span <= 24 * 3600) return ['1m', 60];
  if (span <= 60 * 86400) return ['1h', 3600];
  return ['1d', 86400];
}

async function refreshProgress() {
  const p = await getJson('/indexer/stats/v1/progress');
  const head = p.chain_height ?? p.indexed_height;
  const pct = head > 0 ? Math.min(100, (100 * p.indexed_height) / head) : 0;
  $('progress-bar').style.width = `${pct.toFixed(1)}%`;
  const rate = p.blocks_per_second === null ? '–' : p.blocks_per_second.toFixed(1);
  const eta =
    p.eta_seconds === null ? '–' : p.eta_seconds === 0 ? 'caught up' : `${Math.round(p.eta_seconds)} s to the head`;
  $('progress').textContent =
    `indexed ${p.indexed_height} / chain ${p.chain_height ?? 'unknown'} (${pct.toFixed(1)}%) · ${rate} blocks/s · ETA ${eta}`;
  return p;
}

async function refreshActivity(p) {
  if (!p.first_block_time || !p.last_block_time) return;
  const first = Math.floor(Date.parse(p.first_block_time) / 1000);
  const last = Math.floor(Date.parse(p.last_block_time) / 1000);
  const [interval, step] = pickInterval(first, last);
  const to = Math.floor(last / step) * step + step;
  const from = Math.max(Math.floor(first / step) * step, to - 2000 * step);
  for (const el of document.querySelectorAll('.interval')) el.textContent = interval;
  const a = await getJson(`/indexer/stats/v1/activity?interval=${interval}&from=${from}&to=${to}`);
  const xs = a.buckets.map((b) => Date.parse(b.time) / 1000);
  draw(
    'txs',
    $('chart-txs'),
    {
      series: [{}, { label: 'txs', stroke: '#3b82f6', fill: '#3b82f622' }, { label: 'failed', stroke: '#ef4444' }],
    },
    [xs, a.buckets.map((b) => b.txs), a.buckets.map((b) => b.failed_txs)],
  );
  draw(
    'accounts',
    $('chart-accounts'),
    {
      series: [{}, { label: 'active accounts', stroke: '#10b981' }, { label: 'new accounts', stroke: '#f59e0b' }],
    },
    [xs, a.buckets.map((b) => b.active_accounts), a.buckets.map((b) => b.new_accounts)],
  );
  const m = await getJson(`/indexer/stats/v1/msg_types?from=${from}&to=${to}`);
  const top = m.msg_types.slice(0, 12);
  draw(
    'msgs',
    $('chart-msgs'),
    {
      scales: { x: { time: false } },
      axes: [{ values: (_u, ticks) => ticks.map((t) => (Number.isInteger(t) ? `#${t + 1}` : '')) }, {}],
      series: [
        { label: 'type' },
        { label: 'txs', fill: '#8b5cf6aa', stroke: '#8b5cf6', paths: bars(), points: { show: false } },
      ],
    },
    [top.map((_x, i) => i), top.map((x) => x.txs)],
  );
  table(
    $('msgs'),
    ['#', 'message type', 'txs', 'share'],
    top.map((x, i) => [i + 1, x.msg_type, x.txs, `${(100 * x.share).toFixed(1)}%`]),
  );
}

async function refreshRichList() {
  if (!dashboard.config.richlist) {
    $('concentration').textContent =
      `The rich list is offered on EVM rollups only (this is a ${dashboard.config.vm} rollup).`;
    return;
  }
  const tokens = await getJson('/indexer/stats/v1/tokens?limit=1');
  const token = new URLSearchParams(location.search).get('denom') ?? tokens.tokens[0]?.token;
  if (!token) {
    $('concentration').textContent = 'No rich-list snapshot yet.';
    return;
  }
  const d = await getJson(`/indexer/stats/v1/tokens/${encodeURIComponent(token)}/distribution`);
  $('token').textContent = short(d.token, 8);
  const pc = (x) => `${(100 * x).toFixed(1)}%`;
  $('concentration').textContent =
    `${d.holders} holders at height ${d.snapshot_height} · top 1 ${pc(d.top1_share)} · top 10 ${pc(d.top10_share)} · top 100 ${pc(d.top100_share)} · Gini ${d.gini.toFixed(3)}`;
  draw(
    'histogram',
    $('chart-histogram'),
    {
      scales: { x: { time: false } },
      axes: [{ values: (_u, ticks) => ticks.map((t) => (Number.isInteger(t) ? `1e${t}` : '')) }, {}],
      series: [
        { label: 'balance ≥' },
        { label: 'holders', fill: '#0ea5e9aa', stroke: '#0ea5e9', paths: bars(), points: { show: false } },
      ],
    },
    [d.histogram.map((h) => h.min.length - 1), d.histogram.map((h) => h.holders)],
  );
}

async function refreshRecent() {
  const [b, t] = await Promise.all([
    getJson('/indexer/block/v1/blocks?pagination.limit=10&pagination.count_total=false'),
    getJson('/indexer/tx/v1/txs?pagination.limit=10&pagination.count_total=false'),
  ]);
  table(
    $('blocks'),
    ['height', 'time', 'txs', 'gas used'],
    b.blocks.map((x) => [x.height, x.timestamp, x.tx_count, x.gas_used]),
  );
  table(
    $('txs'),
    ['height', 'hash', 'code', 'message types'],
    t.txs.map((x) => [
      x.height,
      short(x.txhash, 8),
      x.code,
      (x.tx?.body?.messages ?? []).map((m) => String(m['@type']).split('.').pop()).join(', '),
    ]),
  );
}

async function refreshTransfers() {
  if (!dashboard.config.router) return;
  const s = await getJson('/dashboard/transfers');
  $('transfers-panel').hidden = false;
  table(
    $('transfers'),
    ['bridge', 'transfers', 'completed', 'failed', 'timed out', 'p50 s', 'p95 s', 'max s'],
    s.by_bridge.map((x) => [
      x.bridge,
      x.transfers,
      x.completed,
      x.failed,
      x.timed_out,
      x.completion_seconds.p50 ?? '–',
      x.completion_seconds.p95 ?? '–',
      x.completion_seconds.max ?? '–',
    ]),
  );
}

async function refresh() {
  try {
    dashboard.config ??= await getJson('/dashboard/config.json');
    const p = await refreshProgress();
    $('chain').textContent = dashboard.config.vm ? `(${dashboard.config.vm})` : '';
    await Promise.all([refreshActivity(p), refreshRichList(), refreshRecent(), refreshTransfers()]);
    $('updated').textContent = `updated ${new Date().toLocaleTimeString()}`;
    $('updated').className = '';
  } catch (e) {
    dashboard.errors.push(String(e));
    $('updated').textContent = `refresh failed: ${e.message}`;
    $('updated').className = 'error';
  }
  dashboard.refreshes++;
}

let running = null;
let queued = false;
let last = 0;
let timer = null;
/** One refresh at a time; a request during one runs once after it, no sooner than LIVE_MIN_GAP_MS after the last. */
function schedule() {
  if (running) {
    queued = true;
    return;
  }
  clearTimeout(timer);
  const wait = Math.max(0, last + LIVE_MIN_GAP_MS - Date.now());
  timer = setTimeout(() => {
    last = Date.now();
    running = refresh().finally(() => {
      running = null;
      clearTimeout(timer);
      if (queued) {
        queued = false;
        schedule();
      } else timer = setTimeout(schedule, REFRESH_S * 1000);
    });
  }, wait);
}

function follow() {
  // New blocks only (no resume point): each one says the indexed tip moved.
  const blocks = new EventSource('/indexer/stream/v1/blocks');
  blocks.onopen = () => {
    dashboard.live = true;
    $('mode').textContent = 'live (new blocks)';
  };
  blocks.addEventListener('block', () => {
    dashboard.blocks++;
    schedule();
  });
  blocks.onerror = () => {
    dashboard.live = false; // EventSource reconnects by itself; the periodic refresh goes on meanwhile
    $('mode').textContent = `refreshes every ${REFRESH_S} s`;
  };
}

$('mode').textContent = `refreshes every ${REFRESH_S} s`;
schedule();
follow();
