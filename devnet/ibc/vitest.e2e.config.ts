import { defineConfig } from 'vitest/config';

// The real-IBC e2e suite (test/devnet/ibc/*.e2e.ts): two minievm devnets + the Go relayer, both built once
// into ~/.cache/chain-infra by devnet/minievm/build.sh and devnet/ibc/build-relayer.sh.
//   npx vitest run -c devnet/ibc/vitest.e2e.config.ts
export default defineConfig({
  root: new URL('../..', import.meta.url).pathname,
  test: {
    pool: 'forks',
    poolOptions: { forks: { isolate: true } },
    fileParallelism: false,
    testTimeout: 180_000,
    hookTimeout: 900_000,
    include: ['test/devnet/ibc/**/*.e2e.ts'],
  },
});
