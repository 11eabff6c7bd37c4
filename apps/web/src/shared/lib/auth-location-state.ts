/**
 * What auth screens (and the application pages) pass each other in navigation state.
 * `answers` are what an anonymous visitor typed; they ride along until they can be saved.
 */
export interface AuthLocationState {
  username?: string;
  successMessage?: string;
  errorMessage?: string;
  answers?: Record<string, string>;
}

const isString = (value: unknown): value is string => typeof value === 'string';

/** Navigation state survives reloads and can be anything; read only what has the right shape. */
export function readAuthLocationState(state: unknown): AuthLocationState {
  if (typeof state !== 'object' || state === null) return {};
  const record = state as Record<string, unknown>;
  const result: AuthLocationState = {};
  if (isString(record.username)) result.username = record.username;
  if (isString(record.successMessage)) result.successMessage = record.successMessage;
  if (isString(record.errorMessage)) result.errorMessage = record.errorMessage;
  const answers = readAnswers(record.answers);
  if (answers) result.answers = answers;
  return result;
}

function readAnswers(value: unknown): Record<string, string> | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const answers: Record<string, string> = {};
  for (const [key, answer] of Object.entries(value)) {
    if (isString(answer)) answers[key] = answer;
  }
  return answers;
}

declare const __SENSITIVE_ANSWER_KEYS__: readonly string[];
/** The definition's sensitive keys, inlined at build time (build-tools/sensitive-keys.ts). */
const SENSITIVE_KEYS: ReadonlySet<string> = new Set(__SENSITIVE_ANSWER_KEYS__);

/** State for a link to another screen: only the answers, never SSN-like keys (browser history). */
export function buildCarriedState(
  answers: Record<string, string> | undefined,
  extra: Omit<AuthLocationState, 'answers'> = {},
): AuthLocationState {
  if (!answers) return { ...extra };
  const kept = Object.fromEntries(
    Object.entries(answers).filter(([key]) => !SENSITIVE_KEYS.has(key)),
  );
  return { ...extra, answers: kept };
}
