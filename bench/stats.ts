// Analytics benchmark (issue 15) over the synthetic 10 M-tx / 1 M-holder set of bench/indexer-data.ts:
//  - p50/p99 at 1 connection of every /indexer/stats/v1 endpoint for a 30-day window at 1 h buckets and a
//    1-year window at 1 d buckets (windows end at the set's last block), and the 1 M-holder distribution;
//  - the same questions answered the way a client of the upstream API must: paging the row endpoints
//    (txs, rich list) 1,000 rows at a time. A sample of pages is timed and the full walk extrapolated from
//    the rows the window holds (walking 10 M txs for real would take hours); the ratio is reported.
// Usage: npx tsx bench/stats.ts [dataDir] [--seconds N]   → table on stdout, JSON in bench/results/stats.json
// (BENCH_SMALL=1 shrinks the set 100× for a smoke run.)
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
// @ts-expect-error -- autocannon ships no types; the slice we use is typed below
import autocannonUntyped from 'autocannon';
import { BENCH, BLOCKS, benchCollection, defaultBenchDir } from './indexer-data.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const secIdx = args.indexOf('--seconds');
const seconds = secIdx >= 0 ? Number(args[secIdx + 1]) : 5;
const samplePages = Number(process.env.BENCH_SAMPLE_PAGES ?? 20);
const dataDir = args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--seconds') ?? defaultBenchDir();

const T0 = 1735689600; // first block of the set (bench/indexer-data.ts), one block every 500 ms
const END = T0 + Math.ceil(BLOCKS / 2) + 1;
const DAY = 86_400;
const windows = {
  '30d@1h': { interval: '1h', from: END - 30 * DAY, to: END },
  '1y@1d': { interval: '1d', from: END - 365 * DAY, to: END },
} as const;
const S = '/indexer/stats/v1';

interface CannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; max: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}
const autocannon = autocannonUntyped as (opts: Record<string, unknown>) => Promise<CannonResult>;

const scenarios: [string, string][] = [];
for (const [w, { interval, from, to }] of Object.entries(windows)) {
  const win = `from=${from}&to=${to}`;
  scenarios.push(
    [`activity ${w}`, `${S}/activity?interval=${interval}&${win}`],
    [`activity msgs=MsgSend ${w}`, `${S}/activity?interval=${interval}&${win}&msgs=cosmos.bank.v1beta1.MsgSend`],
    [`msg_types ${w}`, `${S}/msg_types?${win}`],
    [`top_accounts ${w}`, `${S}/top_accounts?${win}&limit=100`],
    [`top_contracts ${w}`, `${S}/top_contracts?${win}&limit=100`],
    [`nft collection ${w}`, `${S}/nft/${benchCollection(0)}?interval=${interval}&${win}`],
  );
}
scenarios.push(
  [`distribution (${BENCH.holders} holders)`, `${S}/tokens/${BENCH.richToken}/distribution`],
  ['tokens', `${S}/tokens`],
  ['progress', `${S}/progress`],
);

const server = spawn(process.execPath, ['--import', 'tsx', path.join(here, 'indexer-server.ts'), dataDir], {
  stdio: ['ignore', 'pipe', 'inherit'],
  // No response cache: every request is answered by the engine.
  env: { ...process.env, LOG_LEVEL: 'warn', BENCH_NO_CACHE: '1' },
});
const base = await new Promise<string>((resolve, reject) => {
  let out = '';
  server.stdout.on('data', (d: Buffer) => {
    out += d.toString();
    const m = /READY (\S+)/.exec(out);
    if (m) resolve(m[1]!);
  });
  server.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
});

/** Time `pages` sequential pages of a row endpoint (1,000 rows each, cursor-following); ms per page. */
async function pageWalk(first: string, key: string, pages: number): Promise<number> {
  let url = first;
  const t = performance.now();
  let n = 0;
  for (; n < pages; n++) {
    const res = await fetch(base + url);
    if (!res.ok) throw new Error(`${url} → ${res.status}`);
    const body = (await res.json()) as { pagination: { next_key: string | null } } & Record<string, unknown[]>;
    if (!Array.isArray(body[key])) throw new Error(`${url}: no ${key}`);
    const next = body.pagination.next_key;
    if (!next) break;
    url = `${first}${first.includes('?') ? '&' : '?'}pagination.key=${encodeURIComponent(next)}`;
  }
  return (performance.now() - t) / Math.max(1, n);
}

