import { defineConfig } from 'vitest/config';

// The live-minievm e2e suite (test/devnet/minievm/*.e2e.ts). Kept out of the default
// `test/**/*.test.ts` run because it needs the minitiad binary from build.sh.
//   bash devnet/minievm/build.sh && npx vitest run -c devnet/minievm/vitest.e2e.config.ts
export default defineConfig({
  root: new URL('../..', import.meta.url).pathname,
  test: {
    pool: 'forks',
    poolOptions: { forks: { isolate: true } },
    fileParallelism: false,
    testTimeout: 300_000,
    hookTimeout: 300_000,
    include: ['test/devnet/minievm/**/*.e2e.ts'],
  },
});
