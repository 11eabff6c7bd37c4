// The plain view model behind both renderers (ARCHITECTURE.md): every formatting decision is made here,
// once, so the print view on screen and the application PDF cannot disagree. Renderers only lay out.
import type { PageId } from '@admissions/form';

/**
 * How a row is laid out. `long` rows (text areas, essays) take the full width and may flow across
 * pages; `check` rows show `[X]` or `[ ]` before the label; `document` rows name an uploaded file.
 */
export type AnswerRowKind = 'short' | 'long' | 'check' | 'document';

export interface AnswerRow {
  /** The answer key the row shows (for a month-year, the month key; for documents, the `*_doc` key). */
  key: string;
  label: string;
  /** Display text, already formatted: option label, date, `[X]`, "Name (CEEB 123456)", file "name (12.3 KB)". */
  value: string;
  kind: AnswerRowKind;
  /**
   * Set on the question of a document-or-essay tab group: the group's label ("Personal
   * Statement") and the label of the tab shown ("Type Your Response").
   */
  tab?: { group: string; tab: string };
}

export interface AnswerSectionView {
  /** Unique within the view: the definition's section id (which already carries the block number). */
  id: string;
  title: string;
  /**
   * Block n of an add-another group ("Parent 2"), when the section is one; `title` is the group's
   * ("Parents/Guardians"), the heading above its blocks (listSectionGroups).
   */
  block?: { group: string; index: number; title: string };
  /** Set when the section belongs to a tab group: the label of the chosen tab. */
  tab?: string;
  rows: readonly AnswerRow[];
}

export interface AnswerPageView {
  id: PageId;
  title: string;
  sections: readonly AnswerSectionView[];
}

export interface DocumentView {
  /** The file question's key (`*_doc`). */
  key: string;
  /** The question's label, used as the document's bookmark title in the PDF. */
  label: string;
  fileName: string;
  fileSize: number;
}

/** A converted document (its PDF) appended after the answers, under its own bookmark. */
export interface PdfDocumentInput {
  /** The bookmark's title: the question's label (DocumentView.label). */
  title: string;
  bytes: Uint8Array;
  /**
   * The uploaded file's name. A converted image (.jpg, .jpeg, .png: one untagged page holding the
   * picture) is tagged in the tagged PDF as a Figure whose alternative text names the question and
   * the file.
   */
  fileName?: string;
}

/**
 * A received checklist item (issue #30: a recommender's letter, a file the office asked for) at
 * the end of the staff PDF: a section of its own, after the appended documents, opened by an H1
 * and a top-level bookmark of its title, its details as a table, then the letter — typed text as
 * paragraphs, or a converted PDF's pages. Never in the applicant's copy.
 */
export interface PdfChecklistItemInput {
  /** The section's heading and bookmark: "Recommendation — <name>", or the request's title. */
  title: string;
  /** Label and value rows shown first (who wrote it, when it came, …). */
  details: readonly { label: string; value: string }[];
  /** A letter typed into the form, set as paragraphs after the details. */
  text?: string | null;
  /** The converted PDF (a letter, a requested file): its pages follow the details. */
  bytes?: Uint8Array | null;
}

export interface AnswerView {
  pages: readonly AnswerPageView[];
  /** Converted documents in definition order, as the PDF appends them. */
  documents: readonly DocumentView[];
}

/** The PDF's cover: who and which application (the print view shows the same in its heading). */
export interface ApplicationCover {
  /** The institution the application is made to (the partner's school name), top of the cover. */
  institution?: string;
  applicantName: string;
  applicationId: string;
  /**
   * Staff PDF: the admission round the application belongs to, its name and entry term
   * ("Early Action, Fall 2027"; docs/rounds.md).
   */
  round?: string;
  /** Staff PDF: the student information system's ID of the application, once it came back. */
  externalId?: string;
  email?: string;
  /** ISO timestamp, or null while the application is not submitted. */
  submittedAt: string | null;
  /** ISO timestamp of when the copy was produced. */
  generatedAt: string;
  /**
   * Staff PDF: the cover names each appended document whose author did not tag it (the tagged
   * renderer fills `untaggedDocuments` in from the documents themselves).
   */
  listUntaggedDocuments?: boolean;
  untaggedDocuments?: readonly string[];
}
