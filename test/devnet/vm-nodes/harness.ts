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
import { getJson, latestHeight, type NodeEndpoints } from '../../../devnet/minievm/node-client.js';
import { verifyBlocks, verifyTxs } from '../../../devnet/minievm/verify.js';
import { verifyAccountTxs } from '../../../devnet/minievm/verify-state.js';

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
}
