// Request generators for the security fuzz suite (issue #9): every route of the OpenAPI document
// the app serves, with schema-shaped values, edge values, wrong types, extra keys and raw garbage.
import fc from 'fast-check';
import { ALLOWED_ANSWER_KEYS } from '@admissions/form';

/** The subset of JSON Schema that TypeBox emits into the OpenAPI document. */
export interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  maxProperties?: number;
  items?: JsonSchema;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minimum?: number;
  maximum?: number;
}

interface OpenApiParameter {
  in: 'query' | 'path' | 'header' | 'cookie';
  name: string;
  required?: boolean;
  schema: JsonSchema;
}

interface OpenApiOperation {
  parameters?: OpenApiParameter[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface FuzzRoute {
  method: HttpMethod;
  /** The OpenAPI path, `{key}` style. */
  path: string;
  pathParams: Record<string, JsonSchema>;
  query: { properties: Record<string, JsonSchema>; required: string[] } | null;
  body: JsonSchema | null;
}

/** Every operation of the document, with its parameter and body schemas. */
export function listRoutes(doc: OpenApiDocument): FuzzRoute[] {
  const routes: FuzzRoute[] = [];
  for (const [path, operations] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const upper = method.toUpperCase();
      if (!['GET', 'POST', 'PUT', 'DELETE'].includes(upper)) continue;
      const parameters = operation.parameters ?? [];
      const pathParams = Object.fromEntries(
        parameters.filter((p) => p.in === 'path').map((p) => [p.name, p.schema]),
      );
      const queryParams = parameters.filter((p) => p.in === 'query');
      routes.push({
        method: upper as HttpMethod,
        path,
        pathParams,
        query:
          queryParams.length === 0
            ? null
            : {
                properties: Object.fromEntries(queryParams.map((p) => [p.name, p.schema])),
                required: queryParams.filter((p) => p.required).map((p) => p.name),
              },
        body: operation.requestBody?.content?.['application/json']?.schema ?? null,
      });
    }
  }
  return routes;
}

/** Strings that have broken web services before: SQL, paths, encodings, control characters. */
export const NASTY_STRINGS = [
  '',
  ' ',
  "' OR '1'='1",
  "'; DROP TABLE users; --",
  '"; SELECT pg_sleep(5); --',
  '\\',
  '%',
  '%00',
  '%27%20OR%201%3D1',
  '_%_',
  '\u0000',
  'a\u0000b',
  '\\u0000',
  '../../../../etc/passwd',
  '..\\..\\windows\\win.ini',
  '/dev/zero',
  'uploads/../../secret_doc',
  'file:///etc/passwd',
  'http://169.254.169.254/latest/meta-data/',
  '<script>alert(1)</script>',
  '${jndi:ldap://x/a}',
  '{{7*7}}',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  '\ud800',
  '\udfff\ud800',
  '\u202e\u0644\u0627',
  '\ufeff',
  'Z\u0351\u0360\u036b\u0343\u036a\u0302\u036b',
  '👩‍👩‍👧‍👦',
  '\r\n\r\nX-Injected: 1',
  'NaN',
  'Infinity',
  '-0',
  '1e309',
  '9'.repeat(40),
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  '@example.org',
  'a@b',
  'applicant@example.org\u0000admin@example.org',
];

const unicodeString = (maxLength: number) =>
  fc.oneof(
    fc.string({ unit: 'grapheme', maxLength }),
    fc.string({ unit: 'binary', maxLength }),
    fc.string({ unit: 'grapheme-composite', maxLength }),
  );

/** A string near the schema's limits, or far past them. */
function edgeString(schema: JsonSchema): fc.Arbitrary<string> {
  const max = schema.maxLength ?? 1000;
  const min = schema.minLength ?? 0;
  return fc.oneof(
    unicodeString(Math.min(max, 40)),
    fc.constantFrom(...NASTY_STRINGS),
    fc.constantFrom(
      'x'.repeat(max),
      'x'.repeat(max + 1),
      // One code point, two UTF-16 units: limits must count characters, not units.
      '😀'.repeat(max),
      'é'.repeat(max + 1),
      'a'.repeat(Math.max(0, min - 1)),
      // Near the body limit (1 MiB) and past it.
      'y'.repeat(600_000),
      'z'.repeat(1_100_000),
    ),
  );
}

export interface Hints {
  /** Values worth trying for a property of this name (real e-mails, real keys, …). */
  [property: string]: readonly unknown[];
}

const DEFAULT_HINTS: Hints = {
  category: ['hs_ceeb', 'college_ceeb', 'address', 'HS_CEEB', 'zip'],
  max_results: [1, 5, 6, 0, -1, 1e9],
  answer_key: ['essay_doc', 'resume_doc', 'first_name', 'x_doc'],
  key: ['essay_doc', 'resume_doc', 'x_doc', 'first_name'],
  button_id: ['parents', 'siblings', 'high_schools', 'colleges'],
  num_components: [1, 2, 10, 11, 0],
};

/** A value that fits the schema (mostly), leaning towards the edges. */
export function schemaArbitrary(
  schema: JsonSchema,
  hints: Hints = {},
  name = '',
): fc.Arbitrary<unknown> {
  const hinted = hints[name] ?? DEFAULT_HINTS[name];
  const own = shapedArbitrary(schema, hints);
  return hinted && hinted.length > 0 ? fc.oneof(fc.constantFrom(...hinted), own) : own;
}

function shapedArbitrary(schema: JsonSchema, hints: Hints): fc.Arbitrary<unknown> {
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if ('const' in schema) return fc.constant(schema.const);
  const choices = schema.anyOf ?? schema.oneOf;
  if (choices) return fc.oneof(...choices.map((c) => shapedArbitrary(c, hints)));
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string': {
      const max = schema.maxLength ?? 200;
      const min = schema.minLength ?? 0;
      const shaped = schema.pattern
        ? fc.stringMatching(new RegExp(schema.pattern), { maxLength: Math.min(max, 60) })
        : fc.string({ unit: 'grapheme', minLength: min, maxLength: Math.min(max, 60) });
      return fc.oneof(
        { weight: 3, arbitrary: shaped },
        { weight: 2, arbitrary: edgeString(schema) },
      );
    }
    case 'integer':
    case 'number': {
      const min = schema.minimum ?? -1_000_000;
      const max = schema.maximum ?? 1_000_000;
      return fc.oneof(
        fc.integer({ min, max }),
        fc.constantFrom(min - 1, max + 1, 0, -1, 2 ** 31, 2 ** 53 + 2, -(2 ** 63), 1e308),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
      );
    }
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(schema.items ? shapedArbitrary(schema.items, hints) : fc.jsonValue(), {
        maxLength: (schema.maxItems ?? 10) + 1,
      });
    case 'object': {
      if (schema.properties) {
        const record = fc.record(
          Object.fromEntries(
            Object.entries(schema.properties).map(([key, s]) => [
              key,
              schemaArbitrary(s, hints, key),
            ]),
          ),
          { requiredKeys: [] },
        );
        const required = schema.required ?? [];
        // Mostly complete objects (so the handler runs), sometimes with required keys missing.
        return fc.oneof(
          {
            weight: 4,
            arbitrary: fc
              .tuple(
                record,
                fc.tuple(...required.map((k) => schemaArbitrary(schema.properties![k]!, hints, k))),
              )
              .map(([partial, values]) => {
                const full: Record<string, unknown> = { ...partial };
                required.forEach((k, i) => {
                  if (!(k in full)) full[k] = values[i];
                });
                return full;
              }),
          },
          { weight: 1, arbitrary: record },
        );
      }
      if (schema.additionalProperties && typeof schema.additionalProperties === 'object') {
        const valueSchema = schema.additionalProperties;
        const keys = fc.oneof(
          {
            weight: 4,
            arbitrary: fc.constantFrom(
              ...(hints['*key'] ?? [...ALLOWED_ANSWER_KEYS]),
            ) as fc.Arbitrary<string>,
          },
          { weight: 1, arbitrary: fc.oneof(unicodeString(30), fc.constantFrom(...NASTY_STRINGS)) },
        );
        return fc.oneof(
          {
            weight: 6,
            arbitrary: fc.dictionary(keys, shapedArbitrary(valueSchema, hints), { maxKeys: 8 }),
          },
          {
            weight: 1,
            // Past maxProperties.
            arbitrary: fc.constant(
              Object.fromEntries(
                [...ALLOWED_ANSWER_KEYS]
                  .slice(0, (schema.maxProperties ?? 500) + 1)
                  .concat(Array.from({ length: 501 }, (_, i) => `k${i}`))
                  .slice(0, (schema.maxProperties ?? 500) + 1)
                  .map((k) => [k, '']),
              ),
            ),
          },
        );
      }
      return fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 5 });
    }
    default:
      return fc.jsonValue();
  }
}

