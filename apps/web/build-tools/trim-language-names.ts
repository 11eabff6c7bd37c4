import { createRequire } from 'node:module';
import type { Plugin } from 'vite';

// The data module of iso-639-1 (CommonJS): every language's English and native name.
const ISO_639_1_DATA = /\/node_modules\/iso-639-1\/src\/data\.js$/;

/**
 * Drops the native names (Yorùbá, 中文, …) from the ISO 639-1 list in the browser bundle: the
 * language questions show English names only (LANGUAGES in packages/form), and the native
 * spellings, most of the list's bytes, are on /about's first load (about 2 kB gzip). The server
 * keeps the whole package.
 */
export function trimLanguageNames(): Plugin & { load(id: string): string | null } {
  return {
    name: 'admissions:trim-language-names',
    apply: 'build',
    load(id: string) {
      if (!ISO_639_1_DATA.test(id)) return null;
      const languages = createRequire(import.meta.url)('iso-639-1/src/data.js') as Record<
        string,
        { name: string }
      >;
      // Empty rather than absent: the package lower-cases every native name when it loads.
      const names = Object.fromEntries(
        Object.entries(languages).map(([code, { name }]) => [code, { name, nativeName: '' }]),
      );
      if (Object.keys(names).length === 0) throw new Error('No ISO 639-1 languages.');
      return `module.exports = ${JSON.stringify(names)};\n`;
    },
  };
}
