import { hash, verify } from '@node-rs/argon2';

// OWASP's argon2id baseline: 19 MiB, 2 iterations, 1 lane.
const ARGON2_OPTIONS = {
  // Algorithm.Argon2id is an ambient const enum (unusable under verbatimModuleSyntax); 2 is its value.
  algorithm: 2,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

// Verified against when the account does not exist, so an unknown e-mail costs the same time.
let dummyHash: Promise<string> | undefined;

export async function verifyPassword(
  storedHash: string | null,
  password: string,
): Promise<boolean> {
  if (storedHash === null) {
    dummyHash ??= hashPassword('dummy-password-for-timing-Aa1!');
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  return verify(storedHash, password).catch(() => false);
}

// Loaded and built at the first password check, not at start: the package's dictionaries are
// ~0.5 MB of the bundle that V8 would otherwise parse at every start (30,000 passwords are used).
let commonPasswords: Promise<ReadonlySet<string>> | undefined;

function loadCommonPasswords(): Promise<ReadonlySet<string>> {
  commonPasswords ??= import('@zxcvbn-ts/language-common').then(
    ({ dictionary }) => new Set(dictionary.passwords as string[]),
  );
  return commonPasswords;
}

/**
 * A password that meets the composition rules can still be a famous one ("Password123!"):
 * refuse it when the whole password, or its letters alone, is on the common-passwords list.
 */
export async function isCommonPassword(password: string): Promise<boolean> {
  const common = await loadCommonPasswords();
  const lower = password.toLowerCase();
  if (common.has(lower)) return true;
  const letters = lower.replace(/[^a-z]/g, '');
  return letters.length >= 4 && common.has(letters);
}
