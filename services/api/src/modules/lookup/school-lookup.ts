import type { LookupItem, SchoolRecord } from '@admissions/api-contract';
import type { Database } from '../../platform/db/connect';
import { describeCountry, describeState } from './place-names';
import { searchRanked, type SearchableTable } from './ranked-search';

export type SchoolCategory = 'hs_ceeb' | 'college_ceeb';

export const SCHOOL_TABLES: Record<SchoolCategory, string> = {
  hs_ceeb: 'lookup_high_schools',
  college_ceeb: 'lookup_colleges',
};

const COLUMNS = 'code, name, street, city, state, zip, country';

interface SchoolRow {
  code: string;
  name: string;
  street: string;
  city: string;
  state: string;
  zip: string;
  country: string;
}

const asSchool = (row: Record<string, unknown>): SchoolRow => ({
  code: String(row.code),
  name: String(row.name),
  street: String(row.street ?? ''),
  city: String(row.city ?? ''),
  state: String(row.state ?? ''),
  zip: String(row.zip ?? ''),
  country: String(row.country ?? ''),
});

/** "Springfield, IL · CEEB 141234": where the school is, and the code the service view shows. */
function describePlace(school: SchoolRow): string {
  const place = [school.city, school.state].filter(Boolean).join(', ');
  const country = school.country && school.country !== 'USA' ? describeCountry(school.country) : '';
  return [[place, country].filter(Boolean).join(', '), `CEEB ${school.code}`]
    .filter(Boolean)
    .join(' · ');
}

export async function searchSchools(
  database: Database,
  category: SchoolCategory,
  text: string,
  limit: number,
): Promise<LookupItem[]> {
  const spec: SearchableTable = { table: SCHOOL_TABLES[category], key: 'code', columns: COLUMNS };
  const rows = await searchRanked(database, spec, text, limit);
  return rows.map(asSchool).map((school) => ({
    id: school.code,
    text: school.name,
    sub_text: describePlace(school),
  }));
}

export async function fetchSchool(
  database: Database,
  category: SchoolCategory,
  id: string,
): Promise<SchoolRecord | null> {
  const { rows } = await database.executeSql(
    `SELECT ${COLUMNS} FROM ${SCHOOL_TABLES[category]} WHERE code = $1`,
    [id],
  );
  const row = rows[0];
  if (!row) return null;
  const school = asSchool(row);
  return {
    id: school.code,
    name: school.name,
    ceeb: school.code,
    address_line_1: school.street,
    city: school.city,
    state: school.state,
    state_desc: describeState(school.country, school.state),
    zip: school.zip,
    country: school.country,
    country_desc: describeCountry(school.country),
  };
}
