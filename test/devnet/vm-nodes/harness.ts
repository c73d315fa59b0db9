// What the Move and Wasm devnet suites share: a real node (start.sh with FLAVOR) on free loopback ports, our main
// job following it as a child process, and the node-vs-indexer checks that do not depend on the VM (every tx from
// tx_search, every block, by_account of every funded account, /status). The rich list is EVM-only on our side
// (docs/indexer.md), so it is not checked here.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import type { Vm } from '../../../chain/vm.js';
import type { Mismatch } from '../../../devnet/minievm/checks.js';
import { type Devnet, startDevnet } from '../../../devnet/minievm/devnet-process.js';
import { freePort, IngestProcess } from '../../../devnet/minievm/ingest-process.js';
import { getJson, latestHeight, sleep, type NodeEndpoints } from '../../../devnet/minievm/node-client.js';
import { verifyBlocks, verifyTxs } from '../../../devnet/minievm/verify.js';
import { verifyAccountTxs } from '../../../devnet/minievm/verify-state.js';
import { parse, qs, zBlock, zCollection, zToken, zTxResponse, zTxs } from '../../support/celatone-contract.js';
import { z } from 'zod';

export class VmDevnet {
  private home = '';
  private dataDir = '';
  private devnet?: Devnet;
  ingest!: IngestProcess;

  constructor(
    readonly flavor: 'minimove' | 'miniwasm',
    readonly vm: Vm,
    private readonly accounts: number,
  ) {}

  get ep(): NodeEndpoints {
    if (!this.devnet) throw new Error('devnet not started');
    return this.devnet.ep;
  }

  async start(): Promise<void> {
    this.home = mkdtempSync(path.join(os.tmpdir(), `${this.flavor}-home-`));
    this.dataDir = mkdtempSync(path.join(os.tmpdir(), `${this.flavor}-data-`));
    this.devnet = await startDevnet(path.join(this.home, 'node'), {
      FLAVOR: this.flavor,
      DEVNET_ACCOUNTS: String(this.accounts),
    });
    this.ingest = new IngestProcess({
      endpoints: this.ep,
      dataDir: this.dataDir,
      port: await freePort(),
      vm: this.vm,
      extraEnv: { RICHLIST_INTERVAL_MS: '500', LOG_LEVEL: 'warn' },
    });
    await this.ingest.start();
  }

  async stop(): Promise<void> {
    await this.ingest?.stop();
    this.devnet?.stop();
    for (const d of [this.home, this.dataDir]) if (d) rmSync(d, { recursive: true, force: true });
  }

  /**
   * SIGKILLs the ingest while `traffic` is under way (the run takes a few seconds of blocks; the kill lands in its
   * first rounds), restarts it, and returns the traffic's result, which must have gone on past the kill.
   */
  async crashDuring<T extends { lastHeight: number }>(traffic: Promise<T>): Promise<T> {
    await sleep(600);
    const atKill = await latestHeight(this.ep);
    await this.ingest.kill();
    await sleep(1_000);
    await this.ingest.start();
    const result = await traffic;
    expect(result.lastHeight, 'the traffic went on after the kill').toBeGreaterThan(atKill);
    return result;
  }

  /** Failure text: the first mismatches and the end of the ingest's log. */
  show(m: readonly Mismatch[]): string {
    return `${JSON.stringify(m.slice(0, 5), null, 1)}\n${this.ingest.log.slice(-3000)}`;
  }

  /** Waits until we have indexed the node's head; returns that height. */
  async caughtUp(): Promise<number> {
    const head = await latestHeight(this.ep);
    await this.ingest.waitForHeight(head, 60_000);
    return head;
  }

  /**
   * The VM-independent checks over the whole range: every tx (hash, height, code, gas, events, messages) and
   * every block against the node, by_account of each funded account against tx_search, and /status. Returns the
   * counts it checked.
   */
  async checkChain(funded: readonly string[]): Promise<{ txs: number; blocks: number; accountTxs: number }> {
    const head = await this.caughtUp();
    const txs = await verifyTxs(this.ep, this.ingest.baseUrl, head);
    expect(txs.mismatches, this.show(txs.mismatches)).toEqual([]);
    const blocks = await verifyBlocks(this.ep, this.ingest.baseUrl, 1, head);
    expect(blocks.mismatches, this.show(blocks.mismatches)).toEqual([]);
    const byAccount = await verifyAccountTxs(this.ep, this.ingest.baseUrl, funded, head);
    expect(byAccount.mismatches, this.show(byAccount.mismatches)).toEqual([]);
    expect(byAccount.checked).toBeGreaterThan(0);
    const status = await getJson<{ chain_id: string; height: number }>(`${this.ingest.baseUrl}/status`);
    expect(status.chain_id).toBe(this.ep.chainId);
    expect(status.height).toBeGreaterThanOrEqual(head);
    return { txs: txs.checked, blocks: blocks.checked, accountTxs: byAccount.checked };
  }

