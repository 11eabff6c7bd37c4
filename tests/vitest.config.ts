import { defineConfig } from 'vitest/config';

// The browser suite drives one real server and one Chromium per file. Two files at a time: one
// file alone leaves much of the second core idle while its page waits on the server (and the
// rounds file waits for a deadline); the waits are generous enough for the shared cores.
export default defineConfig({
  root: import.meta.dirname,
  test: {
    name: 'e2e',
    include: ['e2e/**/*.test.ts'],
    environment: 'node',
    testTimeout: 120_000,
    hookTimeout: 120_000,
    maxWorkers: 2,
  },
});
