import { Ajv, type AnySchema, type ErrorObject } from 'ajv';
import type { FastifyRouteSchemaDef } from 'fastify/types/schema';
import { isCalendarDay } from '../lib/calendar-day';

// Unknown keys are refused, never silently dropped (docs/design-decisions.md, 5). JSON bodies are checked as sent:
// a number where text belongs is an error, not something to coerce. Query strings and params
// arrive as text, so those may be coerced to the declared type.
const shared = {
  removeAdditional: false,
  useDefaults: true,
  allErrors: false,
  strict: false,
} as const;
const bodyAjv = new Ajv({ ...shared, coerceTypes: false });
const urlAjv = new Ajv({ ...shared, coerceTypes: 'array' });

// Without it ajv (strict: false) ignores `format`, and an impossible day reached PostgreSQL (500).
for (const ajv of [bodyAjv, urlAjv])
  ajv.addFormat('date', { type: 'string', validate: isCalendarDay });

// A lone UTF-16 surrogate: JSON can carry one ("\ud800"), UTF-8 and PostgreSQL's jsonb cannot.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function unstorable(text: string): string | null {
  if (text.includes('\u0000')) return 'must not contain the character U+0000';
  if (LONE_SURROGATE.test(text))
    return 'must not contain an unpaired surrogate (not valid Unicode)';
  return null;
}

/**
 * The first string (or object key) of a request part that PostgreSQL cannot store as text or
 * jsonb — one with a NUL character (U+0000) or an unpaired surrogate — as a JSON pointer and the
 * reason, or null. No answer needs either: they are refused with the other validation errors
 * (400) instead of failing in the database (500). Found by the security fuzz suite.
 */
export function findUnstorableText(
  value: unknown,
  pointer = '',
): { pointer: string; message: string } | null {
  if (typeof value === 'string') {
    const message = unstorable(value);
    return message ? { pointer, message } : null;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findUnstorableText(value[i], `${pointer}/${i}`);
      if (found) return found;
    }
    return null;
  }
  if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const message = unstorable(key);
      if (message)
        return {
          pointer,
          message: message.replace('must not contain', 'must not have a key with'),
        };
      const found = findUnstorableText(
        item,
        `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`,
      );
      if (found) return found;
    }
  }
  return null;
}

// Parsed bodies whose JSON text had no \u escape, so none of their strings can be unstorable.
const storableBodies = new WeakSet<object>();

/** Records that a parsed body needs no findUnstorableText walk (json-body.ts checked its text). */
export function markStorableText(body: unknown): void {
  if (body !== null && typeof body === 'object') storableBodies.add(body);
}

function isMarkedStorable(data: unknown): boolean {
  return data !== null && typeof data === 'object' && storableBodies.has(data);
}

export function compileValidator({ schema, httpPart }: FastifyRouteSchemaDef<AnySchema>) {
  const validate = (httpPart === 'body' ? bodyAjv : urlAjv).compile(schema);
  const check = (data: unknown): boolean => {
    const found = isMarkedStorable(data) ? null : findUnstorableText(data);
    if (found) {
      const error: ErrorObject = {
        keyword: 'unstorableText',
        instancePath: found.pointer,
        schemaPath: '#',
        params: {},
        message: found.message,
      };
      check.errors = [error];
      return false;
    }
    const valid = validate(data) as boolean; // no async schemas here
    check.errors = validate.errors;
    return valid;
  };
  check.errors = null as ErrorObject[] | null | undefined;
  return check;
}
