// Option lists built from maintained data packages rather than typed by hand. Everything here is
// pure data (JSON or ESM arrays), so it bundles for the browser as well as it runs on the server.
import countryCodes from 'i18n-iso-countries/codes.json' with { type: 'json' };
import englishCountryNames from 'i18n-iso-countries/langs/en.json' with { type: 'json' };
import { iso31662 } from 'iso-3166/2.js';
import ISO6391 from 'iso-639-1';
import type { SubdivisionCountry } from './subdivision-countries';
import type { Option } from './types';

export const USA = 'USA';
export const CANADA = 'CAN';

// One collator for every sort: localeCompare(…, 'en') gives the same order but builds a collator
// per comparison, which costs the SPA's first form page tens of milliseconds on a slow phone.
const englishOrder = new Intl.Collator('en');
const byLabel = (a: Option, b: Option) => englishOrder.compare(a.label, b.label);

function countryName(alpha2: string): string {
  const names: Readonly<Record<string, string | readonly string[]>> = englishCountryNames.countries;
  const name = names[alpha2];
  // The package lists the official English name first, then aliases.
  return (Array.isArray(name) ? name[0] : name) ?? alpha2;
}

// ISO 3166-1 alpha-3 codes are the stored values: stable, and what docs/validation.md's "USA or CAN" means.
const ALL_COUNTRIES: readonly Option[] = (countryCodes as readonly (readonly string[])[])
  .map(([alpha2 = '', alpha3 = '']) => ({ value: alpha3, label: countryName(alpha2) }))
  .sort(byLabel);

const BLANK: Option = { value: '', label: '' };
const unitedStates = ALL_COUNTRIES.find((c) => c.value === USA);

/** Blank first, then the United States, then every other country by name (docs/data-model.md). */
export const COUNTRIES: readonly Option[] = [
  BLANK,
  ...(unitedStates ? [unitedStates] : []),
  ...ALL_COUNTRIES.filter((c) => c.value !== USA),
];

/** For questions about another citizenship, where the USA is not an answer. */
export const COUNTRIES_WITHOUT_USA: readonly Option[] = COUNTRIES.filter((c) => c.value !== USA);

function subdivisionsOf(alpha2: SubdivisionCountry, excluded: readonly string[] = []): Option[] {
  return iso31662
    .filter((s) => s.parent === alpha2 && !excluded.includes(s.code))
    .map((s) => ({ value: s.code.slice(alpha2.length + 1), label: s.name }))
    .sort(byLabel);
}

// ISO 3166-2 has no codes for military mail, so the three USPS armed-forces codes are added here.
const ARMED_FORCES: readonly Option[] = [
  { value: 'AA', label: 'Armed Forces Americas' },
  { value: 'AE', label: 'Armed Forces Europe, Middle East, Africa and Canada' },
  { value: 'AP', label: 'Armed Forces Pacific' },
];

/**
 * States, the District of Columbia and the inhabited territories (ISO 3166-2:US, whose codes
 * equal the USPS ones), then the armed-forces codes. US-UM has no residents or postal code.
 */
export const US_STATES: readonly Option[] = [...subdivisionsOf('US', ['US-UM']), ...ARMED_FORCES];

/** Provinces and territories (ISO 3166-2:CA, equal to Canada Post's codes). */
export const CA_PROVINCES: readonly Option[] = subdivisionsOf('CA');

const monthName = new Intl.DateTimeFormat('en-US', { month: 'long', timeZone: 'UTC' });

/** Months 1 to 12, stored as '1'..'12'. */
export const MONTHS: readonly Option[] = Array.from({ length: 12 }, (_, i) => ({
  value: String(i + 1),
  label: monthName.format(new Date(Date.UTC(2000, i, 1))),
}));

/** ISO 639-1 languages by English name, stored as the two-letter code. */
export const LANGUAGES: readonly Option[] = ISO6391.getLanguages(ISO6391.getAllCodes())
  .map((l) => ({ value: l.code, label: l.name }))
  .sort(byLabel);

export interface YearListOptions {
  /** Default: the current year of `now`. */
  start?: number;
  direction: 'past' | 'future';
  count: number;
  now?: Date;
}

/** `count` years from `start`, counting down (past) or up (future). */
export function listYears({
  start,
  direction,
  count,
  now = new Date(),
}: YearListOptions): Option[] {
  const first = start ?? now.getUTCFullYear();
  const step = direction === 'past' ? -1 : 1;
  return Array.from({ length: Math.max(0, count) }, (_, i) => {
    const year = String(first + i * step);
    return { value: year, label: year };
  });
}
