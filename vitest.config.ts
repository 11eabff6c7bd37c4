import { defineConfig } from 'vitest/config';

// Three projects: pure units (no I/O), the API against real databases, and the SPA under jsdom.
// The browser end-to-end suite lives in tests/ and has its own config (it needs a built SPA).
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['packages/*/test/**/*.test.ts', 'scripts/test/**/*.test.ts'],
          environment: 'node',
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: 'api',
          include: ['services/api/test/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['services/api/test/support/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // Two workers on two cores; a group of its own because the worker count differs.
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
      'apps/web/vitest.config.ts',
    ],
  },
});
