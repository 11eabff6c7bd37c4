// Address completion sits behind one small interface so a deployment can plug in a commercial
// address service (ADDRESS_PROVIDER) without touching the route or the SPA.
import { createRequire } from 'node:module';
import type { AddressRecord, LookupItem } from '@admissions/api-contract';
import { USA } from '@admissions/form';
import type { Database } from '../../platform/db/connect';
import { describeCountry, describeState } from './place-names';
import { normalizeSearchText } from './normalize';
import { searchRanked } from './ranked-search';
import type { AddressProviderName } from '../../platform/address-provider-names';

export interface AddressProvider {
  readonly name: string;
  /** Suggestions for what the applicant typed into the first address line. */
  search(text: string, limit: number): Promise<LookupItem[]>;
  /** The full address behind a suggestion's id, or null when the id is unknown. */
  fetch(id: string): Promise<AddressRecord | null>;
}

export function createAddressProvider(
  name: AddressProviderName,
  database: Database,
): AddressProvider {
  switch (name) {
    case 'zipcodes':
      return createZipcodesProvider();
    case 'database':
      return createDatabaseAddressProvider(database);
    case 'none':
      return { name, search: async () => [], fetch: async () => null };
  }
}

function addressRecord(fields: Omit<AddressRecord, 'state_desc' | 'country_desc'>): AddressRecord {
  return {
    ...fields,
    state_desc: describeState(fields.country, fields.state),
    country_desc: describeCountry(fields.country),
  };
}

// ---------------------------------------------------------------------------------------------
// zipcodes: US ZIP codes and their cities from the `zipcodes` npm package (BSD licence), held in
// memory. It completes the place part of an address line: "12 Elm St, Springf" or "12 Elm St 627"
// offers "12 Elm St, Springfield, IL 62701"; the street the applicant typed is carried in the id.

interface ZipEntry {
  zip: string;
  city: string;
  state: string;
}

interface City {
  city: string;
  state: string;
  search: string;
  zips: string[];
}

interface ZipIndex {
  zips: ZipEntry[];
  byZip: Map<string, ZipEntry>;
  cities: City[];
  byCity: Map<string, City>;
}

let zipIndex: ZipIndex | undefined;

/** Built on the first address lookup (~40,000 ZIP codes), not at start-up. */
function loadZipIndex(): ZipIndex {
  if (zipIndex) return zipIndex;
  const require = createRequire(import.meta.url);
  const { codes } = require('zipcodes/lib/codes.js') as {
    codes: Record<string, { zip: string; city: string; state: string }>;
  };
  const zips = Object.values(codes)
    .map(({ zip, city, state }) => ({ zip, city, state }))
    .sort((a, b) => (a.zip < b.zip ? -1 : a.zip > b.zip ? 1 : 0));
  const byCity = new Map<string, City>();
  for (const entry of zips) {
    const key = `${entry.state}:${entry.city}`;
    const city = byCity.get(key);
    if (city) city.zips.push(entry.zip);
    else {
      const search = normalizeSearchText(`${entry.city} ${entry.state}`);
      byCity.set(key, { city: entry.city, state: entry.state, search, zips: [entry.zip] });
    }
  }
  // Places with more ZIP codes (bigger places) first, then by name.
  const cities = [...byCity.values()].sort(
    (a, b) => b.zips.length - a.zips.length || (a.search < b.search ? -1 : 1),
  );
  zipIndex = { zips, byZip: new Map(zips.map((z) => [z.zip, z])), cities, byCity };
  return zipIndex;
}

/** "12 Elm St, Springf" → street "12 Elm St", place "Springf"; a trailing ZIP also splits. */
export function splitAddressText(text: string): { street: string; place: string } {
  const comma = text.lastIndexOf(',');
  if (comma !== -1) {
    return { street: text.slice(0, comma).trim(), place: text.slice(comma + 1).trim() };
  }
  const zip = /^(.*\S)\s+(\d{3,5})$/.exec(text.trim());
  if (zip?.[1] && zip[2]) return { street: zip[1], place: zip[2] };
  return { street: '', place: text.trim() };
}

