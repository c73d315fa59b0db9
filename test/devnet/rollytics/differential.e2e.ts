import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runScript, scriptEnv } from '../../../devnet/run-script.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, IngestProcess } from '../../../devnet/minievm/ingest-process.js';
import { latestHeight, sleep, type NodeEndpoints } from '../../../devnet/minievm/node-client.js';
import { runTraffic, type TrafficResult } from '../../../devnet/minievm/traffic.js';
import { DEFAULT_SHAPE, planTraffic, type Plan } from '../../../devnet/minievm/traffic-plan.js';
import {
  fetchAnswer,
  formatDifferences,
  NORMALISATIONS,
  runProbe,
  runProbes,
  type Probe,
  waitForByName,
} from '../../../devnet/rollytics/differential.js';
import { freePortBase } from '../../../devnet/minievm/devnet-process.js';
import { buildProbes, readChainKeys, waitForFeeData, type ChainKeys } from '../../../devnet/rollytics/probes.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');
const MINIEVM = path.join(ROOT, 'devnet', 'minievm');
const ROLLYTICS = path.join(ROOT, 'devnet', 'rollytics');
const CATCH_UP_MS = 180_000;
/** rollytics processes its rich list this many blocks behind its head (richlist/utils RICH_LIST_BLOCK_DELAY). */
const RICH_LIST_BLOCK_DELAY = 5;

let tmp: string;
let ep: NodeEndpoints;
let ours: IngestProcess | undefined;
let theirs = '';
let nodeStarted = false;
let rollyticsStarted = false;
let plan: Plan;
let traffic: TrafficResult;
let keys: ChainKeys;

/** The head stops once the traffic is done (EMPTY_BLOCKS=false): wait until it has not moved for 3 s. */
async function stillHead(): Promise<number> {
  let h = await latestHeight(ep);
  for (let still = 0; still < 6; ) {
    await sleep(500);
    const now = await latestHeight(ep);
    still = now === h ? still + 1 : 0;
    h = now;
  }
  return h;
}

/** Both indexers at the chain's height with their rich lists and internal txs caught up: /status equal. */
async function bothCaughtUp(height: number): Promise<void> {
  const probe: Probe = { endpoint: '/status', key: '-', path: '/status' };
  const deadline = Date.now() + CATCH_UP_MS;
  let last = '';
  for (;;) {
    const [o, t] = await Promise.all([fetchAnswer(ours?.baseUrl ?? '', '/status'), fetchAnswer(theirs, '/status')]);
    const at = (a: typeof o, k: string) => Number((a.body as Record<string, unknown>)?.[k] ?? 0);
    const ready =
      o.status === 200 &&
      t.status === 200 &&
      at(o, 'height') >= height &&
      at(t, 'height') >= height &&
      at(o, 'rich_list_height') >= height &&
      at(t, 'rich_list_height') >= height - RICH_LIST_BLOCK_DELAY &&
      at(t, 'internal_tx_height') >= height;
    if (ready) {
      const diffs = await runProbe({ ours: ours?.baseUrl ?? '', theirs }, probe);
      if (diffs.length === 0) return;
      last = formatDifferences(diffs);
    } else {
      last = `ours ${JSON.stringify(o.body)} | rollytics ${JSON.stringify(t.body)}`;
    }
    if (Date.now() > deadline) throw new Error(`indexers did not both reach height ${height}: ${last}`);
    await sleep(500);
  }
}

