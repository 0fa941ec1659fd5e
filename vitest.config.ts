import { defineConfig } from 'vitest/config';

// Four projects: the product's and the twin's (packages/twin), each split into `unit`, which needs
// nothing but Node, and `integration` (with e2e), which talks to Redis, the twin, kubectl and the
// fake Slack over real sockets and so gets longer timeouts. Every project extends this file's
// resolve options: the `source` condition resolves `@proxy-migrate/twin` to its TypeScript
// sources, so a twin change needs no rebuild to be tested.
const slow = { testTimeout: 30_000, hookTimeout: 30_000 };

export default defineConfig({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'] } },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts', 'test/e2e/**/*.test.ts'],
          ...slow,
        },
      },
      {
        extends: true,
        test: { name: 'twin-unit', include: ['packages/twin/test/unit/**/*.test.ts'] },
      },
      {
        extends: true,
        test: {
          name: 'twin-integration',
          include: ['packages/twin/test/integration/**/*.test.ts'],
          ...slow,
        },
      },
    ],
  },
});
