// Admission rounds and the applicant's applications (one per round): the schemas of
// GET /api/applications, PUT /api/application and GET /staff/api/rounds (docs/rounds.md).
import { Type, type Static } from '@sinclair/typebox';

/** A round's code as the API and the CLI take it: "EA", "RD", "2027FA-TR". */
export const RoundCode = Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9_-]{0,19}$' });
export type RoundCode = Static<typeof RoundCode>;

/**
 * The messages of a round's refusals. `{round}` is the round's name, `{deadline}` and `{opens}`
 * a time in the institution's time zone as formatRoundTime (packages/form) writes it, e.g.
 * "January 15, 2027 at 11:59 PM CST".
 */
export const ROUND_MESSAGES = {
  closed:
    'The {round} round closed on {deadline}. Your application in it can no longer be changed.',
  notOpen: 'The {round} round opens on {opens}. You can start an application in it then.',
  notFound: 'There is no admission round with the code "{code}".',
} as const;

/** A message of ROUND_MESSAGES with its `{name}` slots filled. */
export function fillRoundMessage(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (slot, name: string) => values[name] ?? slot);
}

export const RoundSummary = Type.Object(
  {
    code: Type.String(),
    name: Type.String(),
    entry_term: Type.String(),
    /** ISO 8601, UTC. */
    opens_at: Type.String(),
    /** The published deadline, ISO 8601, UTC. */
    deadline: Type.String(),
    /** The deadline plus the grace period: the last moment a save or submit is taken. */
    closes_at: Type.String(),
    /** opens_at ≤ now < closes_at on the server's clock. */
    open: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type RoundSummary = Static<typeof RoundSummary>;

export const ApplicantApplication = Type.Object(
  {
    round: Type.String(),
    /** started | validating | submitted, as the staff list says it. */
    status: Type.String(),
    submitted_at: Type.Union([Type.String(), Type.Null()]),
  },
  { additionalProperties: false },
);
export type ApplicantApplication = Static<typeof ApplicantApplication>;

export const ApplicationsResponse = Type.Object(
  {
    /** The institution's IANA time zone, for showing deadlines. */
    time_zone: Type.String(),
    /** The server's clock (ISO 8601), so a countdown does not trust the device's. */
    server_time: Type.String(),
    /** The round of the application /api/profile, /api/answer, … act on; null before the first. */
    current: Type.Union([Type.String(), Type.Null()]),
    /** The applicant's applications, newest first. */
    applications: Type.Array(ApplicantApplication),
    /** Every round, by deadline. */
    rounds: Type.Array(RoundSummary),
  },
  { additionalProperties: false },
);
export type ApplicationsResponse = Static<typeof ApplicationsResponse>;

export const ChooseApplicationBody = Type.Object(
  {
    round: RoundCode,
    /**
     * Starting a new application: copy the answers of the applicant's latest other application,
     * except the sensitive and disciplinary answers and the documents. Ignored when the
     * application in `round` already exists.
     */
    copy_from_last: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type ChooseApplicationBody = Static<typeof ChooseApplicationBody>;

export const StaffRound = Type.Composite([
  RoundSummary,
  Type.Object({
    /** Applications in the round, and how many of them are submitted. */
    applications: Type.Integer(),
    submitted: Type.Integer(),
  }),
]);
export type StaffRound = Static<typeof StaffRound>;

export const StaffRoundsResponse = Type.Object(
  { time_zone: Type.String(), rounds: Type.Array(StaffRound) },
  { additionalProperties: false },
);
export type StaffRoundsResponse = Static<typeof StaffRoundsResponse>;
