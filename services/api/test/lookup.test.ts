import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOOKUP_MESSAGES, type LookupItem } from '@admissions/api-contract';
import { createAddressProvider } from '../src/modules/lookup/address-providers';
import { formatImportReport, importLookupCsv } from '../src/modules/lookup/lookup-import';
import { availableDrivers, createTestRuntime, type TestRuntime } from './support/test-runtime';

const HIGH_SCHOOLS = `code,name,street,city,state,zip,country
T001,Lincoln High School,1 Main Street,Springfield,IL,62701,USA
T002,Lincolnshire Preparatory School,2 Oak Road,Lincolnshire,IL,60069,USA
T003,Abraham Lincoln Senior High,3 Elm Street,Denver,CO,80203,USA
T004,Lincon Valley School,4 Pine Street,Fresno,CA,93701,USA
T005,Jefferson Middle College,5 Ash Street,Austin,TX,78701,USA
W001,Washington High School A,,Olympia,WA,98501,USA
W002,Washington High School B,,Olympia,WA,98501,USA
W003,Washington High School C,,Olympia,WA,98501,USA
W004,Washington High School D,,Olympia,WA,98501,USA
W005,Washington High School E,,Olympia,WA,98501,USA
W006,Washington High School F,,Olympia,WA,98501,USA
W007,Washington High School G,,Olympia,WA,98501,USA
A001,Escuela Secundaria José Martí,15 Calle Ocho,Miami,FL,33135,USA
A002,Ørestad Gymnasium,Ørestads Boulevard 75,København,,2300,DNK
A003,Saint Thérèse Catholic High,250 Rosary Court,New Orleans,LA,70112,USA
Q001,O'Brien Academy,7 Quote Lane,Boston,MA,02108,USA
Q002,100% Prep_School \\ Annex,8 Percent Road,Boston,MA,02109,USA
`;

const COLLEGES = `code,name,city,state,zip,country
C001,Great Plains University,Lincoln,NE,68508,USA
C002,Université Côte-Nord,Québec,QC,G1R 2J5,CAN
`;

