// Chain-sim vs a real minievm node, field by field: each fixture in test/fixtures/minievm-devnet/ is a real
// devnet answer (block, block_results, REST tx, receipts; see test/fixtures/SOURCES.md). The recorded tx is
// replayed into a chain-sim chain (its raw bytes, its Tx JSON, its result, its EVM side) and chain-sim's
// answers for it must equal the node's, except for the fields that name the chain position (height, block
// hash, time, tx index), which legitimately differ: the simulated block is not the recorded one.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SimChain, makeValidator } from '../../../devnet/chain-sim/chain.js';
import { evmReceiptsJson } from '../../../devnet/chain-sim/render.js';
import type { EvmReceipt, EvmTxObject } from '../../../devnet/chain-sim/types.js';
import { evmSideOf, mirrorTx } from '../../../devnet/minievm/mirror.js';
import { recoveredEthPubKey } from '../../../devnet/sample-chains/evm-activity.js';
import { itAnswersLikeTheNode, type RecordedTxAnswers } from '../../support/node-fixture-answers.js';

const DIR = path.join(import.meta.dirname, '..', '..', 'fixtures', 'minievm-devnet');

interface Fixture extends RecordedTxAnswers {
  receipts: (EvmReceipt & { transactionHash: string; transactionIndex: string })[];
  evm_block: { chainId?: string; transactions: EvmTxObject[] };
}

const fixtures = readdirSync(DIR)
  .filter((f) => f.endsWith('.json'))
  .map((f) => ({ name: f, fx: JSON.parse(readFileSync(path.join(DIR, f), 'utf8')) as Fixture }));

function evmSide(fx: Fixture): { evmTx?: EvmTxObject; receipt?: EvmReceipt } {
  return evmSideOf(fx.rest_tx, fx.evm_block.transactions, fx.receipts);
}

/** The recorded tx replayed alone into a fresh chain-sim chain. */
function replay(fx: Fixture) {
  const chain = new SimChain({
    chainId: String(fx.block.block.header.chain_id),
    vm: 'evm',
    evmChainId: BigInt(String(fx.evm_block.transactions[0]?.chainId ?? '0x1')),
    validators: [makeValidator('devnet')],
    genesisTime: '2026-01-01T00:00:00Z',
    blockIntervalMs: 500,
  });
  const b = chain.appendBlock({
    time: String(fx.block.block.header.time),
    txs: [mirrorTx(fx.block.block.data.txs[fx.tx_index]!, fx.rest_tx, fx.evm_block.transactions, fx.receipts)],
  });
  return b;
}

describe('chain-sim answers like a real minievm v1.2.18 node for the same tx', () => {
  it('has the four recorded kinds (bank send, EVM call, EVM create, failed)', () => {
    expect(fixtures.map((f) => f.name).sort()).toEqual([
      'bank-send.json',
      'evm-call.json',
      'evm-create.json',
      'failed.json',
    ]);
    // every successful tx has an EVM side (Ethereum txs, and the mirror of a Cosmos tx); the failed one none
    const withReceipt = fixtures.filter((f) => evmSide(f.fx).receipt).map((f) => f.name);
    expect(withReceipt.sort()).toEqual(['bank-send.json', 'evm-call.json', 'evm-create.json']);
  });

  for (const { name, fx } of fixtures) {
    describe(name, () => {
      const b = replay(fx);
      itAnswersLikeTheNode(fx, () => b);

      // cumulativeGasUsed sums the gas of the txs before this one in its block: chain position, like the index.
      it('eth_getBlockReceipts: the same receipt (block hash/number, index and cumulative gas aside)', () => {
        const { receipt } = evmSide(fx);
        const sim = JSON.parse(evmReceiptsJson(b)) as Record<string, unknown>[];
        if (!receipt) {
          expect(sim).toEqual([]); // a Cosmos-only tx has no receipt
          return;
        }
        expect(sim).toHaveLength(1);
        const pick = (r: Record<string, unknown>) => {
          const { blockHash: _a, blockNumber: _b, transactionIndex: _c, cumulativeGasUsed: _g, logs, ...rest } = r;
          return {
            ...rest,
            logs: (logs as Record<string, unknown>[]).map(
              ({ blockHash: _d, blockNumber: _e, transactionIndex: _f, ...l }) => l,
            ),
          };
        };
        expect(pick(sim[0]!)).toEqual(pick(receipt as unknown as Record<string, unknown>));
      });
    });
  }
});

describe('sample EVM chain: Ethereum txs carry the recovered key, as minievm reports it', () => {
  it('recovers the real recorded Ethereum tx key (the node fixture is the reference)', () => {
    const fx = fixtures.find((f) => f.name === 'evm-call.json')!.fx;
    const evmTx = evmSide(fx).evmTx!;
    const node = (fx.rest_tx.tx.auth_info as { signer_infos: { public_key: unknown }[] }).signer_infos[0]!.public_key;
    expect(recoveredEthPubKey(evmTx)).toEqual(node);
    expect(recoveredEthPubKey({ ...evmTx, from: `0x${'12'.repeat(20)}` })).toBeNull();
  });
});
