// Shared set-up of the tracking integration tests: real chDB, real Temporal dev server, simnet on loopback,
// the tracking routes on a real express app.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Server } from 'node:http';
import express from 'express';
import { createStore, type Store } from '../../clickhouse/client.js';
import { createServiceApp, listen, closeServer } from '../../api/http/app.js';
import { errorHandler, notFoundHandler } from '../../api/http/errors.js';
import { createTrackingRoutes } from '../../api/router/tracking/index.js';
import { createRouterApp, type RouterAppOptions } from '../../api/router/app.js';
import { loadRouterRegistry } from '../../routing/registry.js';
import { type ChainInfo, staticDirectory } from '../../activities/chains.js';
import { createLogger } from '../../platform/log.js';
import { startTracking, type Tracking } from '../../tracking/index.js';
import type { TrackingTimings } from '../../workflows/model.js';
import { Simnet, type SimnetOptions } from '../../devnet/simnet/index.js';
import type { WebhookSettings } from '../../workflows/webhook.js';
import { spawnTrackingWorker } from '../support/tracking-worker.js';

export const FAST: TrackingTimings = {
  pollIntervalMs: 200,
  pollWindowMs: 3_000,
  sourceTimeoutMs: 4_000,
  ibcStallMs: 20_000,
  lzStallMs: 20_000,
  depositStallMs: 20_000,
  withdrawalStallMs: 20_000,
  lzRetryWindowMs: 2_000,
};

export interface Harness {
  dataDir: string;
  store: Store;
  simnet: Simnet;
  tracking: Tracking;
  url: string;
  server: Server;
  /** POST /v2/tx/track; `extra` adds body fields (webhook_url). */
  track(
    chainId: string,
    txHash: string,
    extra?: Record<string, unknown>,
  ): Promise<{ status: number; body: Record<string, unknown> }>;
  status(chainId: string, txHash: string): Promise<{ status: number; body: Record<string, any> }>;
  /** Poll status until `pred` holds (or throw after timeoutMs). */
  waitFor(
    chainId: string,
    txHash: string,
    pred: (b: Record<string, any>) => boolean,
    timeoutMs?: number,
  ): Promise<Record<string, any>>;
  close(): Promise<void>;
}

export const terminal = (b: Record<string, any>) =>
  ['STATE_COMPLETED_SUCCESS', 'STATE_COMPLETED_ERROR', 'STATE_ABANDONED'].includes(b.state);

export async function startHarness(
  o: {
    timings?: Partial<TrackingTimings>;
    simnet?: SimnetOptions;
    runChainWorker?: boolean;
    dataDir?: string;
    /** Webhook policy of the track route and an in-process chain worker (default: none, webhooks refused). */
    webhooks?: WebhookSettings;
    /** The chain directory as this deployment configures it, from the simnet's (default: every endpoint). */
    chains?: (simnet: ChainInfo[]) => ChainInfo[];
  } = {},
): Promise<Harness> {
  const dataDir = o.dataDir ?? mkdtempSync(path.join(tmpdir(), 'tracking-test-'));
  const store = createStore({ dataDir: path.join(dataDir, 'clickhouse') });
  const simnet = await Simnet.start(o.simnet);
  const log = createLogger({ test: 'tracking' });
  const tracking = await startTracking({
    config: {
      DATA_DIR: dataDir,
      TEMPORAL_ADDRESS: undefined,
      TEMPORAL_NAMESPACE: 'default',
      TEMPORAL_TASK_QUEUE: 'transfer-tracking',
    },
    store,
    chains: staticDirectory(o.chains ? o.chains(simnet.chainInfos()) : simnet.chainInfos()),
    log,
    timings: { ...FAST, ...o.timings },
    runChainWorker: o.runChainWorker,
    webhooks: o.webhooks ?? null,
  });
  const app = createServiceApp({ service: 'router', openapi: {}, bodyLimit: '16kb' });
  const router = express.Router();
  createTrackingRoutes(tracking.service).mount(router);
  app.use(router);
  app.use(notFoundHandler());
  app.use(errorHandler('router'));
  const server = await listen(app, 0);
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const h: Harness = {
    dataDir,
    store,
    simnet,
    tracking,
    url,
    server,
    async track(chainId, txHash, extra = {}) {
      const r = await fetch(`${url}/v2/tx/track`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ chain_id: chainId, tx_hash: txHash, ...extra }),
      });
      return { status: r.status, body: (await r.json()) as Record<string, unknown> };
    },
    async status(chainId, txHash) {
      const r = await fetch(
        `${url}/v2/tx/status?chain_id=${encodeURIComponent(chainId)}&tx_hash=${encodeURIComponent(txHash)}`,
      );
      return { status: r.status, body: (await r.json()) as Record<string, any> };
    },
    async waitFor(chainId, txHash, pred, timeoutMs = 30_000) {
      const end = Date.now() + timeoutMs;
      let last: Record<string, any> = {};
      while (Date.now() < end) {
        const r = await h.status(chainId, txHash);
        last = r.body;
        if (r.status === 200 && pred(r.body)) return r.body;
        await new Promise((res) => setTimeout(res, 100));
      }
      throw new Error(`timed out waiting for ${chainId}/${txHash}; last status ${JSON.stringify(last).slice(0, 1500)}`);
    },
    async close() {
      await closeServer(server);
      await tracking.stop();
      await simnet.stop();
      await store.close();
      if (!o.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return h;
}

/**
 * The real router app (mainnet registry, OpenAPI validation on) with the harness's tracking routes, on a free
 * loopback port. `extra` sets other app options (per-client limits, say).
 */
export async function serveRouter(
  h: Harness,
  extra: Partial<RouterAppOptions> = {},
): Promise<{ server: Server; url: string }> {
  const app = createRouterApp({
    registry: loadRouterRegistry({ ROUTER_NETWORK: 'mainnet' }),
    tracking: createTrackingRoutes(h.tracking.service),
    ...extra,
  });
  const server = await listen(app, 0);
  return { server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}` };
}

/**
 * The standalone chain worker (tracking/worker-main.ts) in a child process against the harness's Temporal and
 * simnet, resolved once it is ready; `env` adds variables (WEBHOOK_*, say).
 */
export function startWorkerProcess(h: Harness, env: Record<string, string> = {}): Promise<ChildProcess> {
  const chainsFile = path.join(h.dataDir, 'chains.json');
  writeFileSync(chainsFile, JSON.stringify(h.simnet.chainInfos()));
  return spawnTrackingWorker({
    TEMPORAL_ADDRESS: h.tracking.address,
    TRACKING_CHAINS_FILE: chainsFile,
    DATA_DIR: path.join(h.dataDir, 'worker'),
    ROUTER_NETWORK: 'mainnet',
    ...env,
  });
}
