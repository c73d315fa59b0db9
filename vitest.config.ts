import os from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

// chDB binds one data directory per process, so every test file runs in its own forked process.
//
// Order: vitest starts the files that took longest last time first (with two forks, a long file started late
// becomes the run's tail). Those durations live in vitest's cache, kept with the node builds outside the clone
// ($CHAIN_INFRA_CACHE, default ~/.cache/chain-infra) so that a fresh clone on a warm machine still has them; on a
// cold machine the order is the files' own, and only the wall time differs.
const cacheRoot = process.env.CHAIN_INFRA_CACHE ?? path.join(os.homedir(), '.cache', 'chain-infra');

export default defineConfig({
  cacheDir: path.join(cacheRoot, 'vitest-cache'),
  test: {
    pool: 'forks',
    poolOptions: { forks: { isolate: true, minForks: 2, maxForks: 2 } },
    fileParallelism: true,
    testTimeout: 60_000,
    hookTimeout: 180_000,
    include: ['test/**/*.test.ts'],
  },
});
