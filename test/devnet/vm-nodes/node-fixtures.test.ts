// Chain-sim vs real minimove and miniwasm nodes, field by field: each fixture in test/fixtures/minimove-devnet/
// and miniwasm-devnet/ is a real devnet answer (block, block_results, REST tx; recorded by
// devnet/tools/record-vm-fixtures.ts, sources in test/fixtures/SOURCES.md). The recorded tx is replayed into a
// chain-sim chain of the same VM (its raw bytes, Tx JSON and result) and chain-sim's answers for it must equal the
// node's, except the fields that name the chain position (height, time), which the simulated block cannot share.
// The recorded state answers (Move object resources, CW721 queries) are checked against what the indexer reads
// from them, and chain-sim's Move resource route against the node's answer shape.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SimChain, makeValidator } from '../../../devnet/chain-sim/chain.js';
import { mirrorTx } from '../../../devnet/minievm/mirror.js';
import { itAnswersLikeTheNode, type RecordedTxAnswers } from '../../support/node-fixture-answers.js';
import { cw721ContractInfoRoute, unixNanos } from '../../../devnet/sample-chains/nft-names.js';
import { recordedRoutes } from '../../../devnet/sample-chains/routes.js';
import { contractInfoRoute } from '../../../devnet/sample-chains/wasm.js';

interface Fixture extends RecordedTxAnswers {
  source: { node: string };
}

const FIXTURES = path.join(import.meta.dirname, '..', '..', 'fixtures');
const load = (flavor: string) => {
  const dir = path.join(FIXTURES, `${flavor}-devnet`);
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json') && f !== 'state.json')
    .sort()
    .map((f) => ({ name: f, fx: JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as Fixture }));
};
const state = (flavor: string) =>
  JSON.parse(readFileSync(path.join(FIXTURES, `${flavor}-devnet`, 'state.json'), 'utf8')) as Record<
    string,
    { request: string; answer: Record<string, unknown> }
  >;

for (const [flavor, vm, kinds] of [
  ['minimove', 'move', ['bank-send.json', 'create-collection.json', 'failed.json', 'mint.json']],
  ['miniwasm', 'wasm', ['bank-send.json', 'cw721-mint.json', 'failed.json', 'instantiate.json']],
] as const) {
  const fixtures = load(flavor);
  describe(`chain-sim answers like a real ${flavor} node for the same tx`, () => {
    it('has the recorded kinds, from the real node', () => {
      expect(fixtures.map((f) => f.name)).toEqual(kinds);
      for (const { fx } of fixtures) expect(fx.source.node).toContain(`(${flavor})`);
      expect(fixtures.filter((f) => Number(f.fx.rest_tx.tx_response.code) !== 0).map((f) => f.name)).toEqual([
        'failed.json',
      ]);
    });

    for (const { name, fx } of fixtures) {
      describe(name, () => {
        const chain = new SimChain({
          chainId: String(fx.block.block.header.chain_id),
          vm,
          validators: [makeValidator('devnet')],
          genesisTime: '2026-01-01T00:00:00Z',
          blockIntervalMs: 500,
        });
        const b = chain.appendBlock({
          time: String(fx.block.block.header.time),
          txs: [mirrorTx(fx.block.block.data.txs[fx.tx_index] ?? '', fx.rest_tx, [], [])],
        });

        itAnswersLikeTheNode(fx, () => b);
      });
    }
  });
}

