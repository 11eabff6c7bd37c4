// What the sandbox children run for documents: every step that parses, decodes or converts an
// applicant's upload. The converters stay pure functions of conversion/; this registry only names
// them for the child (platform/sandbox/sandbox-child.ts loads it by path, DOCUMENT_SANDBOX_TASKS).
import { checkDocx } from './conversion/check-docx';
import {
  checkUpload,
  type ConvertRequest,
  type ConvertUploadResult,
} from './conversion/convert-document';
import { checkConvertedPageCount } from './conversion/convert-docx';
import { convertJpeg, convertPng } from './conversion/convert-image';
import { convertPdf } from './conversion/convert-pdf';
import { renderDocumentPreview } from './conversion/render-preview';

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

export const SANDBOX_TASKS = {
  'convert-upload': convertUpload,
  'check-office-pdf': checkOfficePdf,
  'render-preview': renderDocumentPreview,
} as const;
