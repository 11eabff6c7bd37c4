// Word documents as applicants' Word writes them, and hostile ones, through the real converter
// and the real LibreOffice: each case is built in code and judged by what the applicant (the
// message) or staff (the PDF's text, read with pdftotext) would see.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { strFromU8, unzipSync } from 'fflate';
import { PDFBool, PDFDict, PDFDocument, PDFName } from 'pdf-lib';
import { DOCUMENT_MESSAGES, MAX_DOCUMENT_PAGES } from '@admissions/api-contract';
import type { OfficePool } from '../src/modules/documents/conversion/libreoffice/office-pool';
import { OfficeCrashedError } from '../src/modules/documents/conversion/libreoffice/office-process';
import type { DocumentConverter } from '../src/modules/documents/conversion/convert-document';
import { startConverterStack, type ConverterStack } from './support/converter-stack';
import { checkDocx, DOCX_NOTES } from '../src/modules/documents/conversion/check-docx';
import { DocumentRejectedError } from '../src/modules/documents/conversion/conversion-errors';
import {
  checkConvertedPageCount,
  convertCheckedDocx,
  DOCX_IMPORT_FILTER,
} from '../src/modules/documents/conversion/convert-docx';
import { buildMacroDocx, buildTwoPageDocx } from './support/document-fixtures';
import {
  buildChartDocx,
  buildCommentedDocx,
  buildCustomXmlDocx,
  buildDocxWithVbaProject,
  buildDoctypeDocx,
  buildEncryptedDocx,
  buildFootnotesDocx,
  buildHeaderFooterDocx,
  buildNestedTablesDocx,
  buildOleObjectDocx,
  buildPrefixedFieldDocx,
  buildSingleQuotedExternalImageDocx,
  buildSplitIncludePictureDocx,
  buildTemplateDocx,
  buildTrackedChangesDocx,
  buildWordPackage,
  truncate,
  wParagraph,
} from './support/docx-builder';
import { pdfPageCount, pdfStructureText, pdfText, processExists } from './support/pdf-inspect';
import { startLoopbackListener, type LoopbackListener } from './support/loopback-listener';
import { createUploadClient } from './support/upload-client';
import {
  primaryDriver,
  createTestRuntime,
  registerApplicant,
  type TestRuntime,
} from './support/test-runtime';

// The product's default (CONVERSION_TIMEOUT_MS): a one-shot soffice from a fresh profile takes
// about 5 s alone on the 2-core machine, and 8 s did not cover it beside the other suites.
const TIMEOUT_MS = 20_000;
const logger = pino({ level: 'silent' });

async function rejection(promise: Promise<unknown>): Promise<DocumentRejectedError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof DocumentRejectedError) return error;
    throw error;
  }
  throw new Error('expected the document to be rejected');
}

/** Collapses pdftotext's layout so words split over lines or columns still match. */
const textOf = (pdf: Uint8Array) => pdfText(pdf).replace(/\s+/g, ' ');

async function waitFor(check: () => boolean, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return check();
}

function refusal(bytes: Uint8Array): DocumentRejectedError {
  try {
    checkDocx(bytes);
  } catch (error) {
    if (error instanceof DocumentRejectedError) return error;
    throw error;
  }
  throw new Error('expected the document to be refused');
}

const field = (instruction: string, inner = '') =>
  `<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve">${instruction}</w:instrText></w:r>${inner}<w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>result</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r>`;

