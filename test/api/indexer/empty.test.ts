// An empty store and a half-written block: /status says nothing is indexed (JSON 500, as upstream's status
// code), lists are empty, and rows above the last complete checkpoint stay invisible until it is written.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStore, type Store } from '../../../clickhouse/client.js';
import { migrate } from '../../../clickhouse/migrate.js';
import { txResponse } from '../../support/fixtures.js';
import { startIndexer, type Running } from './helpers.js';
import { indexerConfig } from '../../support/indexer-config.js';

let dir: string;
let store: Store;
let api: Running;
const get = async (p: string) => {
  const res = await fetch(api.base + p);
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    servedBy: res.headers.get('x-served-by'),
    cors: res.headers.get('access-control-allow-origin'),
    body: (await res.json()) as Record<string, unknown>,
  };
};

/** /status and the tip are read from memory, refreshed every 150 ms while the API is in use (status-feed.ts). */
const statusRefresh = () => new Promise((r) => setTimeout(r, 400));

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'indexer-empty-'));
  store = createStore({ dataDir: dir });
  await migrate(store);
  api = await startIndexer({
    store,
    config: indexerConfig('evm', 'empty-1'),
    responseCache: false,
  });
});
afterAll(async () => {
  await api?.close();
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('empty store', () => {
  it('/status is a JSON 500 saying nothing is indexed; lists are empty', async () => {
    expect(await get('/status')).toMatchObject({
      status: 500,
      type: 'application/json; charset=utf-8',
      body: { code: 500, message: 'no block has been indexed yet' },
    });
    expect((await get('/indexer/tx/v1/txs')).body).toEqual({
      txs: [],
      pagination: { previous_key: null, next_key: null, total: '0' },
    });
    expect((await get('/indexer/block/v1/blocks')).body).toEqual({
      blocks: [],
      pagination: { previous_key: null, next_key: null, total: '0' },
    });
    expect((await get('/indexer/block/v1/avg_blocktime')).body).toEqual({ avg_block_time: 0 });
    expect((await get('/indexer/nft/v1/collections')).body).toEqual({
      collections: [],
      pagination: { previous_key: null, next_key: null, total: '0' },
    });
    expect((await get(`/indexer/richlist/v1/0x${'ab'.repeat(20)}`)).body).toEqual({
      holders: [],
      pagination: { previous_key: null, next_key: null, total: '0' },
    });
  });

  it('a query parameter given as an object (`msgs[a]=b`) is a JSON 400 naming it, on every route that takes one', async () => {
    for (const p of [
      '/indexer/tx/v1/txs?msgs[a]=b',
      '/indexer/tx/v1/txs?msgs[]=a&msgs[a]=b',
      '/indexer/tx/v1/txs/by_height/1?msgs[a]=b',
      '/indexer/stats/v1/activity?msgs[x]=y',
      '/indexer/block/v1/blocks?pagination[limit]=1',
    ]) {
      const r = await get(p);
      expect({ p, status: r.status }).toEqual({ p, status: 400 });
      expect(r.type).toMatch(/^application\/json/);
      expect([r.servedBy, r.cors]).toEqual(['handler', '*']); // named and readable cross-origin, as every answer
      expect(String(r.body.message)).toMatch(/(msgs|pagination): must be a value or a list of values/);
    }
    // A list stays a list.
    expect((await get('/indexer/tx/v1/txs?msgs[]=a&msgs[]=b')).status).toBe(200);
  });

  it("`//` and a missing dashboard file are JSON 404s, without the host's file paths", async () => {
    for (const p of ['//', '///', '//?x=1']) {
      const r = await get(p);
      expect([p, r.status, r.type]).toEqual([p, 404, 'application/json; charset=utf-8']);
    }
    const missing = await get('/dashboard/nope');
    expect(missing).toMatchObject({ status: 404, body: { code: 404, message: 'Cannot GET /dashboard/nope' } });
    expect(JSON.stringify(missing.body)).not.toMatch(/ENOENT|\/api\/indexer/);
    expect((await get('/dashboard/vendor/uplot/nope.js')).body).toEqual({
      code: 404,
      message: 'Cannot GET /dashboard/vendor/uplot/nope.js',
    });
    expect((await get('/dashboard/config.json')).status).toBe(200);
    // Only the static server's errors are rewritten: an earlier middleware's under the same path keep their words.
    const badBody = await fetch(`${api.base}/dashboard/index.html`, {
      method: 'POST',
      headers: { 'content-type': 'application/json;' },
      body: '{}',
    });
    expect(badBody.status).toBe(415);
    expect(((await badBody.json()) as { message: string }).message).toContain('is not a valid media type');
  });
  it('a block written without its checkpoint stays invisible until the checkpoint lands', async () => {
    // The recorded tx (cosmos/evm/bank-evm.json) as the ingest would store it at height 1.
    const rec = txResponse('cosmos/evm/bank-evm.json', 'bankSendWithEvmLogTxResponse');
    const { '@type': _drop, ...tx } = rec.tx;
    const doc = JSON.stringify({ ...rec, height: '1', tx });
    await store.insert('blocks', [
      {
        height: 1,
        hash: 'AB'.repeat(32),
        chain_id: 'empty-1',
        time: '2025-01-01 00:00:00',
        block_time_ms: 0,
        proposer: '',
        gas_used: 1,
        gas_wanted: 1,
        tx_count: 1,
        total_fee: '[]',
      },
    ]);
    await store.insert('tx_documents', [{ sequence: 1_000_000, height: 1, json: doc }]);
    await store.insert('txs', [
      {
        sequence: 1_000_000,
        height: 1,
        tx_index: 0,
        hash: rec.txhash,
        code: rec.code,
        signer: '',
        msg_types: [],
        accounts: [],
        time: '2025-01-01 00:00:00',
      },
    ]);
    expect((await get(`/indexer/tx/v1/txs/${rec.txhash}`)).status).toBe(404);
    expect((await get('/indexer/block/v1/blocks/1')).status).toBe(404);
    expect((await get('/indexer/tx/v1/txs')).body.txs).toEqual([]);
    await store.insert('ingest_checkpoints', [{ height: 1 }]);
    await statusRefresh(); // the tip is refreshed in the background every 150 ms
    const shown = await get(`/indexer/tx/v1/txs/${rec.txhash}`);
    expect(shown.status).toBe(200);
    expect((shown.body.tx as { events: unknown }).events).toEqual(rec.events);
    expect((await get('/indexer/block/v1/blocks/1')).status).toBe(200);
    expect((await get('/status')).body).toEqual({
      version: 'dev',
      commit_hash: 'unknown',
      chain_id: 'empty-1',
      height: 1,
    });
  });

  it('internal_tx_height (EVM with traces) is the indexed height: traces are written with their block', async () => {
    const traced = await startIndexer({
      store,
      config: indexerConfig('evm', 'empty-1', { EVM_INTERNAL_TXS: true }),
      responseCache: false,
    });
    try {
      const block = (height: number, txs: number) => ({
        height,
        hash: 'CD'.repeat(32),
        chain_id: 'empty-1',
        time: '2025-01-01 00:00:01',
        block_time_ms: 500,
        proposer: '',
        gas_used: 0,
        gas_wanted: 0,
        tx_count: txs,
        total_fee: '[]',
      });
      await store.insert('evm_internal_txs', [
        {
          height: 1,
          hash: `0x${'ab'.repeat(32)}`,
          idx: 0,
          parent_index: -1,
          type: 'CALL',
          from_addr: '',
          to_addr: '',
          value: '0x0',
          gas: '0x0',
          gas_used: '0x0',
          input: '0x',
          output: '0x',
        },
      ]);
      await store.insert('blocks', [block(2, 0)]);
      await store.insert('ingest_checkpoints', [{ height: 2 }]);
      await statusRefresh();
      expect((await get('/status')).body).toMatchObject({ height: 2 });
      expect((await fetch(`${traced.base}/status`).then((r) => r.json())) as object).toEqual({
        version: 'dev',
        commit_hash: 'unknown',
        chain_id: 'empty-1',
        height: 2,
        internal_tx_height: 2,
      });
      await store.insert('blocks', [block(3, 4)]);
      await store.insert('ingest_checkpoints', [{ height: 3 }]);
      await statusRefresh();
      expect((await fetch(`${traced.base}/status`).then((r) => r.json())) as object).toMatchObject({
        height: 3,
        internal_tx_height: 3,
      });
    } finally {
      await traced.close();
    }
  });
  it('rich_list_height is the indexed height while no ERC20 Transfer log lies above the last snapshot', async () => {
    // blocks 1..3 and checkpoint 3 from the test above; a snapshot built at 2 (the last height with logs)
    await store.insert('richlist_snapshots', [{ snapshot_height: 2, holders: 1 }]);
    await statusRefresh();
    expect((await get('/status')).body).toMatchObject({ height: 3, rich_list_height: 3 });
    // a Transfer at 3 that no snapshot covers yet: the list is only exact at 2
    const word = (a: string) => `0x${a.padStart(64, '0')}`;
    await store.insert('evm_logs', [
      {
        height: 3,
        sequence: 3_000_000,
        log_index: 0,
        address: `0x${'12'.repeat(20)}`,
        topic0: '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef',
        topic1: word('34'.repeat(20)),
        topic2: word('56'.repeat(20)),
        topic3: '',
        topics: 3,
        data: word('1'),
      },
    ]);
    await statusRefresh();
    expect((await get('/status')).body).toMatchObject({ height: 3, rich_list_height: 2 });
  });
});
