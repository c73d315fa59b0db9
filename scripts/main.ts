// The main job. ROLE=all (default) runs everything in one process on embedded defaults: chDB under DATA_DIR,
// the recorded EVM sample chain on loopback when no chain is configured, the ingest, the indexer API
// (INDEXER_PORT), the router API (ROUTER_PORT) and transfer tracking (Temporal dev server, projection worker, and
// the chain worker in a child process unless TRACKING_CHAIN_WORKER=inline).
// ROLE=ingest|indexer|router|worker runs one part, as in docker-compose.yml.
import { realpathSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Server } from 'node:http';
import { createStore, type StoreOptions } from '../clickhouse/client.js';
import { migrate } from '../clickhouse/migrate.js';
import { type CommittedItems, type HandedLists, NO_HANDED_LISTS } from '../clickhouse/committed-items.js';
import { loadConfigOrExit, type AppConfig } from '../platform/config.js';
import { log } from '../platform/log.js';
import type { IngestSettings } from '../ingest/pipeline.js';
import type { IngestRunner } from '../ingest/thread.js';
import { closeServer, listen } from '../api/http/app.js';
import { corsFromConfig } from '../api/http/cors.js';
import type { Tracking } from '../tracking/index.js';
// Role-specific modules are imported on demand, so e.g. the ingest process never loads the router or Temporal.

interface ChainEndpoints {
  chainId: string;
  vm: 'evm' | 'move' | 'wasm';
  rpcUrl: string;
  restUrl: string;
  evmUrl?: string;
  stop?: () => Promise<void>;
}

async function chainEndpoints(config: AppConfig): Promise<ChainEndpoints | null> {
  if (config.COMETBFT_RPC_URL) {
    return {
      chainId: config.CHAIN_ID!,
      vm: config.VM!,
      rpcUrl: config.COMETBFT_RPC_URL,
      restUrl: config.COSMOS_REST_URL!,
      evmUrl: config.EVM_JSONRPC_URL,
    };
  }
  if (config.SAMPLE_CHAIN === 'none') return null;
  const { startSampleChain } = await import('../devnet/sample-chains/serve.js');
  const sample = await startSampleChain(config.SAMPLE_CHAIN);
  log.info('sample_chain.started', {
    kind: config.SAMPLE_CHAIN,
    chain_id: sample.chainId,
    rpc: sample.rpcUrl,
    rest: sample.restUrl,
    evm: sample.evmUrl,
  });
  return {
    chainId: sample.chainId,
    vm: sample.vm,
    rpcUrl: sample.rpcUrl,
    restUrl: sample.restUrl,
    evmUrl: sample.evmUrl,
    stop: () => sample.stop(),
  };
}

/** Hooks a test child process injects (devnet/tools/ingest-crash-main.ts); production passes none. */
export interface MainHooks {
  /** SIGKILL the process (no cleanup) right after the n-th insert into `table` of the ingest's batches. */
  crashAfterInsert?: { table: string; n: number };
}

