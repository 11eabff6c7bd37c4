import { Type, type Static } from '@sinclair/typebox';

/** Every error body (docs/api.md, docs/errors.md): the SPA shows `message` as it is. */
export const ErrorResponse = Type.Object(
  {
    message: Type.String(),
    code: Type.Optional(Type.String({ description: 'Stable machine-readable error code' })),
  },
  { $id: 'ErrorResponse', additionalProperties: false },
);
export type ErrorResponse = Static<typeof ErrorResponse>;

export const MessageResponse = Type.Object(
  { message: Type.String() },
  { $id: 'MessageResponse', additionalProperties: false },
);
export type MessageResponse = Static<typeof MessageResponse>;

export const HealthResponse = Type.Object(
  { status: Type.Literal('ok') },
  { additionalProperties: false },
);
export type HealthResponse = Static<typeof HealthResponse>;

/** The error responses every route may give, so each route documents all of its codes. */
export const commonErrors = {
  400: ErrorResponse,
  429: ErrorResponse,
  500: ErrorResponse,
  503: ErrorResponse,
} as const;
