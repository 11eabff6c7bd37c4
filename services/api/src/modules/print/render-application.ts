// One application → its PDF: the view model (packages/answer-view, the same one the print view
// lays out), the cover, and every converted document appended under its question's label; the
// staff copy then ends with the received checklist items (issue #30), the applicant's never.
import { APPLICATION_DEFINITION, type PartnerConfig } from '@admissions/form';
import {
  buildAnswerView,
  formatApplicantName,
  type AnswerView,
  type ApplicationCover,
  type PdfChecklistItemInput,
  type PdfDocumentInput,
} from '@admissions/answer-view';
import type { Db } from '../../platform/db/connect';
import type { Clock } from '../../platform/lib/clock';
import type { StorageDriver } from '../../platform/storage/storage-driver';
import { readApplicationVersion } from '../application';
import { readReceivedItems } from '../checklist';
import { readCoverRound } from './cover-round';
import { readApplicationSnapshot, type ApplicationSnapshot } from './read-application';
import type { PdfAudience } from './pdf-store';

export type { PdfChecklistItemInput, PdfDocumentInput } from '@admissions/answer-view';

/**
 * `renderTaggedApplicationPdf` of `@admissions/answer-view/pdf`, or a stand-in in tests.
 * `checklist` is empty in the applicant's copy.
 */
export type PdfRenderer = (
  view: AnswerView,
  cover: ApplicationCover,
  documents: PdfDocumentInput[],
  checklist: PdfChecklistItemInput[],
) => Promise<Uint8Array>;

/** Lays out one application and also answers its page count (the export's index needs it). */
export type PageCountingRenderer = (
  view: AnswerView,
  cover: ApplicationCover,
  documents: PdfDocumentInput[],
  checklist: PdfChecklistItemInput[],
) => Promise<{ bytes: Uint8Array; pages: number }>;

/** Converted PDFs are small (1 MB uploads), but a docx can grow when laid out: a generous cap. */
const MAX_DOCUMENT_PDF_BYTES = 64 * 1024 * 1024;

export interface RenderDeps {
  db: Db;
  storage: StorageDriver;
  clock: Clock;
  partner: PartnerConfig;
  encryptionKey: Buffer;
  render: PdfRenderer;
}

export interface RenderedApplication {
  bytes: Uint8Array;
  /** The version of the application the PDF shows. */
  version: number;
  /** What it shows (for the audit): answer keys of its rows and document keys, no values. */
  shown: { answers: string[]; documents: string[] };
  snapshot: ApplicationSnapshot;
}

export class ApplicationChangingError extends Error {
  constructor() {
    super('the application kept changing while its PDF was being prepared');
    this.name = 'ApplicationChangingError';
  }
}

export function buildPrintView(
  snapshot: ApplicationSnapshot,
  partner: PartnerConfig,
  audience: PdfAudience,
): AnswerView {
  return buildAnswerView(APPLICATION_DEFINITION, snapshot.answers, {
    partner,
    addAnother: snapshot.addAnother,
    tabs: snapshot.tabs,
    documents: Object.fromEntries(
      snapshot.documents.map((d) => [
        d.answerKey,
        { file_name: d.fileName, file_size: d.fileSize },
      ]),
    ),
    audience,
    applicantCopy: audience === 'applicant',
  });
}

export function listShownKeys(view: AnswerView): RenderedApplication['shown'] {
  const answers = new Set<string>();
  for (const page of view.pages) {
    for (const section of page.sections) for (const row of section.rows) answers.add(row.key);
  }
  return { answers: [...answers], documents: view.documents.map((d) => d.key) };
}

/**
 * The staff copy's received checklist items, each converted PDF read from storage (parsed only in
 * the renderer's sandbox child); null when one is missing. Never read for the applicant's copy:
 * it is their copy of what they submitted, and a letter is written to the office — under the
 * FERPA waiver the applicant gave up reading it (print README).
 */
async function readChecklistItems(
  deps: RenderDeps,
  applicationId: string,
): Promise<PdfChecklistItemInput[] | null> {
  const items: PdfChecklistItemInput[] = [];
  for (const item of await readReceivedItems(deps.db, applicationId)) {
    const bytes = item.pdfKey ? await deps.storage.read(item.pdfKey, MAX_DOCUMENT_PDF_BYTES) : null;
    if (item.pdfKey && !bytes) return null;
    items.push({ title: item.title, details: item.details, text: item.text, bytes });
  }
  return items;
}

/**
 * Reads the application and its documents once, at one version (readApplicationSnapshot), then
 * renders. A change landing meanwhile does not matter (the PDF is recorded for the version it
 * shows, and the next request sees a newer one), except when it removed a document the snapshot
 * names: then the application is read again. The checklist items are read after the snapshot, so
 * they are never older than the version the PDF is recorded for.
 */
export async function renderApplication(
  deps: RenderDeps,
  applicationId: string,
  audience: PdfAudience,
): Promise<RenderedApplication> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const snapshot = await readApplicationSnapshot(deps.db, deps.encryptionKey, applicationId);
    if (!snapshot) throw new Error('no such application');
    const view = buildPrintView(snapshot, deps.partner, audience);
    const keys = new Map(snapshot.documents.map((d) => [d.answerKey, d.pdfKey]));
    const documents: PdfDocumentInput[] = [];
    let missing = false;
    for (const document of view.documents) {
      const key = keys.get(document.key);
      const bytes = key ? await deps.storage.read(key, MAX_DOCUMENT_PDF_BYTES) : null;
      if (!bytes) {
        missing = true;
        break;
      }
      documents.push({ title: document.label, bytes, fileName: document.fileName });
    }
    const checklist =
      audience === 'applicant' || missing ? [] : await readChecklistItems(deps, applicationId);
    if (missing || !checklist) {
      if ((await readApplicationVersion(deps.db, applicationId)) !== snapshot.version) continue;
      throw new Error(
        missing
          ? 'a converted document is missing from storage'
          : 'a checklist item’s document is missing from storage',
      );
    }
    // The staff and service copies name the round; the applicant knows which one they applied in.
    const round =
      audience === 'applicant'
        ? null
        : await readCoverRound(deps.db, deps.partner, snapshot.applicationId);
    const cover: ApplicationCover = {
      institution: deps.partner.schoolName,
      applicantName: formatApplicantName(snapshot.answers) || snapshot.email,
      applicationId: snapshot.applicationId,
      ...(round ? { round } : {}),
      // The student system's ID, for the office: not on the applicant's own copy.
      ...(audience !== 'applicant' && snapshot.externalId
        ? { externalId: snapshot.externalId }
        : {}),
      email: snapshot.email,
      submittedAt: snapshot.submittedAt?.toISOString() ?? null,
      generatedAt: deps.clock.now().toISOString(),
      listUntaggedDocuments: audience !== 'applicant',
    };
    const bytes = await deps.render(view, cover, documents, checklist);
    return { bytes, version: snapshot.version, shown: listShownKeys(view), snapshot };
  }
  throw new ApplicationChangingError();
}
