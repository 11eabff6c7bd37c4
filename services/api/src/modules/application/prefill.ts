// Prefilled answer sets (`npm run cli -- prefill`): an anonymous visitor opens /about?token=… and
// GET /public/tmp serves the answers. The token is random (256 bits) and stored only as its
// SHA-256, like every other link token; SSN, alien registration number and the disciplinary
// answers are refused (docs/design-decisions.md, 9), file questions too (a document cannot be prefilled).
import {
  PREFILL_REFUSED_ANSWER_KEYS,
  checkAnswerPatch,
  describeAnswerProblem,
  isFileQuestion,
  type PartnerConfig,
} from '@admissions/form';
import type { Db } from '../../platform/db/connect';
import { temporaryAnswers } from './schema';
import { generateToken, hashToken } from '../../platform/lib/crypto';

export const PREFILL_DEFAULT_TTL_MS = 7 * 86_400_000;
export const PREFILL_MAX_TTL_MS = 90 * 86_400_000;

/** Every problem of a prefill file, as sentences naming the keys; empty when it may be stored. */
export function checkPrefillAnswers(raw: unknown, partner: PartnerConfig): string[] {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return ['The file must hold one JSON object of answer keys to text values.'];
  }
  const answers = raw as Record<string, unknown>;
  const problems: string[] = [];
  const refused = Object.keys(answers).filter((k) => PREFILL_REFUSED_ANSWER_KEYS.includes(k));
  if (refused.length > 0) {
    problems.push(
      `Prefill links never carry SSN, alien registration number or disciplinary answers; remove: ${refused.join(', ')}.`,
    );
  }
  const files = Object.keys(answers).filter((k) => isFileQuestion(k));
  if (files.length > 0) {
    problems.push(`Documents cannot be prefilled; remove: ${files.join(', ')}.`);
  }
  for (const problem of checkAnswerPatch(answers, partner)) {
    if (PREFILL_REFUSED_ANSWER_KEYS.includes(problem.key)) continue;
    problems.push(describeAnswerProblem(problem));
  }
  if (problems.length === 0 && Object.keys(answers).length === 0) {
    problems.push('The file holds no answers.');
  }
  return problems;
}

/** Stores the answers (already checked) and returns the link token. */
export async function storePrefill(
  db: Db,
  answers: Record<string, string>,
  options: { now: Date; ttlMs: number },
): Promise<{ token: string; expiresAt: Date }> {
  const token = generateToken();
  const expiresAt = new Date(options.now.getTime() + options.ttlMs);
  await db.insert(temporaryAnswers).values({
    tokenHash: hashToken(token),
    answer: answers,
    expiresAt,
    createdAt: options.now,
  });
  return { token, expiresAt };
}
