// Differential comparison of two indexer APIs with the same wire format: ours and
// the reference rollytics, both indexing the same chain up to the same height.
//
// A "probe" is one endpoint + key + query variant. Single-object probes compare
// one answer; list probes walk every page (each side following its own
// next_key) and compare page by page. JSON differences are reported with the
// endpoint, the key, the JSON path and both values, except where an entry of
// NORMALISATIONS explains why the two sides legitimately differ (the same list,
// with reasons, is in docs/indexer.md "Differences from rollytics").

export interface Answer {
  status: number;
  /** parsed JSON, or the raw text when the body is not JSON */
  body: unknown;
  json: boolean;
}

export interface Difference {
  endpoint: string;
  key: string;
  url: string;
  path: string;
  ours: unknown;
  theirs: unknown;
}

export interface Probe {
  /** route template, e.g. `/indexer/tx/v1/txs/{tx_hash}` */
  endpoint: string;
  /** the key(s) this probe exercises, for the report */
  key: string;
  /** concrete path (already encoded) */
  path: string;
  query?: Record<string, string>;
  /** list probes: the array field to walk (`txs`, `blocks`, …) */
  items?: string;
  maxPages?: number;
}

/** One allowed difference class. `apply` rewrites copies of both answers before they are compared. */
export interface Normalisation {
  id: string;
  reason: string;
  apply(ctx: { probe: Probe; page: number }, ours: Answer, theirs: Answer): void;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Move and Wasm only, on top of NORMALISATIONS. */
export const NON_EVM_NORMALISATIONS: Normalisation[] = [
  {
    id: 'status-richlist-non-evm',
    reason:
      'The rich list is EVM-only (SPEC), so ours reports no `rich_list_height` on Move and Wasm. Upstream also builds Move and Wasm rich lists and reports their height once its first pass has run, so whether it shows the field depends on timing; it is dropped from its answer.',
    apply({ probe }, _o, t) {
      if (probe.endpoint === '/status' && isObj(t.body)) delete t.body.rich_list_height;
    },
  },
];

export const NORMALISATIONS: Normalisation[] = [
  {
    id: 'status-build',
    reason:
      '`/status` `version` and `commit_hash` name each build; they differ by construction. Every other /status field is compared.',
    apply({ probe }, o, t) {
      if (probe.endpoint !== '/status') return;
      for (const a of [o, t]) if (isObj(a.body)) for (const k of ['version', 'commit_hash']) delete a.body[k];
    },
  },
  {
    id: 'status-maintenance',
    reason:
      'Upstream /status also reports its maintenance jobs (`evm_ret_cleanup_height`, `tx_account_cleanup_*`), which are not in the spec and have no counterpart in ours; they are dropped from its answer.',
    apply({ probe }, _o, t) {
      if (probe.endpoint !== '/status' || !isObj(t.body)) return;
      for (const k of Object.keys(t.body))
        if (k === 'evm_ret_cleanup_height' || k.startsWith('tx_account_cleanup_')) delete t.body[k];
    },
  },
  {
    id: 'status-richlist-delay',
    reason:
      'Upstream processes its rich list RICH_LIST_BLOCK_DELAY = 5 blocks behind its head, so on a still chain its `rich_list_height` is `height - 5`; ours snapshots at the indexed height. Both count as caught up when within 5 blocks of their `height` (the test lets empty blocks pass after the last tx, so the lists themselves cover every balance change and are compared exactly).',
    apply({ probe }, o, t) {
      if (probe.endpoint !== '/status') return;
      for (const a of [o, t]) {
        if (!isObj(a.body) || typeof a.body.rich_list_height !== 'number' || typeof a.body.height !== 'number')
          continue;
        if (a.body.rich_list_height >= a.body.height - 5) a.body.rich_list_height = '<within 5 of height>';
      }
    },
  },
  {
    id: 'error-body',
    reason:
      'Errors: ours answer JSON `{"code": <status>, "message": "…"}` (every response is application/json, SPEC §3); upstream answers plain text. Status codes and message texts are compared exactly.',
    apply(_ctx, o, t) {
      if (o.status < 400 && t.status < 400) return;
      const msg = (a: Answer) =>
        isObj(a.body) && typeof a.body.message === 'string' && a.json ? a.body.message : String(a.body).trim();
      o.body = { message: msg(o) };
      t.body = { message: msg(t) };
    },
  },
  {
    id: 'next-key-opaque',
    reason:
      'Page cursors are opaque: ours are keyset cursors on every list, upstream pages collections, tokens and rich lists by base64 offsets. Each side is walked with its own `next_key`; only whether a next page exists is compared, and `previous_key` (set by upstream on offset pages, null in ours) is not compared.',
    apply({ probe }, o, t) {
      if (!probe.items) return;
      for (const a of [o, t]) {
        const p = isObj(a.body) ? a.body.pagination : undefined;
        if (isObj(p)) {
          p.next_key = p.next_key ? '<next>' : null;
          delete p.previous_key;
        }
      }
    },
  },
  {
    id: 'collections-total-estimate',
    reason:
      'Upstream `/collections` `total` is a Postgres table-size estimate (`-1` on a small fresh table); ours is the exact count. Upstream is compared only when it is not `-1`.',
    apply({ probe }, o, t) {
      if (probe.endpoint !== '/indexer/nft/v1/collections') return;
      const tp = isObj(t.body) ? t.body.pagination : undefined;
      const op = isObj(o.body) ? o.body.pagination : undefined;
      if (isObj(tp) && isObj(op) && tp.total === '-1') tp.total = op.total;
    },
  },
];

/** Structural JSON diff: every path where the two values differ. Object key order is ignored. */
export function jsonDiff(
  a: unknown,
  b: unknown,
  path = '$',
  out: { path: string; ours: unknown; theirs: unknown }[] = [],
) {
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) out.push({ path: `${path}.length`, ours: a.length, theirs: b.length });
    for (let i = 0; i < Math.min(a.length, b.length); i++) jsonDiff(a[i], b[i], `${path}[${i}]`, out);
  } else if (isObj(a) && isObj(b)) {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
      if (!(k in a)) out.push({ path: `${path}.${k}`, ours: '<absent>', theirs: b[k] });
      else if (!(k in b)) out.push({ path: `${path}.${k}`, ours: a[k], theirs: '<absent>' });
      else jsonDiff(a[k], b[k], `${path}.${k}`, out);
    }
  } else if (a !== b) {
    out.push({ path, ours: a, theirs: b });
  }
  return out;
}

