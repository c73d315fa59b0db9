// The durable transfer-tracking workflow: one execution per registered (chain_id, tx_hash).
// Deterministic: all I/O happens in activities (chain polling on the tracking queue, projection writes as a local
// activity or on the projection queue); waits on chains are heartbeating activities bounded by a poll window, and
// the OPinit finalization period is a durable timer, so no worker slot is held across long waits.
import {
  ActivityFailure,
  ApplicationFailure,
  continueAsNew,
  defineQuery,
  defineSignal,
  log,
  patched,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  sleep,
  workflowInfo,
} from '@temporalio/workflow';
import {
  CHAIN_NOT_CONFIGURED,
  hopCanStall,
  hopIsTerminal,
  hopKey,
  stallWindowMs,
  type ChainTx,
  type Hop,
  type TrackingState,
  type TrackingTimings,
  type TransferParties,
  type TxRef,
  WEBHOOK_SIGNAL,
  webhookQueue,
} from './model.js';
import { statusDocument, type StatusDocument } from './status.js';

/** How often the finalization timer wakes to check the output is still live, unless the timings say otherwise. */
const DEFAULT_OUTPUT_CHECK_MS = 10 * 60_000;

/**
 * A withdrawal whose covering output is still in its finalization period at `now`: the time it becomes
 * claimable, else undefined. Executions started before the output checks (`legacy`, histories without the
 * `withdrawal-output-checks` marker) kept that time in `finalizesAtMs` and had no output object.
 */
function finalizingUntil(h: Hop, now: number, legacy: boolean): number | undefined {
  if (h.kind !== 'op_withdrawal' || h.receiveTx) return undefined;
  const at = legacy ? (h.finalizesAtMs ?? h.claimableAtMs) : h.output ? h.claimableAtMs : undefined;
  return at !== undefined && at > now ? at : undefined;
}

/** A chain activity's failure for a chain this deployment has no endpoint for (model.ts CHAIN_NOT_CONFIGURED). */
const chainNotConfigured = (e: unknown) =>
  e instanceof ActivityFailure && e.cause instanceof ApplicationFailure && e.cause.type === CHAIN_NOT_CONFIGURED;

export interface SourceTxFound {
  tx: TxRef & { code: number; log?: string };
  hops: Hop[];
  /** Absent from activities of versions before history by address. */
  parties?: TransferParties;
  /** Bridge events of the tx that start a transfer no hop follows (absent in older histories: none). */
  unfollowed?: string[];
}
export interface HopPollResult {
  hop: Hop;
  forwards: Hop[];
}
/** Activities on the tracking task queue (chain access). */
export interface ChainActivities {
  waitSourceTx(a: {
    chainId: string;
    txHash: string;
    windowMs: number;
    pollIntervalMs: number;
  }): Promise<SourceTxFound | null>;
  pollHop(a: { hop: Hop; windowMs: number; pollIntervalMs: number }): Promise<HopPollResult>;
}
/** Events of a transfer's webhook, to be POSTed in this order: each its status document at one version. */
export interface WebhookDelivery {
  url: string;
  chainId: string;
  txHash: string;
  /** `event` is the status version: it increases by one per state change of the transfer. */
  events: { event: number; doc: StatusDocument }[];
}
/**
 * Activities on the webhook task queue (`<workflow task queue>-webhooks`, served beside the chain worker), which call
 * a transfer's webhook (activities/webhook.ts): their own queue and slots, so a delivery never waits behind the
 * long chain polls.
 */
export interface WebhookActivities {
  deliverWebhook(d: WebhookDelivery): Promise<{ delivered: number }>;
}
/** Most events one delivery activity carries (a backlog is sent in batches, one activity each). */
const WEBHOOK_BATCH = 8;
/** What the workflow stores for one status version (and, on the fast path, POSTs to the webhook). */
export interface RecordStatusArgs {
  chainId: string;
  txHash: string;
  version: number;
  phase: string;
  doc: StatusDocument;
  /** The transfer's sender and final receiver, once known (the projection indexes them by address). */
  parties?: TransferParties;
  /**
   * Try, once and briefly, to POST this version to the transfer's webhook right after storing it (the fast path:
   * no activity of its own). Absent from histories before webhooks.
   */
  webhook?: { url: string };
}
/** Activities on the projection task queue (served by the process owning the ClickHouse store). */
export interface ProjectionActivities {
  recordStatus(a: RecordStatusArgs): Promise<{ webhookDelivered?: boolean } | undefined>;
}
/**
 * The same write as a local activity of the worker running the workflow, when that worker can reach the
 * projection: in-process (the store is a ClickHouse server, or the main job runs the workflows), or over the IPC
 * channel to the main job that owns embedded chDB (tracking/projection-ipc.ts). It spares the task-queue dispatch,
 * which on the dev server and two busy cores was most of a status change's delay (decision 011). `stored: false`:
 * this worker has no way to the projection, and the workflow schedules the projection activity instead.
 * The row's recorded_at is, as for the activity, when the workflow scheduled the write.
 */
