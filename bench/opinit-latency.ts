// Detection latency on a real OPinit bridge (issue 27): L1 initiad + L2 minievm + the executor opinitd
// (devnet/opinit/, 5 s submission interval, 10 s finalization period), our router app with tracking (embedded
// chDB, Temporal dev server, in-process chain worker). N deposits, then N withdrawals, sent one per second through
// the client flow (msgs → sign → broadcast → track); each withdrawal is claimed with our /v2/tx/claim_msgs as soon
// as the status says it is ready. For every step, from the block that holds it to our status first showing it:
//   deposit initiated   L1 block of the deposit           → the status has the hop
//   deposit finalized   L2 block of finalize_token_deposit → phase finalized
//   withdrawal output   L1 block of the covering output    → phase output_proposed
//   claimable           first L1 block at or past claimable_at → phase claimable (target < 1 s)
//   claimed             L1 block of finalize_token_withdrawal → phase claimed
// p50 / p95 / max per step, beside the machine and a fixed CPU calibration loop (bench/machine.ts).
//   npx tsx bench/opinit-latency.ts [--transfers 30] [--status-poll-ms 100] [--poll-ms 250] [--out file.json]
// Only on a quiet machine do the figures mean anything (BENCHMARKS.md); `--transfers 2` proves it runs.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { closeServer, listen } from '../api/http/app.js';
import { createRouterApp } from '../api/router/app.js';
import { createTrackingRoutes } from '../api/router/tracking/index.js';
import { createStore } from '../clickhouse/client.js';
import { deriveDevAccount } from '../devnet/minievm/accounts.js';
import { buildSignedTx } from '../devnet/minievm/cosmos-tx.js';
import { broadcastSync, cometRpc, fetchAccount, waitForCosmosTx } from '../devnet/minievm/node-client.js';
import { opinitMsgAny } from '../devnet/opinit/messages.js';
import { OpinitDevnet, writeOpinitRegistry } from '../devnet/opinit/bridge.js';
import { createLogger } from '../platform/log.js';
import { loadRouterRegistry } from '../routing/registry.js';
import { startTracking } from '../tracking/index.js';
import { directoryFromRegistry } from '../tracking/registry-adapter.js';
import { machine } from './machine.js';

const arg = (name: string, def: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : def;
};
const N = Number(arg('transfers', '30'));
const STATUS_POLL_MS = Number(arg('status-poll-ms', '100'));
const POLL_MS = Number(arg('poll-ms', '250'));
const OUT = arg('out', '');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? Number.NaN;
};
const stats = (xs: number[]) => ({ n: xs.length, p50: pct(xs, 50), p95: pct(xs, 95), max: Math.max(...xs) });
// any: our own API's JSON, read field by field
type Doc = Record<string, any>;