const clone = <T>(v: T): T => (v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T));

export async function fetchAnswer(base: string, path: string, query: Record<string, string> = {}): Promise<Answer> {
  const qs = new URLSearchParams(query).toString();
  const res = await fetch(`${base}${path}${qs ? `?${qs}` : ''}`, { signal: AbortSignal.timeout(30_000) });
  const text = await res.text();
  try {
    return { status: res.status, body: JSON.parse(text), json: true };
  } catch {
    return { status: res.status, body: text, json: false };
  }
}

export interface Sides {
  ours: string;
  theirs: string;
}

export interface CompareStats {
  probes: number;
  requests: number;
}

function urlOf(probe: Probe, extra: Record<string, string> = {}): string {
  const qs = new URLSearchParams({ ...probe.query, ...extra }).toString();
  return `${probe.path}${qs ? `?${qs}` : ''}`;
}

function compareOne(
  probe: Probe,
  page: number,
  url: string,
  o: Answer,
  t: Answer,
  norms: Normalisation[],
  out: Difference[],
): void {
  const oc = clone(o);
  const tc = clone(t);
  for (const n of norms) n.apply({ probe, page }, oc, tc);
  const base = { endpoint: probe.endpoint, key: probe.key, url };
  if (oc.status !== tc.status) out.push({ ...base, path: '<http status>', ours: oc.status, theirs: tc.status });
  for (const d of jsonDiff(oc.body, tc.body)) out.push({ ...base, ...d });
}

