import { describe, expect, it } from 'vitest';
import { formatRoundTime } from '../src/index';

describe('formatRoundTime', () => {
  it('writes a moment in the institution’s time zone, date and time joined with " at "', () => {
    expect(formatRoundTime('2027-01-16T05:59:00Z', 'America/Chicago')).toBe(
      'January 15, 2027 at 11:59 PM CST',
    );
    // Summer time has its own abbreviation; a Date is taken as well as an ISO string.
    expect(formatRoundTime(new Date('2026-11-01T04:59:00Z'), 'America/Chicago')).toBe(
      'October 31, 2026 at 11:59 PM CDT',
    );
    expect(formatRoundTime('2027-03-02T17:05:00Z', 'UTC')).toBe('March 2, 2027 at 5:05 PM UTC');
  });

  it('uses plain spaces only, whatever the ICU version writes before "PM"', () => {
    expect(formatRoundTime('2027-01-16T05:59:00Z', 'America/New_York')).toMatch(/^[\x20-\x7e]+$/);
  });
});
