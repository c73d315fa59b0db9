// The rollytics differential on Move and Wasm (issue 26): for each VM, a real minimove / miniwasm devnet gets the
// same signed traffic as its node-vs-indexer suite (test/devnet/vm-nodes/), the head is stilled, then our indexer
// (VM=move|wasm) and rollytics (VM_TYPE=move|wasm, no JSON-RPC, no internal txs) index it from height 1, and every
// endpoint both serve is compared with every key the chain has, under the same normalisations as on EVM
// (devnet/rollytics/differential.ts NORMALISATIONS, docs/indexer.md). The EVM endpoints and the rich list are EVM-only.
//   npx vitest run -c devnet/rollytics/vitest.e2e.config.ts test/devnet/rollytics/vm-differential.e2e.ts
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Vm } from '../../../chain/vm.js';
import { freePortBase } from '../../../devnet/minievm/devnet-process.js';
import { freePort, IngestProcess } from '../../../devnet/minievm/ingest-process.js';
import { latestHeight, sleep, type NodeEndpoints } from '../../../devnet/minievm/node-client.js';
import { MOVE_ACCOUNTS, runMoveTraffic } from '../../../devnet/minimove/traffic.js';
import { runWasmTraffic, WASM_ACCOUNTS } from '../../../devnet/miniwasm/traffic.js';
import {
  fetchAnswer,
  formatDifferences,
  NON_EVM_NORMALISATIONS,
  NORMALISATIONS,
  runProbe,
  runProbes,
  waitForByName,
} from '../../../devnet/rollytics/differential.js';
import { buildProbes, readChainKeys, type ChainKeys } from '../../../devnet/rollytics/probes.js';
import { runScript, scriptEnv } from '../../../devnet/run-script.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');
const START = path.join(ROOT, 'devnet', 'minievm', 'start.sh');
const STOP = path.join(ROOT, 'devnet', 'minievm', 'stop.sh');
const ROLLYTICS = path.join(ROOT, 'devnet', 'rollytics');
const CATCH_UP_MS = 180_000;
/** On Move and Wasm: the shared normalisations and those of a chain without the EVM rich list. */
const VM_NORMALISATIONS = [...NORMALISATIONS, ...NON_EVM_NORMALISATIONS];

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

interface Case {
  vm: Exclude<Vm, 'evm'>;
  flavor: 'minimove' | 'miniwasm';
  accounts: number;
  /** runs the traffic; the collections and tokens it made, as both APIs name them in paths */
  traffic(ep: NodeEndpoints): Promise<Pick<ChainKeys, 'collections' | 'tokens'>>;
  /** how many of the 16 endpoints both serve the traffic exercises (the rich list is EVM-only) */
  endpoints: number;
}

const CASES: Case[] = [
  {
    vm: 'move',
    flavor: 'minimove',
    accounts: MOVE_ACCOUNTS,
    async traffic(ep) {
      const r = await runMoveTraffic(ep, 'd1');
      return {
        collections: r.collections.map((address, i) => ({ address, name: `Devnet Move d1 #${i + 1}` })),
        tokens: r.minted.map((m) => ({ collection: m.collection, tokenId: m.tokenId })),
      };
    },
    endpoints: 15,
  },
  {
    vm: 'wasm',
    flavor: 'miniwasm',
    accounts: WASM_ACCOUNTS,
    // No CW721 here: rollytics' indexer panics on the block that instantiates one (the last test below).
    async traffic(ep) {
      await runWasmTraffic(ep, 'd1', { cw721: false });
      return { collections: [], tokens: [] };
    },
    // less the three per-collection endpoints
    endpoints: 12,
  },
];

