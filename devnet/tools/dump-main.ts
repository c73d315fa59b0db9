// Child-process helper: print a deterministic dump of every height-keyed table of a chDB data directory.
// (chDB binds one directory per process, so tests compare directories through this.)
import path from 'node:path';
import { createStore } from '../../clickhouse/client.js';
import { HEIGHT_TABLES } from '../../clickhouse/facts-store.js';
import { dumpTables } from '../../test/support/sample.js';

const dir = process.argv[2];
if (!dir) throw new Error('usage: dump-main.ts <DATA_DIR>');
const store = createStore({ dataDir: path.join(dir, 'clickhouse') });
const dump = await dumpTables(store, [...HEIGHT_TABLES, 'balance_seeds', 'ingest_checkpoints']);
// Checkpoint rows carry wall-clock write times; only their heights matter.
const cps = JSON.parse(dump.ingest_checkpoints!) as { height: string }[];
dump.ingest_checkpoints = JSON.stringify(Math.max(0, ...cps.map((c) => Number(c.height))));
// The maintained NFT state, folded per key (its rows' split between parts depends on when merges ran), and its
// refold markers (none may be left).
const folded = {
  nft_token_state: `SELECT collection, token_id, max(owner_v), max(burned_v), max(uri_v), max(object_v), max(time_v),
    max(last_height) FROM nft_token_state GROUP BY collection, token_id ORDER BY ALL`,
  nft_collection_state: `SELECT collection, sum(events), min(first_v), max(name_v), max(origin_v), min(creator_v),
    min(contract_v), sum(nfts), max(last_height) FROM nft_collection_state GROUP BY collection ORDER BY ALL`,
  nft_state_dirty: 'SELECT * FROM nft_state_dirty ORDER BY ALL',
};
for (const [name, sql] of Object.entries(folded)) dump[name] = JSON.stringify(await store.rows(sql));
process.stdout.write(JSON.stringify(dump));
await store.close();
