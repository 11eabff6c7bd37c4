// --combined: every exported application in one PDF, in index order, with one top-level bookmark
// per applicant pointing at the first page of their application.
import type { PDFDict } from 'pdf-lib';
import { PDFDocument, PDFHexString, PDFName, PDFNull, PDFNumber, type PDFRef } from 'pdf-lib';

export interface CombinedEntry {
  title: string;
  read: () => Promise<Uint8Array>;
}

/**
 * pdf-lib has no outline API: the /Outlines dictionary is written directly (PDF 32000-1
 * §12.3.3), items as a doubly linked list under the root, /Count the number of visible items.
 * (The application PDF's own bookmarks are built the same way in packages/answer-view/src/pdf;
 * copied pages do not carry them along.)
 */
function setOutline(pdf: PDFDocument, entries: readonly { title: string; page: PDFRef }[]) {
  const { context, catalog } = pdf;
  const rootRef = context.nextRef();
  const itemRefs = entries.map(() => context.nextRef());
  entries.forEach((entry, i) => {
    const item = context.obj({
      Title: PDFHexString.fromText(entry.title),
      Parent: rootRef,
      Dest: [entry.page, 'XYZ', PDFNull, PDFNull, PDFNull],
    });
    if (i > 0) item.set(PDFName.of('Prev'), itemRefs[i - 1]!);
    if (i < entries.length - 1) item.set(PDFName.of('Next'), itemRefs[i + 1]!);
    context.assign(itemRefs[i]!, item);
  });
  const root = context.obj({ Type: 'Outlines' }) as PDFDict;
  if (entries.length > 0) {
    root.set(PDFName.of('First'), itemRefs[0]!);
    root.set(PDFName.of('Last'), itemRefs.at(-1)!);
  }
  root.set(PDFName.of('Count'), PDFNumber.of(entries.length));
  context.assign(rootRef, root);
  catalog.set(PDFName.of('Outlines'), rootRef);
  catalog.set(PDFName.of('PageMode'), PDFName.of('UseOutlines'));
}

export async function buildCombinedPdf(entries: readonly CombinedEntry[]): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setTitle('Applications');
  const outline: { title: string; page: PDFRef }[] = [];
  for (const entry of entries) {
    const source = await PDFDocument.load(await entry.read(), { updateMetadata: false });
    const pages = await pdf.copyPages(source, source.getPageIndices());
    if (pages.length === 0) continue;
    for (const page of pages) pdf.addPage(page);
    outline.push({ title: entry.title, page: pages[0]!.ref });
  }
  setOutline(pdf, outline);
  return pdf.save({ addDefaultPage: false });
}