try {
  const latency: {
    name: string;
    path: string;
    coldMs: number;
    p50: number;
    p99: number;
    max: number;
    rps: number;
    non2xx: number;
  }[] = [];
  for (const [name, p] of scenarios) {
    const t0 = performance.now();
    const check = await fetch(base + p);
    const coldMs = Math.round(performance.now() - t0);
    if (!check.ok) throw new Error(`${p} → ${check.status} ${await check.text()}`);
    await autocannon({ url: base + p, connections: 1, duration: 1 }); // warm-up
    const r = await autocannon({ url: base + p, connections: 1, duration: seconds });
    latency.push({
      name,
      path: p,
      coldMs,
      p50: r.latency.p50,
      p99: r.latency.p99,
      max: r.latency.max,
      rps: Math.round(r.requests.average),
      non2xx: r.non2xx,
    });
    process.stdout.write(
      `${name.padEnd(44)} p50 ${String(r.latency.p50).padStart(5)} ms  p99 ${String(r.latency.p99).padStart(5)} ms  first ${coldMs} ms  non2xx ${r.non2xx}\n`,
    );
  }

  // The upstream-client way: every tx of the window through /indexer/tx/v1/txs, every holder through the rich list.
  const txsInSet = BENCH.txs; // both windows cover the whole set (≈ 5.8 days of blocks)
  const txPageMs = await pageWalk(
    '/indexer/tx/v1/txs?pagination.limit=1000&pagination.count_total=false',
    'txs',
    samplePages,
  );
  const holderPageMs = await pageWalk(
    `/indexer/richlist/v1/${BENCH.richToken}?pagination.limit=1000&pagination.count_total=false`,
    'holders',
    samplePages,
  );
  const p50 = (name: string) => latency.find((l) => l.name === name)!.p50 || 1;
  const comparisons = [
    ['activity 30d@1h', txPageMs * Math.ceil(txsInSet / 1000)],
    ['activity 1y@1d', txPageMs * Math.ceil(txsInSet / 1000)],
    ['top_accounts 30d@1h', txPageMs * Math.ceil(txsInSet / 1000)],
    [`distribution (${BENCH.holders} holders)`, holderPageMs * Math.ceil(BENCH.holders / 1000)],
  ].map(([name, pagingMs]) => ({
    question: name as string,
    analytics_p50_ms: p50(name as string),
    paging_ms_extrapolated: Math.round(pagingMs as number),
    ratio: Math.round((pagingMs as number) / p50(name as string)),
  }));
  for (const c of comparisons)
    process.stdout.write(
      `${c.question.padEnd(36)} analytics ${c.analytics_p50_ms} ms vs paging ≈ ${c.paging_ms_extrapolated} ms  (×${c.ratio})\n`,
    );
  process.stdout.write(
    `(paging: ${txPageMs.toFixed(1)} ms per 1,000 txs, ${holderPageMs.toFixed(1)} ms per 1,000 holders, from ${samplePages} sampled pages)\n`,
  );
  const machine = {
    cpus: os.cpus().length,
    cpu: os.cpus()[0]?.model,
    memGb: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    load: os.loadavg(),
  };
  mkdirSync(path.join(here, 'results'), { recursive: true });
  writeFileSync(
    path.join(here, 'results', process.env.BENCH_SMALL === '1' ? 'stats-small.json' : 'stats.json'),
    JSON.stringify(
      {
        at: new Date().toISOString(),
        dataDir,
        seconds,
        machine,
        latency,
        paging: { txPageMs, holderPageMs, samplePages },
        comparisons,
      },
      null,
      2,
    ),
  );
} finally {
  server.kill('SIGTERM');
}