describe.each(availableDrivers())('lookups on %s', (driver) => {
  let t: TestRuntime;

  beforeAll(async () => {
    t = await createTestRuntime(driver);
  });
  afterAll(async () => {
    await t.close();
  });

  const find = (query: string) => t.request({ method: 'GET', url: `/lookup/find?${query}` });
  const search = async (category: string, text: string, extra = '') => {
    const response = await find(
      `category=${category}&text=${encodeURIComponent(text)}&max_results=5${extra}`,
    );
    expect(response.statusCode, response.body).toBe(200);
    return response.json<LookupItem[]>();
  };
  const ids = (items: LookupItem[]) => items.map((i) => i.id);

  it('ships a sample list that the first real import replaces, with a report', async () => {
    expect((await search('hs_ceeb', 'abraham')).map((i) => i.text)).toEqual([
      'Abraham Lincoln High School',
    ]);
    const report = await importLookupCsv(t.runtime.database, 'hs_ceeb', HIGH_SCHOOLS);
    expect(report).toMatchObject({ accepted: 17, inserted: 17, updated: 0, rejected: [] });
    expect(report.removedSamples).toBeGreaterThan(10);
    await importLookupCsv(t.runtime.database, 'college_ceeb', COLLEGES);
    expect(ids(await search('hs_ceeb', 'abraham'))).toEqual(['T003']);
  });

  it('ranks exact prefixes first, then word prefixes, then fuzzy matches', async () => {
    const items = await search('hs_ceeb', 'lincoln');
    expect(ids(items)).toEqual(['T001', 'T002', 'T003', 'T004']);
    expect(items[0]).toEqual({
      id: 'T001',
      text: 'Lincoln High School',
      sub_text: 'Springfield, IL · CEEB T001',
    });
    // Every typed word starts a word of the name, in any order.
    expect(ids(await search('hs_ceeb', 'high abra'))).toEqual(['T003']);
    // A typo still finds the school.
    expect(ids(await search('hs_ceeb', 'jeferson midle'))).toEqual(['T005']);
    // A misspelt word is read as the closest word the list knows, then ranked like typed words.
    expect(ids(await search('hs_ceeb', 'abraham linclon'))).toEqual(['T003']);
    expect(await search('hs_ceeb', 'zzzzqqq')).toEqual([]);
  });

  it('returns at most 5 items and clamps a larger max_results', async () => {
    expect(ids(await search('hs_ceeb', 'washington'))).toEqual([
      'W001',
      'W002',
      'W003',
      'W004',
      'W005',
    ]);
    const clamped = await find('category=hs_ceeb&text=washington&max_results=500');
    expect(clamped.json()).toHaveLength(5);
    const few = await find('category=hs_ceeb&text=washington&max_results=2');
    expect(few.json()).toHaveLength(2);
    const noMax = await find('category=hs_ceeb&text=washington');
    expect(noMax.json()).toHaveLength(5);
  });

  it('ignores case and accents', async () => {
    for (const text of ['JOSÉ MARTÍ', 'jose marti', 'Escuela secundaria jose']) {
      expect(ids(await search('hs_ceeb', text))).toEqual(['A001']);
    }
    expect(ids(await search('hs_ceeb', 'orestad'))).toEqual(['A002']);
    expect(ids(await search('hs_ceeb', 'ØRESTAD'))).toEqual(['A002']);
    expect(ids(await search('hs_ceeb', 'therese'))).toEqual(['A003']);
    // The other college is a fuzzy match for "universite" (university), ranked after it.
    expect(ids(await search('college_ceeb', 'universite cote'))).toEqual(['C002', 'C001']);
    expect(ids(await search('college_ceeb', 'UNIVERSITÉ CÔTE-NORD'))).toEqual(['C002']);
  });

  it('treats SQL metacharacters and quotes as text', async () => {
    expect(ids(await search('hs_ceeb', "o'brien"))).toEqual(['Q001']);
    expect(ids(await search('hs_ceeb', 'OBrien'))).toEqual(['Q001']);
    expect(ids(await search('hs_ceeb', '100%'))).toEqual(['Q002']);
    expect(ids(await search('hs_ceeb', '100% prep_school'))).toEqual(['Q002']);
    // Wildcards alone match nothing rather than everything.
    for (const text of ['%', '_', '%%', '\\', '\\%', "'", '"', ';', '%_%']) {
      expect(await search('hs_ceeb', text)).toEqual([]);
    }
    await search('hs_ceeb', "'; DROP TABLE lookup_high_schools; --");
    await search('hs_ceeb', "lincoln' OR '1'='1");
    expect(ids(await search('hs_ceeb', 'lincoln high'))).toEqual(['T001', 'T003']);
    expect(await search('hs_ceeb', 'washington')).toHaveLength(5);
  });

  it('refuses over-long text and unknown categories with a clear message', async () => {
    const long = await find(`category=hs_ceeb&text=${'a'.repeat(10_000)}&max_results=5`);
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toBe('The field "text" is too long (at most 200 characters).');
    expect((await find(`category=hs_ceeb&text=${'a'.repeat(200)}`)).statusCode).toBe(200);
    expect((await find(`category=hs_ceeb&text=${'a'.repeat(201)}`)).statusCode).toBe(400);

    const unknown = await find('category=zip_codes&text=lin&max_results=5');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe(LOOKUP_MESSAGES.unknownCategory);
    const both = await find('category=hs_ceeb&text=lin&id=T001');
    expect(both.statusCode).toBe(400);
    expect(both.json().message).toBe(LOOKUP_MESSAGES.textOrId);
    expect((await find('category=hs_ceeb&text=lin&extra=1')).statusCode).toBe(400);
  });

  it('fetches the record that fills a school question and its companions', async () => {
    const school = await find('category=hs_ceeb&id=T001');
    expect(school.statusCode).toBe(200);
    expect(school.json()).toEqual({
      id: 'T001',
      name: 'Lincoln High School',
      ceeb: 'T001',
      address_line_1: '1 Main Street',
      city: 'Springfield',
      state: 'IL',
      state_desc: 'Illinois',
      zip: '62701',
      country: 'USA',
      country_desc: 'United States of America',
    });
    const college = (await find('category=college_ceeb&id=C002')).json();
    expect(college).toMatchObject({
      name: 'Université Côte-Nord',
      ceeb: 'C002',
      state: 'QC',
      state_desc: 'Quebec',
      country: 'CAN',
      country_desc: 'Canada',
    });
    const missing = await find('category=hs_ceeb&id=NOPE');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe(LOOKUP_MESSAGES.notFound);
    expect((await find('category=college_ceeb&id=T001')).statusCode).toBe(404);
  });

  it('completes US ZIP codes and cities, keeping the typed street', async () => {
    const byZip = await search('address', '12 Elm St, 6270');
    expect(byZip[0]).toEqual({
      id: 'zip:62701|12 Elm St',
      text: '12 Elm St, Springfield, IL 62701',
      sub_text: 'United States',
    });
    expect(byZip).toHaveLength(5);
    const record = await find(`category=address&id=${encodeURIComponent('zip:62701|12 Elm St')}`);
    expect(record.json()).toEqual({
      id: 'zip:62701|12 Elm St',
      address_line_1: '12 Elm St',
      city: 'Springfield',
      state: 'IL',
      state_desc: 'Illinois',
      zip: '62701',
      country: 'USA',
      country_desc: 'United States of America',
    });
    const byCity = await search('address', '9 Oak Ave, new yor');
    expect(byCity[0]).toMatchObject({ id: 'city:NY:New York|9 Oak Ave' });
    const city = (await find(`category=address&id=${encodeURIComponent(byCity[0]!.id)}`)).json();
    expect(city).toMatchObject({ address_line_1: '9 Oak Ave', city: 'New York', state: 'NY' });
    expect(await search('address', '12 Elm St')).toEqual([]);
    // A place looked up from the City or ZIP field alone knows no street: the record carries no
    // address lines, so it cannot blank the line the applicant typed.
    const [springfield] = await search('address', 'Springf');
    expect(springfield?.id).toMatch(/^city:/);
    const place = (await find(`category=address&id=${encodeURIComponent(springfield!.id)}`)).json();
    expect(place).toMatchObject({ city: 'Springfield', country: 'USA' });
    expect(place).not.toHaveProperty('address_line_1');
    expect(place).not.toHaveProperty('address_line_2');
    const zip = (await find('category=address&id=zip:62701')).json();
    expect(zip).toEqual({
      id: 'zip:62701',
      city: 'Springfield',
      state: 'IL',
      state_desc: 'Illinois',
      zip: '62701',
      country: 'USA',
      country_desc: 'United States of America',
    });
    expect((await find('category=address&id=zip:00000')).statusCode).toBe(404);
  });

  it('serves an institution address file through the database provider', async () => {
    const report = await importLookupCsv(
      t.runtime.database,
      'address',
      'id,address_line_1,address_line_2,city,state,zip,country\n' +
        'ADR-1,1 Müller Straße,Suite 4,Springfield,IL,62701,USA\n' +
        'ADR-2,2 Main Street,,Springfield,IL,62702,USA\n',
    );
    expect(report).toMatchObject({ accepted: 2, rejected: [] });
    const provider = createAddressProvider('database', t.runtime.database);
    expect(await provider.search('1 muller', 5)).toEqual([
      { id: 'ADR-1', text: '1 Müller Straße, Suite 4', sub_text: 'Springfield, IL 62701' },
    ]);
    expect(await provider.fetch('ADR-2')).toMatchObject({
      address_line_1: '2 Main Street',
      zip: '62702',
      state_desc: 'Illinois',
    });
  });

  it('reports every rejected row of an import with its reason and upserts by code', async () => {
    const csv = [
      'code,name,street,city,state,zip,country,district',
      'T001,Lincoln High School (renamed),1 Main Street,Springfield,IL,62701,USA,9',
      'N001,New School,,Boise,ID,83702,usa,1',
      ',No Code High,,,,,,',
      'N002,,,,,,,',
      'N003,Nowhere High,,,,,ZZZ,',
      'N004,Bad State High,,Town,XX,,USA,',
      'N001,New School Again,,Boise,ID,83702,USA,',
      'N 005,Space Code High,,,,,,',
      'N006,Too Many Fields,,,,,,,extra',
      'N007,"Quoted, With Comma",,,,,,',
      '',
      'N008,%%%,,,,,,',
    ].join('\r\n');
    const report = await importLookupCsv(t.runtime.database, 'hs_ceeb', csv);
    expect(report).toMatchObject({
      accepted: 3,
      inserted: 2,
      updated: 1,
      ignoredColumns: ['district'],
    });
    expect(report.rejected).toEqual([
      { line: 4, reason: 'code is empty' },
      { line: 5, reason: 'name is empty' },
      { line: 6, reason: 'country "ZZZ" is not an ISO 3166-1 alpha-3 code' },
      { line: 7, reason: 'state "XX" is not a state or province code of USA' },
      { line: 8, reason: 'duplicate code "N001" (first on line 3)' },
      { line: 9, reason: 'code may contain only letters, digits, ".", "-" and "_"' },
      { line: 10, reason: 'has 9 fields but the header has 8' },
      { line: 13, reason: 'has no letters or digits to search by' },
    ]);
    expect(formatImportReport(report)).toContain(
      'hs_ceeb: 3 row(s) accepted (2 new, 1 updated), 8 rejected.',
    );
    expect((await find('category=hs_ceeb&id=T001')).json().name).toBe(
      'Lincoln High School (renamed)',
    );
    expect(ids(await search('hs_ceeb', 'quoted with'))).toEqual(['N007']);
    // The word index follows the import: the new name's words find it, the old name's are gone.
    expect(ids(await search('hs_ceeb', 'renamed'))).toEqual(['T001']);
    expect(ids(await search('hs_ceeb', 'boise new'))).toEqual([]);
    expect(ids(await search('hs_ceeb', 'school new'))[0]).toBe('N001');
    await expect(importLookupCsv(t.runtime.database, 'hs_ceeb', 'name\nX')).rejects.toThrow(
      /lacks the column\(s\) code/,
    );
  });

  it('answers an empty list, not an error, when the search itself fails', async () => {
    const db = t.runtime.database;
    await db.executeSql('ALTER TABLE lookup_colleges RENAME TO lookup_colleges_away');
    try {
      const response = await find('category=college_ceeb&text=great&max_results=5');
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual([]);
      expect((await find('category=college_ceeb&id=C001')).statusCode).toBe(503);
    } finally {
      await db.executeSql('ALTER TABLE lookup_colleges_away RENAME TO lookup_colleges');
    }
    expect(ids(await search('college_ceeb', 'great'))).toEqual(['C001']);
  });
});
