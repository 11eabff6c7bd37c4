// `npm run --silent cli -- … | next-command`: stdout carries the command's output and nothing else,
// and with stdout piped the notes meant for a person at a terminal ("Service: up to date",
// "Database: …") are not printed on stderr either; a failed command still names its database.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cli-piped-'));

/** The command as an operator types it, its stdout and stderr each a pipe (not a terminal). */
function runPiped(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', '--silent', 'cli', '--', ...args], {
      cwd: repoRoot,
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('npm run --silent cli with stdout piped', () => {
  it('prints only the output, and names the database only when it fails', async () => {
    // The first run may build services/api/dist: that is said on stderr, never on stdout.
    const migrated = await runPiped(['migrate']);
    expect(migrated.code, migrated.stderr).toBe(0);
    expect(migrated.stdout).toBe('Migrations applied (pglite).\n');

    const added = await runPiped([
      'staff',
      'add',
      '--email',
      'piped@staff.example.edu',
      '--role',
      'reader',
    ]);
    expect(added.code, added.stderr).toBe(0);
    const lines = added.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe('Staff member piped@staff.example.edu (reader) created.');
    expect(lines[1]).toMatch(
      /^One-time set-up link \(valid 24h\): http\S+\/staff\/setup\?token=\S+$/,
    );
    // Nothing built this time, and nothing to say about it or about the database.
    expect(added.stderr).toBe('');

    const refused = await runPiped(['service-token', '--email', 'nobody@example.org']);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain(
      `Database: the embedded database in ${path.join(dataDir, 'db')}`,
    );
    expect(refused.stderr).toContain('No applicant has the e-mail address nobody@example.org.');
  }, 180_000);
});
