import { defineConfig } from 'vitest/config';

// chDB binds one data directory per process, so every test file runs in its own forked process.
export default defineConfig({
  test: {
    pool: 'forks',
    poolOptions: { forks: { isolate: true, minForks: 2, maxForks: 2 } },
    fileParallelism: true,
    testTimeout: 60_000,
    hookTimeout: 180_000,
    include: ['test/**/*.test.ts'],
  },
});