/** Runs one probe on both sides; list probes are walked to the end on each side. */
export async function runProbe(
  sides: Sides,
  probe: Probe,
  norms: Normalisation[] = NORMALISATIONS,
  stats?: CompareStats,
): Promise<Difference[]> {
  const out: Difference[] = [];
  if (stats) stats.probes++;
  if (!probe.items) {
    const [o, t] = await Promise.all([
      fetchAnswer(sides.ours, probe.path, probe.query),
      fetchAnswer(sides.theirs, probe.path, probe.query),
    ]);
    if (stats) stats.requests += 2;
    compareOne(probe, 0, urlOf(probe), o, t, norms, out);
    return out;
  }
  const walk = async (base: string) => {
    const pages: { url: string; answer: Answer }[] = [];
    let key: string | undefined;
    for (let i = 0; i < (probe.maxPages ?? 100); i++) {
      const extra: Record<string, string> = key ? { 'pagination.key': key } : {};
      const answer = await fetchAnswer(base, probe.path, { ...probe.query, ...extra });
      pages.push({ url: urlOf(probe, extra), answer });
      const p = isObj(answer.body) ? answer.body.pagination : undefined;
      const next = isObj(p) && typeof p.next_key === 'string' && p.next_key ? p.next_key : undefined;
      if (answer.status !== 200 || !next) break;
      key = next;
    }
    return pages;
  };
  const [ours, theirs] = await Promise.all([walk(sides.ours), walk(sides.theirs)]);
  if (stats) stats.requests += ours.length + theirs.length;
  // Upstream's cursor lists set next_key on their last page too (and its offset lists on a last full page);
  // the walk then ends on an empty page. Ours looks one row ahead. Fold that trailing empty page away.
  const itemsOf = (a: Answer) =>
    (isObj(a.body) && Array.isArray(a.body[probe.items as string]) ? a.body[probe.items as string] : undefined) as
      | unknown[]
      | undefined;
  const last = theirs.at(-1);
  // MSGS_CURSOR_500_RULE: upstream's following page of a `msgs`-filtered list fails with 500; ours has none to ask.
  const upstream500 = last?.answer.status === 500 && probe.query?.msgs !== undefined;
  if (
    theirs.length > 1 &&
    last &&
    ((last.answer.status === 200 && itemsOf(last.answer)?.length === 0) || upstream500)
  ) {
    theirs.pop();
    const prev = theirs.at(-1)?.answer.body;
    if (isObj(prev) && isObj(prev.pagination)) prev.pagination.next_key = null;
  }
  if (probe.items === 'holders') {
    compareRichListWalk(probe, ours, theirs, norms, out);
    return out;
  }
  if (probe.items === 'collections') {
    compareCollectionWalk(probe, ours, theirs, norms, out);
    return out;
  }
  if (ours.length !== theirs.length) {
    const lastOf = (ps: { answer: Answer }[]) => {
      const a = ps.at(-1)?.answer;
      return a ? `${ps.length} page(s), last: ${a.status} ${JSON.stringify(a.body).slice(0, 200)}` : '0 pages';
    };
    out.push({
      endpoint: probe.endpoint,
      key: probe.key,
      url: urlOf(probe),
      path: '<pages>',
      ours: lastOf(ours),
      theirs: lastOf(theirs),
    });
  }
  for (let i = 0; i < Math.min(ours.length, theirs.length); i++) {
    const o = ours[i];
    const t = theirs[i];
    if (o && t) compareOne(probe, i, `${o.url} | theirs: ${t.url}`, o.answer, t.answer, norms, out);
  }
  return out;
}

export const MSGS_CURSOR_500_RULE = {
  id: 'msgs-cursor-500',
  reason:
    "Upstream's tx lists filtered by `msgs` set `next_key` on their last page like every cursor list, and the request for the following page (`msgs` + a sequence key) fails with 500 Internal Server Error. Ours answer `next_key: null` there. That trailing 500 page is folded away like the trailing empty page; every page with rows is compared.",
} as const;

export const RICHLIST_WALK_RULE = {
  id: 'richlist-walk',
  reason:
    'Rich lists are compared as whole walks, not page by page: upstream lists ERC20 holders whose balance went back to 0 (its balance rows are never deleted; they shift its pages), and it breaks ties between equal amounts in no defined order. Its zero rows are dropped (and its total reduced by their number), both walks must be ordered by amount in the requested direction, and holders with equal amounts are compared as sets.',
} as const;

