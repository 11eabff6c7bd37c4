import { defineProject } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { defineSensitiveKeys } from './build-tools/sensitive-keys';

// The SPA's unit level: real routes inside the real providers under jsdom, with fetch stubbed.
export default defineProject({
  define: defineSensitiveKeys(),
  plugins: [react()],
  test: {
    name: 'web',
    root: import.meta.dirname,
    environment: 'jsdom',
    include: ['test/**/*.test.{ts,tsx}'],
    setupFiles: ['test/support/setup.ts'],
    css: false,
    testTimeout: 60_000,
    // Runs in one group with the root's unit project, whose worker count it must match (two).
    maxWorkers: 2,
    sequence: { groupOrder: 0 },
  },
});
