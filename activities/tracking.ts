// Chain-watching activities of the tracking workflow. Each call subscribes to the shared per-chain feeds
// (feed.ts), runs one backfill search, heartbeats every poll interval (so a dead worker is detected within the
// heartbeat timeout and the wait resumes elsewhere), and returns as soon as the hop changed or after `windowMs`
// so the workflow regains control.
import { ApplicationFailure, Context } from '@temporalio/activity';
import {
  depositFinalized,
  depositRefunds,
  deriveHops,
  transferParties,
  findPacketEvent,
  ibcAckWritten,
  ibcAcknowledged,
  ibcReceived,
  ibcTimedOut,
  lzDestination,
  LZ_TOPICS,
  withdrawalFinalized,
  withWaitReason,
  coveringCandidates,
  sameOutput,
  type Resolver,
} from '../workflows/evidence.js';
import {
  CHAIN_NOT_CONFIGURED,
  type ChainTx,
  type ClaimProofState,
  type CoveringOutput,
  type ExecutorWaitReason,
  type Hop,
  type IbcHop,
  type LzHop,
  type OpDepositHop,
  type OpWithdrawalHop,
} from '../workflows/model.js';
import type { ChainActivities, HopPollResult, SourceTxFound } from '../workflows/transfer.js';
import { resolverFor, type ChainDirectory } from './chains.js';
import { isEvmHash } from '../chain/hash.js';
import { CometClient, EvmClient, executorGet, outputProposal, restGet, SEARCH_PAGE } from './rpc.js';
import { parseWithdrawalProof, proofMatches, type WithdrawalProof } from '../routing/claim.js';
import { ChainFeed, type FeedSource } from './feed.js';

/** Pages of propose_output events read at most for one withdrawal's covering output (SEARCH_PAGE each). */
const OUTPUT_SEARCH_PAGES = 40;

/** How long one answer (or failure) of an executor's /status stands for every hop waiting on it. */
const EXECUTOR_CHECK_MS = 2_000;

/** Blocks of one eth_getLogs range: below the 10k-block limit of geth-like nodes. */
const LZ_RANGE_BLOCKS = 9_000;
/** Ranges one backfill reads at most; the next poll goes on from where it stopped. */
const LZ_RANGES_PER_POLL = 50;
/** The destination's clock may trail the source's: its search starts this much before the send tx's time. */
const LZ_CLOCK_SLACK_MS = 10 * 60_000;

export interface ChainActivityOptions {
  /**
   * How often each shared chain feed reads new blocks. Independent of the per-transfer poll interval because a
   * feed costs O(chains) requests however many transfers wait on it; it bounds detection latency.
   */
  feedIntervalMs?: number;
}

/**
 * Heartbeats on a timer while an activity waits (at least once a second, or once a poll interval if shorter): a
 * request may wait out its timeout, and between rounds alone that could outlast the heartbeat timeout.
 */
const heartbeatTimer = (ctx: Context, pollIntervalMs: number) =>
  setInterval(() => ctx.heartbeat(), Math.max(100, Math.min(pollIntervalMs, 1_000)));

const notConfigured = (message: string) => ApplicationFailure.nonRetryable(message, CHAIN_NOT_CONFIGURED);

