import { describe, expect, it } from 'vitest';
import {
  CA_PROVINCES,
  COUNTRIES,
  COUNTRIES_WITHOUT_USA,
  DEFAULT_PARTNER,
  isOptionValue,
  LANGUAGES,
  listYears,
  MONTHS,
  resolveOptions,
  resolveText,
  US_STATES,
} from '../src';
import { NOW } from './fixtures/complete-answers';

describe('countries', () => {
  it('starts with a blank, then the United States', () => {
    expect(COUNTRIES[0]).toEqual({ value: '', label: '' });
    expect(COUNTRIES[1]).toEqual({ value: 'USA', label: 'United States of America' });
  });

  it('uses unique ISO alpha-3 codes, Canada included, sorted by name after the USA', () => {
    const rest = COUNTRIES.slice(2);
    expect(rest.length).toBeGreaterThan(240);
    expect(rest.every((c) => /^[A-Z]{3}$/.test(c.value))).toBe(true);
    expect(new Set(rest.map((c) => c.value)).size).toBe(rest.length);
    expect(rest).toContainEqual({ value: 'CAN', label: 'Canada' });
    const labels = rest.map((c) => c.label);
    expect(labels).toEqual([...labels].sort((a, b) => a.localeCompare(b, 'en')));
  });

  it('has a list without the USA', () => {
    expect(COUNTRIES_WITHOUT_USA.some((c) => c.value === 'USA')).toBe(false);
    expect(COUNTRIES_WITHOUT_USA.length).toBe(COUNTRIES.length - 1);
    expect(COUNTRIES_WITHOUT_USA[0]).toEqual({ value: '', label: '' });
  });
});

describe('states and provinces', () => {
  it('lists 50 states, DC, five territories and three armed-forces codes', () => {
    expect(US_STATES).toHaveLength(59);
    const codes = US_STATES.map((s) => s.value);
    for (const code of ['CA', 'NY', 'DC', 'PR', 'GU', 'VI', 'AS', 'MP', 'AA', 'AE', 'AP']) {
      expect(codes).toContain(code);
    }
    expect(codes).not.toContain('UM');
  });

  it('lists the 13 Canadian provinces and territories', () => {
    expect(CA_PROVINCES).toHaveLength(13);
    expect(CA_PROVINCES).toContainEqual({ value: 'QC', label: 'Quebec' });
    expect(CA_PROVINCES).toContainEqual({ value: 'NU', label: 'Nunavut' });
  });
});

describe('months, years and languages', () => {
  it('names months 1 to 12', () => {
    expect(MONTHS).toHaveLength(12);
    expect(MONTHS[0]).toEqual({ value: '1', label: 'January' });
    expect(MONTHS[11]).toEqual({ value: '12', label: 'December' });
  });

  it.each([
    [{ direction: 'past' as const, count: 3, start: 2026 }, ['2026', '2025', '2024']],
    [{ direction: 'future' as const, count: 3, start: 2026 }, ['2026', '2027', '2028']],
    [{ direction: 'past' as const, count: 0, start: 2026 }, []],
    [{ direction: 'future' as const, count: 2, now: NOW }, ['2026', '2027']],
  ])('listYears %o', (options, expected) => {
    expect(listYears(options).map((o) => o.value)).toEqual(expected);
  });

  it('lists ISO 639-1 languages by English name', () => {
    expect(LANGUAGES).toContainEqual({ value: 'es', label: 'Spanish' });
    expect(LANGUAGES).toContainEqual({ value: 'zh', label: 'Chinese' });
    expect(LANGUAGES.length).toBeGreaterThan(180);
  });
});

describe('option sources', () => {
  const context = { answers: { country: 'CAN' }, now: NOW, partner: DEFAULT_PARTNER };

  it('resolves years relative to now, with an offset', () => {
    const years = resolveOptions(
      { kind: 'years', direction: 'past', count: 3, startOffset: 4 },
      context,
    );
    expect(years.map((y) => y.value)).toEqual(['2030', '2029', '2028']);
  });

  it.each([
    ['2026', true],
    ['2028', true],
    ['2029', false],
    ['2025', false],
    ['20x6', false],
  ])('future 3 years from 2026 accepts %s: %s', (year, expected) => {
    expect(isOptionValue({ kind: 'years', direction: 'future', count: 3 }, year, context)).toBe(
      expected,
    );
  });

  it('takes entry terms from the partner', () => {
    expect(resolveOptions({ kind: 'partner', list: 'entryTerms' }, context)).toEqual(
      DEFAULT_PARTNER.entryTerms,
    );
  });

  it('resolves a dependent source from the controlling answer', () => {
    const source = {
      kind: 'dependent' as const,
      key: 'country',
      byValue: { CAN: { kind: 'list' as const, list: 'caProvinces' as const } },
    };
    expect(resolveOptions(source, context)).toBe(CA_PROVINCES);
    expect(resolveOptions(source, { ...context, answers: { country: 'MEX' } })).toEqual([]);
    expect(isOptionValue(source, 'ON', context)).toBe(true);
    expect(isOptionValue(source, 'ON', { ...context, answers: {} })).toBe(false);
  });

  it('fills partner names into labels', () => {
    expect(resolveText('Major at {shortSchoolName} ({schoolName})', DEFAULT_PARTNER)).toBe(
      'Major at Example State (Example State University)',
    );
  });
});