function compareRichListWalk(
  probe: Probe,
  ours: { url: string; answer: Answer }[],
  theirs: { url: string; answer: Answer }[],
  norms: Normalisation[],
  out: Difference[],
): void {
  const base = { endpoint: probe.endpoint, key: probe.key, url: urlOf(probe) };
  const first = (ps: { answer: Answer }[]) => ps[0]?.answer;
  const o0 = first(ours);
  const t0 = first(theirs);
  if (!o0 || !t0) return;
  if (o0.status !== 200 || t0.status !== 200) {
    compareOne(probe, 0, base.url, o0, t0, norms, out);
    return;
  }
  type H = { account: string; amount: string };
  const all = (ps: { answer: Answer }[]) =>
    ps.flatMap((p) =>
      isObj(p.answer.body) && Array.isArray(p.answer.body.holders) ? p.answer.body.holders : [],
    ) as H[];
  const oAll = all(ours);
  const tRaw = all(theirs);
  const tAll = tRaw.filter((h) => h.amount !== '0');
  const zeros = tRaw.length - tAll.length;
  const desc = probe.query?.['pagination.reverse'] !== 'false';
  const cmp = (a: H, b: H) => {
    const d = BigInt(a.amount) - BigInt(b.amount);
    return d === 0n ? (a.account < b.account ? -1 : a.account > b.account ? 1 : 0) : d < 0n === desc ? 1 : -1;
  };
  for (const [side, list] of [
    ['ours', oAll],
    ['theirs', tAll],
  ] as const) {
    for (let i = 1; i < list.length; i++) {
      const d = BigInt(list[i]?.amount ?? '0') - BigInt(list[i - 1]?.amount ?? '0');
      if (desc ? d > 0n : d < 0n) {
        out.push({ ...base, path: `<${side} not ordered by amount at ${i}>`, ours: list[i - 1], theirs: list[i] });
        break;
      }
    }
  }
  const totalOf = (a: Answer) => (isObj(a.body) && isObj(a.body.pagination) ? a.body.pagination.total : undefined);
  const tTotal = totalOf(t0);
  const tAdjusted = typeof tTotal === 'string' && tTotal !== '0' ? String(Number(tTotal) - zeros) : tTotal;
  if (totalOf(o0) !== tAdjusted)
    out.push({ ...base, path: '$.pagination.total', ours: totalOf(o0), theirs: tAdjusted });
  for (const d of jsonDiff([...oAll].sort(cmp), [...tAll].sort(cmp), '$.holders(all pages)'))
    out.push({ ...base, ...d });
}

export const COLLECTION_TIE_RULE = {
  id: 'collection-height-ties',
  reason:
    'Collection lists are compared as whole walks: upstream orders them by creation height alone (`ORDER BY nft_collection.height`), so collections created in the same block come in no defined order and change places between its pages. Both walks must be ordered by height in the requested direction, hold the same collections with the same JSON, and report the same total; collections of equal height are compared as sets (ours break the tie by address).',
} as const;

