import { Type, type Static } from '@sinclair/typebox';

export const WEB_STATUSES = ['started', 'validating', 'submitted'] as const;
export type WebStatus = (typeof WEB_STATUSES)[number];

export const DocumentAnswer = Type.Object(
  { file_name: Type.String(), file_size: Type.Integer() },
  { additionalProperties: false },
);
export type DocumentAnswer = Static<typeof DocumentAnswer>;

export const ProfileResponse = Type.Object(
  {
    answer: Type.Record(Type.String(), Type.String()),
    document_answer: Type.Record(Type.String(), DocumentAnswer),
    username: Type.String(),
    last_page: Type.Union([Type.String(), Type.Null()]),
    successful_login: Type.Array(Type.String({ description: 'ISO 8601 time of a login' })),
    web_status: Type.Array(
      Type.Object({ web_status: Type.String() }, { additionalProperties: false }),
    ),
  },
  { additionalProperties: false },
);
export type ProfileResponse = Static<typeof ProfileResponse>;
