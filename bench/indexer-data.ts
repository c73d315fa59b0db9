// Synthetic but realistic data set for the indexer benchmark, generated inside ClickHouse (INSERT … SELECT
// from numbers()) into the real tables, so the materialized views fill the lookup tables as the ingest would.
//   10,000,000 txs in 1,000,000 blocks (10 per block), 1,000,000 accounts (bech32), ~2 KB tx documents,
//   100,000 NFTs in 200 collections, 1,000,000 holders of one ERC20 in the latest rich-list snapshot.
// Hot spots for deep pages: account 0 is the receiver of every 100th tx (100,000 txs) and owns every 50th NFT.
//
// Usage: npx tsx bench/indexer-data.ts [dataDir]   (default ~/.cache/chain-infra/bench-indexer; reused if complete)
import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { toBech32 } from '@cosmjs/encoding';
import { createStore, type Store } from '../clickhouse/client.js';
import { migrate } from '../clickhouse/migrate.js';
import { rebuildStats, recordRichListHistory, statsViews } from '../clickhouse/analytics.js';

// BENCH_SMALL=1 shrinks everything 100× (a smoke test of the generator and the benchmark itself).
const small = process.env.BENCH_SMALL === '1';
export const BENCH = {
  txs: small ? 100_000 : 10_000_000,
  txsPerBlock: 10,
  accounts: small ? 10_000 : 1_000_000,
  nfts: small ? 1_000 : 100_000,
  collections: small ? 20 : 200,
  holders: small ? 10_000 : 1_000_000,
  richToken: `0x${'ee'.repeat(20)}`,
  chainId: 'bench-1',
} as const;
export const BLOCKS = BENCH.txs / BENCH.txsPerBlock;

/** The indexer settings every benchmark serves this set with (bench/indexer-server.ts, bench/indexer-profile.ts). */
export const BENCH_INDEXER_CONFIG = {
  CHAIN_ID: BENCH.chainId,
  VM: 'evm',
  BECH32_PREFIX: 'init',
  VERSION: 'bench',
  COMMIT_HASH: 'bench',
  EVM_INTERNAL_TXS: false,
} as const;

export const defaultBenchDir = () => path.join(os.homedir(), '.cache', 'chain-infra', 'bench-indexer');

/** Account k as the ingest stores it: bech32 of 20 bytes. */
export function benchAccount(k: number): string {
  return toBech32('init', createHash('sha256').update(`acct${k}`).digest().subarray(0, 20));
}
/** Collection c's address: 0x + 20 bytes (EVM). */
export function benchCollection(c: number): string {
  return `0x${createHash('sha256').update(`col${c}`).digest().subarray(0, 20).toString('hex')}`;
}

const T0 = 1735689600; // 2025-01-01T00:00:00Z; one block every 500 ms

async function timed(label: string, f: () => Promise<void>): Promise<void> {
  const t = Date.now();
  await f();
  process.stdout.write(`${label}: ${((Date.now() - t) / 1000).toFixed(1)} s\n`);
}

async function accountsTable(store: Store): Promise<void> {
  await store.exec('CREATE TABLE IF NOT EXISTS bench_accounts (k UInt32, addr String) ENGINE = MergeTree ORDER BY k');
  await store.exec('TRUNCATE TABLE bench_accounts');
  const batch = Math.min(100_000, BENCH.accounts);
  for (let i = 0; i < BENCH.accounts; i += batch) {
    const rows = Array.from({ length: batch }, (_, j) => ({ k: i + j, addr: benchAccount(i + j) }));
    await store.insert('bench_accounts', rows);
  }
}

const ACCS = `(SELECT groupArray(addr) FROM (SELECT addr FROM bench_accounts ORDER BY k))`;
const TYPES = `['cosmos.bank.v1beta1.MsgSend','cosmos.bank.v1beta1.MsgSend','cosmos.bank.v1beta1.MsgSend','cosmos.bank.v1beta1.MsgSend','cosmos.bank.v1beta1.MsgSend',
  'minievm.evm.v1.MsgCall','minievm.evm.v1.MsgCall','minievm.evm.v1.MsgCall','initia.mstaking.v1.MsgDelegate','ibc.applications.transfer.v1.MsgTransfer']`;

