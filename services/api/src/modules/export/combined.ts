// --combined: every exported application in one PDF, in index order, with one top-level bookmark
// per applicant at the first page of their application; each applicant's own bookmarks (pages,
// sections, documents) are carried over beneath it, closed.
import type { OutlineNode } from '@admissions/answer-view/pdf-outline';

export interface CombinedEntry {
  title: string;
  read: () => Promise<Uint8Array>;
}

export async function buildCombinedPdf(entries: readonly CombinedEntry[]): Promise<Uint8Array> {
  // Loaded with the first combined PDF: a server start does not pay for pdf-lib (~0.1 s).
  const [{ PDFDocument, PDFName }, { appendOutline, readOutline }] = await Promise.all([
    import('pdf-lib'),
    import('@admissions/answer-view/pdf-outline'),
  ]);
  const pdf = await PDFDocument.create();
  pdf.setTitle('Applications');
  const outline: OutlineNode[] = [];
  for (const entry of entries) {
    const source = await PDFDocument.load(await entry.read(), { updateMetadata: false });
    const pages = await pdf.copyPages(source, source.getPageIndices());
    if (pages.length === 0) continue;
    for (const page of pages) pdf.addPage(page);
    const pageMap = new Map(source.getPages().map((p, i) => [p.ref, pages[i]!.ref] as const));
    // Closed: only the applicants show until one is opened.
    outline.push({
      title: entry.title,
      dest: { page: pages[0]!.ref },
      children: readOutline(source, pageMap),
      open: false,
    });
  }
  appendOutline(pdf, outline);
  pdf.catalog.set(PDFName.of('PageMode'), PDFName.of('UseOutlines'));
  return pdf.save({ addDefaultPage: false });
}
