// The build's ISO 639-1 list (build-tools/trim-language-names.ts): what the language questions
// read from iso-639-1 in the browser bundle.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { trimLanguageNames } from '../build-tools/trim-language-names';

const require = createRequire(import.meta.url);
const DATA_MODULE = require.resolve('iso-639-1/src/data.js');

/** iso-639-1's own module, run over the data module the build substitutes. */
function loadTrimmedPackage(): {
  getLanguages(codes: string[]): { code: string; name: string; nativeName: string }[];
  getAllCodes(): string[];
} {
  const source = trimLanguageNames().load(DATA_MODULE);
  if (source === null) throw new Error('The plugin left iso-639-1/src/data.js alone.');
  const data: { exports: unknown } = { exports: {} };
  new Function('module', source)(data);
  const indexSource = require('node:fs').readFileSync(
    require.resolve('iso-639-1'),
    'utf8',
  ) as string;
  const index: { exports: unknown } = { exports: {} };
  new Function('module', 'require', indexSource)(index, () => data.exports);
  return index.exports as ReturnType<typeof loadTrimmedPackage>;
}

describe('the ISO 639-1 list of the browser bundle', () => {
  it('loads and gives every language its English name, without the native ones', () => {
    const full = require('iso-639-1') as ReturnType<typeof loadTrimmedPackage>;
    const trimmed = loadTrimmedPackage();
    const english = (list: ReturnType<typeof loadTrimmedPackage>) =>
      list.getLanguages(list.getAllCodes()).map(({ code, name }) => ({ code, name }));
    expect(english(trimmed)).toEqual(english(full));
    expect(trimmed.getLanguages(['yo'])[0]?.nativeName).toBe('');
  });
});
