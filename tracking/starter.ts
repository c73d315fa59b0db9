// Starts tracking workflows for registrations. `POST /v2/tx/track` answers once the registration row is in
// ClickHouse (that row is the durable record); the workflow start follows here, asynchronously, with retries.
// Starting is idempotent (workflow id + USE_EXISTING / REJECT_DUPLICATE), so after a crash `reconcile()`
// simply starts every registered, non-terminal tx again.
import type { Store } from '../clickhouse/client.js';
import { unfinishedTransfers, webhooksOf } from '../clickhouse/transfer-events.js';
import type { Logger } from '../platform/log.js';

export interface WorkflowStarter {
  /**
   * False when the workflow already existed and had ended (nothing was started or signalled). `fromVersion`: the
   * latest status version stored, which a new run continues from.
   */
  register(
    chainId: string,
    txHash: string,
    registeredAtMs: number,
    webhook?: string,
    fromVersion?: number,
  ): Promise<boolean>;
}

/**
 * What a start's first attempt found: `running` (started now, or already running; a webhook was handed over),
 * `ended` (the workflow had already ended: nothing will be delivered to it), `retrying` (Temporal did not answer
 * or the same start is already queued; the starter keeps trying, and reconcile() covers a crash).
 */
export type StartOutcome = 'running' | 'ended' | 'retrying';

interface Job {
  chainId: string;
  txHash: string;
  atMs: number;
  /** The transfer's webhook URL, handed to its workflow with the start. */
  webhook?: string;
  attempt: number;
  /** Told the first attempt's outcome (once). */
  firstOutcome?: (o: StartOutcome) => void;
}

/** A job's dedupe key: a registration naming a webhook is a separate job from one that does not. */
const jobKey = (j: { chainId: string; txHash: string; webhook?: string }) =>
  `${j.chainId}\u0000${j.txHash}\u0000${j.webhook ?? ''}`;

export class RegistrationStarter {
  private readonly queue: Job[] = [];
  private readonly queued = new Set<string>();
  private active = 0;
  /** Jobs sleeping in their retry back-off. */
  private waiting = 0;
  private stopped = false;
  private readonly idle = new Set<() => void>();
  readonly stats = { started: 0, failures: 0 };

  constructor(
    private readonly client: WorkflowStarter,
    private readonly log: Logger,
    /**
     * The latest status version stored for a transfer (0: the registration only). A run started for a transfer
     * whose earlier run is gone (Temporal's store lost, or its retention passed after a termination) numbers its
     * versions on from there: events stay unique per change, and the projection keeps every new version.
     */
    private readonly latestVersion: (chainId: string, txHash: string) => Promise<number> = async () => 0,
    private readonly concurrency = 32,
  ) {}

  /** Queue a start; resolves with its first attempt's outcome (never rejects). */
  enqueue(chainId: string, txHash: string, atMs: number, webhook?: string): Promise<StartOutcome> {
    const job: Job = { chainId, txHash, atMs, ...(webhook ? { webhook } : {}), attempt: 0 };
    const k = jobKey(job);
    if (this.stopped || this.queued.has(k)) return Promise.resolve('retrying');
    const outcome = new Promise<StartOutcome>((r) => {
      job.firstOutcome = r;
    });
    this.queued.add(k);
    this.queue.push(job);
    this.pump();
    return outcome;
  }

  /** Jobs queued or running. */
  get backlog(): number {
    return this.queue.length + this.active + this.waiting;
  }

  /** Resolves when nothing is queued or running (tests, shutdown). */
  drained(): Promise<void> {
    if (this.backlog === 0) return Promise.resolve();
    return new Promise((r) => this.idle.add(r));
  }

  /** Start every registered tx whose latest projected state is not terminal (after a restart). */
  async reconcile(store: Store): Promise<number> {
    const rows = await unfinishedTransfers(store);
    const hooks = await webhooksOf(
      store,
      rows.map((r) => ({ chainId: r.chain_id, txHash: r.tx_hash })),
    );
    for (const r of rows)
      void this.enqueue(r.chain_id, r.tx_hash, Number(r.at), hooks.get(`${r.chain_id}|${r.tx_hash}`));
    if (rows.length) this.log.info('tracking.reconcile', { restarted: rows.length });
    return rows.length;
  }

  stop(): void {
    this.stopped = true;
    this.queue.length = 0;
  }

  private pump(): void {
    while (!this.stopped && this.active < this.concurrency && this.queue.length) {
      const job = this.queue.shift()!;
      this.active++;
      void this.run(job);
    }
    if (this.backlog === 0)
      for (const r of [...this.idle]) {
        this.idle.delete(r);
        r();
      }
  }

  private async run(job: Job): Promise<void> {
    try {
      const from = await this.latestVersion(job.chainId, job.txHash);
      const running = await this.client.register(job.chainId, job.txHash, job.atMs, job.webhook, from);
      this.stats.started++;
      this.queued.delete(jobKey(job));
      job.firstOutcome?.(running ? 'running' : 'ended');
    } catch (e) {
      job.firstOutcome?.('retrying');
      job.firstOutcome = undefined;
      this.stats.failures++;
      job.attempt++;
      // Temporal unreachable or overloaded: back off (≤ 10 s) and keep the job; reconcile() covers a crash.
      const delay = Math.min(10_000, 200 * 2 ** Math.min(job.attempt, 6));
      if (job.attempt === 1 || job.attempt % 10 === 0)
        this.log.warn('tracking.start.retry', {
          chainId: job.chainId,
          txHash: job.txHash,
          attempt: job.attempt,
          error: (e as Error).message,
        });
      this.waiting++;
      setTimeout(() => {
        this.waiting--;
        if (!this.stopped) this.queue.push(job);
        this.pump();
      }, delay).unref();
    } finally {
      this.active--;
      this.pump();
    }
  }
}
