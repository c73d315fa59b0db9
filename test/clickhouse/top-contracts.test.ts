// top_contracts counts a call target once, whichever spelling its messages used. The chain resolves them all to the
// same address: MsgCall's contract_addr takes hex or bech32, MsgExecute's module_address short hex (0x1), padded
// hex (either case) or bech32. Counted apart, one module was split over several rows and ranked lower. Real chDB;
// the tx documents go through the analytics view into the aggregates, as the ingest writes them.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { toBech32 } from '@cosmjs/encoding';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createStore, type Store } from '../../clickhouse/client.js';
import { migrate } from '../../clickhouse/migrate.js';
import { topContracts } from '../../clickhouse/queries/analytics.js';

let dir: string;
let store: Store;
beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'top-contracts-'));
  store = createStore({ dataDir: dir });
  await migrate(store);
});
afterAll(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

const T0 = 1_745_582_400; // an hour's start
let seq = 0;
const doc = (code: number, messages: Record<string, string>[]) => ({
  sequence: ++seq,
  height: seq,
  json: JSON.stringify({ timestamp: new Date((T0 + seq) * 1000).toISOString(), code, tx: { body: { messages } } }),
});
const call = (contract_addr: string) => ({ '@type': '/minievm.evm.v1.MsgCall', contract_addr });
const exec = (module_address: string, module_name = 'dex') => ({
  '@type': '/initia.move.v1.MsgExecute',
  module_address,
  module_name,
});

it('counts one contract or module once across hex, padded, uppercase and bech32 spellings', async () => {
  const evm = '5d4376b62fa8ac16dfabe6a9861e11c33a48c677';
  const evmBech32 = toBech32('init', Buffer.from(evm, 'hex'));
  const one = new Uint8Array(20);
  one[19] = 1;
  await store.insert('tx_documents', [
    doc(0, [call(`0x${evm}`)]),
    doc(0, [call(evmBech32)]),
    doc(5, [call(`0x${evm.toUpperCase()}`)]),
    doc(0, [call(`0x${'0'.repeat(24)}${evm}`)]), // zero-padded to 32 bytes
    doc(0, [call(`0x1${'0'.repeat(23)}${evm}`)]), // not an EVM address: counted as written
    doc(0, [exec('0x1')]),
    doc(0, [exec(`0x${'0'.repeat(39)}1`)]),
    doc(0, [exec(toBech32('init', one))]),
    doc(0, [exec(`0x${'0'.repeat(62)}AB`), exec('0xab')]),
    doc(0, [exec('0x1', 'coin')]),
  ]);
  expect(await topContracts(store, T0, T0 + 3600, 10, null)).toEqual([
    { kind: 'evm', target: `0x${evm}`, calls: 4, failed_calls: 1 },
    { kind: 'move', target: '0x1::dex', calls: 3, failed_calls: 0 },
    { kind: 'move', target: '0xab::dex', calls: 2, failed_calls: 0 },
    { kind: 'evm', target: `0x1${'0'.repeat(23)}${evm}`, calls: 1, failed_calls: 0 },
    { kind: 'move', target: '0x1::coin', calls: 1, failed_calls: 0 },
  ]);
  expect(await topContracts(store, T0, T0 + 3600, 1, 'move')).toEqual([
    { kind: 'move', target: '0x1::dex', calls: 3, failed_calls: 0 },
  ]);
});
