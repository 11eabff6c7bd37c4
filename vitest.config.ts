import { configDefaults, defineConfig } from 'vitest/config';

// The test of the service build deletes and rewrites services/api/dist, which the CLI tests and
// the compiled-server tests run meanwhile: it gets a group of its own, after the API's.
const BUILD_TEST = 'services/api/test/build-stamp.test.ts';

// Projects: pure units (no I/O), the API against real databases, the service build, and the SPA
// under jsdom. The browser end-to-end suite lives in tests/ and has its own config (it needs a
// built SPA).
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['packages/*/test/**/*.test.ts', 'scripts/test/**/*.test.ts'],
          environment: 'node',
          // Vitest's default leaves one of the two cores to its own process, which has little to
          // do while CPU-bound files run: two workers, as for the SPA's files in the same group.
          maxWorkers: 2,
          // Vitest's 5 s default is short for a file that renders PDFs beside the browser suite.
          testTimeout: 30_000,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: 'api',
          include: ['services/api/test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, BUILD_TEST],
          environment: 'node',
          globalSetup: ['services/api/test/support/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // Two workers on two cores; a group of its own because the worker count differs.
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          name: 'api-build',
          include: [BUILD_TEST],
          environment: 'node',
          testTimeout: 300_000,
          maxWorkers: 1,
          sequence: { groupOrder: 2 },
        },
      },
      'apps/web/vitest.config.ts',
    ],
  },
});
