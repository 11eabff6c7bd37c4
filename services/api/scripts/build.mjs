// `npm run build -w services/api`: the service as plain JavaScript in dist/, so `npm start`, the
// worker, the CLI and the Docker image run without a TypeScript loader (tsx stays for development
// and tests). esbuild bundles our own code, the workspace packages included (they ship as
// TypeScript source), and the npm packages that allow it: a start then reads a few files instead of
// resolving and compiling hundreds of node_modules files one by one (issue #16: start-up).
//
// Entry points are the files Node starts or imports by path: the server (dist/server.js, the
// loader of dist/server.cjs), the CLI, the sandbox child and its task registries
// (platform/service-root.ts locates them in dist/ by base name).
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { build } from 'esbuild';
import {
  TARGETS,
  fingerprintSources,
  stampFileOf,
  withBuildLock,
} from '../../../scripts/build-stamp.mjs';

const root = path.resolve(import.meta.dirname, '..');
// npm packages that stay files of node_modules: they load files beside their code by path
// (WebAssembly, native addons, static assets, ioredis's own package.json through __dirname, which
// an ESM bundle has not) or are big and only ever loaded in a child or lazily. pino is bundled,
// thread-stream with it: this service never uses pino's transports, the one part that starts a
// worker from a file by path.
const external = [
  '@electric-sql/pglite',
  '@electric-sql/pglite-socket',
  '@node-rs/argon2',
  'sharp',
  '@fastify/swagger-ui',
  'pino-pretty',
  'pg-native',
  'ioredis',
  // CommonJS packages the code imports with import(): in a split bundle esbuild hands such an
  // import only a default export (`{ PDFDocument } = await import('pdf-lib')` would be undefined);
  // checked after the build below.
  'pdf-lib',
  'prom-client',
  'nodemailer',
  '@zxcvbn-ts/language-common',
  '@aws-sdk/*',
  '@react-pdf/*',
  // pdfkit loads its standard fonts through its package.json's `imports` map (#standard-fonts/*),
  // which a bundle does not carry: loaded from node_modules like the packages above.
  'pdfkit',
  'fontkit',
];

/**
 * pg asks at load whether it runs in a Cloudflare Worker by constructing a fetch `Response`; on
 * Node that first touch of the global loads undici (~25 ms of every start, for a fetch nothing
 * makes then). This bundle runs on Node only, so the probe's answer is fixed at build time. The
 * build fails if pg's code no longer reads as expected, rather than bundle a stale patch.
 */
const skipCloudflareProbe = {
  name: 'skip-cloudflare-probe',
  setup(esbuild) {
    esbuild.onLoad({ filter: /[\\/]node_modules[\\/]pg[\\/]lib[\\/]stream\.js$/ }, (args) => {
      const code = readFileSync(args.path, 'utf8');
      const probe = 'if (isCloudflareRuntime()) {';
      if (!code.includes(probe)) {
        throw new Error(`${args.path}: pg's Cloudflare probe changed; update skipCloudflareProbe`);
      }
      return { contents: code.replace(probe, 'if (false) {'), loader: 'js' };
    });
  },
};

// Started or imported by path; the server is built apart (below).
export const ENTRY_POINTS = [
  'src/boot/cli.ts',
  'src/platform/sandbox/sandbox-child.ts',
  'src/modules/documents/document-sandbox-tasks.ts',
  'src/modules/print/print-sandbox-tasks.ts',
];

// One build of dist/ at a time (build-stamp.mjs); it ends by writing the fingerprint of the
// sources it was made from, read before building so an edit made meanwhile counts as a change.
await withBuildLock(TARGETS.api, async () => {
  const fingerprint = fingerprintSources(TARGETS.api.inputs);
  const outdir = path.join(root, 'dist');
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  const started = performance.now();
  const common = {
    absWorkingDir: root,
    bundle: true,
    platform: 'node',
    target: 'node20.19',
    jsx: 'automatic',
    // Maps for readable stack traces (`npm start` runs with --enable-source-maps, which reads them
    // at every start): positions only — the sources are in the repository, and carrying them
    // tripled the maps and slowed every start.
    sourcemap: true,
    sourcesContent: false,
    // Whitespace and syntax only (5.3 → 3.3 MB for the server, less for V8 to read at every
    // start); names stay as written, so class names in logs (err.type) and fn.name-based plugin
    // names are unchanged and no keepNames helper runs per created function.
    minifyWhitespace: true,
    minifySyntax: true,
    plugins: [skipCloudflareProbe],
    external: [...new Set(external), 'node:*'],
    logLevel: 'warning',
  };
  await build({
    ...common,
    entryPoints: ENTRY_POINTS,
    outdir,
    entryNames: '[name]',
    chunkNames: 'chunk-[hash]',
    splitting: true,
    format: 'esm',
    // Bundled CommonJS-style code may call require(); ESM has none unless we make one.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
  });
  // The server: one CommonJS file that boot/server-loader.ts (dist/server.js) compiles with a V8
  // code cache. import() of our own modules stays lazy (esbuild defers their evaluation).
  const serverBundle = path.join(outdir, 'server.cjs');
  await build({
    ...common,
    entryPoints: ['src/boot/server.ts'],
    outfile: serverBundle,
    format: 'cjs',
    // import() of a package left in node_modules becomes require(): on Node 20 a script run from a
    // code cache loses its dynamic-import callback (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING), and the
    // callback that serves import() to vm scripts is still experimental. Every such package has a
    // CommonJS entry (checked below).
    supported: { 'dynamic-import': false },
    define: { 'import.meta.url': '__importMetaUrl', 'import.meta.dirname': '__dirname' },
    banner: { js: "const __importMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
  });
  // What the server require()s from node_modules must be there as CommonJS (see `supported` above);
  // pg-native is pg's optional native driver, never installed.
  const requireFromServer = createRequire(serverBundle);
  for (const [, name] of readFileSync(serverBundle, 'utf8').matchAll(
    /\brequire\("([^".][^"]*)"\)/g,
  )) {
    if (isBuiltin(name) || name === 'pg-native') continue;
    try {
      requireFromServer.resolve(name);
    } catch {
      throw new Error(`dist/server.cjs requires ${name}, which has no CommonJS entry to load`);
    }
  }
  await build({
    ...common,
    entryPoints: ['src/boot/server-loader.ts'],
    outfile: path.join(outdir, 'server.js'),
    format: 'esm',
  });
  const writeCache = spawnSync(
    process.execPath,
    [path.join(outdir, 'server.js'), '--write-code-cache'],
    {
      stdio: 'inherit',
    },
  );
  if (writeCache.status !== 0) throw new Error("writing the server's code cache failed");
  // A chunk that ends in `export default require_x()` is a bundled CommonJS package reached
  // through import(): its named exports are lost (see `external`). Refuse the build instead.
  for (const file of readdirSync(outdir).filter((name) => name.endsWith('.js'))) {
    const code = readFileSync(path.join(outdir, file), 'utf8');
    if (/(?:^|[;}])export default require_\w+\(\);?$/m.test(code)) {
      throw new Error(
        `${file}: a CommonJS package bundled behind import() keeps only its default export; add it to external in scripts/build.mjs`,
      );
    }
  }
  // Files the service reads at run time beside its code.
  copyFileSync(
    path.join(root, 'src/modules/documents/conversion/libreoffice/uno-bridge.py'),
    path.join(outdir, 'uno-bridge.py'),
  );
  writeFileSync(stampFileOf(TARGETS.api), `${fingerprint}\n`);
  console.log(`services/api built to dist/ in ${Math.round(performance.now() - started)} ms`);
});