function withStreet(street: string, place: string): string {
  return street ? `${street}, ${place}` : place;
}

function createZipcodesProvider(): AddressProvider {
  return {
    name: 'zipcodes',
    async search(text, limit) {
      const { street, place } = splitAddressText(text);
      const query = normalizeSearchText(place);
      if (query === '') return [];
      const index = loadZipIndex();
      const suffix = street ? `|${street}` : '';
      if (/^\d{3,5}$/.test(query)) {
        return index.zips
          .filter((z) => z.zip.startsWith(query))
          .slice(0, limit)
          .map((z) => ({
            id: `zip:${z.zip}${suffix}`,
            text: withStreet(street, `${z.city}, ${z.state} ${z.zip}`),
            sub_text: 'United States',
          }));
      }
      if (/\d/.test(query)) return [];
      const starts = index.cities.filter((c) => c.search.startsWith(query));
      const words = query.split(' ');
      const wordStarts =
        starts.length >= limit
          ? []
          : index.cities.filter(
              (c) =>
                !c.search.startsWith(query) &&
                words.every((w) => c.search.startsWith(w) || c.search.includes(` ${w}`)),
            );
      return [...starts, ...wordStarts].slice(0, limit).map((c) => ({
        id: `city:${c.state}:${c.city}${suffix}`,
        text: withStreet(street, `${c.city}, ${c.state}`),
        sub_text: c.zips.length === 1 ? `${c.zips[0]}, United States` : 'United States',
      }));
    },
    async fetch(id) {
      const bar = id.indexOf('|');
      const key = bar === -1 ? id : id.slice(0, bar);
      const street = bar === -1 ? '' : id.slice(bar + 1).trim();
      const index = loadZipIndex();
      let found: { city: string; state: string; zip: string } | undefined;
      if (key.startsWith('zip:')) {
        found = index.byZip.get(key.slice(4));
      } else if (key.startsWith('city:')) {
        const city = index.byCity.get(key.slice(5));
        if (city) found = { ...city, zip: city.zips.length === 1 ? (city.zips[0] ?? '') : '' };
      }
      if (!found) return null;
      // A place found from a city or a ZIP knows no street: no lines, so nothing the applicant
      // typed into them is overwritten; a street carried in the id comes back as the first line.
      return addressRecord({
        id,
        ...(street ? { address_line_1: street } : {}),
        city: found.city,
        state: found.state,
        zip: found.zip,
        country: USA,
      });
    },
  };
}

// ---------------------------------------------------------------------------------------------
// database: the lookup_addresses table, filled by `npm run cli -- lookup import --category address`
// from an institution's own address file; searched like the schools.

const ADDRESS_COLUMNS = 'id, address_line_1, address_line_2, city, state, zip, country';

function asAddress(row: Record<string, unknown>): AddressRecord {
  return addressRecord({
    id: String(row.id),
    address_line_1: String(row.address_line_1 ?? ''),
    address_line_2: String(row.address_line_2 ?? ''),
    city: String(row.city ?? ''),
    state: String(row.state ?? ''),
    zip: String(row.zip ?? ''),
    country: String(row.country ?? ''),
  });
}

function createDatabaseAddressProvider(database: Database): AddressProvider {
  return {
    name: 'database',
    async search(text, limit) {
      const spec = { table: 'lookup_addresses', key: 'id', columns: ADDRESS_COLUMNS };
      const rows = await searchRanked(database, spec, text, limit);
      return rows.map(asAddress).map((a) => ({
        id: a.id,
        text: [a.address_line_1, a.address_line_2].filter(Boolean).join(', '),
        sub_text: [a.city, [a.state, a.zip].filter(Boolean).join(' ')].filter(Boolean).join(', '),
      }));
    },
    async fetch(id) {
      const { rows } = await database.executeSql(
        `SELECT ${ADDRESS_COLUMNS} FROM lookup_addresses WHERE id = $1`,
        [id],
      );
      return rows[0] ? asAddress(rows[0]) : null;
    },
  };
}
