import { describe, expect, it } from 'vitest';
import { formatRoundTime } from '../src';

describe('formatRoundTime', () => {
  it('writes a deadline in the institution’s time zone, with the zone’s name', () => {
    expect(formatRoundTime('2027-01-16T05:59:00Z', 'America/Chicago')).toBe(
      'January 15, 2027 at 11:59 PM CST',
    );
    expect(formatRoundTime(new Date('2026-11-01T04:59:00Z'), 'America/Chicago')).toBe(
      'October 31, 2026 at 11:59 PM CDT',
    );
    expect(formatRoundTime('2027-03-01T12:05:00Z', 'UTC')).toBe('March 1, 2027 at 12:05 PM UTC');
  });
});
