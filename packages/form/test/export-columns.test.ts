import { describe, expect, it } from 'vitest';
import {
  APPLICATION_DEFINITION,
  ALLOWED_ANSWER_KEYS,
  buildDataDictionary,
  buildExportColumns,
  buildMappingTemplate,
  DEFAULT_PARTNER,
  EXPORT_REQUEST_SLOTS,
  formatExportColumns,
  formatMappingTemplate,
} from '../src';

const columns = buildExportColumns(APPLICATION_DEFINITION, DEFAULT_PARTNER);
const names = columns.map((c) => c.name);

describe('the data export columns', () => {
  it('are the record fields, every dictionary key in order, then the checklist, each once', () => {
    expect(new Set(names).size).toBe(names.length);
    expect(names.slice(0, 7)).toEqual([
      'application_id',
      'external_id',
      'round',
      'status',
      'submitted_at',
      'updated_at',
      'version',
    ]);
    const dictionaryKeys = buildDataDictionary(APPLICATION_DEFINITION, DEFAULT_PARTNER).map(
      (r) => r.key,
    );
    expect(columns.filter((c) => c.source === 'answer').map((c) => c.name)).toEqual(dictionaryKeys);
    expect(new Set(dictionaryKeys)).toEqual(new Set(ALLOWED_ANSWER_KEYS));
    // Every add-another block has columns of its own, up to the group's maximum.
    for (const key of [
      'parent_2_first_name',
      'legacy_4_relationship',
      'hs_3_ceeb',
      'hs_3_state_desc',
    ])
      expect(names).toContain(key);
  });

  it('flatten the checklist into fixed slots from the partner settings', () => {
    const checklist = columns.filter((c) => c.source === 'checklist').map((c) => c.name);
    // Default partner: the counselor, two teacher slots (one required, one optional), one other.
    expect(checklist.filter((n) => n.endsWith('_name'))).toEqual([
      'recommender_counselor_name',
      'recommender_teacher_1_name',
      'recommender_teacher_2_name',
      'recommender_other_1_name',
    ]);
    expect(checklist).toContain('checklist_complete');
    expect(checklist).toContain('recommender_teacher_2_received_at');
    expect(checklist).toContain('request_count');
    expect(checklist).toContain(`request_${EXPORT_REQUEST_SLOTS}_received_at`);
    const fewer = buildExportColumns(APPLICATION_DEFINITION, {
      ...DEFAULT_PARTNER,
      recommendations: {
        ...DEFAULT_PARTNER.recommendations,
        teachersOptional: 0,
        otherOptional: 0,
      },
    }).map((c) => c.name);
    expect(fewer).not.toContain('recommender_teacher_2_name');
    expect(fewer).not.toContain('recommender_other_1_name');
  });

  it('print as CSV and JSON', () => {
    const csv = formatExportColumns(columns, 'csv').trimEnd().split('\r\n');
    expect(csv[0]).toBe('name,source,description');
    expect(csv).toHaveLength(columns.length + 1);
    expect(JSON.parse(formatExportColumns(columns, 'json'))).toEqual(columns);
  });
});

describe('the mapping template', () => {
  const entries = buildMappingTemplate(
    buildDataDictionary(APPLICATION_DEFINITION, DEFAULT_PARTNER),
  );

  it('lists every coded key with each of its product codes once, and no free text or years', () => {
    const keys = new Set(entries.map((e) => e.key));
    for (const key of ['country', 'state', 'applied_major', 'entry_term', 'sat_taken', 'gender'])
      expect(keys, key).toContain(key);
    for (const key of ['first_name', 'grad_year', 'gender_desc', 'hs_ceeb', 'ssn'])
      expect(keys, key).not.toContain(key);
    expect(entries).toContainEqual({
      key: 'country',
      productCode: 'USA',
      label: 'United States of America',
    });
    expect(entries).toContainEqual({
      key: 'entry_term',
      productCode: '2027FA',
      label: 'Fall 2027',
    });
    const pairs = entries.map((e) => `${e.key}=${e.productCode}`);
    expect(new Set(pairs).size).toBe(pairs.length);
  });

  it('prints CSV with empty targets and JSON of one system', () => {
    const csv = formatMappingTemplate(entries, 'csv', 'banner').split('\r\n');
    expect(csv[0]).toBe('system,key,product_code,target_code,label');
    expect(csv).toContain('banner,country,USA,,United States of America');
    const json = JSON.parse(formatMappingTemplate(entries, 'json', 'banner')) as {
      systems: Record<string, Record<string, Record<string, string>>>;
    };
    expect(json.systems.banner!.country!.USA).toBe('');
    expect(Object.keys(json.systems.banner!)).toEqual([...new Set(entries.map((e) => e.key))]);
  });
});