// One tx per number n: height = n/10 + 1, index = n%10. The document has the fields and shape of a real
// bank send (docs/indexer.md) with random-looking signature bytes so it compresses like real data.
const TXS_SELECT = `
WITH ${ACCS} AS accs
SELECT sequence, height, tx_index, hash, code, signer, [type] AS msg_types, arrayDistinct([signer, receiver]) AS accounts, time,
  concat('{"txhash":"', hash, '","height":"', toString(height), '","codespace":"","code":', toString(code),
    ',"data":"12260A242F636F736D6F732E62616E6B2E763162657461312E4D736753656E64526573706F6E7365","raw_log":"","logs":[],"info":"","gas_wanted":"200000","gas_used":"', toString(gas),
    '","tx":{"body":{"messages":[{"@type":"/', type, '","from_address":"', signer, '","to_address":"', receiver, '","amount":[{"denom":"uinit","amount":"', toString(amt),
    '"}]}],"memo":"","timeout_height":"0","extension_options":[],"non_critical_extension_options":[]},"auth_info":{"signer_infos":[{"public_key":{"@type":"/initia.crypto.v1beta1.ethsecp256k1.PubKey","key":"', pk,
    '"},"mode_info":{"single":{"mode":"SIGN_MODE_DIRECT"}},"sequence":"', toString(n % 9973), '"}],"fee":{"amount":[{"denom":"uinit","amount":"3000"}],"gas_limit":"200000","payer":"","granter":""},"tip":null},"signatures":["', sig,
    '"]},"timestamp":"', ts, '","events":[{"type":"tx","attributes":[{"key":"fee","value":"3000uinit","index":true},{"key":"fee_payer","value":"', signer,
    '","index":true}]},{"type":"tx","attributes":[{"key":"acc_seq","value":"', signer, '/', toString(n % 9973), '","index":true}]},{"type":"message","attributes":[{"key":"action","value":"/', type,
    '","index":true},{"key":"sender","value":"', signer, '","index":true},{"key":"module","value":"bank","index":true},{"key":"msg_index","value":"0","index":true}]},{"type":"coin_spent","attributes":[{"key":"spender","value":"', signer,
    '","index":true},{"key":"amount","value":"', toString(amt), 'uinit","index":true},{"key":"msg_index","value":"0","index":true}]},{"type":"coin_received","attributes":[{"key":"receiver","value":"', receiver,
    '","index":true},{"key":"amount","value":"', toString(amt), 'uinit","index":true},{"key":"msg_index","value":"0","index":true}]},{"type":"transfer","attributes":[{"key":"recipient","value":"', receiver,
    '","index":true},{"key":"sender","value":"', signer, '","index":true},{"key":"amount","value":"', toString(amt), 'uinit","index":true},{"key":"msg_index","value":"0","index":true}]}]}') AS json
FROM (
  SELECT number AS n, intDiv(n, ${BENCH.txsPerBlock}) + 1 AS height, toUInt32(n % ${BENCH.txsPerBlock}) AS tx_index, height * 1000000 + tx_index AS sequence,
    upper(hex(SHA256(concat('tx', toString(n))))) AS hash, toUInt32(if(n % 97 = 0, 5, 0)) AS code,
    accs[(cityHash64(n) % ${BENCH.accounts}) + 1] AS signer,
    accs[if(n % 100 = 0, 0, cityHash64(n, 1) % ${BENCH.accounts}) + 1] AS receiver,
    ${TYPES}[(n % 10) + 1] AS type, 80000 + (cityHash64(n, 2) % 60000) AS gas, 1 + (cityHash64(n, 3) % 1000000000) AS amt,
    base64Encode(unhex(concat('02', hex(SHA256(concat('pk', toString(cityHash64(n) % ${BENCH.accounts}))))))) AS pk,
    base64Encode(unhex(concat(hex(SHA256(concat('r', toString(n)))), hex(SHA256(concat('s', toString(n))))))) AS sig,
    toDateTime64(${T0} + (height - 1) * 0.5, 9, 'UTC') AS time,
    concat(formatDateTime(toDateTime(${T0} + intDiv(height - 1, 2), 'UTC'), '%Y-%m-%dT%H:%i:%S', 'UTC'), if((height - 1) % 2 = 1, '.5Z', 'Z')) AS ts
  FROM numbers({start:UInt64}, {count:UInt64})
)`;