export interface LocalProjectionActivities {
  recordStatusHere(a: RecordStatusArgs): Promise<{ stored: boolean; webhookDelivered?: boolean }>;
}
export type { ChainTx };

export interface TrackInput {
  chainId: string;
  txHash: string;
  registeredAtMs: number;
  timings: TrackingTimings;
  projectionTaskQueue: string;
  /** Set by continue-as-new. */
  carried?: { state: TrackingState; progressAt: number[]; webhook?: WebhookState };
  /**
   * The latest version already stored when this run started (absent: 0, the registration): a transfer whose earlier
   * run is gone is tracked again from the start, and its versions go on from there (webhook events stay unique).
   */
  fromVersion?: number;
}
/** A transfer's webhook: its URL and the last version queued for delivery (every earlier one is delivered). */
interface WebhookState {
  url: string;
  queuedThrough: number;
  /** False once a fast attempt failed: its later events go by the delivery activity only. */
  fast?: boolean;
  /** Continue-as-new: the events not yet acknowledged (the batch in flight first), sent first by the next run. */
  pending?: WebhookDelivery['events'];
}
export interface TrackOutcome {
  state: string;
  status: string;
  version: number;
}

export const stateQuery = defineQuery<TrackingState>('state');
/**
 * Attach a webhook (sent with the start by `POST /v2/tx/track` when the request names one). The first one wins; it
 * receives the latest recorded version at once, then every later one.
 */
export const webhookSignal = defineSignal<[{ url: string }]>(WEBHOOK_SIGNAL);

const DEFAULT_WEBHOOK_MAX_BACKOFF_MS = 60_000;
const DEFAULT_WEBHOOK_GIVE_UP_MS = 3 * 24 * 3600_000;

/** Continue-as-new well before the 10k-event warning; a poll window costs ~6 events. */
const HISTORY_SOFT_LIMIT = 4000;