describe('recorded chain-state answers', () => {
  it("Move: the node's by_struct_tag answer has the shape chain-sim's route serves, and what the enricher reads", () => {
    const s = state('minimove');
    const node = s.collection!.answer.resource as { address: string; struct_tag: string; move_resource: string };
    expect(Object.keys(s.collection!.answer)).toEqual(['resource']);
    expect(Object.keys(node).sort()).toEqual(['address', 'move_resource', 'raw_bytes', 'struct_tag']);
    // chain-sim's route (devnet/sample-chains/routes.ts) answers `{resource}` with one element of a recorded
    // resource list, whose elements have these four keys; its path pattern takes the node's object address
    expect(
      recordedRoutes([]).routes[0]!.pattern.test(`/initia/move/v1/accounts/${node.address}/resources/by_struct_tag`),
    ).toBe(true);
    // what the enricher reads from it (ingest/enrich.ts): the collection's name and creator in move_resource.data
    const data = (JSON.parse(node.move_resource) as { type: string; data: { name: string; creator: string } }).data;
    expect(data.name).toMatch(/^Devnet Move fx #1$/);
    expect(data.creator).toMatch(/^0x[0-9a-f]{40}$/);
    const nft = JSON.parse((s.nft!.answer.resource as { move_resource: string }).move_resource) as {
      data: { collection: { inner: string }; token_id: string; uri: string };
    };
    expect(nft.data.collection.inner).toBe(node.address);
    expect(nft.data.token_id).toBe('fx-c');
  });

  it("Wasm: chain-sim's contract answer equals the node's for the recorded instantiate, `created` included", () => {
    const node = state('miniwasm').contract!.answer;
    const fx = load('miniwasm').find((f) => f.name === 'instantiate.json')!.fx;
    const chain = new SimChain({ chainId: 'miniwasm-devnet-1', vm: 'wasm', validators: [makeValidator('devnet')] });
    // The recorded block: the tx before the instantiate (as its block_results report it), then the instantiate.
    const results = (fx.block_results as { txs_results: { gas_used: string; gas_wanted: string; code: number }[] })
      .txs_results;
    expect(fx.tx_index).toBe(1);
    const before = {
      tx: { body: { messages: [], memo: '', timeout_height: '0' }, auth_info: {}, signatures: [] },
      raw: String(fx.block.block.data.txs[0]),
      result: { ...results[0]!, codespace: '', data: '', log: '', info: '', events: [] },
    };
    chain.appendBlock({
      time: String(fx.block.block.header.time),
      txs: [before as never, mirrorTx(fx.block.block.data.txs[1] ?? '', fx.rest_tx, [], [])],
    });
    const route = contractInfoRoute(chain);
    const m = route.pattern.exec(`/cosmwasm/wasm/v1/contract/${node.address}`)!;
    const sim = route.handler(m, new URLSearchParams(), {}) as { contract_info: { created: unknown } };
    // wasmd's `created.tx_index` is the block gas meter at instantiation: the gas used by the txs before it
    expect((node.contract_info as { created: unknown }).created).toEqual({
      block_height: String(fx.block.block.header.height),
      tx_index: results[0]!.gas_used,
    });
    expect(sim).toEqual({
      ...node,
      contract_info: { ...(node.contract_info as object), created: sim.contract_info.created },
    });
    expect(sim.contract_info.created).toEqual({ block_height: '1', tx_index: results[0]!.gas_used });
  });

  it("Wasm: chain-sim's CW721 contract_info answers in the node's shape (name, symbol, extension, updated_at)", () => {
    const s = state('miniwasm');
    const node = s.cw721_contract_info!.answer as { data: Record<string, unknown> };
    expect(node.data).toMatchObject({ name: 'Devnet Wasm fx', symbol: 'DWASM', extension: null });
    expect(String(node.data.updated_at)).toMatch(/^\d{19}$/); // Unix nanoseconds
    // chain-sim, given the recorded CW721 mint, serves the same query for that contract
    const mint = load('miniwasm').find((f) => f.name === 'cw721-mint.json')!.fx;
    const chain = new SimChain({ chainId: 'miniwasm-devnet-1', vm: 'wasm', validators: [makeValidator('devnet')] });
    chain.appendBlock({
      time: String(mint.block.block.header.time),
      txs: [mirrorTx(mint.block.block.data.txs[mint.tx_index] ?? '', mint.rest_tx, [], [])],
    });
    const contract = String(s.contract!.answer.address);
    const route = cw721ContractInfoRoute(chain, 'Sample CW721');
    const q = encodeURIComponent(Buffer.from('{"contract_info":{}}').toString('base64'));
    const m = route.pattern.exec(`/cosmwasm/wasm/v1/contract/${contract}/smart/${q}`)!;
    const sim = route.handler(m, new URLSearchParams(), {}) as { data: Record<string, unknown> };
    expect(Object.keys(sim.data).sort()).toEqual(Object.keys(node.data).sort());
    expect(sim.data.updated_at).toBe(unixNanos(String(mint.block.block.header.time)));
    expect(unixNanos('2026-11-25T22:58:53.053391611Z')).toBe('1795647533053391611');
  });

  it('Wasm: contract/{addr} names the creator the indexer reads', () => {
    const info = state('miniwasm').contract!.answer.contract_info as { creator: string; label: string };
    expect(info.creator).toMatch(/^init1/);
    expect(info.label).toBe('cw721 fx');
  });
});
