// The staff area (issue #18): sign-in, the applications list, one application, and the campus
// systems' API (POST /service/tokens, GET /service/applications).
import { Type, type Static } from '@sinclair/typebox';
import { CONVERSION_STATUSES } from './documents';
import { ServicePrintResponse } from './service';
import { WEB_STATUSES } from './profile';
import { RoundCode } from './rounds';

/**
 * `reader` reads applications; `exporter` also exports them; `processor` also requests and waives
 * checklist items (docs/roles.md).
 */
export const STAFF_ROLES = ['reader', 'exporter', 'processor'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

export const STAFF_MESSAGES = {
  sessionInvalid: 'Your staff session has ended. Please sign in again.',
  loginFailed: 'Incorrect email address or password.',
  codeRejected: 'That code is not correct. Please enter the current 6-digit code from your app.',
  setupRejected: 'This set-up link is invalid or has expired. Please ask for a new one.',
  setupDone: 'Your password is set. Please sign in.',
  forbidden: 'Your staff role does not allow this.',
  notFound: 'No application has this id.',
  oidcNotConfigured: 'Sign-in through the identity provider is not configured.',
  oidcFailed: 'Sign-in through the identity provider failed. Please try again.',
  oidcRefused: 'Your account is not allowed into the staff area.',
  apiKeyInvalid: 'The API key is missing, invalid or revoked.',
  apiKeyScope: 'This API key does not allow this.',
} as const;

const Uuid = Type.String({
  pattern: '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$',
});
const Email = Type.String({ minLength: 1, maxLength: 320 });

export const StaffLoginBody = Type.Object(
  { email: Email, password: Type.String({ minLength: 1, maxLength: 1024 }) },
  { additionalProperties: false },
);
export type StaffLoginBody = Static<typeof StaffLoginBody>;

/**
 * After the password: the second factor. `enrol` carries the TOTP secret to show (first sign-in);
 * the sign-in completes with POST /staff/auth/totp.
 */
export const StaffLoginResponse = Type.Object(
  {
    next: Type.Union([Type.Literal('totp'), Type.Literal('totp-enrol')]),
    enrol: Type.Optional(
      Type.Object(
        { otpauth_uri: Type.String(), secret: Type.String() },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
export type StaffLoginResponse = Static<typeof StaffLoginResponse>;

export const StaffTotpBody = Type.Object(
  { code: Type.String({ minLength: 1, maxLength: 16 }) },
  { additionalProperties: false },
);
export type StaffTotpBody = Static<typeof StaffTotpBody>;

export const StaffSetupBody = Type.Object(
  {
    token: Type.String({ minLength: 1, maxLength: 200 }),
    password: Type.String({ maxLength: 1024 }),
    confirm_password: Type.String({ maxLength: 1024 }),
  },
  { additionalProperties: false },
);
export type StaffSetupBody = Static<typeof StaffSetupBody>;

export const StaffMethodsResponse = Type.Object(
  {
    /** An identity provider is configured: the page offers its button. */
    oidc: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type StaffMethodsResponse = Static<typeof StaffMethodsResponse>;

export const StaffMeResponse = Type.Object(
  {
    email: Type.String(),
    role: Type.Union(STAFF_ROLES.map((r) => Type.Literal(r))),
  },
  { additionalProperties: false },
);
export type StaffMeResponse = Static<typeof StaffMeResponse>;

/** Whether this browser holds a signed-in staff session: no session is an answer, not a 401. */
export const StaffSessionResponse = Type.Union([
  Type.Object({ signed_in: Type.Literal(false) }, { additionalProperties: false }),
  Type.Object(
    { signed_in: Type.Literal(true), ...StaffMeResponse.properties },
    { additionalProperties: false },
  ),
]);
export type StaffSessionResponse = Static<typeof StaffSessionResponse>;

export const STAFF_SORTS = [
  'submitted_desc',
  'submitted_asc',
  'name_asc',
  'name_desc',
  'updated_desc',
] as const;
export type StaffSort = (typeof STAFF_SORTS)[number];
export const STAFF_PAGE_SIZE_MAX = 100;

// `format: 'date'`: the service's validator accepts only days that exist (2024-02-29, never
// 2024-02-30 or 2024-13-01), so PostgreSQL is never handed a date it refuses.
const IsoDate = Type.String({
  format: 'date',
  description: 'YYYY-MM-DD (UTC), a real calendar day',
});

export const StaffListQuery = Type.Object(
  {
    q: Type.Optional(Type.String({ maxLength: 200 })),
    /** Only the applications of this admission round (its code). */
    round: Type.Optional(RoundCode),
    status: Type.Optional(Type.Union(WEB_STATUSES.map((s) => Type.Literal(s)))),
    /** Submitted on or after / on or before (UTC days). */
    from: Type.Optional(IsoDate),
    to: Type.Optional(IsoDate),
    /** complete: every required checklist item received or waived; awaiting: some still owed. */
    checklist: Type.Optional(Type.Union([Type.Literal('complete'), Type.Literal('awaiting')])),
    sort: Type.Optional(Type.Union(STAFF_SORTS.map((s) => Type.Literal(s)))),
    page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000 })),
    page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: STAFF_PAGE_SIZE_MAX })),
  },
  { additionalProperties: false },
);
export type StaffListQuery = Static<typeof StaffListQuery>;

export const StaffListRow = Type.Object(
  {
    id: Type.String(),
    /** The admission round's code. */
    round: Type.String(),
    status: Type.Union(WEB_STATUSES.map((s) => Type.Literal(s))),
    submitted_at: Type.Union([Type.String(), Type.Null()]),
    name: Type.String(),
    email: Type.String(),
    entry_term: Type.String(),
    major: Type.String(),
    /** The student information system's ID for this application, once it came back. */
    external_id: Type.Union([Type.String(), Type.Null()]),
    /** Required checklist items received or waived, of all required (docs/checklist.md). */
    checklist: Type.Object(
      { done: Type.Integer(), required: Type.Integer() },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);
export type StaffListRow = Static<typeof StaffListRow>;

export const StaffListResponse = Type.Object(
  {
    rows: Type.Array(StaffListRow),
    /** Rows matching every filter. */
    total: Type.Integer(),
    page: Type.Integer(),
    page_size: Type.Integer(),
    /** Per status, matching every filter but the status one (the tabs above the list). */
    counts: Type.Object(
      { started: Type.Integer(), validating: Type.Integer(), submitted: Type.Integer() },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);
export type StaffListResponse = Static<typeof StaffListResponse>;

export const StaffApplicationParams = Type.Object({ id: Uuid }, { additionalProperties: false });

export const StaffDocument = Type.Object(
  {
    answer_key: Type.String(),
    file_name: Type.String(),
    status: Type.Union(CONVERSION_STATUSES.map((s) => Type.Literal(s))),
    message: Type.String(),
  },
  { additionalProperties: false },
);

export const StaffApplicationResponse = Type.Object(
  {
    print: ServicePrintResponse,
    documents: Type.Array(StaffDocument),
    /** GET this (same staff session) for the staff PDF. */
    pdf_url: Type.String(),
  },
  { additionalProperties: false },
);
export type StaffApplicationResponse = Static<typeof StaffApplicationResponse>;

/** A student system's ID: letters, digits, `.`, `_`, `-`; at most 64. */
export const EXTERNAL_ID_PATTERN = '^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$';

export const ExternalIdBody = Type.Object(
  { external_id: Type.String({ minLength: 1, maxLength: 64, pattern: EXTERNAL_ID_PATTERN }) },
  { additionalProperties: false },
);
export type ExternalIdBody = Static<typeof ExternalIdBody>;

export const ExternalIdResponse = Type.Object(
  { application_id: Uuid, external_id: Type.String() },
  { additionalProperties: false },
);

export const ServiceTokenBody = Type.Object(
  {
    application_id: Uuid,
    ttl_seconds: Type.Optional(Type.Integer({ minimum: 60, maximum: 86_400 })),
  },
  { additionalProperties: false },
);
export type ServiceTokenBody = Static<typeof ServiceTokenBody>;

export const ServiceTokenResponse = Type.Object(
  {
    token: Type.String(),
    /** The print view link with the token. */
    url: Type.String(),
    expires_at: Type.String(),
  },
  { additionalProperties: false },
);
export type ServiceTokenResponse = Static<typeof ServiceTokenResponse>;

export const STAFF_EXPORT_MESSAGES = {
  busy: 'An export of yours is still running. Please wait for it to finish.',
  notFound: 'No export of yours has this id.',
  notReady: 'This export has not finished.',
  interrupted: 'The server stopped before this export finished. Please start it again.',
  expired: 'This export was deleted after 7 days. Please start a new one.',
  unaudited: 'This export was made before downloads were recorded. Please start a new one.',
  reasonRequired:
    'Please give the reason for exporting Social Security and alien registration numbers.',
  sensitiveDataOnly:
    'Social Security and alien registration numbers go only into a data export (CSV, JSON or NDJSON).',
  reasonInvisible:
    'The reason holds invisible or control characters. Please type it again without them.',
} as const;

/** Invisible format characters (U+200B, U+00AD, U+202E…) and control characters. */
const HIDDEN_CHARACTER = /[\p{Cf}\p{Cc}]/u;
/** What a reason typed in a text box may hold of the control characters. */
const LINE_BREAKS_AND_TABS = /[\t\n\r]/g;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/**
 * The reason for a sensitive export as it is kept in each application's audit row, or the message
 * that refuses it: trimmed, with at least one letter or digit, and nothing invisible — a zero-width
 * space or a right-to-left override would leave the row blank or reversed. The server, the CLI and
 * the Exports page check it with this one function.
 */
export function checkExportReason(
  raw: string | undefined,
): { ok: true; reason: string } | { ok: false; message: string } {
  const reason = (raw ?? '').trim();
  if (HIDDEN_CHARACTER.test(reason.replace(LINE_BREAKS_AND_TABS, ' '))) {
    return { ok: false, message: STAFF_EXPORT_MESSAGES.reasonInvisible };
  }
  if (!LETTER_OR_DIGIT.test(reason)) {
    return { ok: false, message: STAFF_EXPORT_MESSAGES.reasonRequired };
  }
  return { ok: true, reason };
}

/** The PDF exports: a zip of PDFs or one combined PDF. */
export const STAFF_PDF_EXPORT_FORMATS = ['zip', 'combined'] as const;
/** The data exports (docs/data-export.md): one record per application. */
export const STAFF_DATA_EXPORT_FORMATS = ['csv', 'json', 'ndjson'] as const;
export const STAFF_EXPORT_FORMATS = [
  ...STAFF_PDF_EXPORT_FORMATS,
  ...STAFF_DATA_EXPORT_FORMATS,
] as const;
export type StaffExportFormat = (typeof STAFF_EXPORT_FORMATS)[number];
export type StaffDataExportFormat = (typeof STAFF_DATA_EXPORT_FORMATS)[number];

export function isDataExportFormat(format: string): format is StaffDataExportFormat {
  return (STAFF_DATA_EXPORT_FORMATS as readonly string[]).includes(format);
}

const StaffExportFormatSchema = Type.Union(STAFF_EXPORT_FORMATS.map((f) => Type.Literal(f)));

/** Finished exports are kept this long, then their file is deleted (the row stays, 'expired'). */
export const STAFF_EXPORT_RETENTION_DAYS = 7;

/**
 * What an export selects by status: one status, or `all`. Left out it means `submitted` (the
 * applications a campus system takes in), as the CLI's `export --status` does.
 */
export const STAFF_EXPORT_STATUSES = [...WEB_STATUSES, 'all'] as const;
export type StaffExportStatus = (typeof STAFF_EXPORT_STATUSES)[number];
export const STAFF_EXPORT_DEFAULT_STATUS: StaffExportStatus = 'submitted';

export const StaffExportBody = Type.Object(
  {
    /** The list's filters (status, dates, search). */
    filters: Type.Object(
      {
        q: Type.Optional(Type.String({ maxLength: 200 })),
        round: Type.Optional(RoundCode),
        status: Type.Optional(
          Type.Union(
            STAFF_EXPORT_STATUSES.map((s) => Type.Literal(s)),
            {
              description: 'A status or `all`; submitted when left out',
            },
          ),
        ),
        from: Type.Optional(IsoDate),
        to: Type.Optional(IsoDate),
      },
      { additionalProperties: false },
    ),
    /**
     * Render everything again (a data export: write every selected application), not only what
     * changed since this exporter's last export of that kind.
     */
    force: Type.Optional(Type.Boolean()),
    format: StaffExportFormatSchema,
    /** A data export only: SSN and alien registration number decrypted into their columns. */
    include_sensitive: Type.Optional(Type.Boolean()),
    /** Why, required with include_sensitive: kept in each application's audit row. */
    reason: Type.Optional(Type.String({ maxLength: 500 })),
  },
  { additionalProperties: false },
);
export type StaffExportBody = Static<typeof StaffExportBody>;

export const StaffExportResponse = Type.Object(
  {
    id: Type.String(),
    status: Type.Union([
      Type.Literal('running'),
      Type.Literal('completed'),
      Type.Literal('failed'),
      Type.Literal('expired'),
    ]),
    format: StaffExportFormatSchema,
    /** A data export started with include_sensitive: its file holds the decrypted identifiers. */
    include_sensitive: Type.Boolean(),
    selected: Type.Integer(),
    /** Applications finished so far (rendered, unchanged or failed). */
    done: Type.Integer(),
    /** PDFs rendered, or a data export's records written. */
    rendered: Type.Integer(),
    unchanged: Type.Integer(),
    failed: Type.Integer(),
    message: Type.String(),
    /** The selection it was started with. */
    filters: StaffExportBody.properties.filters,
    created_at: Type.String(),
    finished_at: Type.Union([Type.String(), Type.Null()]),
    /** When completed: GET it (same staff session) for the file; else ''. */
    download_url: Type.String(),
  },
  { additionalProperties: false },
);
export type StaffExportResponse = Static<typeof StaffExportResponse>;

export const StaffExportListResponse = Type.Object(
  { exports: Type.Array(StaffExportResponse) },
  { additionalProperties: false },
);
export type StaffExportListResponse = Static<typeof StaffExportListResponse>;
