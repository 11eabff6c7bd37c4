import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';

/**
 * The route modules a first visit to each path loads besides the entry (src/app/router.tsx): a
 * form page also loads its parent route, the application root.
 */
export const ROUTE_MODULES = {
  '/login': ['src/app/routes/auth/login.tsx'],
  '/signup': ['src/app/routes/auth/signup.tsx'],
  '/confirm': ['src/app/routes/auth/confirm.tsx'],
  '/forgot': ['src/app/routes/auth/forgot.tsx'],
  '/reset': ['src/app/routes/auth/reset.tsx'],
  '/about': ['src/app/routes/app/application-root.tsx', 'src/app/routes/app/about.tsx'],
  '/education': ['src/app/routes/app/application-root.tsx', 'src/app/routes/app/education.tsx'],
  '/final-steps': ['src/app/routes/app/application-root.tsx', 'src/app/routes/app/final-steps.tsx'],
  '/completion': ['src/app/routes/app/completion.tsx'],
  '/print': ['src/app/routes/print.tsx'],
} as const satisfies Record<string, readonly string[]>;

interface RouteFiles {
  js: string[];
  css: string[];
}

/** Where the build puts the table (without its content hash), for tests to find it. */
export const ROUTE_PRELOAD_SCRIPT = 'assets/route-preload';

/** The built script's path relative to `distDir` (`assets/route-preload-<hash>.js`), if any. */
export function findRoutePreloadScript(distDir: string): string | undefined {
  const folder = path.dirname(ROUTE_PRELOAD_SCRIPT);
  const prefix = `${path.basename(ROUTE_PRELOAD_SCRIPT)}-`;
  const file = readdirSync(path.join(distDir, folder)).find(
    (name) => name.startsWith(prefix) && name.endsWith('.js'),
  );
  return file ? `${folder}/${file}` : undefined;
}

/**
 * Adds to index.html a small classic script that, for the path being opened, asks at once for the
 * route's JavaScript (`modulepreload`) and style sheets (`preload`; Vite's loader still applies
 * them, and waits for them, when the route module is imported). Without it the browser learns of
 * them only after the entry has downloaded and run (the router then imports the lazy route), so
 * a first visit fetched its code in two waves, a round trip and the entry's start-up apart. The
 * files the entry imports itself are left out: Vite preloads those already. A file rather than
 * an inline script: the CSP allows scripts from 'self' only (services/api/src/platform/http/security.ts).
 */
export function preloadRouteChunks(routes: Readonly<Record<string, readonly string[]>>): Plugin {
  let root = '';
  let base = '/';
  return {
    name: 'admissions:preload-route-chunks',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      base = config.base;
    },
    generateBundle: {
      // After vite:build-html, which adds index.html to the bundle in this same hook.
      order: 'post',
      handler(_options, bundle) {
        const chunks = Object.values(bundle).filter((output) => output.type === 'chunk');
        const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
        const relative = (id: string) => path.relative(root, id).split(path.sep).join('/');
        const collect = (files: Iterable<string>) => {
          const seen = new Set<string>();
          const visit = (file: string) => {
            if (seen.has(file)) return;
            seen.add(file);
            for (const imported of byFile.get(file)?.imports ?? []) visit(imported);
          };
          for (const file of files) visit(file);
          return seen;
        };
        const entry = chunks.find((chunk) => chunk.isEntry);
        if (!entry) throw new Error('The build has no entry chunk.');
        const loaded = collect([entry.fileName]);

        const table: Record<string, RouteFiles> = {};
        for (const [route, modules] of Object.entries(routes)) {
          const holders = modules.map((module) => {
            const holder = chunks.find((chunk) =>
              chunk.moduleIds.some((id) => relative(id) === module),
            );
            if (!holder) throw new Error(`No chunk holds ${module} (see ROUTE_MODULES).`);
            return holder.fileName;
          });
          const files = [...collect(holders)].filter((file) => !loaded.has(file));
          // Relative to `base`, which the script adds once (every byte of it loads with each page).
          table[route] = {
            js: files,
            css: files.flatMap((file) => [...(byFile.get(file)?.viteMetadata?.importedCss ?? [])]),
          };
        }
        // ES5 and small: it runs on every page load, before the entry. `crossOrigin` as Vite's own
        // preloads set it, so that the route's import finds the preloaded response.
        const source =
          `(function(b,t){var r=t[location.pathname.replace(/\\/+$/,'')];if(!r)return;` +
          `function a(rel,href){var l=document.createElement('link');l.rel=rel;l.href=b+href;` +
          `l.crossOrigin='';if(rel==='preload')l.as='style';document.head.appendChild(l)}` +
          `r.css.forEach(function(h){a('preload',h)});` +
          `r.js.forEach(function(h){a('modulepreload',h)})})(${JSON.stringify(base)},${JSON.stringify(table)});\n`;
        const reference = this.emitFile({
          type: 'asset',
          name: `${path.basename(ROUTE_PRELOAD_SCRIPT)}.js`,
          source,
        });
        const html = bundle['index.html'];
        if (html?.type !== 'asset' || typeof html.source !== 'string') {
          throw new Error('index.html is not in the bundle yet: check the plugin order.');
        }
        // First in <head>: a classic script runs as soon as it arrives, while the browser is still
        // fetching the entry and its vendor chunks.
        const tag = `<script src="${base}${this.getFileName(reference)}"></script>`;
        html.source = html.source.replace('<head>', `<head>\n    ${tag}`);
      },
    },
  };
}
