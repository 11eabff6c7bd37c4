import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { writeChunkMap } from './build-tools/chunk-map';
import { precompressAssets } from './build-tools/precompress-assets';
import { preloadRouteChunks, ROUTE_MODULES } from './build-tools/preload-route-chunks';
import { trimLanguageNames } from './build-tools/trim-language-names';
import { trimSubdivisions } from './build-tools/trim-subdivisions';
import { defineSensitiveKeys } from './build-tools/sensitive-keys';
// By path rather than package name: Vite loads its config with Node, which runs no TypeScript
// from node_modules (workspace packages are linked there); a relative import is bundled instead.
import { SUBDIVISION_COUNTRIES } from '../../packages/form/src/subdivision-countries';

// The API serves the built SPA from the same origin in production; in development the proxy
// keeps that single origin so the session cookie and the login marker behave the same way.
const API_ORIGIN = 'http://127.0.0.1:3000';
const API_PREFIXES = ['/api', '/public', '/lookup', '/service', '/health'];

// Libraries every page needs, in chunks of their own: they change far less often than our code,
// so a release leaves them cached. Everything else (Mantine's components, the form engine and
// its option lists, the print view) follows the routes that use it (router.tsx: lazy routes).
const VENDOR_CHUNKS: readonly (readonly [name: string, pattern: RegExp])[] = [
  ['react', /\/node_modules\/(?:react|react-dom|scheduler)\//],
  ['router', /\/node_modules\/(?:react-router|cookie|set-cookie-parser)\//],
  ['query', /\/node_modules\/@tanstack\//],
];

export default defineConfig({
  define: defineSensitiveKeys(),
  plugins: [
    react(),
    trimSubdivisions(SUBDIVISION_COUNTRIES),
    trimLanguageNames(),
    writeChunkMap(),
    preloadRouteChunks(ROUTE_MODULES),
    precompressAssets(),
  ],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    rollupOptions: {
      treeshake: {
        // TypeBox's builders only build schema objects. Marked pure, the schemas the SPA never
        // uses drop out of the bundle (and TypeBox with them) when it imports a constant or a
        // route from an @admissions/api-contract module that also defines schemas.
        manualPureFunctions: ['Type'],
      },
      output: {
        // HTTP/1.1 gives a page six connections, and each file costs at least a round trip: on a
        // slow network a dozen tiny shared chunks cost more than their bytes. Chunks below this
        // (bytes before minifying) merge into a neighbour; Lighthouse on /about went from about
        // 26 files and a score in the low 80s to 16 files and the high 80s or 90s.
        experimentalMinChunkSize: 10_000,
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
