// One flat config for every workspace: typed TypeScript rules everywhere, React rules in the SPA.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import globals from 'globals';
import { readdirSync } from 'node:fs';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

// The folders that are units of their own: a service module or an SPA feature may reach another
// only through that one's index.ts (its public entry point), never into its files.
const subfolders = (dir) =>
  readdirSync(new URL(dir, import.meta.url), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
// `schema.ts` too: a table's foreign key names another module's table, and drizzle-kit loads the
// schema files on their own (an index would pull in the whole module).
const throughIndexOnly = (root, names, message, publicFiles = ['./index.ts']) =>
  names.flatMap((name) =>
    names
      .filter((other) => other !== name)
      .map((other) => ({
        target: `${root}/${name}`,
        from: `${root}/${other}`,
        except: publicFiles,
        message,
      })),
  );
const API = './services/api/src';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/data/**',
      '**/coverage/**',
      'services/api/drizzle/**',
      'tests/artifacts/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': [
        'error',
        { fixStyle: 'separate-type-imports' },
      ],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}', 'packages/answer-view/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y },
    languageOptions: {
      globals: { ...globals.browser },
      parserOptions: { ecmaFeatures: { jsx: true } },
    },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...jsxA11y.flatConfigs.recommended.rules,
    },
  },
  {
    // The service's layers and the SPA's features keep their direction without a reviewer
    // (ARCHITECTURE.md): platform knows no feature, modules never reach into boot, and units
    // meet only at each other's index.ts; no import cycle anywhere in the service.
    files: ['services/api/src/**/*.ts', 'apps/web/src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      ...importX.flatConfigs.typescript.settings,
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: ['services/api/tsconfig.json', 'apps/web/tsconfig.json'],
        }),
      ],
    },
    rules: {
      // A lazy import() back into its importer is how a chunk is split off, not an evaluation-order
      // hazard; static cycles are refused.
      'import-x/no-cycle': [
        'error',
        { ignoreExternal: true, allowUnsafeDynamicCyclicDependency: true },
      ],
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: `${API}/platform`,
              from: [`${API}/modules`, `${API}/boot`],
              message: 'platform/ knows no feature: pass what it needs in from boot/.',
            },
            {
              target: `${API}/modules`,
              from: `${API}/boot`,
              message: 'modules/ never import boot/: boot wires the modules, not the reverse.',
            },
            ...throughIndexOnly(
              `${API}/modules`,
              subfolders('./services/api/src/modules'),
              'Import another module only through its index.ts (add the export there).',
              ['./index.ts', './schema.ts'],
            ),
            ...throughIndexOnly(
              './apps/web/src/features',
              subfolders('./apps/web/src/features'),
              'Import another feature only through its index.ts (add the export there).',
            ),
          ],
        },
      ],
    },
  },
  {
    // A module's tables are written only by that module: another module (or boot/) may read or
    // join them, and writes through a function the owner exports (scripts/eslint/table-owners.js).
    files: ['services/api/src/**/*.ts'],
    plugins: { owners: (await import('./scripts/eslint/table-owners.js')).default },
    rules: { 'owners/no-foreign-table-write': 'error' },
  },
  {
    // Every route declares who may call it (packages/api-contract endpoint-access.ts): a route is
    // registered through registerEndpoint or platform/http/access.ts's registerRoute, never with
    // Fastify's own route methods, which take no access.
    files: ['services/api/src/**/*.ts'],
    ignores: [
      'services/api/src/platform/http/access.ts',
      'services/api/src/platform/http/register-endpoint.ts',
    ],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "CallExpression[callee.type='MemberExpression'][callee.object.name=/^(app|fastify|instance|server|scope|child)$/][callee.property.name=/^(route|get|post|put|patch|delete|head|options|all)$/]",
          message:
            'A route without declared access: register it with registerEndpoint (an endpoint of @admissions/api-contract) or registerRoute (platform/http/access.ts).',
        },
      ],
    },
  },
  {
    // Command-line tools and benchmarks talk to a terminal on purpose.
    files: [
      'services/api/src/boot/cli.ts',
      'services/api/src/boot/cli/**',
      'services/api/scripts/**',
      '**/bench/**',
      'scripts/**',
    ],
    rules: { 'no-console': 'off' },
  },
);