for (const c of CASES) {
  describe(`ours vs rollytics on a live ${c.flavor} devnet`, () => {
    let tmp = '';
    let ep: NodeEndpoints;
    let ours: IngestProcess | undefined;
    let theirs = '';
    let keys: ChainKeys;
    let nodeStarted = false;
    let rollyticsStarted = false;

    /** The head stops once the traffic is done (EMPTY_BLOCKS=false): wait until it has not moved for 3 s. */
    async function stillHead(): Promise<number> {
      // a keep-alive socket to the node before its restart may be closed under the first request: read again
      const head = () => latestHeight(ep).catch(() => sleep(500).then(() => latestHeight(ep)));
      let h = await head();
      for (let still = 0; still < 6; ) {
        await sleep(500);
        const now = await head();
        still = now === h ? still + 1 : 0;
        h = now;
      }
      return h;
    }

    /** Both indexers at the still head: /status equal. */
    async function bothCaughtUp(height: number): Promise<void> {
      const deadline = Date.now() + CATCH_UP_MS;
      let last = '';
      for (;;) {
        const [o, t] = await Promise.all([fetchAnswer(ours?.baseUrl ?? '', '/status'), fetchAnswer(theirs, '/status')]);
        const at = (a: typeof o) => Number((a.body as Record<string, unknown>)?.height ?? 0);
        if (o.status === 200 && t.status === 200 && at(o) >= height && at(t) >= height) {
          const diffs = await runProbe(
            { ours: ours?.baseUrl ?? '', theirs },
            { endpoint: '/status', key: '-', path: '/status' },
            VM_NORMALISATIONS,
          );
          if (diffs.length === 0) return;
          last = formatDifferences(diffs);
        } else last = `ours ${JSON.stringify(o.body)} | rollytics ${JSON.stringify(t.body)}`;
        if (Date.now() > deadline) throw new Error(`indexers did not both reach height ${height}: ${last}`);
        await sleep(500);
      }
    }

    beforeAll(async () => {
      tmp = mkdtempSync(path.join(os.tmpdir(), `rollytics-${c.vm}-`));
      // Binaries first: a build failure fails the suite with the build's own message.
      runScript(path.join(ROOT, 'devnet', c.flavor, 'build.sh'), [], {}, `devnet/${c.flavor}/build.sh`);
      runScript(path.join(ROLLYTICS, 'build.sh'), [], {}, 'devnet/rollytics/build.sh (rollytics)');
      runScript(path.join(ROLLYTICS, 'install-postgres.sh'), [], {}, 'devnet/rollytics/install-postgres.sh');
      const nodeOpts = {
        FLAVOR: c.flavor,
        PORT_BASE: String(await freePortBase()),
        DEVNET_ACCOUNTS: String(c.accounts),
        GENESIS_FOR_ROLLYTICS: '1',
      };
      const home = path.join(tmp, 'node');
      const nodeEnv = scriptEnv(runScript(START, [home], nodeOpts, `start.sh (${c.flavor})`));
      nodeStarted = true;
      ep = {
        chainId: nodeEnv.CHAIN_ID ?? '',
        cometRpc: nodeEnv.COMETBFT_RPC_URL ?? '',
        rest: nodeEnv.COSMOS_REST_URL ?? '',
        evmRpc: '',
      };
      const made = await c.traffic(ep);
      // A still head: the node restarts on its data without empty blocks.
      runScript(STOP, [home], {}, 'stop.sh');
      runScript(START, [home], { ...nodeOpts, RESUME: '1', EMPTY_BLOCKS: 'false' }, `start.sh (${c.flavor}, resume)`);
      const height = await stillHead();
      ours = new IngestProcess({
        endpoints: ep,
        dataDir: path.join(tmp, 'ours'),
        port: await freePort(),
        vm: c.vm,
        extraEnv: { LOG_LEVEL: 'warn' },
      });
      await ours.start();
      rollyticsStarted = true;
      const r = scriptEnv(
        runScript(
          path.join(ROLLYTICS, 'start.sh'),
          [path.join(tmp, 'rollytics')],
          // its API once its indexer is at the still head (the by_name list, start.sh)
          { ...nodeEnv, ROLLYTICS_VM_TYPE: c.vm, ROLLYTICS_API_AFTER_HEIGHT: String(height) },
          'devnet/rollytics/start.sh',
        ),
      );
      theirs = r.ROLLYTICS_API_URL ?? '';
      await bothCaughtUp(height);
      keys = await readChainKeys(ep, { ...made, denoms: [] });
    }, 900_000);

    afterAll(async () => {
      await ours?.stop();
      if (rollyticsStarted) runScript(path.join(ROLLYTICS, 'stop.sh'), [path.join(tmp, 'rollytics')], {}, 'stop');
      if (nodeStarted) runScript(STOP, [path.join(tmp, 'node')], {}, 'stop.sh');
      if (tmp) rmSync(tmp, { recursive: true, force: true });
    });

    it('every endpoint, every key, every page: the same JSON up to the documented normalisations', async () => {
      expect(keys.txHashes.length).toBeGreaterThan(5);
      const probes = buildProbes(keys, { vm: c.vm });
      // Upstream serves by_name from an in-memory list that the first request fills; concurrent requests that
      // arrive while it is being filled read it empty (docs/indexer.md). Fill it with one request first.
      if (keys.collections.length > 0) {
        const word = keys.collections[0]?.name.split(' ')[0] ?? '';
        expect(await waitForByName(theirs, word, 15_000), `rollytics by_name/${word} never listed`).toBeGreaterThan(0);
      }
      const { differences, stats } = await runProbes({ ours: ours?.baseUrl ?? '', theirs }, probes, {
        concurrency: 4,
        norms: VM_NORMALISATIONS,
      });
      mkdirSync(path.join(ROOT, '.tmp'), { recursive: true });
      writeFileSync(
        path.join(ROOT, '.tmp', `rollytics-differences-${c.vm}.json`),
        JSON.stringify(differences, null, 1),
      );
      process.stdout.write(
        `rollytics differential (${c.vm}): height ${keys.height}, ${keys.txHashes.length} txs, ${probes.length} probes, ${stats.requests} requests, ${differences.length} differences\n`,
      );
      expect(differences.length, formatDifferences(differences)).toBe(0);
      expect(new Set(probes.map((p) => p.endpoint)).size).toBe(c.endpoints);
    }, 600_000);

    if (c.vm === 'wasm')
      it('rollytics still panics on the block that instantiates a CW721 (ours indexes it)', async () => {
        // upstream's wasm_nft.New never sets the submodule's querier: a nil receiver in GetCollectionData
        const r = await runWasmTraffic(ep, 'd2');
        const indexerPid = Number(readFileSync(path.join(tmp, 'rollytics', 'indexer.pid'), 'utf8'));
        const log = path.join(tmp, 'rollytics', 'indexer.log');
        const deadline = Date.now() + 60_000;
        while (alive(indexerPid) && Date.now() < deadline) await sleep(500);
        expect(alive(indexerPid), 'rollytics indexer still running after a CW721 instantiate').toBe(false);
        const text = readFileSync(log, 'utf8');
        expect(text).toContain('panic: runtime error: invalid memory address or nil pointer dereference');
        expect(text).toMatch(/util\/querier\.\(\*Querier\)\.GetCollectionData\(0x0/);
        await ours?.waitForHeight(r.lastHeight, 60_000);
        const col = await fetchAnswer(ours?.baseUrl ?? '', `/indexer/nft/v1/collections/${r.collections[0]}`);
        expect(col.status).toBe(200);
      }, 300_000);
  });
}
