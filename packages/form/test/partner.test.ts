import { describe, expect, it } from 'vitest';
import { DEFAULT_PARTNER, mergePartnerConfig } from '../src';

describe('mergePartnerConfig', () => {
  it('returns the base for an empty override', () => {
    expect(mergePartnerConfig(DEFAULT_PARTNER, {})).toEqual(DEFAULT_PARTNER);
  });

  it('merges nested objects and replaces lists', () => {
    const merged = mergePartnerConfig(DEFAULT_PARTNER, {
      shortSchoolName: 'Westfield',
      postalAddress: { city: 'Westfield' },
      alert: { start: '2026-11-01', end: '2026-11-30', message: 'Deadline soon' },
      entryTerms: [{ value: '2028FA', label: 'Fall 2028' }],
    });
    expect(merged.shortSchoolName).toBe('Westfield');
    expect(merged.postalAddress).toEqual({ ...DEFAULT_PARTNER.postalAddress, city: 'Westfield' });
    expect(merged.alert.start).toBe('2026-11-01');
    expect(merged.entryTerms).toEqual([{ value: '2028FA', label: 'Fall 2028' }]);
    expect(merged.schoolName).toBe(DEFAULT_PARTNER.schoolName);
  });

  it('does not change the base', () => {
    const before = structuredClone(DEFAULT_PARTNER);
    mergePartnerConfig(DEFAULT_PARTNER, { postalAddress: { city: 'Elsewhere' } });
    expect(DEFAULT_PARTNER).toEqual(before);
  });

  it('lists every problem in one readable error', () => {
    const attempt = () =>
      mergePartnerConfig(DEFAULT_PARTNER, {
        schoolName: 42,
        textAreaLimit: 0,
        helpEmail: 'not-an-email',
        links: { website: 'ftp://x' },
        alert: { start: 'tomorrow' },
        entryTerms: [{ value: 'X' }],
        colour: 'brown',
      });
    expect(attempt).toThrowError(
      [
        'Invalid partner configuration:',
        '- colour is not a known field',
        '- schoolName must be a string, not a number',
        '- helpEmail must be an e-mail address',
        '- textAreaLimit must be a whole number between 1 and 100000',
        '- links.website must be an http(s) address',
        '- entryTerms[0].label is missing',
        '- alert.start must be a date written YYYY-MM-DD, or null',
      ].join('\n'),
    );
  });

  it.each([null, [], 'text', 3])('refuses %o as a whole', (override) => {
    expect(() => mergePartnerConfig(DEFAULT_PARTNER, override)).toThrowError(
      /the configuration must be an object/,
    );
  });

  it('refuses an alert that ends before it starts', () => {
    expect(() =>
      mergePartnerConfig(DEFAULT_PARTNER, { alert: { start: '2026-12-01', end: '2026-11-01' } }),
    ).toThrowError(/alert.start must not be after alert.end/);
  });
});
