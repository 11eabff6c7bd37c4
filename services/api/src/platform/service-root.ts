// Where this service's files are, whether it runs as TypeScript under tsx (development, tests)
// or as the bundle `npm run build` writes to dist/ (npm start, the Docker image): migrations,
// data samples and the entry points of child processes are found from here, not from the
// depth of the file that needs them.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

function findServiceRoot(start: string): string {
  for (let dir = start; ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (existsSync(manifest)) {
      const { name } = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string };
      if (name === '@admissions/api') return dir;
    }
    if (path.dirname(dir) === dir) throw new Error(`no @admissions/api package above ${start}`);
  }
}

/** services/api */
export const SERVICE_ROOT = findServiceRoot(import.meta.dirname);

/** The repository (the SPA's build is found from here). */
export const REPO_ROOT = path.resolve(SERVICE_ROOT, '../..');

/** True in the bundle (dist/*.js, and the server's dist/server.cjs); under tsx this file is .ts. */
export const RUNNING_COMPILED = !import.meta.url.endsWith('.ts');

/**
 * A file that Node starts or imports by path (a child's entry, a task registry): its source
 * under tsx, its bundle in dist/ (named by the source's base name, so base names are unique).
 */
export function locateEntry(sourcePath: string): string {
  if (!RUNNING_COMPILED) return path.join(SERVICE_ROOT, sourcePath);
  return path.join(SERVICE_ROOT, 'dist', path.basename(sourcePath).replace(/\.ts$/, '.js'));
}