/** A value of another type than the schema asks for. */
export const wrongTypeArbitrary: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double(),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
  fc.constant({ __proto__: { admin: true } }),
  fc.jsonValue({ maxDepth: 4 }),
);

/** An object of the schema with one of its fields replaced or one unknown key added. */
function mutatedObject(schema: JsonSchema, hints: Hints): fc.Arbitrary<unknown> {
  const shaped = shapedArbitrary(schema, hints);
  const names = Object.keys(schema.properties ?? {});
  const extraKey = fc.oneof(
    fc.constantFrom(
      'is_admin',
      'user_id',
      'role',
      'submitted_at',
      'version',
      '__proto__',
      'constructor',
    ),
    fc.string({ maxLength: 12 }),
  );
  return fc.oneof(
    fc.tuple(shaped, extraKey, fc.jsonValue({ maxDepth: 2 })).map(([value, key, extra]) =>
      value && typeof value === 'object' && !Array.isArray(value)
        ? Object.defineProperty({ ...value }, key, {
            value: extra,
            enumerable: true,
            writable: true,
            configurable: true,
          })
        : value,
    ),
    ...(names.length === 0
      ? []
      : [
          fc
            .tuple(shaped, fc.constantFrom(...names), wrongTypeArbitrary)
            .map(([value, key, wrong]) =>
              value && typeof value === 'object' ? { ...value, [key]: wrong } : value,
            ),
        ]),
  );
}