/** COLLECTION_TIE_RULE: whole walks of collection lists, equal heights compared as sets. */
function compareCollectionWalk(
  probe: Probe,
  ours: { url: string; answer: Answer }[],
  theirs: { url: string; answer: Answer }[],
  norms: Normalisation[],
  out: Difference[],
): void {
  const base = { endpoint: probe.endpoint, key: probe.key, url: urlOf(probe) };
  if (!ours[0] || !theirs[0]) return;
  // the answer-level normalisations (e.g. upstream's `-1` total estimate) apply to the first pages
  const o0 = clone(ours[0].answer);
  const t0 = clone(theirs[0].answer);
  for (const n of norms) n.apply({ probe, page: 0 }, o0, t0);
  if (o0.status !== 200 || t0.status !== 200) {
    compareOne(probe, 0, base.url, ours[0].answer, theirs[0].answer, norms, out);
    return;
  }
  type C = { object_addr?: string; height?: number };
  const all = (ps: { answer: Answer }[]) =>
    ps.flatMap((p) =>
      isObj(p.answer.body) && Array.isArray(p.answer.body.collections) ? p.answer.body.collections : [],
    ) as C[];
  const oAll = all(ours);
  const tAll = all(theirs);
  const desc = probe.query?.['pagination.reverse'] !== 'false';
  for (const [side, list] of [
    ['ours', oAll],
    ['theirs', tAll],
  ] as const)
    for (let i = 1; i < list.length; i++) {
      const d = Number(list[i]?.height) - Number(list[i - 1]?.height);
      if (desc ? d > 0 : d < 0) {
        out.push({ ...base, path: `<${side} not ordered by height at ${i}>`, ours: list[i - 1], theirs: list[i] });
        break;
      }
    }
  const cmp = (a: C, b: C) =>
    Number(a.height) !== Number(b.height)
      ? (Number(a.height) - Number(b.height)) * (desc ? -1 : 1)
      : String(a.object_addr) < String(b.object_addr)
        ? -1
        : String(a.object_addr) > String(b.object_addr)
          ? 1
          : 0;
  const totalOf = (a: Answer) => (isObj(a.body) && isObj(a.body.pagination) ? a.body.pagination.total : undefined);
  if (totalOf(o0) !== totalOf(t0))
    out.push({ ...base, path: '$.pagination.total', ours: totalOf(o0), theirs: totalOf(t0) });
  for (const d of jsonDiff([...oAll].sort(cmp), [...tAll].sort(cmp), '$.collections(all pages)'))
    out.push({ ...base, ...d });
}

/**
 * Upstream serves `collections/by_name` from an in-memory list that the first request fills; concurrent requests
 * that arrive while it is being filled read it empty. One request, retried until it lists something (or the
 * timeout), fills it before the concurrent probes. Returns how many collections it listed.
 */
export async function waitForByName(base: string, word: string, timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const a = await fetchAnswer(base, `/indexer/nft/v1/collections/by_name/${word}`);
    const n = (a.body as { collections?: unknown[] })?.collections?.length ?? 0;
    if (n > 0 || Date.now() > deadline) return n;
    await new Promise((r) => setTimeout(r, 1_100)); // past upstream's 1 s response cache and its refresh
  }
}

/** Runs probes with bounded concurrency; returns every difference. */
export async function runProbes(
  sides: Sides,
  probes: Probe[],
  opts: { concurrency?: number; norms?: Normalisation[] } = {},
): Promise<{ differences: Difference[]; stats: CompareStats }> {
  const stats: CompareStats = { probes: 0, requests: 0 };
  const differences: Difference[] = [];
  let next = 0;
  const worker = async () => {
    for (;;) {
      const i = next++;
      const p = probes[i];
      if (!p) return;
      differences.push(...(await runProbe(sides, p, opts.norms ?? NORMALISATIONS, stats)));
    }
  };
  await Promise.all(Array.from({ length: opts.concurrency ?? 4 }, worker));
  return { differences, stats };
}

const show = (v: unknown) => {
  const s = typeof v === 'string' ? JSON.stringify(v) : JSON.stringify(v);
  return s === undefined ? 'undefined' : s.length > 160 ? `${s.slice(0, 157)}...` : s;
};

/** A readable report: grouped by endpoint, the first few differences of each (the full list goes to a file). */
export function formatDifferences(diffs: Difference[], perEndpoint = 6): string {
  const lines: string[] = [`${diffs.length} difference(s) between ours and rollytics:`];
  const byEndpoint = new Map<string, Difference[]>();
  for (const d of diffs) byEndpoint.set(d.endpoint, [...(byEndpoint.get(d.endpoint) ?? []), d]);
  for (const [ep, ds] of byEndpoint) {
    lines.push(`${ep}: ${ds.length}`);
    for (const d of ds.slice(0, perEndpoint))
      lines.push(`  key ${d.key}  ${d.url}\n    ${d.path}: ours ${show(d.ours)} | rollytics ${show(d.theirs)}`);
    if (ds.length > perEndpoint) lines.push(`  … ${ds.length - perEndpoint} more`);
  }
  return lines.join('\n');
}
