// The lazy replicated chain for the ingest benchmark: 1,000,000 txs served without materialising them.
import { createHash } from 'node:crypto';
import { TxRaw } from 'cosmjs-types/cosmos/tx/v1beta1/tx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Comet38Client } from '@cosmjs/tendermint-rpc';
import { generateReplicatedChain, type ReplicatedChain } from '../../../devnet/sample-chains/replicated.js';
import { startChainServer, type ChainServer } from '../../../devnet/chain-sim/server.js';
import { findTxs } from '../../../devnet/chain-sim/cometbft.js';
import { parseTxQuery } from '../../../devnet/chain-sim/txquery.js';
import type { SimChainSource } from '../../../devnet/chain-sim/types.js';

let chain: ReplicatedChain;
let server: ChainServer;

beforeAll(async () => {
  chain = generateReplicatedChain({ txs: 1_000_000, txsPerBlock: 100, cacheBlocks: 16 });
  server = await startChainServer(chain);
});

afterAll(async () => {
  await server.close();
});

describe('replicated chain', () => {
  it('has the requested size and serves any height on demand with consistent hashes', async () => {
    expect(chain.latestHeight()).toBe(10_000);
    const c = await Comet38Client.connect(server.rpcUrl);
    expect((await c.status()).syncInfo.latestBlockHeight).toBe(10_000);
    const b = await c.block(7_321);
    expect(b.block.txs.length).toBe(100);
    const hashes = b.block.txs.map((raw) => createHash('sha256').update(raw).digest('hex').toUpperCase());
    expect(new Set(hashes).size).toBe(100);
    const prev = await c.block(7_320);
    expect(Buffer.from(b.block.header.lastBlockId!.hash).equals(Buffer.from(prev.blockId.hash))).toBe(true);
    const results = await c.blockResults(7_321);
    expect(results.results.length).toBe(100);
    const rest = (await (
      await fetch(`${server.restUrl}/cosmos/tx/v1beta1/txs?query=${encodeURIComponent('tx.height=7321')}&limit=100`)
    ).json()) as any; // any: wire JSON
    expect(rest.tx_responses.map((t: any) => t.txhash)).toEqual(hashes); // any: wire JSON
    expect(rest.tx_responses[5].tx.body.memo).toBe(`replica ${7_320 * 100 + 5}`);
    const t = await c.tx({ hash: Buffer.from(hashes[42]!, 'hex') });
    expect([t.height, t.index]).toEqual([7_321, 42]);
    const last = await c.block(10_000);
    expect(last.block.txs.length).toBe(100);
    await expect(c.block(10_001)).rejects.toThrow(
      'height 10001 must be less than or equal to the current blockchain height 10000',
    );
    c.disconnect();
  });

  it('finds the txs of a search on tx.height alone by counting, as the scan of its sealed blocks does', () => {
    const mixed = generateReplicatedChain({ txs: 0, txsPerBlock: 1, mix: 'realistic', blocks: 3_000 });
    // The same chain seen without its counts: every search scans the sealed blocks of its range.
    const scanned: SimChainSource = {
      chainId: mixed.chainId,
      vm: mixed.vm,
      validators: mixed.validators,
      latestHeight: () => mixed.latestHeight(),
      block: (h) => mixed.block(h),
      txByHash: (h) => mixed.txByHash(h),
      evmTxByHash: (h) => mixed.evmTxByHash(h),
    };
    const busy = Array.from({ length: 3_000 }, (_, i) => i + 1).find((h) => mixed.txCount(h) > 1)!;
    for (const q of ['tx.height>=1', 'tx.height>=700 AND tx.height<=1800', `tx.height=${busy}`, 'tx.height>2990']) {
      const counted = findTxs(mixed, parseTxQuery(q));
      expect(counted).toEqual(findTxs(scanned, parseTxQuery(q)));
      if (q !== 'tx.height>2990') expect(Array.isArray(counted) && counted.length).toBeGreaterThan(1);
    }
    // Another condition beside the height goes through the sealed blocks as before.
    const signer = findTxs(mixed, parseTxQuery("tx.height<=400 AND message.module='bank'"));
    expect(signer).toEqual(findTxs(scanned, parseTxQuery("tx.height<=400 AND message.module='bank'")));
  });

  it('is deterministic and keeps a bounded number of blocks in memory', async () => {
    const again = generateReplicatedChain({ txs: 1_000_000, txsPerBlock: 100 });
    expect(again.block(123)!.txs.map((t) => t.hash)).toEqual(chain.block(123)!.txs.map((t) => t.hash));
    for (let h = 1; h <= 60; h++) chain.block(h);
    expect(chain.cachedBlocks()).toBeLessThanOrEqual(16);
    const evm = (await (
      await fetch(server.evmUrl!, {
        method: 'POST',
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getBlockReceipts', params: ['0x2'] }),
      })
    ).json()) as any; // any: wire JSON
    const hashes = evm.result.map((r: any) => r.transactionHash); // any: wire JSON
    expect(hashes.length).toBeGreaterThan(0);
    expect(new Set(hashes).size).toBe(hashes.length);
    expect(evm.result.every((r: any) => r.blockNumber === '0x2')).toBe(true); // any: wire JSON
  });

  it('realSigners: every tx has a signer key and its own signature, raw bytes and JSON agree', () => {
    const real = generateReplicatedChain({ txs: 400, txsPerBlock: 100, realSigners: true });
    const sigs = new Set<string>();
    for (let h = 1; h <= real.latestHeight(); h++)
      for (const t of real.block(h)!.txs) {
        const infos = (t.tx.auth_info as { signer_infos: { public_key: unknown }[] }).signer_infos;
        expect(infos.length).toBeGreaterThan(0);
        for (const i of infos) expect(i.public_key).not.toBeNull();
        const raw = TxRaw.decode(Buffer.from(t.rawBase64, 'base64'));
        expect(raw.signatures.map((x) => Buffer.from(x).toString('base64'))).toEqual(t.tx.signatures);
        expect(createHash('sha256').update(Buffer.from(t.rawBase64, 'base64')).digest('hex').toUpperCase()).toBe(
          t.hash,
        );
        sigs.add(t.tx.signatures.join(','));
      }
    expect(sigs.size).toBe(400);
    // the default keeps the template signatures (the ingest benchmark's chain is unchanged)
    const plain = generateReplicatedChain({ txs: 400, txsPerBlock: 100 });
    const plainSigs = new Set(plain.block(1)!.txs.map((t) => t.tx.signatures.join(',')));
    expect(plainSigs.size).toBeLessThan(100);
  });
});
