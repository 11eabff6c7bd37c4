// Rounds as GET /api/applications gives them (issue #29), placed against one server time.
import type {
  ApplicantApplication,
  ApplicationsResponse,
  RoundSummary,
} from '@admissions/api-contract';

export const TIME_ZONE = 'America/Chicago';
/** Early Action's published deadline: "January 15, 2027 at 11:59 PM CST". */
export const EA_DEADLINE = '2027-01-16T05:59:00.000Z';
export const EA_DEADLINE_TEXT = 'January 15, 2027 at 11:59 PM CST';
/** Five minutes of grace: saves are taken until then. */
export const EA_CLOSES_AT = '2027-01-16T06:04:00.000Z';

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;

export const EARLY_ACTION: RoundSummary = {
  code: 'EA',
  name: 'Early Action',
  entry_term: '2027FA',
  opens_at: '2026-08-01T05:00:00.000Z',
  deadline: EA_DEADLINE,
  closes_at: EA_CLOSES_AT,
  open: true,
};

export const REGULAR_DECISION: RoundSummary = {
  code: 'RD',
  name: 'Regular Decision',
  entry_term: '2027FA',
  opens_at: '2026-10-01T05:00:00.000Z',
  deadline: '2027-03-02T05:59:00.000Z',
  closes_at: '2027-03-02T05:59:00.000Z',
  open: true,
};

/** Opens after Early Action closes: never offered while it is not open. */
export const SPRING: RoundSummary = {
  code: 'SP',
  name: 'Spring Transfer',
  entry_term: '2028SP',
  opens_at: '2027-06-01T05:00:00.000Z',
  deadline: '2027-10-02T04:59:00.000Z',
  closes_at: '2027-10-02T04:59:00.000Z',
  open: false,
};

export function started(round: string): ApplicantApplication {
  return { round, status: 'started', submitted_at: null };
}

export function submitted(round: string, at = '2027-01-10T22:10:00.000Z'): ApplicantApplication {
  return { round, status: 'submitted', submitted_at: at };
}

/**
 * The applicant's applications `msBeforeClose` before Early Action closes (negative: after),
 * on the server's clock; the device's clock is whatever the test machine says.
 */
export function applicationsAt(
  msBeforeClose: number,
  change: Partial<ApplicationsResponse> = {},
): ApplicationsResponse {
  const serverTime = new Date(Date.parse(EA_CLOSES_AT) - msBeforeClose).toISOString();
  return {
    time_zone: TIME_ZONE,
    server_time: serverTime,
    current: 'EA',
    applications: [started('EA')],
    rounds: [EARLY_ACTION, REGULAR_DECISION, SPRING],
    ...change,
  };
}