beforeAll(async () => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'rollytics-diff-'));
  // 1. Both binaries first: a build failure fails the suite with the build's own message.
  runScript(path.join(MINIEVM, 'build.sh'), [], {}, 'devnet/minievm/build.sh (minitiad)');
  runScript(path.join(ROLLYTICS, 'build.sh'), [], {}, 'devnet/rollytics/build.sh (rollytics)');
  runScript(path.join(ROLLYTICS, 'install-postgres.sh'), [], {}, 'devnet/rollytics/install-postgres.sh (PostgreSQL)');
  // 2. The chain.
  plan = planTraffic(DEFAULT_SHAPE);
  const nodeOpts = {
    PORT_BASE: String(await freePortBase()),
    DEVNET_ACCOUNTS: String(DEFAULT_SHAPE.accounts),
    GENESIS_FOR_ROLLYTICS: '1',
  };
  const nodeEnv = scriptEnv(
    runScript(path.join(MINIEVM, 'start.sh'), [path.join(tmp, 'node')], nodeOpts, 'devnet/minievm/start.sh'),
  );
  nodeStarted = true;
  ep = {
    chainId: nodeEnv.CHAIN_ID ?? '',
    cometRpc: nodeEnv.COMETBFT_RPC_URL ?? '',
    rest: nodeEnv.COSMOS_REST_URL ?? '',
    evmRpc: nodeEnv.EVM_JSONRPC_URL ?? '',
  };
  // 3. Traffic, then a still head: the node restarts on its data without empty blocks (during the traffic they
  // are needed: minievm's app-side mempool holds future-nonce txs where CometBFT does not see them).
  await waitForFeeData(ep);
  traffic = await runTraffic(ep, plan);
  // Upstream's rich list stays RICH_LIST_BLOCK_DELAY (5) blocks behind the head: let a few empty blocks pass so
  // that its last processed height lies above the last tx.
  while ((await latestHeight(ep)) < traffic.lastHeight + RICH_LIST_BLOCK_DELAY + 2) await sleep(250);
  runScript(path.join(MINIEVM, 'stop.sh'), [path.join(tmp, 'node')], {}, 'devnet/minievm/stop.sh');
  runScript(
    path.join(MINIEVM, 'start.sh'),
    [path.join(tmp, 'node')],
    { ...nodeOpts, RESUME: '1', EMPTY_BLOCKS: 'false' },
    'devnet/minievm/start.sh (resume)',
  );
  const height = await stillHead();
  // 4. Both indexers index it from height 1, started after the restart (with rollytics following through the
  // restart, its rich list stayed a few blocks short of the head for good in a first run).
  ours = new IngestProcess({
    endpoints: ep,
    dataDir: path.join(tmp, 'ours'),
    port: await freePort(),
    extraEnv: { RICHLIST_INTERVAL_MS: '500', EVM_INTERNAL_TXS: 'true', LOG_LEVEL: 'warn' },
  });
  await ours.start();
  rollyticsStarted = true;
  const r = scriptEnv(
    // its API once its indexer is at the still head (the by_name list, start.sh)
    runScript(
      path.join(ROLLYTICS, 'start.sh'),
      [path.join(tmp, 'rollytics')],
      { ...nodeEnv, ROLLYTICS_API_AFTER_HEIGHT: String(height) },
      'devnet/rollytics/start.sh',
    ),
  );
  theirs = r.ROLLYTICS_API_URL ?? '';
  await bothCaughtUp(height);
  const tokenIds = plan.phases.flat().flatMap((op) => (op.kind === 'erc721-mint' ? [op.tokenId.toString()] : []));
  keys = await readChainKeys(ep, {
    collections: [{ address: traffic.nftAddress, name: 'Devnet Collection' }],
    tokens: tokenIds.map((tokenId) => ({ collection: traffic.nftAddress, tokenId })),
    denoms: ['umin', traffic.erc20Address],
  });
}, 900_000);

afterAll(async () => {
  await ours?.stop();
  if (rollyticsStarted)
    runScript(path.join(ROLLYTICS, 'stop.sh'), [path.join(tmp, 'rollytics')], {}, 'devnet/rollytics/stop.sh');
  if (nodeStarted) runScript(path.join(MINIEVM, 'stop.sh'), [path.join(tmp, 'node')], {}, 'devnet/minievm/stop.sh');
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe('ours vs rollytics on a live minievm devnet', () => {
  it('the chain has what the comparison needs (txs of every kind, accounts, NFTs)', () => {
    expect(keys.txHashes.length).toBeGreaterThanOrEqual(traffic.sent.length);
    expect(keys.accounts.length).toBeGreaterThanOrEqual(DEFAULT_SHAPE.accounts);
    expect(keys.msgTypes.length).toBeGreaterThanOrEqual(2);
    expect(keys.tokens.length).toBe(DEFAULT_SHAPE.nftMints);
  });

  it('every endpoint, every key, every page: the same JSON up to the documented normalisations', async () => {
    const probes = buildProbes(keys);
    // Upstream serves by_name from an in-memory list that the first request fills; concurrent requests that
    // arrive while it is being filled read it empty. Fill it with one request before the concurrent probes.
    const warm = await waitForByName(theirs, 'Devnet', 15_000);
    expect(warm, 'rollytics by_name/Devnet never listed the devnet collection').toBeGreaterThan(0);
    const { differences, stats } = await runProbes({ ours: ours?.baseUrl ?? '', theirs }, probes, { concurrency: 4 });
    // every difference, for reading beyond the report's first few per endpoint
    mkdirSync(path.join(ROOT, '.tmp'), { recursive: true });
    writeFileSync(path.join(ROOT, '.tmp', 'rollytics-differences.json'), JSON.stringify(differences, null, 1));
    process.stdout.write(
      `rollytics differential: height ${keys.height}, ${keys.txHashes.length} txs, ${probes.length} probes, ${stats.requests} requests, ${differences.length} differences\n`,
    );
    expect(differences.length, formatDifferences(differences)).toBe(0);
    // all 16 endpoints of the spec and the 4 EVM receipt endpoints were exercised
    expect(new Set(probes.map((p) => p.endpoint)).size).toBe(20);
    expect(keys.evmTxHashes.length).toBeGreaterThan(0);
    expect(stats.requests).toBeGreaterThan(probes.length);
    expect(NORMALISATIONS.length).toBeGreaterThan(0);
  }, 600_000);
});