const BLOCKS_SELECT = `
SELECT number + 1 AS height, upper(hex(SHA256(concat('b', toString(height))))) AS hash, '${BENCH.chainId}' AS chain_id,
  toDateTime64(${T0} + (height - 1) * 0.5, 9, 'UTC') AS time, if(height = 1, 0, 500) AS block_time_ms,
  'initvaloper1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqvmj9x0' AS proposer, 1100000 AS gas_used, 2000000 AS gas_wanted, ${BENCH.txsPerBlock} AS tx_count,
  '[{"denom":"uinit","amount":"30000"}]' AS total_fee
FROM numbers(${BLOCKS})`;

// NFT n: collection n % 200, minted at height 1 + n*9 to its owner; account 0 owns every 50th.
// 30% are transferred once 1000 blocks later, 2% burned 2000 blocks later.
const NFT_BASE = `
WITH ${ACCS} AS accs
SELECT number AS n, concat('0x', lower(hex(substring(SHA256(concat('col', toString(n % ${BENCH.collections}))), 1, 20)))) AS collection, toString(n) AS token_id,
  accs[if(n % 50 = 0, 0, cityHash64(n, 7) % ${BENCH.accounts}) + 1] AS owner1, accs[(cityHash64(n, 8) % ${BENCH.accounts}) + 1] AS owner2,
  1 + n * 9 AS h FROM numbers(${BENCH.nfts})`;

const NFT_EVENTS_SELECT = `
SELECT collection, token_id, kind, from_owner, to_owner, uri, '' AS object_addr, height, height * 1000000 AS sequence, 0 AS event_index,
  toDateTime64(${T0} + (height - 1) * 0.5, 9, 'UTC') AS time
FROM (
  SELECT collection, token_id, 'mint' AS kind, '' AS from_owner, owner1 AS to_owner, concat('ipfs://bench/', token_id, '.json') AS uri, h AS height FROM (${NFT_BASE})
  UNION ALL SELECT collection, token_id, 'transfer', owner1, owner2, '', h + 1000 FROM (${NFT_BASE}) WHERE cityHash64(n, 9) % 10 < 3 AND n % 50 != 0
  UNION ALL SELECT collection, token_id, 'burn', if(cityHash64(n, 9) % 10 < 3, owner2, owner1), '', '', h + 2000 FROM (${NFT_BASE}) WHERE n % 50 = 1
)`;

const COLLECTIONS_SELECT = `
WITH ${ACCS} AS accs
SELECT concat('0x', lower(hex(substring(SHA256(concat('col', toString(number))), 1, 20)))) AS collection, concat('Bench Collection ', toString(number)) AS name,
  '' AS origin_name, accs[(cityHash64(number, 5) % ${BENCH.accounts}) + 1] AS creator, 1 + number * 9 AS height, height * 1000000 AS sequence,
  toDateTime64(${T0} + (height - 1) * 0.5, 9, 'UTC') AS time
FROM numbers(${BENCH.collections})`;

// Holder amounts fall with the index and repeat in runs of 7, so the account tiebreak matters.
const RICHLIST_SELECT = `
SELECT '${BENCH.richToken}' AS token, ${BLOCKS} AS snapshot_height, row_number() OVER (ORDER BY amount DESC, account ASC) AS rank, account, amount
FROM (SELECT concat('0x', lower(hex(substring(SHA256(concat('holder', toString(number))), 1, 20)))) AS account,
             toUInt256('1000000000000000000000000') / toUInt256(intDiv(number, 7) + 1) AS amount FROM numbers(${BENCH.holders}))`;

export async function isComplete(store: Store): Promise<boolean> {
  try {
    const [r] = await store.rows<{ n: string }>("SELECT count() AS n FROM bench_meta WHERE step = 'done'");
    return Number(r?.n ?? 0) > 0;
  } catch {
    return false;
  }
}

/** The analytics aggregates of a data set built before they existed (the views fill them on a new build). */
async function analytics(store: Store): Promise<void> {
  await rebuildStats(store);
  await recordRichListHistory(store, BLOCKS);
}

