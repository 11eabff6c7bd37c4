// After submit (issue #30): the application's checklist, its recommenders and their single-purpose
// links, and the items the admissions office asks for. Letters and requested materials are
// documents: uploaded as base64 inside the JSON body (a recommender has no account for the
// presigned upload), then checked and converted by the same sandboxed converter as every upload.
import { Type, type Static } from '@sinclair/typebox';

export const CHECKLIST_STATUSES = ['awaiting', 'received', 'waived'] as const;
export type ChecklistStatus = (typeof CHECKLIST_STATUSES)[number];

export const RECOMMENDER_TYPES = ['counselor', 'teacher', 'other'] as const;
export type RecommenderType = (typeof RECOMMENDER_TYPES)[number];

/** Letters and requested materials: the upload bound of every document, PDF or Word only. */
export const CHECKLIST_FILE_TYPES = ['pdf', 'docx'] as const;
/** 1 MB of file is at most this many base64 characters. */
export const CHECKLIST_FILE_BASE64_MAX = 1_398_104;
/** The request body of a letter or material upload may be this large (base64 plus fields). */
export const CHECKLIST_UPLOAD_BODY_LIMIT = 1_500_000;

/** How long a recommender's link works after it was sent. */
export const RECOMMENDATION_LINK_DAYS = 60;
export const STAFF_REQUEST_MESSAGE_MAX = 1000;

export const CHECKLIST_MESSAGES = {
  ferpaUnanswered:
    'Please answer the FERPA question under "Recommendation Waiver" on Final Steps before you invite a recommender.',
  recommenderLimit: 'You have already invited the most recommenders of this type.',
  recommenderLocked:
    'This recommender has already submitted their letter; it can no longer be changed.',
  recommenderNotFound: 'There is no such recommender on your application.',
  reminderTooSoon: 'You can send this recommender one reminder a day. Please try again tomorrow.',
  reminderDone: 'This recommender has already submitted their letter.',
  linkInvalid: 'This recommendation link is not valid. It may have been replaced by a newer one.',
  linkExpired: 'This recommendation link has expired. Please ask the applicant to send a new one.',
  alreadySubmitted: 'A letter has already been submitted through this link. Thank you.',
  letterMissing: 'Please upload your letter or type it in the box.',
  letterTooLong:
    'Your letter is longer than the limit for typed letters. Please upload it as a file.',
  fileTypeRefused: 'Please upload a PDF or Word (.docx) file.',
  fileTooLarge: 'This file is larger than 1 MB. Please upload a smaller file.',
  itemNotFound: 'There is no such item on this checklist.',
  itemNotUploadable: 'This item does not take an upload from you.',
  itemAlreadyReceived: 'This item has already been received.',
  conversionBusy: 'A file for this item is still being converted. Please wait.',
  letterReceived: 'Thank you. Your letter has been received.',
  letterConverting: 'Thank you. Your letter is being processed.',
  materialConverting: 'Your file is being processed.',
  reminderSent: 'We sent a reminder.',
  letterInConversion: "This recommender's letter is being processed. Please try again in a minute.",
  addressMailLimited:
    'We have sent several e-mails to this address recently. Please try again in an hour.',
  invitationsLimited: 'You have sent many invitations recently. Please try again in an hour.',
  recommenderRemoved: 'The recommender was removed, and their link no longer works.',
} as const;

const Uuid = Type.String({
  pattern: '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$',
});
const Time = Type.String({ format: 'date-time' });

export const ChecklistUpload = Type.Object(
  {
    /** Converting, or failed with the converter's reason (the slot takes another file). */
    status: Type.Union([Type.Literal('converting'), Type.Literal('failed')]),
    message: Type.String(),
    file_name: Type.String(),
  },
  { additionalProperties: false },
);

export const ChecklistItem = Type.Object(
  {
    /** `application`, `counselor`, `teacher-1`, `teacher-2`, `other-<recommender id>`, `request-<id>`. */
    id: Type.String(),
    kind: Type.Union([
      Type.Literal('application'),
      Type.Literal('recommendation'),
      Type.Literal('request'),
    ]),
    title: Type.String(),
    required: Type.Boolean(),
    status: Type.Union(CHECKLIST_STATUSES.map((s) => Type.Literal(s))),
    received_at: Type.Optional(Time),
    waived_at: Type.Optional(Time),
    /** A staff request's message to the applicant. */
    message: Type.Optional(Type.String()),
    /** The recommender who fills this item, when one is named. */
    recommender_id: Type.Optional(Uuid),
    /** Whether the applicant uploads this item from the status page (a staff request). */
    uploadable: Type.Boolean(),
    upload: Type.Optional(ChecklistUpload),
  },
  { additionalProperties: false },
);
export type ChecklistItem = Static<typeof ChecklistItem>;

export const Recommender = Type.Object(
  {
    id: Uuid,
    type: Type.Union(RECOMMENDER_TYPES.map((t) => Type.Literal(t))),
    name: Type.String(),
    email: Type.String(),
    /** Invited (link sent, no letter yet), or received. */
    status: Type.Union([Type.Literal('invited'), Type.Literal('received')]),
    invited_at: Time,
    link_expires_at: Time,
    received_at: Type.Optional(Time),
    /** The FERPA answer the invitation went out with. */
    ferpa_waived: Type.Boolean(),
    /** Automatic reminders sent so far (three at most, a week apart). */
    reminders_sent: Type.Integer(),
    /** When the applicant may send the next reminder (absent: now, or never once received). */
    remind_after: Type.Optional(Time),
  },
  { additionalProperties: false },
);
export type Recommender = Static<typeof Recommender>;

