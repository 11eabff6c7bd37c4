// The layering rules hold without a reviewer: a new file that breaks one fails `npm run lint`.
// Each case writes a real file into the tree, lints it with the repository's own configuration
// and removes it again.
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { ESLint } from 'eslint';
import { afterEach, describe, expect, it } from 'vitest';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const written: string[] = [];

function writeSource(relativePath: string, text: string): string {
  const file = path.join(repoRoot, relativePath);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  written.push(file);
  return file;
}

async function lintMessages(files: string[]): Promise<{ rule: string | null; text: string }[]> {
  const eslint = new ESLint({ cwd: repoRoot });
  const results = await eslint.lintFiles(files);
  return results.flatMap((result) =>
    result.messages.map((message) => ({ rule: message.ruleId, text: message.message })),
  );
}

/**
 * The import-graph half of `npm run lint` (its lint:graph script: dependency-cruiser with the
 * repository's .dependency-cruiser.cjs), run from the given files: the rules it reports broken.
 */
async function cruiseRules(files: string[]): Promise<string[]> {
  const scripts = (
    JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    }
  ).scripts;
  expect(scripts.lint).toContain('npm run --silent lint:graph');
  const config = /--config (\S+)/.exec(scripts['lint:graph'] ?? '')?.[1];
  expect(config).toBeDefined();
  const bin = path.join(repoRoot, 'node_modules/.bin/depcruise');
  const run = await promisify(execFile)(bin, ['--config', config!, ...files], {
    cwd: repoRoot,
    maxBuffer: 64 << 20,
  }).then(
    (done) => ({ failed: false, stdout: done.stdout }),
    (error: { stdout: string }) => ({ failed: true, stdout: error.stdout }),
  );
  // Its report names each broken rule on an `error <rule>:` line, and any fails the command.
  const rules = [...run.stdout.matchAll(/^\s*error (\S+):/gm)].map((match) => match[1]!);
  expect(run.failed).toBe(rules.length > 0);
  return [...new Set(rules)].sort();
}

afterEach(() => {
  for (const file of written.splice(0)) rmSync(file, { force: true });
});

