// `npm run build -w services/api`: the service as plain JavaScript in dist/, so `npm start`, the
// worker, the CLI and the Docker image run without a TypeScript loader (tsx stays for development
// and tests). esbuild bundles our own code, the workspace packages included (they ship as
// TypeScript source); every npm dependency stays an import of node_modules.
//
// Entry points are the files Node starts or imports by path: the server, the CLI, the sandbox
// child and its task registries (platform/service-root.ts locates them in dist/ by base name).
import { copyFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');
const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const external = Object.keys(manifest.dependencies).filter(
  (name) => !name.startsWith('@admissions/'),
);
// The workspace packages' own npm dependencies (react-pdf, pdf-lib, …) stay external too.
for (const pkg of ['form', 'api-contract', 'answer-view']) {
  const own = JSON.parse(
    readFileSync(path.join(root, `../../packages/${pkg}/package.json`), 'utf8'),
  );
  for (const name of Object.keys({ ...own.dependencies, ...own.peerDependencies })) {
    if (!name.startsWith('@admissions/')) external.push(name);
  }
}

export const ENTRY_POINTS = [
  'src/boot/server.ts',
  'src/boot/cli.ts',
  'src/platform/sandbox/sandbox-child.ts',
  'src/modules/documents/document-sandbox-tasks.ts',
  'src/modules/print/print-sandbox-tasks.ts',
];

const outdir = path.join(root, 'dist');
rmSync(outdir, { recursive: true, force: true });
mkdirSync(outdir, { recursive: true });
const started = performance.now();
await build({
  absWorkingDir: root,
  entryPoints: ENTRY_POINTS,
  outdir,
  entryNames: '[name]',
  chunkNames: 'chunk-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  jsx: 'automatic',
  sourcemap: true,
  external: [...new Set(external), 'node:*'],
  // Bundled CommonJS-style code may call require(); ESM has none unless we make one.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
// Files the service reads at run time beside its code.
copyFileSync(
  path.join(root, 'src/modules/documents/conversion/libreoffice/uno-bridge.py'),
  path.join(outdir, 'uno-bridge.py'),
);
console.log(`services/api built to dist/ in ${Math.round(performance.now() - started)} ms`);