export function createChainActivities(dir: ChainDirectory, opts: ChainActivityOptions = {}): ChainActivities {
  const feedInterval = (pollIntervalMs: number) => Math.min(pollIntervalMs, opts.feedIntervalMs ?? 250);
  const resolver: Resolver = resolverFor(dir);
  const comets = new Map<string, CometClient>();
  const evms = new Map<string, EvmClient>();
  const comet = (chainId: string): CometClient => {
    let c = comets.get(chainId);
    if (!c) {
      const url = dir.chain(chainId)?.rpcUrl;
      if (!url) throw notConfigured(`no CometBFT RPC configured for ${chainId}`);
      c = new CometClient(chainId, url);
      comets.set(chainId, c);
    }
    return c;
  };
  const evm = (chainId: string): EvmClient => {
    let c = evms.get(chainId);
    if (!c) {
      const url = dir.chain(chainId)?.evmRpcUrl;
      if (!url) throw notConfigured(`no EVM JSON-RPC configured for ${chainId}`);
      c = new EvmClient(chainId, url);
      evms.set(chainId, c);
    }
    return c;
  };

  /**
   * Poll `probe` until it yields a value or the window closes (REST-only checks), heartbeating on a timer as `watch`
   * does (a probe may wait out a request timeout: an executor that accepts and never answers, 5 s).
   */
  async function pollUntil<T>(
    windowMs: number,
    pollIntervalMs: number,
    probe: () => Promise<T | undefined>,
  ): Promise<T | undefined> {
    const ctx = Context.current();
    const end = Date.now() + windowMs;
    const hb = heartbeatTimer(ctx, pollIntervalMs);
    try {
      for (;;) {
        const v = await probe();
        if (v !== undefined) return v;
        if (Date.now() + pollIntervalMs > end) return undefined;
        await ctx.sleep(pollIntervalMs); // rejects with CancelledFailure when the workflow cancels us
      }
    } finally {
      clearInterval(hb);
    }
  }

  const feeds = new Map<string, ChainFeed>();
  const cometFeed = (chainId: string, intervalMs: number) =>
    feedOf(`comet:${chainId}`, () => comet(chainId), feedInterval(intervalMs));
  const evmFeed = (chainId: string, intervalMs: number) =>
    feedOf(`evm:${chainId}`, () => evm(chainId), feedInterval(intervalMs));
  function feedOf(key: string, source: () => FeedSource, intervalMs: number): ChainFeed {
    let f = feeds.get(key);
    if (!f) {
      f = new ChainFeed(source(), intervalMs);
      feeds.set(key, f);
    }
    return f;
  }

  interface Probe<T> {
    feed: ChainFeed;
    match(tx: ChainTx): boolean;
    apply(tx: ChainTx): Promise<T | undefined>;
  }

  /**
   * Subscribe every probe to its chain feed, run one backfill check for what happened before, then wait for the
   * first feed match or the end of the window, heartbeating meanwhile.
   */
  async function watch<T>(
    windowMs: number,
    pollIntervalMs: number,
    probes: Probe<T>[],
    backfill: () => Promise<T | undefined>,
  ): Promise<T | undefined> {
    const ctx = Context.current();
    const subs = await Promise.all(probes.map((p) => p.feed.subscribe((tx) => p.match(tx))));
    const hb = heartbeatTimer(ctx, pollIntervalMs);
    let timer: NodeJS.Timeout | undefined;
    try {
      const b = await backfill();
      if (b !== undefined) return b;
      const never = new Promise<never>(() => undefined);
      const pending = subs.map((sub, i) => sub.next.then((tx) => ({ i, tx })));
      const expired = new Promise<undefined>((r) => (timer = setTimeout(() => r(undefined), windowMs)));
      for (;;) {
        const r = await Promise.race([...pending, expired, ctx.cancelled]);
        if (!r) return undefined;
        const v = await probes[r.i]!.apply(r.tx);
        if (v !== undefined) return v;
        pending[r.i] = never;
      }
    } finally {
      clearInterval(hb);
      if (timer) clearTimeout(timer);
      for (const sub of subs) sub.cancel();
    }
  }

  /** A packet event's search keys; on the destination with its end too (evidence.ts samePacket says why). */
  const key = (ev: string, hop: IbcHop) => ({
    [`${ev}.packet_src_port`]: hop.srcPort,
    [`${ev}.packet_src_channel`]: hop.srcChannel,
    [`${ev}.packet_sequence`]: hop.sequence,
    ...((ev === 'recv_packet' || ev === 'write_acknowledgement') && hop.dstChannel
      ? { [`${ev}.packet_dst_channel`]: hop.dstChannel }
      : {}),
  });

  async function pollIbc(hop: IbcHop, windowMs: number, intervalMs: number): Promise<HopPollResult | undefined> {
    const src = comet(hop.fromChainId);
    const dst = comet(hop.toChainId);
    const first = (txs: ChainTx[], ev: string) => txs.find((t) => findPacketEvent(t, ev, hop));
    const has = (ev: string) => (tx: ChainTx) => !!findPacketEvent(tx, ev, hop);
    if (hop.state === 'TRANSFER_PENDING' && !hop.receiveTx) {
      const received = async (t: ChainTx) => ibcReceived(hop, await dst.withTime(t), resolver);
      const timedOut = async (t: ChainTx) => ({ hop: ibcTimedOut(hop, await src.withTime(t), resolver), forwards: [] });
      return watch<HopPollResult>(
        windowMs,
        intervalMs,
        [
          { feed: cometFeed(hop.toChainId, intervalMs), match: has('recv_packet'), apply: received },
          { feed: cometFeed(hop.fromChainId, intervalMs), match: has('timeout_packet'), apply: timedOut },
        ],
        async () => {
          const recv = first(await dst.search(key('recv_packet', hop)), 'recv_packet');
          if (recv) return received(recv);
          const timeout = first(await src.search(key('timeout_packet', hop)), 'timeout_packet');
          return timeout ? timedOut(timeout) : undefined;
        },
      );
    }
    const ackWritten = async (t: ChainTx) => ({
      hop: ibcAckWritten(hop, findPacketEvent(t, 'write_acknowledgement', hop)!),
      forwards: [],
    });
    const acknowledged = async (t: ChainTx) => ({
      hop: ibcAcknowledged(hop, await src.withTime(t), resolver),
      forwards: [],
    });
    const probes: Probe<HopPollResult>[] = [];
    // Async acknowledgement (PFM): written on the destination after the forwarded hop settles.
    if (!hop.ack)
      probes.push({
        feed: cometFeed(hop.toChainId, intervalMs),
        match: has('write_acknowledgement'),
        apply: ackWritten,
      });
    if (!hop.acknowledgeTx)
      probes.push({
        feed: cometFeed(hop.fromChainId, intervalMs),
        match: has('acknowledge_packet'),
        apply: acknowledged,
      });
    return watch(windowMs, intervalMs, probes, async () => {
      let next = hop;
      if (!next.ack) {
        const w = first(await dst.search(key('write_acknowledgement', hop)), 'write_acknowledgement');
        if (w) next = ibcAckWritten(next, findPacketEvent(w, 'write_acknowledgement', hop)!);
      }
      if (!next.acknowledgeTx) {
        const ack = first(await src.search(key('acknowledge_packet', hop)), 'acknowledge_packet');
        if (ack) next = ibcAcknowledged(next, await src.withTime(ack), resolver);
      }
      return next !== hop ? { hop: next, forwards: [] } : undefined;
    });
  }

  /** Per L2: when its executor last answered or failed to (one check serves every hop for EXECUTOR_CHECK_MS). */
  const executorChecks = new Map<string, { at: number; up: Promise<boolean> }>();
  /** EXECUTOR_UNREACHABLE while the rollup's executor does not answer at all; undefined when it does or is unknown. */
  async function executorWaitReason(l2: string): Promise<ExecutorWaitReason | undefined> {
    const url = dir.chain(l2)?.executorUrl;
    if (!url) return undefined;
    let c = executorChecks.get(l2);
    if (!c || Date.now() - c.at > EXECUTOR_CHECK_MS) {
      // any HTTP answer means it runs; only a refused or timed-out connection counts as down
      const up = executorGet(url, '/status').then((r) => !('missing' in r && r.missing === 'unreachable'));
      c = { at: Date.now(), up };
      executorChecks.set(l2, c);
    }
    return (await c.up) ? undefined : 'EXECUTOR_UNREACHABLE';
  }

  async function pollDeposit(
    hop: OpDepositHop,
    windowMs: number,
    intervalMs: number,
  ): Promise<HopPollResult | undefined> {
    const l2 = comet(hop.toChainId);
    const apply = async (t: ChainTx) => {
      const tx = await l2.withTime(t);
      const next = depositFinalized(hop, tx, resolver);
      // A failed deposit's refund (a withdrawal back to L1, in the same message) is followed up to its claim.
      return next ? { hop: next, forwards: depositRefunds(hop, tx, resolver) } : undefined;
    };
    return watch(
      windowMs,
      intervalMs,
      [{ feed: cometFeed(hop.toChainId, intervalMs), match: (t) => !!depositFinalized(hop, t, resolver), apply }],
      async () => {
        for (const t of await l2.search({ 'finalize_token_deposit.l1_sequence': hop.l1Sequence })) {
          const r = await apply(t);
          if (r) return r;
        }
        // Not finalized: is the executor that must relay it down? The status says so (or no longer says so).
        const reason = await executorWaitReason(hop.toChainId);
        return reason !== hop.waitReason ? { hop: withWaitReason(hop, reason), forwards: [] } : undefined;
      },
    );
  }

  async function findClaim(hop: OpWithdrawalHop): Promise<HopPollResult | undefined> {
    const l1 = comet(hop.toChainId);
    for (const t of await l1.search({
      'finalize_token_withdrawal.bridge_id': hop.bridgeId,
      'finalize_token_withdrawal.l2_sequence': hop.l2Sequence,
    })) {
      const next = withdrawalFinalized(hop, await l1.withTime(t), resolver);
      if (next) return { hop: next, forwards: [] };
    }
    return undefined;
  }

  /**
   * The L2 height of the withdrawal's tx. Hops recorded before it was kept (`l2Height` absent) read it from the L2:
   * searching from height 0 would take the bridge's first live output, whose proof the executor never serves for it.
   */
  async function withdrawalHeight(hop: OpWithdrawalHop): Promise<number> {
    if (hop.l2Height !== undefined) return hop.l2Height;
    const tx = await comet(hop.fromChainId).tx(hop.sendTx.txHash);
    if (!tx) throw new Error(`withdrawal tx ${hop.sendTx.txHash} not found on ${hop.fromChainId}`); // retried
    return tx.height;
  }

  /**
   * The live L1 output covering the withdrawal: the lowest-index `propose_output` of its bridge with
   * `l2_block_number` ≥ the withdrawal's L2 height that L1 still holds (deleted outputs' indexes are reused).
   */
  async function coveringOutput(hop: OpWithdrawalHop, restUrl: string): Promise<CoveringOutput | undefined> {
    const l1 = comet(hop.toChainId);
    const l2Height = await withdrawalHeight(hop);
    // Every page: a deleted output's propose_output stays in the tx index, and a challenger deletes every output
    // from the one it challenges on, so the re-proposed covering output can come after many deleted ones.
    const txs: ChainTx[] = [];
    for (let page = 1; page <= OUTPUT_SEARCH_PAGES; page++) {
      const got = await l1.search(
        {
          'propose_output.bridge_id': hop.bridgeId,
          'propose_output.l2_block_number': { atLeast: l2Height },
        },
        page,
      );
      txs.push(...got);
      if (got.length < SEARCH_PAGE) break;
    }
    for (const c of coveringCandidates({ ...hop, l2Height }, txs)) {
      const live = await outputProposal(restUrl, hop.bridgeId, c.index);
      if (live && sameOutput(c, live) && live.l1_block_time) return { ...c, l1BlockTime: live.l1_block_time };
    }
    return undefined;
  }

  /** The bridge's finalization period on L1 now, in ms (undefined while L1 does not say). */
  async function finalizationPeriodMs(restUrl: string, bridgeId: string): Promise<number | undefined> {
    const bridge = (await restGet(restUrl, `/opinit/ophost/v1/bridges/${bridgeId}`)) as {
      bridge_config?: { finalization_period?: string };
    } | null;
    const period = bridge?.bridge_config?.finalization_period;
    return period ? durationMs(period) : undefined;
  }

  /** Whether the executor serves the proof the claim needs; never throws (the reason is the answer). */
  async function claimProofState(hop: OpWithdrawalHop): Promise<ClaimProofState> {
    const executor = dir.chain(hop.fromChainId)?.executorUrl;
    if (!executor) return 'executor_unknown';
    // Before its output the executor answers output_index 0 and no proofs; a sequence it has not seen, an error.
    const r = await executorGet(executor, `/withdrawal/${hop.l2Sequence}`);
    if ('missing' in r) return r.missing === 'unreachable' ? 'executor_unreachable' : 'proof_pending';
    if (!hop.output) return 'proof_pending';
    let proof: WithdrawalProof;
    try {
      proof = parseWithdrawalProof(r.answer);
    } catch {
      return 'proof_pending'; // an answer we cannot use is no proof yet
    }
    // Ready only for this output: its index and its root (an index is reused after a challenger's deletion).
    const target = {
      bridgeId: hop.bridgeId,
      l2Sequence: hop.l2Sequence,
      outputIndex: hop.output.index,
      outputRoot: hop.output.outputRoot,
      l1ChainId: hop.toChainId,
      l2ChainId: hop.fromChainId,
    };
    return proofMatches(proof, target) ? 'ready' : 'proof_pending';
  }

  /**
   * One step of a withdrawal's life, from chain data: the claim if made; else, before an output, the covering
   * output and `claimableAtMs` (its L1 block time + the bridge's finalization period, read from L1); during the
   * finalization wait (the workflow's durable timer wakes us now and then), whether the output is still live;
   * once claimable, the claim's readiness, then a watch for the claim on L1.
   */
  async function pollWithdrawal(
    hop: OpWithdrawalHop,
    windowMs: number,
    intervalMs: number,
  ): Promise<HopPollResult | undefined> {
    const restUrl = dir.chain(hop.toChainId)?.restUrl;
    if (!restUrl) throw notConfigured(`no REST endpoint configured for ${hop.toChainId} (OPinit outputs)`);
    const output = hop.output;
    if (!output) {
      return pollUntil(windowMs, intervalMs, async () => {
        const claimed = await findClaim(hop);
        if (claimed) return claimed;
        const found = await coveringOutput(hop, restUrl);
        if (!found) {
          // no output yet: is the executor (its output proposer) down?
          const reason = await executorWaitReason(hop.fromChainId);
          return reason !== hop.waitReason ? { hop: withWaitReason(hop, reason), forwards: [] } : undefined;
        }
        const periodMs = await finalizationPeriodMs(restUrl, hop.bridgeId);
        if (periodMs === undefined) return undefined;
        return {
          hop: {
            ...withWaitReason(hop, undefined),
            output: found,
            claimableAtMs: Date.parse(found.l1BlockTime) + periodMs,
          },
          forwards: [],
        };
      });
    }
    const claimed = await findClaim(hop);
    if (claimed) return claimed;
    if (!sameOutput(output, await outputProposal(restUrl, hop.bridgeId, output.index))) {
      // Deleted by a challenger: back to waiting for a new output; claimable_at will move.
      const { output: _o, claimableAtMs: _c, claimable: _k, claimProof: _p, ...rest } = hop;
      return { hop: rest, forwards: [] };
    }
    if ((hop.claimableAtMs ?? 0) > Date.now()) return undefined; // still finalizing: the timer waits on
    const l1 = comet(hop.toChainId);
    if (!hop.claimable) {
      // L1 judges finality by its block time (ophost: block time ≥ output time + period), and that clock trails
      // ours by a block or more, longer on an idle or stalled L1. Claimable once L1's latest block has reached
      // claimable_at: a claim sent then lands in a later block, which passes; a claim sent on our clock alone
      // could fail on chain (not finalized) while the status said ready.
      return pollUntil(windowMs, intervalMs, async () => {
        const claimed = await findClaim(hop);
        if (claimed) return claimed;
        if ((await l1.latestTime()) < (hop.claimableAtMs ?? 0)) return undefined;
        // ophost judges with the bridge's period as it is now (governance may lengthen it): read again.
        const periodMs = await finalizationPeriodMs(restUrl, hop.bridgeId);
        const at = periodMs !== undefined && hop.output ? Date.parse(hop.output.l1BlockTime) + periodMs : undefined;
        if (at !== undefined && at > (hop.claimableAtMs ?? 0))
          return { hop: { ...hop, claimableAtMs: at }, forwards: [] };
        return { hop: { ...hop, claimable: true, claimProof: await claimProofState(hop) }, forwards: [] };
      });
    }
    if (hop.claimProof !== 'ready') {
      const claimProof = await claimProofState(hop);
      if (claimProof !== hop.claimProof) return { hop: { ...hop, claimProof }, forwards: [] };
    }
    const apply = async (t: ChainTx) => {
      const next = withdrawalFinalized(hop, await l1.withTime(t), resolver);
      return next ? { hop: next, forwards: [] } : undefined;
    };
    return watch(
      windowMs,
      intervalMs,
      [{ feed: cometFeed(hop.toChainId, intervalMs), match: (t) => !!withdrawalFinalized(hop, t, resolver), apply }],
      () => findClaim(hop),
    );
  }

  /** Per LayerZero hop: the destination block its backfill searches from next (this worker's memory only). */
  const lzSearched = new Map<string, number>();
  const remember = (m: Map<string, number>, k: string, v: number) => {
    if (m.size >= 100_000) m.clear();
    m.set(k, v);
  };

  /** The first destination block at or after the send's time less LZ_CLOCK_SLACK_MS (binary search by block time). */
  async function lzStartBlock(c: EvmClient, hop: LzHop, latest: number): Promise<number> {
    const sentAt = hop.sendTx.onChainAt ? Date.parse(hop.sendTx.onChainAt) : Number.NaN;
    if (!Number.isFinite(sentAt)) return Math.max(0, latest - LZ_RANGE_BLOCKS + 1);
    const since = sentAt - LZ_CLOCK_SLACK_MS;
    let lo = 0;
    let hi = latest;
    while (lo < hi) {
      const mid = Math.floor((lo + hi) / 2);
      const t = await c.blockTimeMs(mid);
      if (t !== null && t >= since) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  async function pollLz(hop: LzHop, windowMs: number, intervalMs: number): Promise<HopPollResult | undefined> {
    const c = evm(hop.toChainId);
    const changed = (t: ChainTx) => {
      const next = lzDestination(hop, t, resolver);
      return next && next.state !== hop.state ? next : undefined;
    };
    const apply = async (t: ChainTx) => {
      const next = changed(await c.withTime(t));
      return next ? { hop: next, forwards: [] } : undefined;
    };
    return watch(
      windowMs,
      intervalMs,
      [{ feed: evmFeed(hop.toChainId, intervalMs), match: (t) => !!changed(t), apply }],
      async () => {
        // From the destination block at the send's time (not a fixed distance back from the head: 9,000 blocks are
        // 37 minutes on Arbitrum, and a transfer tracked later, or followed through a long outage, would be missed),
        // in ranges of LZ_RANGE_BLOCKS, and from where the last poll of this hop stopped.
        const latest = await c.latestBlock();
        const key = `${hop.toChainId}:${hop.guid}`;
        let from = lzSearched.get(key) ?? (await lzStartBlock(c, hop, latest));
        // At most half the poll window on it (a slow node must not run the attempt into its timeout), the position
        // saved after every range so the next poll goes on from there. The last blocks are read again next time
        // (logs of the head may not be served yet).
        const until = Date.now() + windowMs / 2;
        for (let n = 0; n < LZ_RANGES_PER_POLL && from <= latest && Date.now() < until; n++) {
          const to = Math.min(latest, from + LZ_RANGE_BLOCKS - 1);
          const received = await c.logs([LZ_TOPICS.OFTReceived, hop.guid], from, to);
          const alerts =
            hop.state === 'LAYER_ZERO_TRANSFER_FAILED' ? [] : await c.logs([LZ_TOPICS.LzReceiveAlert], from, to);
          for (const t of [...received, ...alerts]) {
            const r = await apply(t);
            if (r) return r;
          }
          from = to + 1;
          remember(lzSearched, key, Math.max(0, Math.min(from, latest - 2)));
        }
        return undefined;
      },
    );
  }

  const pollOnce = (hop: Hop, windowMs: number, intervalMs: number): Promise<HopPollResult | undefined> => {
    switch (hop.kind) {
      case 'ibc':
        return pollIbc(hop, windowMs, intervalMs);
      case 'op_deposit':
        return pollDeposit(hop, windowMs, intervalMs);
      case 'op_withdrawal':
        return pollWithdrawal(hop, windowMs, intervalMs);
      case 'layer_zero':
        return pollLz(hop, windowMs, intervalMs);
    }
  };

  return {
    async waitSourceTx({ chainId, txHash, windowMs, pollIntervalMs }): Promise<SourceTxFound | null> {
      let found: ChainTx | undefined;
      if (isEvmHash(txHash)) {
        found = await pollUntil(windowMs, pollIntervalMs, async () => (await evm(chainId).tx(txHash)) ?? undefined);
      } else {
        const c = comet(chainId);
        found = await watch(
          windowMs,
          pollIntervalMs,
          [{ feed: cometFeed(chainId, pollIntervalMs), match: (t) => t.hash === txHash, apply: (t) => c.withTime(t) }],
          async () => (await c.tx(txHash)) ?? undefined,
        );
        // One more lookup by hash before giving up: a tx indexed late (the indexer trailing the feed) is not missed.
        found ??= (await c.tx(txHash)) ?? undefined;
      }
      if (!found) return null;
      const ref = resolver.txRef(chainId, found.hash, found.time);
      const tx = { ...ref, code: found.code, ...(found.log ? { log: found.log.slice(0, 512) } : {}) };
      const unfollowed: string[] = [];
      return {
        tx,
        hops: found.code === 0 ? deriveHops(found, resolver, unfollowed) : [],
        parties: found.code === 0 ? transferParties(found) : {},
        ...(unfollowed.length ? { unfollowed: unfollowed.slice(0, 8) } : {}),
      };
    },
    async pollHop({ hop, windowMs, pollIntervalMs }): Promise<HopPollResult> {
      return (await pollOnce(hop, windowMs, pollIntervalMs)) ?? { hop, forwards: [] };
    },
  };
}

/** Protobuf JSON duration ("604800s", "1.5s") → ms. */
export function durationMs(d: string): number {
  const m = /^(\d+(?:\.\d+)?)s$/.exec(d.trim());
  if (!m) throw new Error(`bad duration ${d}`);
  return Math.round(Number(m[1]) * 1000);
}
