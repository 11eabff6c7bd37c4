// Everything the print view and the PDF show about one applicant, read at one version of the
// application (applications.version moves with every change of answers, tabs, add-another counts
// and documents, so a cached rendering is current exactly when its version is).
import { eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/connect';
import { users } from '../auth';
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

/** null when the account does not exist; an account without answers reads as empty. */
export async function readApplicationSnapshot(
  db: Db,
  encryptionKey: Buffer,
  userId: string,
): Promise<ApplicationSnapshot | null> {
  const [user] = await db
    .select({ email: users.email })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  if (!user) return null;
  const row = await findApplication(db, userId);
  const documents = await createDocumentStore(db).listDocumentAnswers(userId);
  return {
    userId,
    email: user.email,
    version: row?.version ?? 0,
    answers: row ? readAnswers(row, encryptionKey) : {},
    addAnother: row?.addAnother ?? {},
    tabs: row?.tabs ?? {},
    documents,
    submittedAt: row?.submittedAt ?? null,
  };
}
