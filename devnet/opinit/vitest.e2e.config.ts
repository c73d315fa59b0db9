import { defineConfig } from 'vitest/config';

// The real OPinit bridge e2e suite (test/devnet/opinit/*.e2e.ts): L1 initiad + L2 minievm + the executor opinitd,
// built once into ~/.cache/chain-infra by devnet/opinit/build-initiad.sh, build-opinitd.sh and
// devnet/minievm/build.sh.
//   npx vitest run -c devnet/opinit/vitest.e2e.config.ts
export default defineConfig({
  root: new URL('../..', import.meta.url).pathname,
  test: {
    pool: 'forks',
    poolOptions: { forks: { isolate: true } },
    fileParallelism: false,
    testTimeout: 180_000,
    hookTimeout: 1_500_000,
    include: ['test/devnet/opinit/**/*.e2e.ts'],
  },
});
