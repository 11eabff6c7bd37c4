import type { FastifyInstance } from 'fastify';
import { AppError } from '../lib/app-error';
import { markStorableText } from './validator';

/** No request body of this API nests deeper than a few levels; 32 leaves room and bounds the work. */
export const MAX_JSON_DEPTH = 32;

export const JSON_BODY_MESSAGES = {
  tooDeep: `The request body is nested too deeply (at most ${MAX_JSON_DEPTH} levels).`,
  duplicateKey: 'The request body names the same field more than once.',
} as const;

export type JsonShapeProblem = 'too-deep' | 'duplicate-key';

/**
 * Walks JSON text once, without recursion, for what JSON.parse accepts but this API must not:
 * nesting past `maxDepth` (validation and the database walk recursively, so `[` × 150,000 ended in
 * "Maximum call stack size exceeded") and an object naming a key twice (JSON.parse keeps the last
 * one silently, so two readers of the same body could disagree). It does not check the rest of
 * the syntax: JSON.parse does that afterwards, on text now known to be shallow.
 */
export function findJsonShapeProblem(
  text: string,
  maxDepth = MAX_JSON_DEPTH,
): JsonShapeProblem | null {
  // One entry per open container: the keys seen so far for an object, null for an array.
  const open: (Set<string> | null)[] = [];
  let expectingKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      let end = i + 1;
      while (end < text.length) {
        const d = text.charCodeAt(end);
        if (d === 0x5c) end += 2;
        else if (d === 0x22) break;
        else end++;
      }
      const keys = open[open.length - 1];
      if (expectingKey && keys) {
        // A key without escapes is its own text: JSON.parse of every key was a tenth of a save's
        // CPU outside the database.
        const raw = text.slice(i + 1, end);
        let key: unknown = raw;
        if (raw.includes('\\')) {
          try {
            key = JSON.parse(text.slice(i, end + 1));
          } catch {
            return null; // broken JSON: JSON.parse reports it
          }
        }
        if (typeof key !== 'string') return null;
        if (keys.has(key)) return 'duplicate-key';
        keys.add(key);
        expectingKey = false;
      }
      i = end;
    } else if (c === 0x7b || c === 0x5b) {
      open.push(c === 0x7b ? new Set() : null);
      if (open.length > maxDepth) return 'too-deep';
      expectingKey = c === 0x7b;
    } else if (c === 0x7d || c === 0x5d) {
      open.pop();
      expectingKey = false;
    } else if (c === 0x2c) {
      expectingKey = open[open.length - 1] instanceof Set;
    }
  }
  return null;
}

/**
 * The only JSON parser of the app. docs/api.md: the SPA sends a JSON content type on every call, body
 * or not (DELETE, submit), so an empty JSON body means "no body"; too deep or duplicate keys →
 * 400; anything else goes through Fastify's prototype-poisoning-safe parser.
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString();
    if (text === '') return done(null, undefined);
    const problem = findJsonShapeProblem(text);
    if (problem) {
      const message =
        problem === 'too-deep' ? JSON_BODY_MESSAGES.tooDeep : JSON_BODY_MESSAGES.duplicateKey;
      return done(new AppError('INVALID_REQUEST', message), undefined);
    }
    if (!text.includes('\\u')) {
      // NUL and lone surrogates reach a parsed string only through a \u escape (raw control
      // characters are invalid JSON, and UTF-8 decoding has no lone surrogates): without one the
      // body's strings need no walk (validator.ts).
      return parseJson(request, text, (error, body) => {
        if (!error) markStorableText(body);
        done(error, body);
      });
    }
    return parseJson(request, text, done);
  });
}
