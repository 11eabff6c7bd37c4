import path from 'node:path';
import type { Plugin } from 'vite';

/** One chunk of the build as `dist/.vite/chunks.json` lists it. */
export interface ChunkRecord {
  file: string;
  isEntry: boolean;
  /** Files of the chunks this one imports statically (the browser fetches them before it runs). */
  imports: string[];
  /** The source modules it holds, relative to apps/web (`src/app/routes/auth/login.tsx`). */
  modules: string[];
}

export const CHUNK_MAP_FILE = '.vite/chunks.json';

/**
 * Writes `dist/.vite/chunks.json`: every JavaScript chunk with its static imports and the source
 * modules inside it. Vite's own manifest names a chunk after its first module only, and small
 * route modules merged into a neighbour (experimentalMinChunkSize) disappear from it; this map
 * answers "which files does the browser fetch for this route module" whatever the chunking.
 */
export function writeChunkMap(): Plugin {
  let root = '';
  return {
    name: 'admissions:chunk-map',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    generateBundle(_options, bundle) {
      const chunks: ChunkRecord[] = Object.values(bundle)
        .filter((output) => output.type === 'chunk')
        .map((chunk) => ({
          file: chunk.fileName,
          isEntry: chunk.isEntry,
          imports: chunk.imports,
          modules: chunk.moduleIds
            .filter((id) => !id.startsWith('\0'))
            .map((id) => path.relative(root, id).split(path.sep).join('/')),
        }));
      this.emitFile({
        type: 'asset',
        fileName: CHUNK_MAP_FILE,
        source: `${JSON.stringify(chunks, null, 2)}\n`,
      });
    },
  };
}