  private async get(pathAndQuery: string): Promise<unknown> {
    const res = await fetch(`${this.ingest.baseUrl}${pathAndQuery}`);
    if (res.status !== 200) throw new Error(`GET ${pathAndQuery}: ${res.status} ${await res.text()}`);
    return res.json();
  }

  /** Walks a list the way the explorer does (next_key, limit 100) and parses every page with its schema. */
  private async walk<S extends z.ZodTypeAny>(path: string, schema: S): Promise<z.infer<S>[]> {
    const pages: z.infer<S>[] = [];
    let key: string | null = null;
    do {
      const body = await this.get(`${path}${qs({ 'pagination.key': key, 'pagination.limit': 100 })}`);
      const page: z.infer<S> = parse(schema, body, path);
      pages.push(page);
      key = (page as { pagination: { next_key: string | null } }).pagination.next_key;
    } while (key);
    return pages;
  }

  /**
   * The explorer's calls on this devnet's real data, every answer parsed with Celatone's own schemas
   * (test/support/celatone-contract.ts): every tx list page, every tx by hash, by_account of each funded account,
   * by_height of each height with txs, every block, and each collection's answer, token list and token txs.
   * Returns how many answers were parsed.
   */
  async checkExplorerCalls(funded: readonly string[], collections: readonly string[]): Promise<number> {
    let parsed = 0;
    const txPages = await this.walk('/indexer/tx/v1/txs', zTxs);
    const txs = txPages.flatMap((p) => p.txs);
    parsed += txPages.length;
    for (const t of txs) {
      parse(z.object({ tx: zTxResponse }), await this.get(`/indexer/tx/v1/txs/${t.txhash}`), `tx ${t.txhash}`);
      parsed++;
    }
    for (const h of new Set(txs.map((t) => t.height)))
      parsed += (await this.walk(`/indexer/tx/v1/txs/by_height/${h}`, zTxs)).length;
    for (const a of funded) parsed += (await this.walk(`/indexer/tx/v1/txs/by_account/${a}`, zTxs)).length;
    const zBlocks = z.object({ blocks: z.array(zBlock), pagination: z.object({ next_key: z.string().nullable() }) });
    const blocks = (await this.walk('/indexer/block/v1/blocks', zBlocks)).flatMap(
      (p) => (p as z.infer<typeof zBlocks>).blocks,
    );
    for (const b of blocks) {
      parse(z.object({ block: zBlock }), await this.get(`/indexer/block/v1/blocks/${b.height}`), `block ${b.height}`);
      parsed++;
    }
    const zTokens = z.object({ tokens: z.array(zToken), pagination: z.object({ next_key: z.string().nullable() }) });
    const zCollections = z.object({
      collections: z.array(zCollection),
      pagination: z.object({ next_key: z.string().nullable() }),
    });
    parsed += (await this.walk('/indexer/nft/v1/collections', zCollections)).length;
    for (const c of collections) {
      parse(
        z.object({ collection: zCollection }),
        await this.get(`/indexer/nft/v1/collections/${c}`),
        `collection ${c}`,
      );
      const tokens = (await this.walk(`/indexer/nft/v1/tokens/by_collection/${c}`, zTokens)).flatMap((p) => p.tokens);
      for (const t of tokens)
        parsed += (await this.walk(`/indexer/nft/v1/txs/${c}/${encodeURIComponent(t.nft.token_id)}`, zTxs)).length;
      parsed += 2;
    }
    for (const a of funded) {
      parsed += (await this.walk(`/indexer/nft/v1/tokens/by_account/${a}`, zTokens)).length;
      parsed += (await this.walk(`/indexer/nft/v1/collections/by_account/${a}`, zCollections)).length;
    }
    return parsed;
  }
}
