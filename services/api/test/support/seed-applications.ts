// Fast seeding of whole applications for the export tests and benchmark: rows written straight
// into users, applications and document_answers (no sign-up, no argon2), answers from the shared
// fixtures of @admissions/answer-view (each passes validateAnswers), converted documents written
// to the real storage driver.
import { randomUUID } from 'node:crypto';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { createAnswerFixtures, type AnswerFixtureName } from '@admissions/answer-view/fixtures';
import { WEB_STATUSES } from '@admissions/api-contract';
import type { Db } from '../../src/platform/db/connect';
import { applications } from '../../src/modules/application';
import { createDocumentKey, documentAnswers } from '../../src/modules/documents';
import { users } from '../../src/modules/auth';
import { splitSensitive } from '../../src/modules/application/application-store';
import type { StorageDriver } from '../../src/platform/storage/storage-driver';

export interface SeedDeps {
  db: Db;
  storage: StorageDriver;
  encryptionKey: Buffer;
}

export interface SeededApplication {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  fixture: AnswerFixtureName;
  /** Storage keys of the converted documents (answer key → key). */
  documents: Record<string, string>;
  submittedAt: Date | null;
}

export interface SeedOptions {
  count: number;
  /** Fixtures used in turn; those with documents get them stored. */
  fixtures?: AnswerFixtureName[];
  /** Names for the first applications (the rest keep the fixture's name with a number). */
  names?: { first: string; last: string }[];
  /** Submission time of the i-th application; null leaves it started. */
  submittedAt?: (index: number) => Date | null;
  emailPrefix?: string;
}

const DEFAULT_FIXTURES: AnswerFixtureName[] = [
  'us-citizen',
  'add-another',
  'international',
  'essay-tab',
  'complete',
  'unicode',
];

/** A converted document as the conversion worker stores it: a two-page PDF. */
export async function buildDocumentPdf(title: string): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let page = 1; page <= 2; page++) {
    doc.addPage([612, 792]).drawText(`${title}, page ${page}`, { x: 72, y: 700, size: 14, font });
  }
  return doc.save();
}

export async function seedApplications(
  deps: SeedDeps,
  options: SeedOptions,
): Promise<SeededApplication[]> {
  const fixtures = createAnswerFixtures(new Date());
  const order = options.fixtures ?? DEFAULT_FIXTURES;
  const documentPdf = await buildDocumentPdf('Converted document');
  const prefix = options.emailPrefix ?? 'applicant';
  const seeded: SeededApplication[] = [];
  for (let i = 0; i < options.count; i++) {
    const fixture = fixtures[order[i % order.length]!];
    const id = randomUUID();
    const email = `${prefix}${i}.${id.slice(0, 8)}@example.edu`;
    const name = options.names?.[i];
    const answers: Record<string, string> = { ...fixture.answers };
    if (name) {
      answers.first_name = name.first;
      answers.last_name = name.last;
    } else {
      answers.last_name = `${answers.last_name ?? 'Applicant'} ${i}`;
    }
    const submittedAt = options.submittedAt
      ? options.submittedAt(i)
      : new Date(Date.UTC(2026, 10, 1, 12, 0, i));
    const documents: Record<string, string> = {};
    const { plain, sealed } = splitSensitive(answers, deps.encryptionKey);
    await deps.db.insert(users).values({
      id,
      email,
      passwordHash: 'seeded-without-a-password',
      confirmedAt: new Date(),
    });
    await deps.db.insert(applications).values({
      id,
      userId: id,
      roundCode: 'DEFAULT',
      answer: plain,
      sensitive: sealed,
      addAnother: { ...fixture.addAnother },
      tabs: { ...fixture.tabs },
      webStatus: submittedAt ? [...WEB_STATUSES] : ['started'],
      submittedAt,
      lastPage: '/final-steps',
    });
    for (const [answerKey, record] of Object.entries(fixture.documents)) {
      const key = createDocumentKey(id, answerKey);
      await deps.storage.write(key, documentPdf, 'application/pdf');
      await deps.db.insert(documentAnswers).values({
        applicationId: id,
        answerKey,
        fileName: record.file_name,
        fileSize: record.file_size,
        pdfKey: key,
        pdfSize: documentPdf.length,
      });
      documents[answerKey] = key;
    }
    seeded.push({
      id,
      email,
      firstName: answers.first_name ?? '',
      lastName: answers.last_name ?? '',
      fixture: fixture.name,
      documents,
      submittedAt,
    });
  }
  return seeded;
}
