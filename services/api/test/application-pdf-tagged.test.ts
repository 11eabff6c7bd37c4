// Issue #32's check on what the service really appends: documents converted by the production
// converter (a Word file through LibreOffice's tagged export, that PDF uploaded again as a
// student's own tagged PDF, a PNG, an untagged PDF), laid into the applicant's and the staff
// PDF of every answer fixture. Each file passes the PDF/UA checker, except on the untagged
// document's own pages, and poppler reads it as tagged.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApplicationCover } from '@admissions/answer-view';
import { ANSWER_FIXTURES, buildFixtureView } from '@admissions/answer-view/fixtures';
import { renderTaggedApplicationPdf } from '@admissions/answer-view/pdf';
import { checkPdfUa } from '../../../packages/answer-view/test/pdf-ua-check';
import { startConverterStack, type ConverterStack } from './support/converter-stack';
import { buildPdf, buildPng, buildTwoPageDocx } from './support/document-fixtures';
import { pdfPageCount, pdfText } from './support/pdf-inspect';

const logger = pino({ level: 'silent' });

interface Appended {
  title: string;
  bytes: Uint8Array;
  fileName: string;
}

function pdfinfo(bytes: Uint8Array): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tagged-pdf-'));
  try {
    const file = path.join(dir, 'in.pdf');
    writeFileSync(file, bytes);
    return execFileSync('pdfinfo', [file], { encoding: 'utf8' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('the tagged application PDF around converted documents (#32)', () => {
  let stack: ConverterStack;
  let tagged: Appended[];
  let untagged: Appended;

  beforeAll(async () => {
    stack = await startConverterStack({
      name: 'application-pdf-tagged',
      timeoutMs: 30_000,
      recycleAfter: 100,
      logger,
    });
    const convert = async (bytes: Uint8Array, fileName: string) =>
      (await stack.converter.convert({ bytes, fileName })).pdf;
    const word = await convert(buildTwoPageDocx(), 'statement.docx');
    // A student's Word file saved as PDF: tagged by its author, uploaded as a PDF.
    const ownPdf = await convert(word, 'statement.pdf');
    const picture = await convert(
      buildPng(320, 200, (x, y) => [x % 256, y % 256, 128]),
      'transcript.png',
    );
    tagged = [
      { title: 'Personal Statement', bytes: word, fileName: 'statement.docx' },
      { title: 'Honors Statement', bytes: ownPdf, fileName: 'statement.pdf' },
      { title: 'Transcript', bytes: picture, fileName: 'transcript.png' },
    ];
    untagged = {
      title: 'Resume',
      bytes: await convert(await buildPdf('A resume without tags'), 'resume.pdf'),
      fileName: 'resume.pdf',
    };
  }, 120_000);

  afterAll(async () => {
    await stack?.close();
  });

  describe.each(Object.entries(ANSWER_FIXTURES))('%s', (name, fixture) => {
    const view = buildFixtureView(fixture);
    const applicant: ApplicationCover = {
      applicantName: `Applicant ${name}`,
      applicationId: 'a1b2c3d4-0000-4000-8000-000000000032',
      submittedAt: '2026-11-20T15:04:00.000Z',
      generatedAt: '2026-11-28T02:00:00.000Z',
    };
    const staff: ApplicationCover = {
      ...applicant,
      round: 'Regular Decision, Fall 2027',
      email: 'applicant@example.org',
      listUntaggedDocuments: true,
    };

    it.each([
      ['applicant', applicant],
      ['staff', staff],
    ] as const)('the %s PDF passes with and without tagged documents', async (_, cover) => {
      for (const documents of [[], tagged]) {
        const bytes = await renderTaggedApplicationPdf(view, cover, documents);
        expect(await checkPdfUa(bytes), `${documents.length} documents`).toEqual([]);
        expect(pdfinfo(bytes)).toMatch(/^Tagged:\s+yes$/m);
      }
    });

    it('fails only on an untagged document’s own pages, which the staff cover names', async () => {
      const bytes = await renderTaggedApplicationPdf(view, staff, [...tagged, untagged]);
      expect(pdfText(bytes).replace(/\s+/g, '')).toContain('Resume:nottaggedbyitsauthor');
      const pages = pdfPageCount(bytes);
      const failing = new Set(
        (await checkPdfUa(bytes)).map((finding) => /^page (\d+)/.exec(finding.message)?.[1]),
      );
      // The untagged document is last: its pages are the file's last ones.
      const own = pdfPageCount(untagged.bytes);
      expect([...failing].sort()).toEqual(
        Array.from({ length: own }, (_, i) => String(pages - own + 1 + i)).sort(),
      );
    });
  });
});
