import { Type, type Static } from '@sinclair/typebox';
import type { ErrorCode } from './error-codes';

// Schema limits are generous on purpose: the shared rules in @admissions/form give the exact
// messages of docs/validation.md, so the schema only refuses what no person could have typed.
const Username = Type.String({ maxLength: 1024, description: 'E-mail address' });
const Password = Type.String({ maxLength: 1024 });

export const LoginBody = Type.Object(
  { username: Username, password: Password },
  { additionalProperties: false },
);
export type LoginBody = Static<typeof LoginBody>;

export const SignupBody = Type.Object(
  { username: Username, password: Password },
  { additionalProperties: false },
);
export type SignupBody = Static<typeof SignupBody>;

export const ConfirmBody = Type.Object(
  { username: Username, code: Type.String({ maxLength: 64 }) },
  { additionalProperties: false },
);
export type ConfirmBody = Static<typeof ConfirmBody>;

export const UsernameBody = Type.Object({ username: Username }, { additionalProperties: false });
export type UsernameBody = Static<typeof UsernameBody>;

export const ResetPasswordBody = Type.Object(
  {
    username: Username,
    password: Password,
    confirm_password: Password,
    id: Type.String({ maxLength: 256 }),
  },
  { additionalProperties: false },
);
export type ResetPasswordBody = Static<typeof ResetPasswordBody>;

/**
 * Stable `code`s of auth error bodies the SPA acts on (never the message text). NOT_CONFIRMED is
 * answered only to the right password, so it tells nothing to someone guessing addresses.
 */
export const AUTH_ERROR_CODES = {
  notConfirmed: 'NOT_CONFIRMED',
  loginFailed: 'LOGIN_FAILED',
  accountLocked: 'ACCOUNT_LOCKED',
} as const satisfies Record<string, ErrorCode>;
