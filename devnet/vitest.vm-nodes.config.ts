import { defineConfig } from 'vitest/config';

// The live minimove and miniwasm e2e suites (test/devnet/vm-nodes/*.e2e.ts). Kept out of the default run because
// they need the nodes from devnet/minimove/build.sh and devnet/miniwasm/build.sh. The two files run side by side:
// each starts its own node and main job on free loopback ports.
//   bash devnet/minimove/build.sh && bash devnet/miniwasm/build.sh && npx vitest run -c devnet/vitest.vm-nodes.config.ts
export default defineConfig({
  root: new URL('..', import.meta.url).pathname,
  test: {
    pool: 'forks',
    // two forks even on two cores (vitest's default is cores - 1): each suite mostly waits on its node
    poolOptions: { forks: { isolate: true, minForks: 2, maxForks: 2 } },
    testTimeout: 300_000,
    hookTimeout: 300_000,
    include: ['test/devnet/vm-nodes/**/*.e2e.ts'],
  },
});