export async function buildBenchData(store: Store): Promise<void> {
  await migrate(store);
  await store.exec(
    'CREATE TABLE IF NOT EXISTS bench_meta (step String, at DateTime DEFAULT now()) ENGINE = MergeTree ORDER BY step',
  );
  if (await isComplete(store)) {
    // A set built before the analytics views existed: fill their tables from the facts once.
    const [a] = await store.rows<{ n: string }>('SELECT count() AS n FROM stats_blocks');
    if (Number(a?.n ?? 0) === 0) await timed('analytics aggregates (rebuild)', () => analytics(store));
    // A set upgraded by a migration that copied a table (210: tx_documents) is merged as a new build would be.
    for (const t of ['tx_documents']) {
      const [p] = await store.rows<{ n: string }>(
        'SELECT count() AS n FROM system.parts WHERE database = currentDatabase() AND table = {t:String} AND active',
        { t },
      );
      if (Number(p?.n ?? 0) > 1) await timed(`optimize ${t}`, () => store.exec(`OPTIMIZE TABLE ${t} FINAL`));
    }
    return;
  }
  for (const t of [
    'blocks',
    'txs',
    'tx_hashes',
    'account_txs',
    'msg_type_txs',
    'tx_documents',
    'nft_events',
    'nft_collection_events',
    'nft_holdings',
    'nft_token_txs',
    'richlist',
    'richlist_snapshots',
    'ingest_checkpoints',
    ...statsViews().map((v) => v.target),
    'stats_richlist_history',
  ])
    await store.exec(`TRUNCATE TABLE IF EXISTS ${t}`);
  await timed('accounts (1M bech32, computed in JS)', () => accountsTable(store));
  await timed('blocks', () => store.exec(`INSERT INTO blocks ${BLOCKS_SELECT}`));
  const chunk = Math.min(500_000, BENCH.txs);
  for (let start = 0; start < BENCH.txs; start += chunk)
    await timed(`txs ${start + chunk}`, async () => {
      // As the ingest does: the row in txs (its views fill the lookups) and the rendered document in tx_documents.
      await store.exec(`INSERT INTO txs SELECT * EXCEPT (json) FROM (${TXS_SELECT})`, { start, count: chunk });
      await store.exec(`INSERT INTO tx_documents SELECT sequence, height, json FROM (${TXS_SELECT})`, {
        start,
        count: chunk,
      });
    });
  await timed('nft collections', () => store.exec(`INSERT INTO nft_collection_events ${COLLECTIONS_SELECT}`));
  await timed('nft events', () => store.exec(`INSERT INTO nft_events ${NFT_EVENTS_SELECT}`));
  await timed('rich list', () => store.exec(`INSERT INTO richlist ${RICHLIST_SELECT}`));
  await recordRichListHistory(store, BLOCKS);
  await store.insert('richlist_snapshots', [{ snapshot_height: BLOCKS, holders: BENCH.holders }]);
  await store.insert('ingest_checkpoints', [{ height: BLOCKS }]);
  await timed('optimize', async () => {
    for (const t of ['tx_hashes', 'account_txs', 'msg_type_txs', 'tx_documents', 'nft_token_txs'])
      await store.exec(`OPTIMIZE TABLE ${t} FINAL`);
  });
  await store.insert('bench_meta', [{ step: 'done' }]);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = process.argv[2] ?? defaultBenchDir();
  const store = createStore({ dataDir: dir });
  const t = Date.now();
  await buildBenchData(store);
  const counts = await store.rows<{ t: string; n: string }>(
    `SELECT 'txs' AS t, toString(count()) AS n FROM txs UNION ALL SELECT 'account_txs', toString(count()) FROM account_txs
     UNION ALL SELECT 'accounts', toString(uniqExact(account)) FROM account_txs UNION ALL SELECT 'nfts', toString(uniqExact(collection, token_id)) FROM nft_events
     UNION ALL SELECT 'holders', toString(count()) FROM richlist UNION ALL SELECT 'blocks', toString(count()) FROM blocks`,
  );
  console.log(JSON.stringify({ dir, seconds: (Date.now() - t) / 1000, counts }));
  await store.close();
}
