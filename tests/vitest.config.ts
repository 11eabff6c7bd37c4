import { defineConfig } from 'vitest/config';

// The browser suite drives one real server and one Chromium per file; on the 2-core machines
// running files in parallel would only make every step slower and the timings flaky.
export default defineConfig({
  root: import.meta.dirname,
  test: {
    name: 'e2e',
    include: ['e2e/**/*.test.ts'],
    environment: 'node',
    testTimeout: 120_000,
    hookTimeout: 120_000,
    fileParallelism: false,
    maxWorkers: 1,
  },
});