describe('the docx check (no LibreOffice)', () => {
  it('cuts a linking field nested in another field, or in a deleted instruction', () => {
    const handedOn = (body: string) =>
      strFromU8(unzipSync(checkDocx(buildWordPackage({ body })))['word/document.xml']!);
    const nested = `<w:p>${field(' IF 1 = 1 "', field(' INCLUDEPICTURE "/etc/passwd" '))}</w:p>`;
    const nestedXml = handedOn(nested);
    expect(nestedXml).not.toContain('/etc/passwd');
    // The outer field is an ordinary one: kept as written.
    expect(nestedXml).toContain('IF 1 = 1');
    const deleted = `<w:p><w:del w:id="1" w:author="a"><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:delInstrText> INCLUDETEXT "/etc/passwd" </w:delInstrText></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r></w:del></w:p>`;
    expect(handedOn(deleted)).not.toContain('/etc/passwd');
  });

  it('keeps ordinary fields and hyperlinks, whatever their text says', () => {
    const body = `<w:p>${field(' HYPERLINK "https://example.org/LINK/INCLUDETEXT" ')}${field(' PAGE ')}</w:p>`;
    const rels = `<Relationship Id='rIdH' Type='http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink' Target='https://example.org/' TargetMode='External'/>`;
    const files = unzipSync(checkDocx(buildWordPackage({ body, documentRels: rels })));
    expect(strFromU8(files['word/_rels/document.xml.rels']!)).toContain('https://example.org/');
  });

  it('hands LibreOffice a package without the template link, the chart workbook or the comments', () => {
    const template = unzipSync(checkDocx(buildTemplateDocx('http://127.0.0.1:9/Normal.dotm')));
    expect(strFromU8(template['word/_rels/settings.xml.rels']!)).not.toContain('attachedTemplate');
    const chart = unzipSync(checkDocx(buildChartDocx()));
    expect(Object.keys(chart).filter((n) => n.startsWith('word/embeddings/'))).toEqual([]);
    expect(chart['word/charts/chart1.xml']).toBeDefined();
    const commented = unzipSync(checkDocx(buildCommentedDocx()));
    expect(commented['word/comments.xml']).toBeUndefined();
    const documentXml = strFromU8(commented['word/document.xml']!);
    expect(documentXml).not.toMatch(/comment(Reference|RangeStart|RangeEnd)/);
    expect(documentXml).toContain('Reviewed sentence here.');
  });

  it('bounds nesting depth, tables and table nesting', () => {
    const deep =
      '<w:sdt><w:sdtContent>'.repeat(200) + '<w:p/>' + '</w:sdtContent></w:sdt>'.repeat(200);
    expect(refusal(buildWordPackage({ body: deep })).code).toBe('TOO_COMPLEX');
    const flat = '<w:tbl><w:tr><w:tc><w:p/></w:tc></w:tr></w:tbl><w:p/>'.repeat(1001);
    expect(refusal(buildWordPackage({ body: flat })).code).toBe('TOO_COMPLEX');
    expect(refusal(buildNestedTablesDocx(13)).code).toBe('TOO_COMPLEX');
    expect(() => checkDocx(buildNestedTablesDocx(3))).not.toThrow();
  });
});

