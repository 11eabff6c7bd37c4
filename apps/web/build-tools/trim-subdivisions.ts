import type { Plugin } from 'vite';

// The module packages/form reads subdivisions from: every country's, about 5,000 entries.
const ISO_3166_2 = /\/node_modules\/iso-3166\/2\.js$/;

/**
 * Replaces the ISO 3166-2 list in the browser bundle by the entries of the countries the form
 * lists (SUBDIVISION_COUNTRIES in packages/form): the world's subdivisions would otherwise be
 * most of the first form page's JavaScript (about 45 kB of 70 kB gzip) for some 80 options.
 * The server keeps the whole package; both read the same entries for these countries.
 */
export function trimSubdivisions(countries: readonly string[]): Plugin {
  return {
    name: 'admissions:trim-subdivisions',
    apply: 'build',
    async load(id) {
      if (!ISO_3166_2.test(id)) return null;
      const { iso31662 } = (await import('iso-3166/2.js')) as {
        iso31662: readonly { code: string; name: string; parent: string }[];
      };
      const kept = iso31662.filter((entry) =>
        countries.some((country) => entry.code.startsWith(`${country}-`)),
      );
      if (kept.length === 0) throw new Error(`No ISO 3166-2 entries for ${countries.join(', ')}.`);
      return `export const iso31662 = ${JSON.stringify(kept)};\n`;
    },
  };
}
