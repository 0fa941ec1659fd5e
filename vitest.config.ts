import { defineConfig } from 'vitest/config';

// Two projects: `unit` needs nothing but Node; `integration` and `e2e` talk to Redis, the twin and
// the fake Slack over real sockets, so they get longer timeouts.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts', 'test/e2e/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
    ],
  },
});