describe('Word documents', () => {
  let pool: OfficePool;
  let converter: DocumentConverter;
  let stack: ConverterStack;

  beforeAll(async () => {
    stack = await startConverterStack({
      name: 'conversion-docx',
      timeoutMs: TIMEOUT_MS,
      recycleAfter: 50,
      logger,
    });
    ({ pool, converter } = stack);
  });
  afterAll(async () => {
    await stack.close();
  });

  describe('that Word writes in daily use convert', () => {
    it.each([
      [
        'comments (with commentsExtended and commentsIds)',
        buildCommentedDocx,
        ['My statement about commented engines.', 'Reviewed sentence here.'],
      ],
      ['tracked changes', buildTrackedChangesDocx, ['Tracked statement begins.', 'inserted words']],
      [
        'a native chart with its data workbook',
        buildChartDocx,
        ['Statement with a chart of grades.', 'Grades by year'],
      ],
      [
        'footnotes and endnotes',
        buildFootnotesDocx,
        ['Statement with a note.', 'Footnote source cited.', 'Endnote remark given.'],
      ],
      [
        'a header and a footer',
        buildHeaderFooterDocx,
        ['Body of the statement.', 'Running header text', 'Running footer text'],
      ],
      [
        'a template (attachedTemplate)',
        () => buildTemplateDocx('http://127.0.0.1:9/Resume.dotx'),
        ['Statement written from a template.'],
      ],
      [
        'a template named with single quotes',
        () => buildTemplateDocx('file:///etc/passwd', "'"),
        ['Statement written from a template.'],
      ],
    ] as const)('%s', async (_name, build, words) => {
      const { type, pdf } = await converter.convert({ bytes: build(), fileName: 'statement.docx' });
      expect(type).toBe('docx');
      const text = textOf(pdf);
      for (const word of words) expect(text).toContain(word);
    });

    it('comes out of LibreOffice tagged, its structure tree ready for the application PDF (#32)', async () => {
      const { pdf } = await converter.convert({
        bytes: buildTwoPageDocx(),
        fileName: 'statement.docx',
      });
      const doc = await PDFDocument.load(pdf, { updateMetadata: false });
      const markInfo = doc.catalog.lookupMaybe(PDFName.of('MarkInfo'), PDFDict);
      expect(markInfo?.get(PDFName.of('Marked'))).toBe(PDFBool.True);
      const root = doc.catalog.lookupMaybe(PDFName.of('StructTreeRoot'), PDFDict);
      expect(root?.get(PDFName.of('K'))).toBeDefined();
      expect(doc.getPages().every((page) => page.node.has(PDFName.of('StructParents')))).toBe(true);
    });

    it('keeps a note of what was left out as the tagged document’s first paragraph (#32)', async () => {
      const { pdf } = await converter.convert({
        bytes: buildSingleQuotedExternalImageDocx('http://127.0.0.1:9/picture.png'),
        fileName: 'statement.docx',
      });
      expect(textOf(pdf)).toContain(DOCX_NOTES.linkedPicture);
      const tree = pdfStructureText(pdf);
      // The note is read first, as text of the document's structure, then the statement.
      const quoted = [...tree.matchAll(/^\s*"(.*)"$/gm)].map((m) => m[1]);
      expect(quoted[0]).toBe(DOCX_NOTES.linkedPicture);
      expect(quoted.join(' ')).toContain('Statement with a linked picture.');
    });

    it('leaves reviewers’ comments out of the PDF (they are notes to the author, not the statement)', async () => {
      const { pdf } = await converter.convert({ bytes: buildCommentedDocx(), fileName: 'c.docx' });
      expect(textOf(pdf)).not.toContain('Margin remark from reviewer.');
    });
  });

  describe('a document that crashes LibreOffice', () => {
    it('replaces the crashed process at once, not at the next job', async () => {
      // Comments straight to the pool, past the checks that remove them: the Debian "nogui"
      // LibreOffice has no annotation.ui, and laying out the comment margin aborts the process.
      const before = pool.pids();
      expect(before).toHaveLength(1);
      await expect(pool.convert(buildCommentedDocx(), DOCX_IMPORT_FILTER)).rejects.toBeInstanceOf(
        OfficeCrashedError,
      );
      const replaced = await waitFor(() => {
        const now = pool.pids();
        return now.length === 1 && now[0] !== before[0];
      }, 30_000);
      expect(replaced).toBe(true);
      expect(processExists(before[0]!)).toBe(false);
    });

    it('is retried in a fresh process, then converted by a one-shot soffice', async () => {
      const pdf = await convertCheckedDocx(buildCommentedDocx(), pool, logger);
      expect(textOf(pdf)).toContain('Reviewed sentence here.');
      // The pool is whole again for the next document.
      const { pdf: next } = await converter.convert({
        bytes: buildTrackedChangesDocx(),
        fileName: 'next.docx',
      });
      expect(textOf(next)).toContain('Tracked statement begins.');
    });
  });

  describe('that links or embeds content converts without it (#27)', () => {
    it.each([
      [
        'an external image relationship in single quotes',
        () => buildSingleQuotedExternalImageDocx('file:///etc/passwd'),
        'Statement with a linked picture.',
      ],
      [
        'an INCLUDEPICTURE field split across runs (its last result stays)',
        () => buildSplitIncludePictureDocx('/etc/passwd'),
        'picture',
      ],
      [
        'an INCLUDETEXT w:fldSimple under another namespace prefix (its last result stays)',
        () => buildPrefixedFieldDocx('/etc/passwd'),
        'included',
      ],
      [
        'an embedded OLE object part that nothing in the text uses',
        () =>
          buildWordPackage({
            body: wParagraph('Statement beside an orphan object.'),
            binaries: { 'word/embeddings/oleObject1.bin': new Uint8Array([1, 2, 3]) },
          }),
        'Statement beside an orphan object.',
      ],
    ] as const)('%s', async (_name, build, words) => {
      const { pdf } = await converter.convert({ bytes: build(), fileName: 'x.docx' });
      const text = textOf(pdf);
      expect(text).toContain(words);
      expect(text).not.toContain('root:');
    });
  });

  describe('is refused with the reason', () => {
    it.each([
      ['a DOCTYPE with entities', buildDoctypeDocx, DOCUMENT_MESSAGES.unsafeContent],
      [
        'a macro-enabled document (.docm) renamed .docx',
        buildMacroDocx,
        DOCUMENT_MESSAGES.unsafeContent,
      ],
      [
        'a password (an encrypted compound file)',
        buildEncryptedDocx,
        DOCUMENT_MESSAGES.docxEncrypted,
      ],
      ['a zip cut short', () => truncate(buildChartDocx()), DOCUMENT_MESSAGES.unreadable],
    ] as const)('%s', async (_name, build, message) => {
      const error = await rejection(converter.convert({ bytes: build(), fileName: 'x.docx' }));
      expect(error.userMessage).toBe(message);
    });

    it('2,000 nested tables are refused before LibreOffice sees them', async () => {
      const nested = buildNestedTablesDocx(2000);
      expect(nested.length).toBeLessThan(2048);
      const pids = pool.pids();
      const error = await rejection(converter.convert({ bytes: nested, fileName: 'n.docx' }));
      expect(error.code).toBe('TOO_COMPLEX');
      expect(error.userMessage).toBe(DOCUMENT_MESSAGES.tooComplex);
      // The same LibreOffice process, never handed the file (no time-out kill).
      expect(pool.pids()).toEqual(pids);
    });

    it(`more than ${MAX_DOCUMENT_PAGES} pages after conversion`, async () => {
      const pages = Array.from({ length: MAX_DOCUMENT_PAGES + 1 }, (_, i) =>
        wParagraph(`Page ${i + 1}`),
      ).join('<w:p><w:r><w:br w:type="page"/></w:r></w:p>');
      const error = await rejection(
        converter.convert({ bytes: buildWordPackage({ body: pages }), fileName: 'long.docx' }),
      );
      expect(error.userMessage).toBe(DOCUMENT_MESSAGES.tooManyPages);

      const doc = await PDFDocument.create();
      for (let i = 0; i < MAX_DOCUMENT_PAGES; i++) doc.addPage();
      const limit = await doc.save();
      await expect(checkConvertedPageCount(limit)).resolves.toBe(MAX_DOCUMENT_PAGES);
      expect(pdfPageCount(limit)).toBe(MAX_DOCUMENT_PAGES);
      doc.addPage();
      const over = await rejection(checkConvertedPageCount(await doc.save()));
      expect(over.code).toBe('TOO_MANY_PAGES');
    });
  });

  describe('external content is never fetched', () => {
    let listener: LoopbackListener;
    let base: string;

    beforeAll(async () => {
      listener = await startLoopbackListener();
      base = listener.base;
    });
    afterAll(() => listener.close());

    it('the document converts and the listener gets no connection', async () => {
      const image = await converter.convert({
        bytes: buildSingleQuotedExternalImageDocx(`${base}/photo.png`),
        fileName: 'image.docx',
      });
      expect(textOf(image.pdf)).toContain('Statement with a linked picture.');
      const field = await converter.convert({
        bytes: buildSplitIncludePictureDocx(`${base}/field.png`),
        fileName: 'field.docx',
      });
      expect(textOf(field.pdf)).toContain('Statement with a field.');
      for (const quote of ['"', "'"] as const) {
        const { pdf } = await converter.convert({
          bytes: buildTemplateDocx(`${base}/Normal.dotm`, quote),
          fileName: 'template.docx',
        });
        expect(textOf(pdf)).toContain('Statement written from a template.');
      }
      // Give a late fetch (LibreOffice loads linked graphics asynchronously) time to arrive.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(listener.connections()).toBe(0);
    });
  });
});

