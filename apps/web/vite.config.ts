import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompressAssets } from './build-tools/precompress-assets';

// The API serves the built SPA from the same origin in production; in development the proxy
// keeps that single origin so the session cookie and the login marker behave the same way.
const API_ORIGIN = 'http://127.0.0.1:3000';
const API_PREFIXES = ['/api', '/public', '/lookup', '/service', '/health'];

// Libraries every page needs, in chunks of their own: they change far less often than our code,
// so a release leaves them cached. Everything else (Mantine's components, the form engine and
// its country lists, react-pdf-free print code) follows the routes that use it.
const VENDOR_CHUNKS: readonly (readonly [name: string, pattern: RegExp])[] = [
  ['react', /\/node_modules\/(?:react|react-dom|scheduler)\//],
  ['router', /\/node_modules\/(?:react-router|cookie|set-cookie-parser)\//],
  ['query', /\/node_modules\/@tanstack\//],
];

export default defineConfig({
  plugins: [react(), precompressAssets()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    // dist/.vite/manifest.json: which chunks each route loads (the bundle budget test reads it).
    manifest: true,
    rollupOptions: {
      output: {
        manualChunks(id) {
          return VENDOR_CHUNKS.find(([, pattern]) => pattern.test(id))?.[0];
        },
      },
    },
  },
  server: {
    proxy: Object.fromEntries(API_PREFIXES.map((prefix) => [prefix, API_ORIGIN])),
  },
  preview: {
    proxy: Object.fromEntries(API_PREFIXES.map((prefix) => [prefix, API_ORIGIN])),
  },
});
