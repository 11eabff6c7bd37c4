// Everything the print view and the PDF show about one applicant, read at one version of the
// application (applications.version moves with every change of answers, tabs, add-another counts
// and documents, so a cached rendering is current exactly when its version is).
import type { Db } from '../../platform/db/connect';
import { findAccountById } from '../auth';
import { findApplication, readAnswers } from '../application';
import { createDocumentStore, type DocumentAnswerRow } from '../documents';

export interface ApplicationSnapshot {
  userId: string;
  email: string;
  version: number;
  /** Every answer, the sealed ones decrypted (only renderers that mask them may see these). */
  answers: Record<string, string>;
  addAnother: Record<string, number>;
  tabs: Record<string, string>;
  documents: DocumentAnswerRow[];
  submittedAt: Date | null;
}

/**
 * null when the account does not exist; an account without answers reads as empty. The three
 * reads share one repeatable-read snapshot of the database, so the documents are those of
 * `version` even while the applicant changes them: one read is enough for a rendering.
 */
export async function readApplicationSnapshot(
  db: Db,
  encryptionKey: Buffer,
  userId: string,
): Promise<ApplicationSnapshot | null> {
  const read = await db.transaction(
    async (transaction) => {
      const tx = transaction as unknown as Db;
      const account = await findAccountById(tx, userId);
      if (!account) return null;
      const row = await findApplication(tx, userId);
      const documents = await createDocumentStore(tx).listDocumentAnswers(userId);
      return { account, row, documents };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
  if (!read) return null;
  const { account, row, documents } = read;
  return {
    userId,
    email: account.email,
    version: row?.version ?? 0,
    answers: row ? readAnswers(row, encryptionKey) : {},
    addAnother: row?.addAnother ?? {},
    tabs: row?.tabs ?? {},
    documents,
    submittedAt: row?.submittedAt ?? null,
  };
}
