import { describe, expect, it } from 'vitest';
import {
  DEFAULT_PARTNER,
  checkRound,
  formatRoundTime,
  isRoundInstant,
  isValidTimeZone,
  mergePartnerConfig,
} from '../src';

const EA = {
  code: 'EA',
  name: 'Early Action',
  entryTerm: '2027FA',
  opensAt: '2026-08-01T00:00:00-05:00',
  deadline: '2026-11-01T23:59:00-05:00',
  graceMinutes: 0,
};

describe('partner configuration: rounds and time zone', () => {
  it('takes valid rounds, with no grace when graceMinutes is left out', () => {
    const { graceMinutes: _left, ...withoutGrace } = EA;
    const merged = mergePartnerConfig(DEFAULT_PARTNER, {
      timeZone: 'America/New_York',
      rounds: [withoutGrace, { ...EA, code: 'RD', name: 'Regular Decision', graceMinutes: 30 }],
    });
    expect(merged.timeZone).toBe('America/New_York');
    expect(merged.rounds).toEqual([
      EA,
      { ...EA, code: 'RD', name: 'Regular Decision', graceMinutes: 30 },
    ]);
  });

  it('checks entry terms against the entry terms the same file sets', () => {
    const merged = mergePartnerConfig(DEFAULT_PARTNER, {
      entryTerms: [{ value: '2029FA', label: 'Fall 2029' }],
      rounds: [{ ...EA, entryTerm: '2029FA' }],
    });
    expect(merged.rounds[0]?.entryTerm).toBe('2029FA');
    expect(() =>
      mergePartnerConfig(DEFAULT_PARTNER, {
        entryTerms: [{ value: '2029FA', label: 'Fall 2029' }],
        rounds: [EA],
      }),
    ).toThrowError(
      'rounds[0].entryTerm must be one of the entry terms of the partner configuration (2029FA), not "2027FA"',
    );
  });

  it('lists every problem of every round and of the time zone in one error', () => {
    const attempt = () =>
      mergePartnerConfig(DEFAULT_PARTNER, {
        timeZone: 'Mars/Olympus_Mons',
        rounds: [
          {
            code: 'early action',
            name: ' ',
            entryTerm: '2030FA',
            opensAt: '2026-08-01T00:00:00',
            deadline: '2026-02-30T23:59:00Z',
            graceMinutes: 10_081,
          },
          { ...EA, opensAt: '2026-11-02T05:00:00Z' },
          { ...EA, colour: 'red' },
          { code: 'RD', name: 'Regular Decision', graceMinutes: '15' },
          'EA',
        ],
      });
    expect(attempt).toThrowError(
      [
        'Invalid partner configuration:',
        '- timeZone must be an IANA time zone such as America/Chicago, not "Mars/Olympus_Mons"',
        '- rounds[2].colour is not a known field',
        '- rounds[3].entryTerm is missing',
        '- rounds[3].opensAt is missing',
        '- rounds[3].deadline is missing',
        '- rounds[3].graceMinutes must be a number, not a string',
        '- rounds[4] must be an object, not a string',
        '- rounds[0].code must be 1 to 20 letters, digits, "-" or "_", starting with a letter or digit (such as EA), not "early action"',
        '- rounds[0].name must not be empty',
        '- rounds[0].entryTerm must be one of the entry terms of the partner configuration (2027FA, 2028SP), not "2030FA"',
        '- rounds[0].opensAt must be an ISO 8601 time with its offset or Z, such as 2027-01-15T23:59:00-06:00, not "2026-08-01T00:00:00"',
        '- rounds[0].deadline must be an ISO 8601 time with its offset or Z, such as 2027-01-15T23:59:00-06:00, not "2026-02-30T23:59:00Z"',
        '- rounds[0].graceMinutes must be a whole number of minutes from 0 to 10080 (7 days)',
        '- rounds[1].deadline must be after the opening time',
        '- rounds[2].code "EA" is listed twice',
      ].join('\n'),
    );
  });

  it('refuses rounds that are not a list and an empty time zone', () => {
    expect(() => mergePartnerConfig(DEFAULT_PARTNER, { rounds: EA, timeZone: '' })).toThrowError(
      ['- timeZone must not be empty', '- rounds must be a list, not an object'].join('\n'),
    );
  });

  it('lets only the default round go without an entry term', () => {
    expect(checkRound({ ...EA, code: 'DEFAULT', entryTerm: '' }, ['2027FA'])).toEqual([]);
    expect(checkRound({ ...EA, entryTerm: '' }, ['2027FA'])).toEqual([
      { field: 'entryTerm', message: expect.stringContaining('not ""') as string },
    ]);
  });
});

describe('round times', () => {
  it.each([
    ['2027-01-15T23:59:00-06:00', true],
    ['2027-01-15T23:59Z', true],
    ['2027-01-16T05:59:00.000Z', true],
    ['2027-01-15T23:59:00', false],
    ['2027-01-15', false],
    ['2027-02-29T12:00:00Z', false],
    ['2028-02-29T12:00:00Z', true],
    ['2027-01-15T24:00:00Z', false],
    ['January 15, 2027', false],
  ])('%s is a round time: %s', (value, expected) => {
    expect(isRoundInstant(value)).toBe(expected);
  });

  it('knows IANA zones and refuses others', () => {
    expect(isValidTimeZone('America/Chicago')).toBe(true);
    expect(isValidTimeZone('UTC')).toBe(true);
    expect(isValidTimeZone('Central Time')).toBe(false);
    expect(isValidTimeZone('')).toBe(false);
  });

  it('writes a deadline in the institution time zone, daylight saving included', () => {
    expect(formatRoundTime('2027-01-16T05:59:00Z', 'America/Chicago')).toBe(
      'January 15, 2027 at 11:59 PM CST',
    );
    expect(formatRoundTime(new Date('2026-11-01T04:59:00Z'), 'America/New_York')).toBe(
      'November 1, 2026 at 12:59 AM EDT',
    );
  });
});
