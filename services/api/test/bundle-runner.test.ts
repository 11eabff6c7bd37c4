// The compiled server is a CommonJS bundle run through vm.Script with a V8 code cache
// (boot/bundle-runner.ts). Checked on a bundle esbuild makes here the way the build makes the
// server's: the cache is used when it fits and refused when it does not, and a stack trace
// names the TypeScript file and line under --enable-source-maps.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const runnerModule = path.resolve(import.meta.dirname, '../src/boot/bundle-runner.ts');

const FIXTURE = `// A module of the service, as TypeScript.
export function checkAge(age: number): number {
  if (age < 0) {
    throw new RangeError('age must not be negative');
  }
  return age;
}

try {
  checkAge(-1);
} catch (error) {
  console.log(JSON.stringify({ stack: (error as Error).stack }));
}
`;

describe('the bundle runner', () => {
  let dir: string;
  let bundle: string;
  let fixture: string;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'bundle-runner-'));
    fixture = path.join(dir, 'age-check.ts');
    writeFileSync(fixture, FIXTURE);
    bundle = path.join(dir, 'bundle.cjs');
    await build({
      entryPoints: [fixture],
      outfile: bundle,
      bundle: true,
      format: 'cjs',
      platform: 'node',
      sourcemap: true,
      sourcesContent: false,
      minifyWhitespace: true,
      minifySyntax: true,
      logLevel: 'silent',
    });
    writeFileSync(
      path.join(dir, 'run.mts'),
      `import { runBundle, writeCodeCache } from ${JSON.stringify(runnerModule)};
if (process.argv.includes('--write')) writeCodeCache(${JSON.stringify(bundle)});
else console.log(JSON.stringify(runBundle(${JSON.stringify(bundle)})));\n`,
    );
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  function run(flags: string[], ...args: string[]) {
    const output = execFileSync(
      process.execPath,
      [...flags, '--import', 'tsx', path.join(dir, 'run.mts'), ...args],
      { encoding: 'utf8' },
    );
    const [printed, result] = output.trim().split('\n');
    return {
      stack: (JSON.parse(printed || '{}') as { stack?: string }).stack ?? '',
      cacheUsed: (JSON.parse(result || '{}') as { cacheUsed?: boolean }).cacheUsed,
    };
  }

  it('runs from the code cache the build wrote, and compiles without one or with a foreign one', () => {
    rmSync(`${bundle}.cache`, { force: true });
    expect(run([]).cacheUsed).toBe(false);

    run([], '--write');
    expect(run([]).cacheUsed).toBe(true);

    // Another Node or other V8 flags: V8 refuses the cache and the bundle still runs.
    writeFileSync(`${bundle}.cache`, Buffer.alloc(4096, 7));
    const foreign = run([]);
    expect(foreign.cacheUsed).toBe(false);
    expect(foreign.stack).toContain('age must not be negative');
  });

  it('does not run an edited bundle from the cache of the old one, even at the same length', () => {
    run([], '--write');
    const original = readFileSync(bundle, 'utf8');
    try {
      // V8 itself compares only the length of the source.
      const edited = original.replace('age must not be negative', 'AGE MUST NOT BE NEGATIVE');
      expect(edited.length).toBe(original.length);
      writeFileSync(bundle, edited);
      const result = run([]);
      expect(result.cacheUsed).toBe(false);
      expect(result.stack).toContain('AGE MUST NOT BE NEGATIVE');
    } finally {
      writeFileSync(bundle, original);
    }
  });

  it('names the TypeScript file and line in a stack trace under --enable-source-maps', () => {
    run([], '--write');
    const { stack } = run(['--enable-source-maps']);
    expect(stack.split('\n')[0]).toBe('RangeError: age must not be negative');
    // The throw is on line 4 of the TypeScript, inside checkAge; the bundle is one long line.
    expect(stack).toMatch(new RegExp(`checkAge \\(${escape(fixture)}:4:\\d+\\)`));
    expect(stack).not.toContain(`${bundle}:`);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
