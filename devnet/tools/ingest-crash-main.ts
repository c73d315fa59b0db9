// Test child process of test/ingest/crash.test.ts: the main job (scripts/main.ts, configured from the environment
// as usual) with a crash hook injected: SIGKILL (no cleanup) right after the n-th insert into <table>, i.e. in
// the middle of a batch.
//   node --import tsx devnet/tools/ingest-crash-main.ts <table>:<n>
import { runMain } from '../../scripts/main.js';

const [table, n = '1'] = (process.argv[2] ?? '').split(':');
if (!table) throw new Error('usage: ingest-crash-main.ts <table>:<n>');
runMain({ crashAfterInsert: { table, n: Number(n) } });
