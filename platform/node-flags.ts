// The Node flags the main job runs under. Its launchers (scripts/start.sh, `npm start` in package.json, the
// Dockerfile's CMD) spell them out, since a shell line cannot import this file; test/platform/node-flags.test.ts
// checks that each of them carries exactly these. Tools that start the main job or run the ingest in their own
// process (devnet/minievm/ingest-process.ts, test/support/main-job.ts, bench/node-flags.ts) take them from here.
//  --max-semi-space-size=64: a 64 MB young generation. The ingest allocates per block and per tx; with V8's default
//    16 MB it scavenges several times as often (decision 010: dense backfill +15 %, ~150 MB more RSS). A V8 heap
//    flag takes effect only at start-up.
export const MAIN_JOB_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=64'];
