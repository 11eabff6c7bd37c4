// An operator who runs a reading command against the wrong data folder is told so, instead of
// getting a new empty database in the repository and "No applicant has the e-mail address …".
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { cliNodeArgs } from './support/process-stack';

const run = promisify(execFile);
const apiRoot = path.resolve(import.meta.dirname, '..');
const folders: string[] = [];

function newFolder(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cli-database-'));
  folders.push(dir);
  return dir;
}

function runCli(args: string[], dataDir: string) {
  return run(process.execPath, cliNodeArgs(args), {
    cwd: apiRoot,
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent' },
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );
}

afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

describe('CLI commands that read applications (embedded database)', () => {
  it.each([
    ['service-token', ['service-token', '--email', 'someone@example.org']],
    ['export', ['export', '--out', 'ignored-export']],
  ])(
    '%s refuses a data folder without a database and creates none',
    async (_name, args) => {
      const dataDir = newFolder();
      const result = await runCli(args, dataDir);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`There is no database in ${path.join(dataDir, 'db')}`);
      expect(result.stderr).toContain('Set DATA_DIR to the data folder of the server');
      expect(existsSync(path.join(dataDir, 'db'))).toBe(false);
      expect(readdirSync(dataDir)).toEqual([]);
    },
    60_000,
  );

  it('service-token names the database it opened and says when it holds no applications', async () => {
    const dataDir = newFolder();
    const migrated = await runCli(['migrate'], dataDir);
    expect(migrated.code).toBe(0);
    // stdout is a pipe here: a command that worked prints its output and nothing else.
    expect(migrated.stdout).toBe('Migrations applied (pglite).\n');
    expect(migrated.stderr).not.toContain('Database:');

    // One that failed says which database it looked in.

    const result = await runCli(['service-token', '--email', 'someone@example.org'], dataDir);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `Database: the embedded database in ${path.join(dataDir, 'db')}`,
    );
    expect(result.stderr).toContain(
      'No applicant has the e-mail address someone@example.org. That database holds no applications yet.',
    );
  }, 90_000);
});
