// Everything the print view and the PDF show about one application, read at one version of the
// application (applications.version moves with every change of answers, tabs, add-another counts
// and documents, so a cached rendering is current exactly when its version is).
import type { Db } from '../../platform/db/connect';
import { findAccountById } from '../auth';
import { findApplication, readAnswers } from '../application';
import { createDocumentStore, type DocumentAnswerRow } from '../documents';

export interface ApplicationSnapshot {
  applicationId: string;
  /** The admission round's code. */
  roundCode: string;
  email: string;
  version: number;
  /** Every answer, the sealed ones decrypted (only renderers that mask them may see these). */
  answers: Record<string, string>;
  addAnother: Record<string, number>;
  tabs: Record<string, string>;
  documents: DocumentAnswerRow[];
  submittedAt: Date | null;
  /** The student information system's ID, once its return feed sent it. */
  externalId: string | null;
}

/**
 * null when the application (or its account) does not exist. One read is enough for a rendering;
 * the renderer reads again only if a document changed under it.
 */
export async function readApplicationSnapshot(
  db: Db,
  encryptionKey: Buffer,
  applicationId: string,
): Promise<ApplicationSnapshot | null> {
  // Plain reads, not one repeatable-read transaction: the CLI reaches the embedded database
  // through the server's socket, where every connection shares one PGlite session and a
  // transaction of one would swallow the others' statements. A render whose documents moved
  // on meanwhile reads again (render-application.ts checks the version).
  const row = await findApplication(db, applicationId);
  const account = row ? await findAccountById(db, row.userId) : undefined;
  if (!row || !account) return null;
  const documents = await createDocumentStore(db).listDocumentAnswers(applicationId);
  return {
    applicationId,
    roundCode: row.roundCode,
    email: account.email,
    version: row.version,
    answers: readAnswers(row, encryptionKey),
    addAnother: row.addAnother,
    tabs: row.tabs,
    documents,
    submittedAt: row.submittedAt,
    externalId: row.externalId,
  };
}