export async function trackTransfer(input: TrackInput): Promise<TrackOutcome> {
  const t = input.timings;
  // Executions recorded before the finalization timer checked its output (see finalizingUntil) replay as before.
  const legacy = !patched('withdrawal-output-checks');
  const chain = proxyActivities<ChainActivities>({
    startToCloseTimeout: t.pollWindowMs + 60_000,
    // A killed worker's poll is retried elsewhere after this; it must exceed one poll interval.
    heartbeatTimeout: Math.max(5_000, t.pollIntervalMs * 3),
    retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '30s' },
  });
  // The source wait is one activity for the whole source timeout: its one lookup by hash (the tx may already be in
  // a block) runs once, then only the shared chain feed matches it, so a registered hash that never lands (a
  // made-up one, say) costs a slot in the feed and no read of its own per poll window. A killed worker is still
  // noticed by the heartbeat timeout, and the retried activity looks the hash up again.
  const source = proxyActivities<ChainActivities>({
    startToCloseTimeout: t.sourceTimeoutMs + 60_000,
    heartbeatTimeout: Math.max(5_000, t.pollIntervalMs * 3),
    retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '30s' },
  });
  const projection = proxyActivities<ProjectionActivities>({
    taskQueue: input.projectionTaskQueue,
    startToCloseTimeout: '30s',
    retry: { initialInterval: '500ms', backoffCoefficient: 2, maximumInterval: '10s' },
  });
  // Bounded: a local activity retrying for long keeps its workflow task open, and each task heartbeat adds
  // history. Past the bound the write goes to the queue, whose activity retries on the server (a projection down for
  // days costs no history).
  const projectionHere = proxyLocalActivities<LocalProjectionActivities>({
    startToCloseTimeout: '30s',
    scheduleToCloseTimeout: '2m',
    retry: { initialInterval: '500ms', backoffCoefficient: 2, maximumInterval: '10s' },
  });
  /** Store one version: by a local activity where the worker can, else (or in histories before it) the queue. */
  const storeVersion = async (a: RecordStatusArgs): Promise<{ webhookDelivered?: boolean } | undefined> => {
    if (patched('projection-local')) {
      try {
        const here = await projectionHere.recordStatusHere(a);
        if (here.stored) return here;
      } catch (e) {
        log.warn('status write by local activity failed; using the projection queue', { error: String(e) });
      }
    }
    return projection.recordStatus(a);
  };

  let s: TrackingState = input.carried?.state ?? {
    chainId: input.chainId,
    txHash: input.txHash,
    phase: 'submitted',
    hops: [],
    version: input.fromVersion ?? 0,
  };
  let progressAt: number[] = input.carried?.progressAt ?? [];
  setHandler(stateQuery, () => s);

  // ---- webhook: every recorded version is POSTed, in order, one activity at a time ----
  // Deliveries run as one loop beside the tracking: a slow or absent receiver delays only its own events, never the
  // hops. Events queued while one activity runs go out together in the next (in order, one request each), so a
  // backlog costs few activities. A transfer without a webhook schedules nothing here, so histories recorded
  // before webhooks existed replay unchanged.
  const hooks = proxyActivities<WebhookActivities>({
    taskQueue: webhookQueue(workflowInfo().taskQueue),
    // Each request of a batch is bounded by activities/webhook.ts WEBHOOK_ATTEMPT_MS (10 s), and the activity
    // heartbeats before each: a killed worker's delivery is retried elsewhere within the heartbeat timeout.
    startToCloseTimeout: `${WEBHOOK_BATCH * 10 + 5}s`,
    heartbeatTimeout: '12s',
    scheduleToCloseTimeout: t.webhookGiveUpMs ?? DEFAULT_WEBHOOK_GIVE_UP_MS,
    retry: {
      initialInterval: '1s',
      backoffCoefficient: 2,
      maximumInterval: t.webhookMaxBackoffMs ?? DEFAULT_WEBHOOK_MAX_BACKOFF_MS,
    },
  });
  let hook: WebhookState | undefined = input.carried?.webhook;
  const undelivered: WebhookDelivery['events'] = [];
  /** The batch the loop's activity is sending now. */
  let sending: WebhookDelivery['events'] = [];
  /** The delivery loop while it runs. */
  let delivering: Promise<void> | undefined;
  /**
   * The last version the projection holds (version 0 is the registration row POST /v2/tx/track wrote), and its
   * document; null while it is a version an earlier run stored (`fromVersion`), whose document this run does not have.
   */
  let recorded: { version: number; doc: StatusDocument | null } = {
    version: s.version,
    // Every record moves the version on, so it is still `fromVersion` (carried across continue-as-new) only while
    // no run of this lineage has recorded anything.
    doc: input.fromVersion !== undefined && s.version === input.fromVersion ? null : statusDocument(s),
  };
  const deliverAll = async (url: string) => {
    while (undelivered.length > 0) {
      const events = undelivered.splice(0, WEBHOOK_BATCH);
      sending = events;
      try {
        await hooks.deliverWebhook({ url, chainId: s.chainId, txHash: s.txHash, events });
      } catch (e) {
        log.warn('webhook events given up', { events: events.map((x) => x.event), error: String(e) });
      }
      sending = [];
    }
    delivering = undefined;
  };
  // What the previous run had not delivered goes first (its batch in flight again: a repeat, never a gap).
  if (hook?.pending?.length) {
    undelivered.push(...hook.pending);
    hook = { ...hook, pending: undefined };
    delivering = deliverAll(hook.url);
  }
  const queueDelivery = (version: number, doc: StatusDocument) => {
    if (!hook || version <= hook.queuedThrough) return;
    hook = { ...hook, queuedThrough: version };
    undelivered.push({ event: version, doc });
    delivering ??= deliverAll(hook.url);
  };
  setHandler(webhookSignal, ({ url }) => {
    if (hook) return;
    // Events start at the current version; version 0 (the registration itself, STATE_SUBMITTED) is no change to
    // report: the track request that names the webhook is answered with it. An earlier run's version is not sent
    // (its document is not this run's to repeat): events start at this run's first.
    if (recorded.doc === null) {
      hook = { url, queuedThrough: recorded.version };
      return;
    }
    hook = { url, queuedThrough: 0 };
    queueDelivery(recorded.version, recorded.doc);
  });
  /** Wait for every queued delivery, including any queued while waiting. */
  const drainDeliveries = async () => {
    while (delivering) await delivering;
  };
  /**
   * The state a continue-as-new carries. Deliveries are not waited for (a receiver down for days must not hold the
   * hops): the events not yet acknowledged travel with it.
   */
  const carry = () => ({
    state: s,
    progressAt,
    ...(hook ? { webhook: { ...hook, pending: [...sending, ...undelivered] } } : {}),
  });

  const record = async () => {
    s = { ...s, version: s.version + 1 };
    const doc = statusDocument(s);
    // The fast path: when every earlier event is delivered, the projection activity POSTs this version itself right
    // after storing it (one short attempt), which spares a delivery activity and its workflow task. Anything else
    // (a backlog, a failed attempt) goes through the ordered delivery loop.
    const fast = hook && hook.fast !== false && !delivering && hook.queuedThrough === s.version - 1;
    const res = await storeVersion({
      chainId: s.chainId,
      txHash: s.txHash,
      version: s.version,
      phase: s.phase,
      doc,
      ...(s.parties ? { parties: s.parties } : {}),
      ...(fast && hook ? { webhook: { url: hook.url } } : {}),
    });
    recorded = { version: s.version, doc };
    if (fast && hook) {
      if (res?.webhookDelivered) hook = { ...hook, queuedThrough: s.version };
      else hook = { ...hook, fast: false };
    }
    // Sent only once stored, so a receiver never sees a version GET /v2/tx/status cannot show yet.
    queueDelivery(s.version, doc);
  };
  /** The final answer, once every webhook event is delivered (or given up). */
  const outcome = async (): Promise<TrackOutcome> => {
    await drainDeliveries();
    const d = statusDocument(s);
    return { state: d.state, status: d.status, version: s.version };
  };
  const shouldContinueAsNew = () =>
    workflowInfo().continueAsNewSuggested || workflowInfo().historyLength > (t.historyEventLimit ?? HISTORY_SOFT_LIMIT);

  // ---- 1. wait for the source tx to be included ----
  if (s.phase === 'submitted') {
    let found: SourceTxFound | null = null;
    for (;;) {
      try {
        found = await source.waitSourceTx({
          chainId: s.chainId,
          txHash: s.txHash,
          windowMs: Math.max(t.pollWindowMs, input.registeredAtMs + t.sourceTimeoutMs - Date.now()),
          pollIntervalMs: t.pollIntervalMs,
        });
      } catch (e) {
        if (!chainNotConfigured(e)) throw e;
        // The worker has no endpoint for the source chain (its directory differs from the API's): recorded as
        // abandoned with the reason, not a failed execution that leaves the status SUBMITTED for ever.
        s = {
          ...s,
          phase: 'abandoned',
          abandonReason: `${s.chainId} has no endpoint configured on the tracking worker`,
        };
        await record();
        return outcome();
      }
      if (found) break;
      if (Date.now() - input.registeredAtMs >= t.sourceTimeoutMs) {
        s = {
          ...s,
          phase: 'abandoned',
          abandonReason: `source tx not seen in a block within ${Math.round(t.sourceTimeoutMs / 1000)}s`,
        };
        await record();
        return outcome();
      }
      if (shouldContinueAsNew()) {
        await continueAsNew<typeof trackTransfer>({ ...input, carried: carry() });
      }
    }
    const { code, log } = found.tx;
    s = { ...s, sourceTx: found.tx, ...(found.parties ? { parties: found.parties } : {}) };
    if (code !== 0) {
      s = { ...s, phase: 'source_failed', sourceTx: { ...found.tx, code, log } };
      await record();
      return outcome();
    }
    s = {
      ...s,
      phase: found.hops.length ? 'tracking' : 'finished',
      hops: found.hops,
      ...(found.unfollowed?.length ? { unfollowed: found.unfollowed } : {}),
    };
    progressAt = found.hops.map(() => Date.now());
    await record();
    if (s.phase === 'finished') return outcome();
  }

  // ---- 2. follow every open hop concurrently (PFM appends hops as they are discovered) ----
  /** Merge one poll result; true when something changed. */
  const apply = (i: number, res: HopPollResult, now: number): boolean => {
    if (JSON.stringify(res.hop) === JSON.stringify(s.hops[i]) && res.forwards.length === 0) return false;
    const hops = s.hops.slice();
    hops[i] = res.hop;
    progressAt[i] = now;
    const known = new Set(hops.map(hopKey));
    for (const f of res.forwards) {
      if (known.has(hopKey(f))) continue;
      known.add(hopKey(f));
      hops.push(f);
      progressAt.push(now);
    }
    s = { ...s, hops };
    return true;
  };
  const inflight = new Map<number, Promise<{ i: number; res: HopPollResult | null }>>();
  /** Hops whose finalization timer fired: polled once before the timer is set again. */
  const outputCheckDue = new Set<number>();
  for (;;) {
    const open = s.hops.map((h, i) => ({ h, i })).filter(({ h }) => !hopIsTerminal(h));
    if (open.length === 0) {
      s = { ...s, phase: 'finished' };
      await record();
      return outcome();
    }
    for (const { h, i } of open) {
      if (inflight.has(i)) continue;
      const now = Date.now();
      const until = finalizingUntil(h, now, legacy);
      if (until !== undefined && !outputCheckDue.has(i)) {
        // Durable timer: the finalization period may be days; nothing runs meanwhile but a check, now and then,
        // that the output is still live on L1 (a challenger may delete it).
        const wait = legacy ? until - now : Math.min(until - now, t.outputCheckMs ?? DEFAULT_OUTPUT_CHECK_MS);
        inflight.set(
          i,
          sleep(wait).then(() => ({ i, res: null })),
        );
      } else {
        outputCheckDue.delete(i);
        const poll = () =>
          chain.pollHop({ hop: h, windowMs: t.pollWindowMs, pollIntervalMs: t.pollIntervalMs }).then(
            (res) => ({ i, res }),
            async (e: unknown) => {
              if (!chainNotConfigured(e)) throw e;
              // No endpoint for a chain the hop needs: nothing can come of polling; the stall window ends it.
              log.warn('hop chain not configured', { hop: i, error: String(e) });
              await sleep(t.pollWindowMs);
              return { i, res: { hop: h, forwards: [] } };
            },
          );
        // A claimable withdrawal never stalls (model.ts hopCanStall); once unclaimed for a stall window, it is polled
        // after a durable pause each time, so withdrawals left unclaimed for months cost the chains next to nothing.
        // The same for any hop that cannot stall (an executor down for good): polled, but not at full rate for ever.
        // Versioned: a history recorded before it polled such a hop at once.
        const idle =
          !hopCanStall(h) && now - (progressAt[i] ?? now) > stallWindowMs(h, t) && patched('quiet-hops-pause');
        inflight.set(i, idle ? sleep(t.outputCheckMs ?? DEFAULT_OUTPUT_CHECK_MS).then(poll) : poll());
      }
    }
    const { i, res } = await Promise.race(inflight.values());
    inflight.delete(i);
    const now = Date.now();
    if (res === null) {
      outputCheckDue.add(i); // the next round polls the hop: is the output live, is it claimable now?
      progressAt[i] = now; // the stall clock restarts at the claim window
    } else if (apply(i, res, now)) {
      await record();
    }
    // ---- stall windows, per hop kind, measured from the hop's last progress ----
    // An IBC hop received without its acknowledgement waits on the hops it forwarded (PFM writes the ack once they
    // settle): their progress is its progress, or a slow second leg made the first one stall and end the transfer.
    // The forwards come after it in the list, so the later hops' latest progress stands for theirs.
    const lastProgress = (h: Hop, j: number) =>
      h.kind === 'ibc' && h.receiveTx && !h.ack
        ? Math.max(...progressAt.slice(j).map((p) => p ?? now))
        : (progressAt[j] ?? now);
    const stalled = s.hops.findIndex(
      (h, j) =>
        !hopIsTerminal(h) &&
        hopCanStall(h) &&
        now - lastProgress(h, j) > stallWindowMs(h, t) &&
        finalizingUntil(h, now, legacy) === undefined,
    );
    if (stalled >= 0) {
      const h = s.hops[stalled]!;
      if (h.kind === 'layer_zero' && h.state === 'LAYER_ZERO_TRANSFER_FAILED') s = { ...s, phase: 'finished' };
      else
        s = {
          ...s,
          phase: 'abandoned',
          abandonReason: `hop ${stalled} (${h.kind}) made no progress for ${Math.round(stallWindowMs(h, t) / 1000)}s`,
        };
      await record();
      return outcome();
    }
    if (shouldContinueAsNew()) {
      // Let running polls finish so their results are not lost, then carry the state into a fresh history.
      const rest = await Promise.all(inflight.values());
      let changed = false;
      for (const r of rest) if (r.res && apply(r.i, r.res, Date.now())) changed = true;
      if (changed) await record();
      await continueAsNew<typeof trackTransfer>({ ...input, carried: carry() });
    }
  }
}
