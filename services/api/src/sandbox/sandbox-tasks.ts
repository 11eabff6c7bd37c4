// What the sandbox children run: every piece of work that parses, decodes, converts or renders
// an applicant's bytes. The converters stay pure functions of their own modules; this registry
// only names them for the child (sandbox-child.ts loads it by path).
import type { AnswerView, ApplicationCover } from '@admissions/answer-view';
import { PDFDocument } from 'pdf-lib';
import { checkDocx } from '../conversion/check-docx';
import { checkUpload, type ConvertRequest } from '../conversion/convert-document';
import { checkConvertedPageCount } from '../conversion/convert-docx';
import { convertJpeg, convertPng } from '../conversion/convert-image';
import { convertPdf } from '../conversion/convert-pdf';
import type { DocumentType } from '../conversion/detect-file-type';
import { renderApplicationPdf, warmPdfRenderer } from '../print/pdf-renderer';
import type { PdfDocumentInput } from '../print/render-application';

/**
 * The converted PDF, or null for a docx that passed its checks and now goes to LibreOffice as
 * `docxPackage` (the package the check cleaned).
 */
export interface ConvertUploadResult {
  type: DocumentType;
  pdf: Uint8Array | null;
  docxPackage?: Uint8Array;
}

export interface RenderApplicationInput {
  view: AnswerView;
  cover: ApplicationCover;
  documents: PdfDocumentInput[];
  /** The export also needs the page count, counted here where the bytes already are. */
  countPages: boolean;
}

export interface RenderApplicationResult {
  bytes: Uint8Array;
  pages: number | null;
}

async function convertUpload(request: ConvertRequest): Promise<ConvertUploadResult> {
  const type = checkUpload(request);
  switch (type) {
    case 'docx':
      return { type, pdf: null, docxPackage: checkDocx(request.bytes) };
    case 'png':
      return { type, pdf: await convertPng(request.bytes) };
    case 'jpeg':
      return { type, pdf: await convertJpeg(request.bytes) };
    case 'pdf':
      return { type, pdf: await convertPdf(request.bytes) };
  }
}

/** What LibreOffice made of a docx is held to the same page bound as an uploaded PDF. */
async function checkOfficePdf(bytes: Uint8Array): Promise<null> {
  await checkConvertedPageCount(bytes);
  return null;
}

async function renderApplicationTask(
  input: RenderApplicationInput,
): Promise<RenderApplicationResult> {
  const bytes = await renderApplicationPdf(input.view, input.cover, input.documents);
  const pages = input.countPages
    ? (await PDFDocument.load(bytes, { updateMetadata: false })).getPageCount()
    : null;
  return { bytes, pages };
}

export const SANDBOX_TASKS = {
  'convert-upload': convertUpload,
  'check-office-pdf': checkOfficePdf,
  'render-application': renderApplicationTask,
  'warm-pdf-renderer': async () => {
    await warmPdfRenderer();
    return null;
  },
} as const;

export type SandboxTaskName = keyof typeof SANDBOX_TASKS;
