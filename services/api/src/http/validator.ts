import { Ajv, type AnySchema } from 'ajv';
import type { FastifyRouteSchemaDef } from 'fastify/types/schema';

// Unknown keys are refused, never silently dropped (GUIDE §3.5). JSON bodies are checked as sent:
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

export function compileValidator({ schema, httpPart }: FastifyRouteSchemaDef<AnySchema>) {
  return (httpPart === 'body' ? bodyAjv : urlAjv).compile(schema);
}