/** What is sent as the body: a JSON value, nothing, or raw bytes with a content type. */
export type GeneratedBody =
  | { kind: 'none' }
  | { kind: 'json'; value: unknown }
  | { kind: 'raw'; payload: string; contentType: string };

const rawBody: fc.Arbitrary<GeneratedBody> = fc.record({
  kind: fc.constant('raw' as const),
  payload: fc.oneof(
    fc.constantFrom(
      '{',
      '{"a":',
      '[1,2',
      'null',
      '"str"',
      '{"__proto__":{"x":1}}',
      '{"constructor":{"prototype":{"x":1}}}',
      'a=1&b=2',
      '\u0000',
      // Nesting past any body's depth: it once overflowed the stack (500) before the session check.
      '['.repeat(150_000),
      '{"a":'.repeat(40_000),
      `${'['.repeat(40)}1${']'.repeat(40)}`,
      '{"first_name":"A","first_name":"B"}',
    ),
    fc.string({ unit: 'binary', maxLength: 50 }),
  ),
  contentType: fc.constantFrom(
    'application/json',
    'application/json; charset=utf-16',
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'application/xml',
    'application/octet-stream',
  ),
});

export function bodyArbitrary(
  schema: JsonSchema | null,
  hints: Hints = {},
): fc.Arbitrary<GeneratedBody> {
  const json = (value: fc.Arbitrary<unknown>) =>
    value.map((v): GeneratedBody => ({ kind: 'json', value: v }));
  if (!schema) {
    return fc.oneof(
      { weight: 6, arbitrary: fc.constant<GeneratedBody>({ kind: 'none' }) },
      { weight: 2, arbitrary: json(fc.jsonValue({ maxDepth: 3 })) },
      { weight: 1, arbitrary: rawBody },
    );
  }
  return fc.oneof(
    { weight: 6, arbitrary: json(shapedArbitrary(schema, hints)) },
    { weight: 3, arbitrary: json(mutatedObject(schema, hints)) },
    { weight: 1, arbitrary: json(wrongTypeArbitrary) },
    { weight: 1, arbitrary: fc.constant<GeneratedBody>({ kind: 'none' }) },
    { weight: 1, arbitrary: rawBody },
  );
}