export const ChecklistResponse = Type.Object(
  {
    submitted: Type.Boolean(),
    /** Every required item received or waived. */
    complete: Type.Boolean(),
    /** The FERPA answer on Final Steps: null until answered. */
    ferpa_waived: Type.Union([Type.Boolean(), Type.Null()]),
    items: Type.Array(ChecklistItem),
    recommenders: Type.Array(Recommender),
    /** How many recommenders of each type the applicant may invite. */
    limits: Type.Object(
      { counselor: Type.Integer(), teacher: Type.Integer(), other: Type.Integer() },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);
export type ChecklistResponse = Static<typeof ChecklistResponse>;

/** One line of visible text: no control characters (they would reach e-mail subjects). */
const ONE_LINE =
  '^[^\\u0000-\\u001f\\u007f]*[^\\s\\u0000-\\u001f\\u007f][^\\u0000-\\u001f\\u007f]*$';
const PersonName = Type.String({ minLength: 1, maxLength: 120, pattern: ONE_LINE });
const Email = Type.String({ minLength: 3, maxLength: 254 });

export const RecommenderBody = Type.Object(
  {
    type: Type.Union(RECOMMENDER_TYPES.map((t) => Type.Literal(t))),
    name: PersonName,
    email: Email,
  },
  { additionalProperties: false },
);
export type RecommenderBody = Static<typeof RecommenderBody>;

export const RecommenderParams = Type.Object({ id: Uuid }, { additionalProperties: false });

/** A file inside a JSON body: its name and its bytes as base64 (at most 1 MB of file). */
export const UploadedFile = Type.Object(
  {
    file_name: Type.String({ minLength: 1, maxLength: 255 }),
    content_base64: Type.String({ minLength: 1, maxLength: CHECKLIST_FILE_BASE64_MAX }),
  },
  { additionalProperties: false },
);
export type UploadedFile = Static<typeof UploadedFile>;

export const RecommendationTokenParams = Type.Object(
  { token: Type.String({ minLength: 20, maxLength: 100, pattern: '^[A-Za-z0-9_-]+$' }) },
  { additionalProperties: false },
);

/** The structured questions every recommender answers beside the letter. */
export const RECOMMENDATION_CAPACITIES = [
  'School counselor',
  'Teacher',
  'Coach or activity leader',
  'Employer or supervisor',
  'Other',
] as const;

export const RecommendationPage = Type.Object(
  {
    applicant_name: Type.String(),
    recommender_name: Type.String(),
    type: Type.Union(RECOMMENDER_TYPES.map((t) => Type.Literal(t))),
    school_name: Type.String(),
    /** Whether the applicant waived their right to read this letter. */
    ferpa_waived: Type.Boolean(),
    /** open: waiting for the letter; converting / failed: the uploaded file; received: done. */
    status: Type.Union([
      Type.Literal('open'),
      Type.Literal('converting'),
      Type.Literal('failed'),
      Type.Literal('received'),
    ]),
    message: Type.Optional(Type.String()),
    expires_at: Time,
    /** Characters a typed letter may have. */
    text_limit: Type.Integer(),
  },
  { additionalProperties: false },
);
export type RecommendationPage = Static<typeof RecommendationPage>;

export const RecommendationBody = Type.Object(
  {
    /** How many years they have known the applicant. */
    known_years: Type.Integer({ minimum: 0, maximum: 50 }),
    /** In what capacity (one of RECOMMENDATION_CAPACITIES). */
    capacity: Type.Union(RECOMMENDATION_CAPACITIES.map((c) => Type.Literal(c))),
    /** Either an uploaded letter or a typed one. */
    letter_file: Type.Optional(UploadedFile),
    letter_text: Type.Optional(Type.String({ maxLength: 100_000 })),
  },
  { additionalProperties: false },
);
export type RecommendationBody = Static<typeof RecommendationBody>;

export const RecommendationSubmitResponse = Type.Object(
  {
    status: Type.Union([Type.Literal('converting'), Type.Literal('received')]),
    message: Type.String(),
  },
  { additionalProperties: false },
);

export const ChecklistItemParams = Type.Object(
  { item: Type.String({ minLength: 1, maxLength: 60, pattern: '^[a-z0-9-]+$' }) },
  { additionalProperties: false },
);

export const StaffRequestBody = Type.Object(
  {
    title: Type.String({ minLength: 1, maxLength: 120, pattern: ONE_LINE }),
    message: Type.String({ maxLength: STAFF_REQUEST_MESSAGE_MAX }),
  },
  { additionalProperties: false },
);
export type StaffRequestBody = Static<typeof StaffRequestBody>;

export const StaffWaiverBody = Type.Object(
  { item: Type.String({ minLength: 1, maxLength: 60, pattern: '^[a-z0-9-]+$' }) },
  { additionalProperties: false },
);
export type StaffWaiverBody = Static<typeof StaffWaiverBody>;