async function main(): Promise<void> {
  const before = machine();
  const dir = mkdtempSync(path.join(tmpdir(), 'opinit-bench-'));
  console.error(`[bench] starting the OPinit bridge devnet in ${dir} (builds cached in ~/.cache/chain-infra)`);
  const net = await OpinitDevnet.start(path.join(dir, 'net'));
  const stops: (() => Promise<unknown>)[] = [() => net.stop()];
  try {
    const L1 = net.l1.chainId;
    const L2 = net.l2.chainId;
    const L2_UINIT = net.env.L2_DENOM_UINIT;
    const registry = loadRouterRegistry({
      ROUTER_NETWORK: 'custom',
      ROUTER_REGISTRY_FILE: writeOpinitRegistry(net.env, path.join(dir, 'registry')),
    });
    const store = createStore({ dataDir: path.join(dir, 'clickhouse') });
    const tracking = await startTracking({
      config: { DATA_DIR: dir, TEMPORAL_ADDRESS: undefined, TEMPORAL_NAMESPACE: 'default', TEMPORAL_TASK_QUEUE: 'tt' },
      store,
      chains: directoryFromRegistry(registry, { [L1]: net.env.L1_RPC_URL, [L2]: net.env.L2_RPC_URL }),
      log: createLogger({ bench: 'opinit' }),
      timings: {
        pollIntervalMs: POLL_MS,
        pollWindowMs: 20_000,
        sourceTimeoutMs: 120_000,
        ibcStallMs: 600_000,
        lzStallMs: 600_000,
        depositStallMs: 600_000,
        withdrawalStallMs: 600_000,
        lzRetryWindowMs: 2_000,
        outputCheckMs: 60_000,
      },
    });
    stops.unshift(async () => {
      await tracking.stop();
      await store.close();
    });
    const server = await listen(createRouterApp({ registry, tracking: createTrackingRoutes(tracking.service) }), 0);
    stops.unshift(() => closeServer(server));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    const call = async (method: 'GET' | 'POST', p: string, body?: unknown): Promise<Doc> => {
      const r = await fetch(`${url}${p}`, {
        method,
        headers: body ? { 'content-type': 'application/json' } : {},
        body: body ? JSON.stringify(body) : undefined,
      });
      if (r.status !== 200) throw new Error(`${p} → ${r.status}: ${await r.text()}`);
      return (await r.json()) as Doc;
    };
    const user = deriveDevAccount(1);
    const seqs = new Map<string, { number: bigint; seq: bigint }>();
    for (const ep of [net.l1, net.l2]) {
      const a = await fetchAccount(ep, user.bech32);
      seqs.set(ep.chainId, { number: a.accountNumber, seq: a.sequence });
    }
    /** route → msgs → sign (sequence counted here) → broadcast → track; the source tx hash. */
    const send = async (from: string, fromDenom: string, to: string, toDenom: string, amount: string) => {
      const req = {
        amount_in: amount,
        source_asset_chain_id: from,
        source_asset_denom: fromDenom,
        dest_asset_chain_id: to,
        dest_asset_denom: toDenom,
      };
      const route = await call('POST', '/v2/fungible/route', req);
      const msgs = await call('POST', '/v2/fungible/msgs', {
        ...req,
        address_list: [user.bech32, user.bech32],
        operations: route.operations,
      });
      const tx = msgs.txs[0].cosmos_tx;
      const s = seqs.get(from)!;
      const signed = buildSignedTx(
        { account: user, chainId: from, accountNumber: s.number, sequence: s.seq++ },
        tx.msgs.map(opinitMsgAny),
        { amount: [{ denom: from === L1 ? 'uinit' : 'umin', amount: '0' }], gasLimit: 800_000 },
      );
      const b = await broadcastSync(net.endpoints(from), signed.txBytes);
      if (b.code !== 0) throw new Error(`CheckTx ${b.code}: ${b.log}`);
      await call('POST', '/v2/tx/track', { chain_id: from, tx_hash: signed.txHash });
      return signed.txHash;
    };
    const blockTimes = new Map<string, number>();
    const blockTime = async (chainId: string, height: number) => {
      const k = `${chainId}|${height}`;
      if (!blockTimes.has(k)) {
        const b = await cometRpc<{ block: { header: { time: string } } }>(net.endpoints(chainId).cometRpc, 'block', {
          height: String(height),
        });
        blockTimes.set(k, Date.parse(b.block.header.time));
      }
      return blockTimes.get(k)!;
    };
    const txTime = async (chainId: string, hash: string) =>
      blockTime(chainId, Number((await waitForCosmosTx(net.endpoints(chainId), hash)).height));
    /** The first L1 block whose time is at or past `at` (ms), searching up from `from`. */
    const firstL1BlockAtOrAfter = async (from: number, at: number) => {
      for (let h = from; ; h++) {
        for (let i = 0; ; i++) {
          try {
            const t = await blockTime(L1, h);
            if (t >= at) return t;
            break;
          } catch (e) {
            if (i > 100) throw e;
            await sleep(200); // not produced yet
          }
        }
      }
    };
    /** Polls the status until every predicate has been seen once; the wall-clock time each first held. */
    const watch = async (
      chainId: string,
      txHash: string,
      preds: Record<string, (d: Doc) => boolean>,
      onDoc?: (d: Doc) => Promise<void>,
    ) => {
      const seen: Record<string, number> = {};
      let last: Doc = {};
      const end = Date.now() + 300_000;
      while (Object.keys(seen).length < Object.keys(preds).length) {
        if (Date.now() > end)
          throw new Error(`${txHash}: not done in 300 s; last ${JSON.stringify(last).slice(0, 800)}`);
        last = await call('GET', `/v2/tx/status?chain_id=${chainId}&tx_hash=${txHash}`);
        const now = Date.now();
        for (const [k, p] of Object.entries(preds)) if (!(k in seen) && p(last)) seen[k] = now;
        await onDoc?.(last);
        await sleep(STATUS_POLL_MS);
      }
      return { seen, last };
    };
    const op = (d: Doc): Doc => d.transfer_sequence?.[0]?.op_init_transfer ?? {};
    const lat: Record<string, number[]> = {
      deposit_initiated: [],
      deposit_finalized: [],
      withdrawal_initiated: [],
      output_proposed: [],
      claimable: [],
      claimed: [],
    };

    const deposit = async () => {
      const h = await send(L1, 'uinit', L2, L2_UINIT, '100000');
      const { seen, last } = await watch(L1, h, {
        initiated: (d) => !!op(d).state,
        finalized: (d) => op(d).phase === 'finalized',
      });
      lat.deposit_initiated!.push(seen.initiated! - (await txTime(L1, h)));
      lat.deposit_finalized!.push(seen.finalized! - (await txTime(L2, op(last).txs.receive_tx.tx_hash)));
    };
    const withdraw = async () => {
      const h = await send(L2, L2_UINIT, L1, 'uinit', '1000');
      let claim: Promise<void> | undefined;
      const { seen, last } = await watch(
        L2,
        h,
        {
          initiated: (d) => !!op(d).state,
          output: (d) => !!op(d).output_index,
          claimable: (d) => op(d).phase === 'claimable' || op(d).phase === 'claimed',
          claimed: (d) => op(d).phase === 'claimed',
        },
        async (d) => {
          if (claim || d.next_action?.ready !== true) return;
          // The claim is signed and sent at once; its inclusion is checked beside the polling (which times it).
          const msgs = await call('GET', `/v2/tx/claim_msgs?chain_id=${L2}&tx_hash=${h}`);
          const s = seqs.get(L1)!;
          const signed = buildSignedTx(
            { account: user, chainId: L1, accountNumber: s.number, sequence: s.seq++ },
            msgs.txs[0].cosmos_tx.msgs.map(opinitMsgAny),
            { amount: [{ denom: 'uinit', amount: '0' }], gasLimit: 800_000 },
          );
          const b = await broadcastSync(net.l1, signed.txBytes);
          if (b.code !== 0) throw new Error(`claim CheckTx ${b.code}: ${b.log}`);
          claim = waitForCosmosTx(net.l1, signed.txHash, 120_000).then((t) => {
            if (t.tx_result.code !== 0) throw new Error(`claim ${signed.txHash} failed on L1: ${t.tx_result.log}`);
          });
          claim.catch(() => undefined); // awaited (and thrown) below
        },
      ).catch(async (e) => {
        await claim; // a failed claim explains a transfer that never completes
        throw e;
      });
      await claim;
      lat.withdrawal_initiated!.push(seen.initiated! - (await txTime(L2, h)));
      const index = op(last).output_index;
      const rest = await fetch(`${net.l1.rest}/opinit/ophost/v1/bridges/${net.env.BRIDGE_ID}/outputs/${index}`);
      const proposal = ((await rest.json()) as Doc).output_proposal;
      lat.output_proposed!.push(seen.output! - (await blockTime(L1, Number(proposal.l1_block_number))));
      const at = Date.parse(op(last).claimable_at);
      lat.claimable!.push(seen.claimable! - (await firstL1BlockAtOrAfter(Number(proposal.l1_block_number), at)));
      lat.claimed!.push(seen.claimed! - (await txTime(L1, op(last).txs.receive_tx.tx_hash)));
    };

    // One warm-up of each (not counted): worker start-up, bundle loading, the chain feeds.
    await deposit();
    for (const k of Object.keys(lat)) lat[k] = [];
    const runAt1PerSecond = async (fn: () => Promise<void>) => {
      const all: Promise<void>[] = [];
      for (let i = 0; i < N; i++) {
        all.push(fn());
        await sleep(1_000);
      }
      await Promise.all(all);
    };
    await runAt1PerSecond(deposit);
    await runAt1PerSecond(withdraw);
    const report = {
      machine_before: before,
      transfers: N,
      status_poll_ms: STATUS_POLL_MS,
      tracking_poll_ms: POLL_MS,
      bridge: { submission_interval: '5s', finalization_period: net.env.FINALIZATION_PERIOD },
      latency_ms: Object.fromEntries(Object.entries(lat).map(([k, v]) => [k, stats(v)])),
      machine_after: machine(),
    };
    console.log(JSON.stringify(report, null, 2));
    if (OUT) writeFileSync(OUT, `${JSON.stringify(report, null, 2)}\n`);
  } finally {
    for (const s of stops) await s().catch((e) => console.error(`[bench] stop: ${(e as Error).message}`));
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(`[bench] failed: ${(e as Error).stack ?? e}`);
  process.exit(1);
});
