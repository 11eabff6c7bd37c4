import { Type, type Static } from '@sinclair/typebox';
import { WEB_STATUSES } from './profile';

const AnswerKey = Type.String({ minLength: 1, maxLength: 100 });

/** A partial answer set: merged into the saved answers. Keys and lengths are checked by the server. */
export const AnswerPatch = Type.Record(AnswerKey, Type.String({ maxLength: 20_000 }), {
  maxProperties: 500,
});
export type AnswerPatch = Static<typeof AnswerPatch>;

export const PAGE_PATHS = ['/about', '/education', '/final-steps'] as const;

export const LastPageBody = Type.Object(
  { last_page: Type.Union(PAGE_PATHS.map((p) => Type.Literal(p))) },
  { additionalProperties: false },
);
export type LastPageBody = Static<typeof LastPageBody>;

export const WebStatusBody = Type.Object(
  {
    web_status: Type.Union(WEB_STATUSES.map((s) => Type.Literal(s))),
  },
  { additionalProperties: false },
);
export type WebStatusBody = Static<typeof WebStatusBody>;

/** The SPA's latest error map while validating: question key → messages. */
export const ValidationsBody = Type.Record(
  AnswerKey,
  Type.Array(Type.String({ maxLength: 500 }), { maxItems: 20 }),
  { maxProperties: 500 },
);
export type ValidationsBody = Static<typeof ValidationsBody>;

export const SubmitErrorResponse = Type.Object(
  {
    message: Type.String(),
    code: Type.Optional(Type.String()),
    errors: Type.Record(Type.String(), Type.Array(Type.String())),
  },
  { additionalProperties: false },
);
export type SubmitErrorResponse = Static<typeof SubmitErrorResponse>;

export const AddAnotherBody = Type.Object(
  {
    button_id: Type.String({ minLength: 1, maxLength: 100 }),
    num_components: Type.Integer({ minimum: 1, maximum: 10 }),
  },
  { additionalProperties: false },
);
export type AddAnotherBody = Static<typeof AddAnotherBody>;

export const AddAnotherResponse = Type.Record(Type.String(), Type.Integer());
export type AddAnotherResponse = Static<typeof AddAnotherResponse>;

export const TabsBody = Type.Object(
  {
    tab_id: Type.String({ minLength: 1, maxLength: 100 }),
    chosen_tab: Type.String({ minLength: 1, maxLength: 100 }),
  },
  { additionalProperties: false },
);
export type TabsBody = Static<typeof TabsBody>;

export const TabsResponse = Type.Record(Type.String(), Type.String());
export type TabsResponse = Static<typeof TabsResponse>;

export const TemporaryAnswersQuery = Type.Object(
  { token: Type.String({ minLength: 1, maxLength: 200 }) },
  { additionalProperties: false },
);

export const TemporaryAnswersResponse = Type.Object(
  { answer: Type.Record(Type.String(), Type.String()) },
  { additionalProperties: false },
);
export type TemporaryAnswersResponse = Static<typeof TemporaryAnswersResponse>;
