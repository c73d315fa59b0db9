import { defineConfig } from 'vitest/config';

// The differential test against the reference indexer rollytics (test/devnet/rollytics/*.e2e.ts). Kept out of the
// default run: it needs minitiad and rollytics (both built once into ~/.cache/chain-infra) and PostgreSQL.
//   npx vitest run -c devnet/rollytics/vitest.e2e.config.ts
export default defineConfig({
  root: new URL('../..', import.meta.url).pathname,
  test: {
    pool: 'forks',
    // Two files at a time: each devnet, PostgreSQL and rollytics takes free ports of its own, and one file alone
    // leaves the cores half idle while its devnet makes blocks (docs/decisions/009-ci-time.md).
    fileParallelism: true,
    poolOptions: { forks: { minForks: 2, maxForks: 2 } },
    testTimeout: 600_000,
    hookTimeout: 600_000,
    include: ['test/devnet/rollytics/**/*.e2e.ts'],
  },
});