export async function main(hooks: MainHooks = {}): Promise<void> {
  const config = loadConfigOrExit();
  const role = config.ROLE;
  if (role === 'worker') {
    // The standalone tracking worker (docker-compose `worker`): workflows and chain-polling activities.
    await import('../tracking/worker-main.js');
    return;
  }
  // Only where the APIs share the process with an ingest thread: a ROLE=ingest process has no API thread to make
  // room for, and an ingest on the APIs' own thread cannot be told apart from them.
  const ingestNice = role === 'all' && config.INGEST_THREAD && config.INGEST_ENABLED ? config.INGEST_THREAD_NICE : 0;
  // The engine sets a thread it niced back to 0, not to the process's value: in a process started nicer than 0 that
  // would put the backfill's engine work ahead of the APIs, so there the engine's threads are left alone.
  const engineNice = os.getPriority(0) === 0 ? ingestNice : 0;
  const storeOptions: StoreOptions = config.CLICKHOUSE_URL
    ? {
        url: config.CLICKHOUSE_URL,
        user: config.CLICKHOUSE_USER,
        password: config.CLICKHOUSE_PASSWORD,
        database: config.CLICKHOUSE_DATABASE,
      }
    : {
        dataDir: path.join(config.DATA_DIR, 'clickhouse'),
        readSessions: config.CHDB_READ_SESSIONS,
        // The engine's merges serve the ingest: where it runs niced beside the APIs, they run at its nice value.
        mergeNice: engineNice,
      };
  const store = createStore(storeOptions);
  const applied = await migrate(store);
  log.info('storage.ready', { engine: store.kind, migrations_applied: applied });
  if (applied.includes('200_analytics')) {
    // Upgrade of a store indexed before the analytics views existed: fill them from the facts once.
    const { rebuildStats } = await import('../clickhouse/analytics.js');
    const t = Date.now();
    await rebuildStats(store);
    log.info('analytics.backfilled', { ms: Date.now() - t });
  }
  if (role === 'migrate') {
    // docker-compose's one-shot step: the schema and its one-time fills are done once, before any other process
    // starts (several processes migrating at once repeated the fills' INSERT … SELECTs and double-counted).
    await store.close();
    log.info('migrate.done', { migrations_applied: applied });
    return;
  }

  const servers: Server[] = [];
  let ingest: IngestRunner | undefined;
  let tracking: Tracking | undefined;
  const needsChain = role === 'all' || role === 'ingest' || role === 'indexer';
  const chain = needsChain ? await chainEndpoints(config) : null;

  let shuttingDown = false;
  const shutdown = async (code: number, reason: string) => {
    if (shuttingDown) return;
    shuttingDown = true;
    log.info('shutdown.start', { reason });
    await ingest?.stop();
    await Promise.all(servers.map((s) => closeServer(s)));
    await tracking?.stop().catch((e: Error) => log.error('shutdown.tracking_failed', { error: e.message }));
    await chain?.stop?.();
    await store.close();
    log.info('shutdown.done', { code });
    process.exit(code);
  };
  process.on('SIGTERM', () => void shutdown(0, 'SIGTERM'));
  process.on('SIGINT', () => void shutdown(0, 'SIGINT'));

  // Both services' event streams (docs/streams.md): each counts its own against the limits.
  const streamSettings = {
    maxStreams: config.STREAMS_MAX,
    maxPerClient: config.STREAMS_PER_CLIENT,
    bufferBytes: config.STREAM_BUFFER_KB * 1024,
    heartbeatMs: config.STREAM_HEARTBEAT_MS,
    lifetimeMs: config.STREAM_LIFETIME_S * 1000,
  };

  // The ingest tells the indexer API in the same process when a height is written (its /status moves at once).
  const indexedListeners: (() => void)[] = [];
  const committedListeners: ((height: number, items?: CommittedItems) => void)[] = [];
  // The lists whose committed items the indexer's streams want with each commit (none until a stream opens).
  let handed: HandedLists = NO_HANDED_LISTS;
  let handToThread: ((lists: HandedLists) => void) | undefined;
  if ((role === 'all' || role === 'ingest') && config.INGEST_ENABLED && chain) {
    const settings: IngestSettings = {
      source: {
        rpcUrl: chain.rpcUrl,
        restUrl: chain.restUrl,
        evmUrl: chain.vm === 'evm' ? chain.evmUrl : undefined,
        evmTraces: config.EVM_INTERNAL_TXS,
        rpcBatch: config.RPC_BATCH,
        rangedTxReads: config.RANGED_TX_READS,
        rangedTxReadsMaxHistory: config.RANGED_TX_READS_MAX_HISTORY,
      },
      ingest: {
        vm: chain.vm,
        prefix: config.BECH32_PREFIX,
        startHeight: config.START_HEIGHT,
        fetchConcurrency: config.FETCH_CONCURRENCY,
        batchBlocks: config.BATCH_BLOCKS,
        pollIntervalMs: config.POLL_INTERVAL_MS,
        richListIntervalMs: config.RICHLIST_INTERVAL_MS,
        richListHeadIntervalMs: config.RICHLIST_HEAD_INTERVAL_MS,
        stopAtHeight: config.INGEST_STOP_AT_HEIGHT,
        statusLine: process.stderr.isTTY === true,
      },
      crashAfterInsert: hooks.crashAfterInsert,
    };
    const onIndexed = () => {
      for (const l of indexedListeners) l();
    };
    const onCommitted = (height: number, items?: CommittedItems) => {
      for (const l of committedListeners) l(height, items);
    };
    if (config.INGEST_THREAD) {
      const { startIngestThread } = await import('../ingest/thread.js');
      const thread = startIngestThread(
        {
          ...settings,
          // The thread's own reads are few (the enricher's and the rich list's lookups): two sessions.
          // Its statements' engine threads run at its nice value too.
          store: { ...storeOptions, readSessions: 2, queryNice: engineNice, mergeNice: undefined },
          nice: ingestNice,
        },
        { log, onIndexed, onCommitted },
      );
      handToThread = (lists) => thread.hand(lists);
      ingest = thread;
    } else {
      const { ingestFromSettings } = await import('../ingest/pipeline.js');
      ingest = ingestFromSettings(settings, store, log, { onIndexed, onCommitted, handedLists: () => handed });
    }
    ingest.run().then(
      () => {
        if (role === 'ingest') void shutdown(0, 'ingest finished');
      },
      (e: Error) => {
        log.error('ingest.stopped', { error: e.message });
        void shutdown(1, 'ingest failed');
      },
    );
  }

  if ((role === 'all' || role === 'indexer') && chain) {
    const { createIndexerApp } = await import('../api/indexer/app.js');
    const app = createIndexerApp({
      store,
      config: { ...config, CHAIN_ID: chain.chainId, VM: chain.vm },
      chain: { restUrl: chain.restUrl },
      // The dashboard shows the router's transfer statistics when this process also serves the router.
      routerUrl:
        role === 'all' && config.ROUTER_ENABLED ? `http://${config.HTTP_HOST}:${config.ROUTER_PORT}` : undefined,
      cors: corsFromConfig(config),
      trustProxyHops: config.TRUST_PROXY_HOPS,
      responseCache: config.INDEXER_RESPONSE_CACHE,
      finalCacheBytes: config.INDEXER_FINAL_CACHE_MB * 2 ** 20,
      richListMemoryBytes: config.INDEXER_RICHLIST_MEMORY_MB * 2 ** 20,
      tokensHeld: config.INDEXER_NFT_TOKENS_HELD,
      onIndexed: (l) => indexedListeners.push(l),
      onCommitted: (l) => committedListeners.push(l),
      handLists: ingest
        ? (lists) => {
            handed = lists;
            handToThread?.(lists);
          }
        : undefined,
      streams: streamSettings,
    });
    servers.push(await listen(app, config.INDEXER_PORT, config.HTTP_HOST));
    log.info('indexer.listening', {
      url: `http://${config.HTTP_HOST}:${config.INDEXER_PORT}`,
      chain_id: chain.chainId,
      vm: chain.vm,
    });
  }

  if ((role === 'all' || role === 'router') && config.ROUTER_ENABLED) {
    const { createRouterApp, routerOptionsFromConfig } = await import('../api/router/app.js');
    const { loadRouterRegistry } = await import('../routing/registry.js');
    const { createTrackingRoutes } = await import('../api/router/tracking/index.js');
    const { startTracking } = await import('../tracking/index.js');
    const { directoryFromEnv } = await import('../tracking/registry-adapter.js');
    const registry = loadRouterRegistry(config);
    if (config.TRACKING_ENABLED) {
      // ROLE=router serves track/status and the projection; ROLE=worker processes run the chain workers.
      tracking = await startTracking({
        config,
        store,
        chains: directoryFromEnv(registry),
        log,
        // ROLE=all: the chain worker in a child process by default, off the API's event loop (issue 14).
        runChainWorker: role === 'all' && config.TRACKING_CHAIN_WORKER === 'inline',
        chainWorkerProcess: role === 'all' && config.TRACKING_CHAIN_WORKER === 'process',
      });
    }
    const app = createRouterApp({
      registry,
      ...routerOptionsFromConfig(config, registry),
      tracking: tracking ? createTrackingRoutes(tracking.service, streamSettings) : undefined,
      cors: corsFromConfig(config),
      trustProxyHops: config.TRUST_PROXY_HOPS,
      store,
    });
    servers.push(await listen(app, config.ROUTER_PORT, config.HTTP_HOST));
    log.info('router.listening', {
      url: `http://${config.HTTP_HOST}:${config.ROUTER_PORT}`,
      network: config.ROUTER_NETWORK,
      tracking: Boolean(tracking),
    });
  }
}

/** Run the main job; a bad configuration or registry is one clear line and exit code 2, anything else exit 1. */
export function runMain(hooks: MainHooks = {}): void {
  main(hooks).catch((e: Error) => {
    if (e.name === 'ConfigError' || e.name === 'RegistryError') {
      process.stderr.write(`${e.message}\n`);
      process.exit(2);
    }
    log.error('main.failed', { error: e.stack ?? e.message });
    process.exit(1);
  });
}

// Run when started as the entry point (not when a test child imports it to inject hooks).
if (process.argv[1] && fileURLToPath(import.meta.url) === realpathSync(process.argv[1])) runMain();