describe('lint keeps the layers', { timeout: 120_000 }, () => {
  it('refuses platform/ importing a module', async () => {
    const file = writeSource(
      'services/api/src/platform/zz-lint-probe.ts',
      "import { createAuthService } from '../modules/auth';\nexport const probe = createAuthService;\n",
    );
    const messages = await lintMessages([file]);
    expect(messages).toContainEqual({
      rule: 'import-x/no-restricted-paths',
      text: expect.stringContaining('platform/ knows no feature') as string,
    });
  });

  it('refuses a module importing boot/', async () => {
    const file = writeSource(
      'services/api/src/modules/lookup/zz-lint-probe.ts',
      "import { buildApp } from '../../boot/app';\nexport const probe = buildApp;\n",
    );
    const messages = await lintMessages([file]);
    expect(messages.map((m) => m.rule)).toContain('import-x/no-restricted-paths');
  });

  it("refuses a module reaching into another module's file, and allows its index", async () => {
    const inner = writeSource(
      'services/api/src/modules/print/zz-lint-probe.ts',
      "import { findApplication } from '../application/application-store';\nexport const probe = findApplication;\n",
    );
    const viaIndex = writeSource(
      'services/api/src/modules/print/zz-lint-probe-index.ts',
      "import { findApplication } from '../application';\nexport const probe = findApplication;\n",
    );
    expect(await lintMessages([inner])).toContainEqual({
      rule: 'import-x/no-restricted-paths',
      text: expect.stringContaining('only through its index.ts') as string,
    });
    expect(await lintMessages([viaIndex])).toEqual([]);
  });

  it("refuses a module writing another module's table, and allows reading it", async () => {
    const writes = writeSource(
      'services/api/src/modules/staff/zz-lint-probe.ts',
      [
        "import { sql } from 'drizzle-orm';",
        "import type { Db } from '../../platform/db/connect';",
        "import { serviceAudit } from '../service';",
        "import * as application from '../application';",
        'export const probe = async (db: Db) => {',
        '  await db.delete(application.applications);',
        "  await db.insert(serviceAudit).values({ tokenId: 't', userId: 'u', action: 'pdf', shown: { answers: [], documents: [] } });",
        '  await db.execute(sql`UPDATE ${serviceAudit} SET ip = NULL`);',
        '};',
        '',
      ].join('\n'),
    );
    const reads = writeSource(
      'services/api/src/modules/staff/zz-lint-probe-read.ts',
      [
        "import { eq } from 'drizzle-orm';",
        "import type { Db } from '../../platform/db/connect';",
        "import { serviceAudit } from '../service';",
        'export const probe = (db: Db) =>',
        "  db.select().from(serviceAudit).where(eq(serviceAudit.userId, 'u'));",
        '',
      ].join('\n'),
    );
    const refused = (await lintMessages([writes])).filter(
      (m) => m.rule === 'owners/no-foreign-table-write',
    );
    expect(refused.map((m) => m.text)).toEqual([
      expect.stringContaining('`application.applications` is a table of modules/application'),
      expect.stringContaining('`serviceAudit` is a table of modules/service'),
      expect.stringContaining('`serviceAudit` is a table of modules/service'),
    ]);
    expect(await lintMessages([reads])).toEqual([]);
  });

  it('refuses an import cycle', async () => {
    writeSource(
      'services/api/src/modules/lookup/zz-lint-cycle-b.ts',
      "import { a } from './zz-lint-cycle-a';\nexport const b = (): unknown => a;\n",
    );
    const first = writeSource(
      'services/api/src/modules/lookup/zz-lint-cycle-a.ts',
      "import { b } from './zz-lint-cycle-b';\nexport const a = (): unknown => b;\n",
    );
    const messages = await lintMessages([first]);
    expect(messages.map((m) => m.rule)).toContain('import-x/no-cycle');
  });

  it("refuses an SPA feature reaching into another feature's file", async () => {
    const file = writeSource(
      'apps/web/src/features/print/zz-lint-probe.ts',
      "import { AccountPopover } from '../account/components/account-popover';\nexport const probe = AccountPopover;\n",
    );
    const messages = await lintMessages([file]);
    expect(messages.map((m) => m.rule)).toContain('import-x/no-restricted-paths');
  });

  it('refuses a route without declared access, and allows one through registerRoute', async () => {
    const bare = writeSource(
      'services/api/src/modules/lookup/zz-lint-probe-route.ts',
      "import type { FastifyInstance } from 'fastify';\n" +
        'export function probe(app: FastifyInstance): void {\n' +
        "  app.get('/zz-probe', async () => ({ ok: true }));\n" +
        '}\n',
    );
    const declared = writeSource(
      'services/api/src/modules/lookup/zz-lint-probe-declared.ts',
      "import type { FastifyInstance } from 'fastify';\n" +
        "import { registerRoute } from '../../platform/http/access';\n" +
        'export function probe(app: FastifyInstance): void {\n' +
        "  registerRoute(app, { kind: 'public' }, {\n" +
        "    method: 'GET',\n" +
        "    url: '/zz-probe',\n" +
        '    handler: async () => ({ ok: true }),\n' +
        '  });\n' +
        '}\n',
    );
    expect(await lintMessages([bare])).toContainEqual({
      rule: 'no-restricted-syntax',
      text: expect.stringContaining('A route without declared access') as string,
    });
    expect(await lintMessages([declared])).toEqual([]);
  });

  it('refuses a type-only cycle, which import-x/no-cycle does not see', async () => {
    writeSource(
      'services/api/src/modules/lookup/zz-lint-type-cycle-b.ts',
      "import type { A } from './zz-lint-type-cycle-a';\nexport type B = { a?: A };\n",
    );
    const first = writeSource(
      'services/api/src/modules/lookup/zz-lint-type-cycle-a.ts',
      "import type { B } from './zz-lint-type-cycle-b';\nexport type A = { b?: B };\n",
    );
    expect(await cruiseRules([first])).toEqual(['no-cycle']);
    expect((await lintMessages([first])).map((m) => m.rule)).not.toContain('import-x/no-cycle');
  });

  it('refuses a package cycle: a lower package importing a higher one', async () => {
    const file = writeSource(
      'packages/form/src/zz-lint-probe.ts',
      "import type { ErrorResponse } from '@admissions/api-contract';\nexport type Probe = ErrorResponse;\n",
    );
    expect(await cruiseRules([file])).toEqual(['no-folder-cycle', 'package-layers-form']);
  });

  it('refuses a package importing the service or the SPA', async () => {
    const file = writeSource(
      'packages/answer-view/src/zz-lint-probe.ts',
      "import type { Clock } from '../../../services/api/src/platform/lib/clock';\nexport type Probe = Clock;\n",
    );
    expect(await cruiseRules([file])).toContain('packages-below-apps');
  });

  it('refuses an SPA shared/ file importing a feature, and a feature importing app/', async () => {
    const shared = writeSource(
      'apps/web/src/shared/lib/zz-lint-probe.ts',
      "import type { PrintedApplication } from '../../features/print';\nexport type Probe = typeof PrintedApplication;\n",
    );
    expect(await cruiseRules([shared])).toContain('spa-shared-knows-no-feature');
    const feature = writeSource(
      'apps/web/src/features/print/zz-lint-probe.ts',
      "import type { App } from '../../app/app';\nexport type Probe = typeof App;\n",
    );
    expect(await cruiseRules([feature])).toContain('spa-features-below-app');
  });

  it('finds the tree itself clean', async () => {
    expect(await cruiseRules(['packages', 'services/api/src', 'apps/web/src'])).toEqual([]);
  });
});