/** Query parameters: the declared ones (shaped or not), sometimes unknown ones too. */
export function queryArbitrary(
  query: FuzzRoute['query'],
  hints: Hints = {},
): fc.Arbitrary<Record<string, unknown>> {
  const declared = query
    ? (shapedArbitrary(
        { type: 'object', properties: query.properties, required: query.required },
        hints,
      ) as fc.Arbitrary<Record<string, unknown>>)
    : fc.constant({});
  const extra = fc.dictionary(
    fc.oneof(
      fc.constantFrom('__proto__', 'constructor', 'service_token', 'a[b]', 'x[]', 'toString'),
      fc.string({ maxLength: 10 }),
    ),
    fc.oneof(fc.string({ maxLength: 20 }), fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 })),
    { maxKeys: 3 },
  );
  return fc.oneof(
    { weight: query ? 6 : 2, arbitrary: declared },
    {
      weight: 2,
      arbitrary: fc.tuple(declared, extra).map(([a, b]) => ({ ...a, ...b })),
    },
    {
      weight: query ? 2 : 0,
      arbitrary: fc
        .tuple(
          declared,
          fc.constantFrom(...Object.keys(query?.properties ?? { x: 0 })),
          wrongTypeArbitrary,
        )
        .map(([a, key, wrong]) => ({ ...a, [key]: wrong })),
    },
  );
}

/** Path parameters: shaped, or any string at all (encoded into one segment). */
export function pathArbitrary(
  params: Record<string, JsonSchema>,
  hints: Hints = {},
): fc.Arbitrary<Record<string, string>> {
  const names = Object.keys(params);
  if (names.length === 0) return fc.constant({});
  return fc.record(
    Object.fromEntries(
      names.map((name) => [
        name,
        fc.oneof(
          schemaArbitrary(params[name]!, hints, name).map((v) => String(v)),
          fc.constantFrom(...NASTY_STRINGS.filter((s) => s !== '')),
        ),
      ]),
    ),
  );
}

/** A query string from generated values (arrays repeat the key; objects travel as JSON). */
export function toQueryString(query: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const key of Object.keys(query)) {
    const value = query[key];
    const values = Array.isArray(value) ? value : [value];
    for (const v of values) {
      params.append(key, typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v));
    }
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** The URL of a route with its path parameters filled in. */
export function fillPath(path: string, values: Record<string, string>): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => encodeSegment(values[name] ?? ''));
}

/** encodeURIComponent, except that a lone surrogate travels as invalid UTF-8 bytes (%ED%A0%80). */
function encodeSegment(value: string): string {
  let out = '';
  for (const char of value) {
    const unit = char.charCodeAt(0);
    if (char.length === 1 && unit >= 0xd800 && unit <= 0xdfff) {
      out += `%ED%${(0xa0 + ((unit >> 6) & 0x1f)).toString(16).toUpperCase()}%${(0x80 + (unit & 0x3f)).toString(16).toUpperCase()}`;
    } else {
      out += encodeURIComponent(char);
    }
  }
  return out;
}
