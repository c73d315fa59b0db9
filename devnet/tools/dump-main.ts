// Child-process helper: print a deterministic dump of every height-keyed table of a chDB data directory.
// (chDB binds one directory per process, so tests compare directories through this.)
import path from 'node:path';
import { createStore } from '../../clickhouse/client.js';
import { HEIGHT_TABLES } from '../../ingest/writer.js';
import { dumpTables } from '../../test/support/sample.js';

const dir = process.argv[2];
if (!dir) throw new Error('usage: dump-main.ts <DATA_DIR>');
const store = createStore({ dataDir: path.join(dir, 'clickhouse') });
const dump = await dumpTables(store, [...HEIGHT_TABLES, 'ingest_checkpoints']);
// Checkpoint rows carry wall-clock write times; only their heights matter.
const cps = JSON.parse(dump.ingest_checkpoints!) as { height: string }[];
dump.ingest_checkpoints = JSON.stringify(Math.max(0, ...cps.map((c) => Number(c.height))));
process.stdout.write(JSON.stringify(dump));
await store.close();
