// Account rules shared by the SPA's auth cards and the server, so the checklist a person sees
// and the check the server enforces can never disagree (docs/design-decisions.md, 1).

export const PASSWORD_MIN_LENGTH = 12;
/** Long passphrases are welcome; the cap only bounds hashing cost. Never truncated. */
export const PASSWORD_MAX_LENGTH = 256;
export const EMAIL_MAX_LENGTH = 254;
export const CONFIRMATION_CODE_LENGTH = 6;

export const AUTH_MESSAGES = {
  emailInvalid: 'Your email address must be valid.',
  loginEmailInvalid: 'Please provide a valid email address.',
  passwordRequired: 'Password is required.',
  codeInvalid: 'The confirmation code must be exactly 6 numbers.',
  resendNeedsEmail: 'You must provide a valid email address to resend a confirmation code.',
  passwordsDiffer: 'Your passwords must match.',
  passwordTooLong: `Your password must be at most ${PASSWORD_MAX_LENGTH} characters.`,
  resetIdMissing: 'This password reset link is incomplete. Please request a new one.',
} as const;

export interface PasswordRule {
  id: 'length' | 'uppercase' | 'lowercase' | 'number' | 'special' | 'whitespace';
  /** Checklist wording; also the server's message when the rule fails. */
  label: string;
  test: (password: string) => boolean;
}

// Cognito's special-character set, plus any other non-alphanumeric, non-space character.
const SPECIAL = /[^A-Za-z0-9\s]/;

export const PASSWORD_RULES: readonly PasswordRule[] = [
  {
    id: 'length',
    label: `At least ${PASSWORD_MIN_LENGTH} characters`,
    test: (p) => [...p].length >= PASSWORD_MIN_LENGTH,
  },
  { id: 'uppercase', label: 'At least 1 uppercase letter', test: (p) => /[A-Z]/.test(p) },
  { id: 'lowercase', label: 'At least 1 lowercase letter', test: (p) => /[a-z]/.test(p) },
  { id: 'number', label: 'At least 1 number', test: (p) => /[0-9]/.test(p) },
  { id: 'special', label: 'At least 1 special character', test: (p) => SPECIAL.test(p) },
  {
    id: 'whitespace',
    label: 'No spaces at the beginning or end',
    test: (p) => p.length === 0 || p === p.trim(),
  },
];

export interface PasswordCheck {
  id: PasswordRule['id'];
  label: string;
  met: boolean;
}

/** The live checklist: every rule with whether the password meets it. */
export function checkPassword(password: string): PasswordCheck[] {
  return PASSWORD_RULES.map((rule) => ({
    id: rule.id,
    label: rule.label,
    met: rule.test(password),
  }));
}

/** Messages for a new password (sign-up and reset); empty when it is acceptable. */
export function validateNewPassword(password: string): string[] {
  if (password.length > PASSWORD_MAX_LENGTH) return [AUTH_MESSAGES.passwordTooLong];
  return checkPassword(password)
    .filter((check) => !check.met)
    .map((check) => `Password requirement not met: ${check.label.toLowerCase()}.`);
}

// Deliberately simple (docs/validation.md): something@something.tld, no spaces, one @.
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function isValidEmail(value: string): boolean {
  return value.length <= EMAIL_MAX_LENGTH && EMAIL_PATTERN.test(value);
}

/** Accounts are keyed by the lowercased, trimmed address (the popover shows it lowercased too). */
export function normalizeEmail(value: string): string {
  return value.trim().toLowerCase();
}

const CODE_PATTERN = /^[0-9]{6}$/;

export function isValidConfirmationCode(value: string): boolean {
  return CODE_PATTERN.test(value);
}

export type AuthForm = 'login' | 'signup' | 'confirm' | 'forgot' | 'reset' | 'resend';

export interface AuthFields {
  username?: string;
  password?: string;
  confirm_password?: string;
  code?: string;
  id?: string;
}

export type AuthErrors = Partial<Record<keyof AuthFields, string[]>>;

/**
 * Field errors for one auth card, in the order the card shows them. The SPA runs this on every
 * change and on submit; the server runs it before touching the database.
 */
export function validateAuthForm(form: AuthForm, fields: AuthFields): AuthErrors {
  const errors: AuthErrors = {};
  const add = (key: keyof AuthFields, message: string) => {
    (errors[key] ??= []).push(message);
  };
  const username = fields.username ?? '';
  const password = fields.password ?? '';

  switch (form) {
    case 'login':
      if (!isValidEmail(username.trim())) add('username', AUTH_MESSAGES.loginEmailInvalid);
      if (password.length === 0) add('password', AUTH_MESSAGES.passwordRequired);
      else if (password.length > PASSWORD_MAX_LENGTH)
        add('password', AUTH_MESSAGES.passwordTooLong);
      break;
    case 'signup':
      if (!isValidEmail(username.trim())) add('username', AUTH_MESSAGES.emailInvalid);
      for (const m of validateNewPassword(password)) add('password', m);
      break;
    case 'confirm':
      if (!isValidEmail(username.trim())) add('username', AUTH_MESSAGES.emailInvalid);
      if (!isValidConfirmationCode(fields.code ?? '')) add('code', AUTH_MESSAGES.codeInvalid);
      break;
    case 'forgot':
      if (!isValidEmail(username.trim())) add('username', AUTH_MESSAGES.emailInvalid);
      break;
    case 'resend':
      if (!isValidEmail(username.trim())) add('username', AUTH_MESSAGES.resendNeedsEmail);
      break;
    case 'reset':
      if (!isValidEmail(username.trim())) add('username', AUTH_MESSAGES.emailInvalid);
      for (const m of validateNewPassword(password)) add('password', m);
      if (password !== (fields.confirm_password ?? ''))
        add('confirm_password', AUTH_MESSAGES.passwordsDiffer);
      if ((fields.id ?? '').length === 0) add('id', AUTH_MESSAGES.resetIdMissing);
      break;
  }
  return errors;
}

/** The first message of the first failing field: what a single-message API error says. */
export function firstAuthError(errors: AuthErrors): string | undefined {
  for (const messages of Object.values(errors)) {
    if (messages && messages.length > 0) return messages[0];
  }
  return undefined;
}
