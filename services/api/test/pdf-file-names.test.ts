// One applicant, one PDF file name: the applicant's download link (GET /api/pdf → the link), the
// staff download (GET /service/pdf) and the batch export (zip entries and its index) name
// the same application the same way, for names with hyphens, letters outside ASCII and Cyrillic.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApplicationPdfResponse } from '@admissions/api-contract';
import { renderApplicationPdf } from '@admissions/answer-view/pdf';
import { users } from '../src/modules/auth/schema';
import { parseExportArgs } from '../src/modules/export/options';
import { createProgress } from '../src/modules/export/progress';
import { createApplicationRenderer, createPdfLayout } from '../src/modules/export/render';
import { runExport } from '../src/modules/export/run';
import { mintServiceToken } from '../src/modules/service/service-tokens';
import {
  primaryDriver,
  createTestRuntime,
  registerApplicant,
  type TestRuntime,
} from './support/test-runtime';

const APPLICANTS = [
  { first_name: 'Mary-Ann', last_name: 'Smith', expected: 'smith_mary-ann' },
  { first_name: 'Søren', last_name: 'Østergaard', expected: 'ostergaard_soren' },
  { first_name: 'Дмитрий', last_name: 'Иванов', expected: 'ivanov_dmitriy' },
];

function attachmentName(disposition: string | number | string[] | undefined): string {
  expect(typeof disposition).toBe('string');
  const match = /^attachment; filename="([^"]+)"$/.exec(disposition as string);
  if (!match) throw new Error(`not a plain attachment: ${String(disposition)}`);
  return match[1]!;
}

describe.each(primaryDriver())('PDF file names (%s)', (driver) => {
  let t: TestRuntime;
  const work = mkdtempSync(path.join(os.tmpdir(), 'pdf-names-'));
  const applicants: { id: string; jar: Record<string, string>; expected: string }[] = [];

  beforeAll(async () => {
    t = await createTestRuntime(driver);
    for (const [i, { expected, ...answers }] of APPLICANTS.entries()) {
      const email = `names${i}.${driver}@example.org`;
      const jar = await registerApplicant(t, email);
      const saved = await t.request({
        method: 'PUT',
        url: '/api/answer',
        body: answers,
        cookies: jar,
      });
      expect(saved.statusCode).toBe(200);
      const [user] = await t.runtime.database.db
        .select({ id: users.id })
        .from(users)
        .where(eq(users.email, email));
      applicants.push({ id: user!.id, jar, expected });
    }
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    rmSync(work, { recursive: true, force: true });
  });

  async function downloadThroughLink(jar: Record<string, string>): Promise<string> {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const status = await t.request({ method: 'GET', url: '/api/pdf', cookies: jar });
      const body = status.json() as ApplicationPdfResponse;
      if (body.status === 'COMPLETED') {
        const file = await t.request({ method: 'GET', url: body.url, cookies: jar });
        expect(file.statusCode).toBe(200);
        return attachmentName(file.headers['content-disposition']);
      }
      expect(['UNPROCESSED', 'IN_PROGRESS']).toContain(body.status);
      if (Date.now() > deadline) throw new Error(`PDF still ${body.status}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  it('is the same from the download link, the staff download and the export', async () => {
    const linked = new Map<string, string>();
    const staff = new Map<string, string>();
    for (const applicant of applicants) {
      linked.set(applicant.id, await downloadThroughLink(applicant.jar));
      const { token } = mintServiceToken(t.runtime.secrets.serviceTokenKey, {
        applicationId: applicant.id,
        now: t.clock.now(),
      });
      const file = await t.request({
        method: 'GET',
        url: `/service/pdf?service_token=${encodeURIComponent(token)}`,
      });
      expect(file.statusCode).toBe(200);
      staff.set(applicant.id, attachmentName(file.headers['content-disposition']));
    }

    const render = createApplicationRenderer(
      {
        db: t.runtime.database.db,
        storage: t.runtime.storage,
        encryptionKey: t.runtime.secrets.encryptionKey,
        clock: t.clock,
        partner: t.runtime.partner,
      },
      createPdfLayout(renderApplicationPdf),
    );
    const summary = await runExport(
      parseExportArgs(['--out', path.join(work, 'out'), '--status', 'all', '--zip'], work, 1),
      {
        db: t.runtime.database.db,
        render,
        progress: createProgress({ write: () => undefined, isTTY: false }),
      },
    );
    expect(summary.exitCode).toBe(0);
    const zip = summary.outputs.find((f) => f.endsWith('.zip'))!;
    const zipEntries = execFileSync('unzip', ['-Z1', zip]).toString().trim().split('\n');
    const index = JSON.parse(execFileSync('unzip', ['-p', zip, 'index.json']).toString()) as {
      applications: { id: string; file: string }[];
    };

    for (const { id, expected } of applicants) {
      const name = `${expected}_${id}.pdf`;
      expect({ link: linked.get(id), staff: staff.get(id) }).toEqual({ link: name, staff: name });
      expect(index.applications.find((row) => row.id === id)?.file).toBe(name);
      expect(zipEntries).toContain(name);
    }
  }, 180_000);
});