describe.each(primaryDriver())('Word documents uploaded on %s', (driver) => {
  const DOC = 'personal_statement_doc';
  let t: TestRuntime;
  let client: ReturnType<typeof createUploadClient>;
  let listener: LoopbackListener;
  let counter = 0;

  beforeAll(async () => {
    listener = await startLoopbackListener();
    t = await createTestRuntime(driver, {
      CONVERSION_TIMEOUT_MS: String(TIMEOUT_MS),
      OFFICE_POOL_SIZE: '1',
      CONVERSION_CONCURRENCY: '1',
    });
    client = createUploadClient(t);
  });
  afterAll(async () => {
    await t.close();
    await listener.close();
  });

  it.each([
    [
      'a template-based document',
      () => buildTemplateDocx(`${listener.base}/Normal.dotm`),
      'COMPLETED',
      DOCUMENT_MESSAGES.completed,
    ],
    ['a document with comments', buildCommentedDocx, 'COMPLETED', DOCUMENT_MESSAGES.completed],
    [
      'a linked image',
      () => buildSingleQuotedExternalImageDocx(`${listener.base}/a.png`),
      'COMPLETED',
      DOCUMENT_MESSAGES.completed,
    ],
    [
      'an INCLUDEPICTURE field',
      () => buildSplitIncludePictureDocx(`${listener.base}/b.png`),
      'COMPLETED',
      DOCUMENT_MESSAGES.completed,
    ],
    [
      'an old equation object (#27)',
      () => buildOleObjectDocx('equation'),
      'COMPLETED',
      DOCUMENT_MESSAGES.completed,
    ],
    [
      'a .docx carrying a VBA project (#27)',
      buildDocxWithVbaProject,
      'COMPLETED',
      DOCUMENT_MESSAGES.completed,
    ],
    ['a custom XML part (#27)', buildCustomXmlDocx, 'COMPLETED', DOCUMENT_MESSAGES.completed],
    [
      'a password-protected document',
      buildEncryptedDocx,
      'FAILED',
      DOCUMENT_MESSAGES.docxEncrypted,
    ],
    [
      'a truncated document',
      () => truncate(buildChartDocx()),
      'FAILED',
      DOCUMENT_MESSAGES.unreadable,
    ],
  ] as const)('%s ends with its status and message', async (_name, build, status, message) => {
    const jar = await registerApplicant(t, `docx${++counter}.${driver}@example.org`);
    await client.upload(jar, DOC, 'statement.docx', build());
    expect(await client.waitForResult(jar, DOC, 60_000)).toMatchObject({ status, message });
    expect(listener.connections()).toBe(0);
  });
});
